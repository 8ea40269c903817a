package life

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestRenameMidGame: a contestant who changes eir name during the contest
// is the contestant e was, under the new name: the game keeps Cells and
// consents by address, and the Vials and points are the interpreter's,
// renamed with em. After "I change my name to Alys", Alice's Cells are
// still hers through the Round (the report shows them as hers), Vials can be transferred to Alys and spent
// by her, her consent to a suggestion counts, and the report and the
// Change of Regulations notice name Alys.
func TestRenameMidGame(t *testing.T) {
	h := join3(t)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I claim cells (10, 10), (11, 10) and (12, 10) in Life."), "Done")
	done(t, h.Public("2026-11-10T11:10:00Z", alice, "I change my name to Alys."), "you are now known as Alys (before: Alice)")
	had := balance(h, "Alys")
	done(t, h.Public("2026-11-10T11:20:00Z", bob, "I transfer 1 Vial of Primordial Ooze to Alys."), "moved from Bob to Alys")
	done(t, h.Public("2026-11-10T11:30:00Z", alice, "I claim cell (30, 30) in Life."), "Done")
	if got := balance(h, "Alys"); got != had {
		t.Errorf("Alys owns %d Vials, want %d (one received, one spent)", got, had)
	}
	h.Public("2026-11-10T12:00:00Z", bob, "I suggest: SET VCFmax = 9")
	for _, p := range []string{alice, bob, carol} {
		done(t, h.Public("2026-11-10T12:10:00Z", p, "I consent to Suggestion #1 in Life."), "Done")
	}
	done(t, h.Public("2026-11-10T12:20:00Z", cm, "I consent to Suggestion #1 in Life."), "is adopted")
	body := sentBody(h, "Life Contest - Change of Regulations")
	if !strings.Contains(body, "Alys : consent") || strings.Contains(body, "Alice") {
		t.Errorf("the notice does not count Alys's consent under her name:\n%s", body)
	}
	h.Advance("2026-11-16T00:00:00Z")
	// Two Generations: the blinker is back where it was; (30, 30) died.
	if got := cellsOf(h, aliceAddr); got != "10,10 11,10 12,10" {
		t.Errorf("Alys's Cells after the Round = %q, want the blinker 10,10 11,10 12,10", got)
	}
	rep, err := h.E.Report(h.S, ID, contracttest.At(t, "2026-11-16T01:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	b := flat(rep.Body)
	if want := fmt.Sprintf("Alys A %d 3 2026-11-10 (Tue)", balance(h, "Alys")); !strings.Contains(b, want) || !strings.Contains(b, "Legend: A Alys") {
		t.Errorf("the report lacks %q or Alys in the legend:\n%s", want, rep.Body)
	}
}
