package contract_test

import (
	"strings"
	"testing"
)

// TestBlankLineEndsASentence: a blank line ends the sentence before it
// even where no stop does, so words after it are not read as part of the
// action above.
func TestBlankLineEndsASentence(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game\n\nSee you all")
	if r == nil {
		t.Fatal("no receipt")
	}
	for _, want := range []string{"> I join the Toy game\n", "Done: you joined Toy with 5 coins", "1 done, 0 not done."} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
		}
	}
}
