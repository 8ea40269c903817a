package steemfield

import (
	"regexp"
	"strings"
	"testing"
)

// rolled is the number a receipt says was rolled.
var rolled = regexp.MustCompile(`you rolled (\d)`)

// A preview of {ROLL} does not show the roll: the same roll sent for real
// draws the same value from the week's seed (G5, S12), so a player who saw
// it could roll only when it suits em. The roll is said to be done with a
// draw not shown, a placement after it in the same message is not
// previewed, and the roll sent for real then draws its value.
func TestPreviewHidesTheRoll(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	r := reply(t, h, "2026-12-01T11:00:00Z", players[0], "preview\n{ROLL}\n{PLACE: L(3, 4)}", r1)
	mustContain(t, r, "Preview: nothing was performed",
		"> {ROLL} Done: with a random draw, whose outcome a preview does not show",
		"> {PLACE: L(3, 4)} Not done: not previewed: it comes after a random draw")
	if m := rolled.FindString(r.Body); m != "" || strings.Contains(r.Body, "return up to") {
		t.Errorf("the preview tells the roll (%q):\n%s", m, r.Body)
	}
	if m := data0(h).member("Alice"); m == nil || m.OwnRoll != 0 {
		t.Fatalf("the preview rolled: %+v", m)
	}
	r = reply(t, h, "2026-12-01T11:01:00Z", players[0], "{ROLL}", r1)
	if rolled.FindString(r.Body) == "" {
		t.Errorf("the roll sent for real does not say what was rolled:\n%s", r.Body)
	}
}
