package lazyre

import (
	"regexp"
	"testing"
)

// A bad expression panics at the first call, as regexp.MustCompile would
// have at the start, and not before.
func TestBadExpressionPanicsAtFirstCall(t *testing.T) {
	re := MustCompile(`(`)
	defer func() {
		if recover() == nil {
			t.Error("a bad expression's first call did not panic")
		}
	}()
	re()
}

// Every call returns the same compiled expression, the one regexp.Compile
// makes of the text.
func TestSameExpressionEveryCall(t *testing.T) {
	re := MustCompile(`(?i)^a+b`)
	first := re()
	if second := re(); first != second {
		t.Errorf("the second call returned another *regexp.Regexp (%p, %p)", first, second)
	}
	want := regexp.MustCompile(`(?i)^a+b`)
	if first.String() != want.String() || !first.MatchString("AAb") || first.MatchString("b") {
		t.Errorf("compiled %q, which does not match as %q does", first, want)
	}
}
