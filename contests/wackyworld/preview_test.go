package wackyworld

import (
	"strings"
	"testing"
)

// A preview of a join does not tell the random tile the party would stand
// on, nor the tile made Fertile (W4, Wacky 5): the join sent for real draws
// the same ones from the week's seed (G5). Nothing joined.
func TestPreviewHidesTheJoinsTiles(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	r := h.H.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "preview\nI join Wacky World.\nI search in Wacky World.")
	body := strings.Join(strings.Fields(r.Body), " ")
	for _, want := range []string{"> I join Wacky World. Done: with a random draw, whose outcome a preview does not show",
		"> I search in Wacky World. Not done: not previewed: it comes after a random draw"} {
		if !strings.Contains(body, want) {
			t.Errorf("preview lacks %q:\n%s", want, r.Body)
		}
	}
	if strings.Contains(r.Body, "located at") || strings.Contains(r.Body, "Fertile") || strings.Contains(r.Body, "you searched") {
		t.Errorf("the preview tells a drawn tile:\n%s", r.Body)
	}
	if len(h.data().Parties) != 0 {
		t.Errorf("the preview joined: %+v", h.data().Parties)
	}
}
