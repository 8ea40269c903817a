package contract_test

import (
	"fmt"
	"testing"
)

// TestTextWithC1Controls: a text written double-quoted (it begins with a
// line break) that holds a C1 control character, U+0080 to U+009F, which
// YAML does not allow unescaped, is saved and loaded back whole.
func TestTextWithC1Controls(t *testing.T) {
	for _, r := range []rune{0x80, 0x9f} {
		t.Run(fmt.Sprintf("U+%04X", r), func(t *testing.T) {
			checkTextRoundTrip(t, textState(t, "\n"+string(r)+"a\nb"))
		})
	}
}
