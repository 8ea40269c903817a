package wackyworld

import (
	"strings"
	"testing"
)

// TestRenameMidGame: a party who changes eir name during the game is the
// party e was, under the new name: the game keeps parties and donors by
// address, and the x-points and the score are the interpreter's, renamed
// with em. After "I change my name to Alys", Alice's next turn's building
// spends her x-point, the hat she dropped earns Alys the donor's y-points
// when Bob picks it up, and the report's parties and map name Alys alone.
func TestRenameMidGame(t *testing.T) {
	h := world(t)
	mint(h, "Alice", 1)
	if r := h.public("2026-12-01T11:00:00Z", alice, "I drop my red hat in Wacky World."); !done(r) {
		t.Fatalf("drop: %v", r)
	}
	if r := h.public("2026-12-01T11:10:00Z", alice, "I change my name to Alys."); !done(r) {
		t.Fatalf("the change of name: %v", r)
	}
	h.advance("2026-12-07T00:00:00Z")
	if r := h.public("2026-12-07T01:00:00Z", alice, "I build a wall to the east in Wacky World."); !done(r) {
		t.Fatalf("building after the change of name: %v", r)
	}
	if got := h.s.Ledger.Balance(XPoint, "Alys"); got != 0 {
		t.Errorf("Alys has %d x-points after building, want 0", got)
	}
	h.place(bAddr, 5, 5)
	if r := h.public("2026-12-07T02:00:00Z", bob, "I pick up the red hat in Wacky World."); !done(r) {
		t.Fatalf("pick up: %v", r)
	}
	if got := h.s.Score("Alys", ID); got != 2 {
		t.Errorf("Alys's score is %d, want the donor's 2 y-points (Wacky 6c)", got)
	}
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-07T03:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if got := partyRow(rep.Body, "Alys"); got != "0 2 2" {
		t.Errorf("the report's row of Alys ends %q, want \"0 2 2\":\n%s", got, rep.Body)
	}
	if partyRow(rep.Body, "Alice") != "" || !strings.Contains(rep.Body, "A  Alys") {
		t.Errorf("the report's parties or map legend still name Alice:\n%s", rep.Body)
	}
}
