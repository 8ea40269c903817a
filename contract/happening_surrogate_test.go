package contract

import (
	"testing"
	"time"
)

// TestSurrogateBytesGoToTheEncoder: the bytes of a UTF-16 surrogate
// written as UTF-8 (U+D800 to U+DFFF, which valid UTF-8 never holds) are
// no character written by hand: a recent event holding them goes to the
// YAML encoder, as the bytes of any text that is not UTF-8.
func TestSurrogateBytesGoToTheEncoder(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 4, 5, 0, time.UTC)
	for _, s := range []string{"\xed\xa0\x80", "\xed\xbf\xbf", "Cell \xed\xa0\x80 (1, 2)", "Zoë\xed\xb2\x80"} {
		for _, ev := range []Happening{{Time: at, Who: "Alice", What: s}, {Time: at, Who: s, What: "joins"}} {
			if b, ok := happeningItem(ev); ok {
				t.Errorf("%q, %q written by hand:\n%s", ev.Who, ev.What, b)
			}
		}
	}
}
