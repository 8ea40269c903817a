package web

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
)

var holdingRE = regexp.MustCompile(`<tr data-name="[^"]*"><td>([^<]*)</td><td>(-?\d+)</td><td>(\d+)</td></tr>`)

// TestLifeStandingsShowVialsAndCells: the Life page's standings give each
// contestant's Vials and the number of Cells e Controls, in joining order,
// as the report's table of contestants does, and the contest's Vials: a
// player deciding which Cell to take sees what each holds. They listed the
// contestants' names alone.
func TestLifeStandingsShowVialsAndCells(t *testing.T) {
	h := scenario(t)
	p := get(t, serve(t, h, nil), "/game/life", 200)
	_, standings, ok := strings.Cut(p, `<section id="standings">`)
	standings, _, _ = strings.Cut(standings, "</section>")
	if !ok || !strings.Contains(standings, "<th>Contestant</th><th>Vials</th><th>Cells</th>") {
		t.Fatalf("the standings have no table of Vials and Cells:\n%s", standings)
	}
	st := h.Data("life").(*life.State)
	var want, got []string
	for _, m := range h.S.Members("life") {
		want = append(want, fmt.Sprintf("%s %d %d", m.Name, h.S.Ledger.Balance(life.Vial, m.Name), len(strings.Fields(st.Cells[m.Address()]))))
	}
	for _, m := range holdingRE.FindAllStringSubmatch(standings, -1) {
		got = append(got, unescape(m[1])+" "+m[2]+" "+m[3])
	}
	if len(want) < 2 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the standings show (name, Vials, Cells)\n%s\nwant the state's\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	contest := h.S.Ledger.Balance(life.Vial, contract.ContestEntity("life"))
	if line := fmt.Sprintf("The contest owns %d Vial", contest); !strings.Contains(standings, line) {
		t.Errorf("the standings lack %q:\n%s", line, standings)
	}
}
