package contract_test

import (
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestPrivateVerbNotUnderstood: a private mail to the referee from a player
// or the contestmaster whose sentence begins as a verb's form does but does
// not read as it ("I score lots of points", "I rename the game to Big
// Banana") is answered "not understood" with the nearest form, as a sentence
// naming its game is; it got no reply. A private letter of talk, a public
// mail and a private mail from a stranger stay unanswered, as any
// sentence naming no game is.
func TestPrivateVerbNotUnderstood(t *testing.T) {
	h := joined(t)
	for _, c := range []struct{ from, text, want string }{
		{alice, "I score lots of points.", `Not done: not understood; the nearest form is: I score N points in Toy (send "help toy" for all)`},
		{contracttest.Contestmaster, "I rename the game to Big Banana, please.", `Not done: not understood; the nearest form is: I rename the game to <name> in Toy`},
	} {
		r := h.Private("2026-12-01T11:00:00Z", c.from, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("private %q from %s: want %q in\n%v", c.text, c.from, c.want, r)
		}
	}
	for _, c := range []struct{ from, text string }{
		{alice, "Hello, how are you? I wonder what happens next."},
		{"Zed <zed@example.test>", "I score lots of points."},
	} {
		if r := h.Private("2026-12-01T11:01:00Z", c.from, c.text); r != nil {
			t.Errorf("private %q from %s was answered:\n%s", c.text, c.from, r.Body)
		}
	}
	if r := h.Public("2026-12-01T11:02:00Z", alice, "I score lots of points."); r != nil {
		t.Errorf("a public sentence naming no game was answered:\n%s", r.Body)
	}
}
