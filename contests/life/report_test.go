package life

import (
	"strings"
	"testing"
)

// The weekly report (issue): contestants with Vials and Cells, the contest's
// Vials, the parameters, and the grid drawn as (Ymax-Ymin+1) rows of
// (Xmax-Xmin+1) characters, top row Ymax, '.' for Dead, a letter per
// Controller given in the legend, with rulers.
func TestReportGrid(t *testing.T) {
	h := join3(t)
	h.Public("2026-11-10T11:00:00Z", alice, "I claim cells (0, 50), (50, 0) in Life.")
	h.Public("2026-11-10T11:00:00Z", bob, "I claim cell (12, 34) in Life.")
	n, err := h.E.Report(h.S, ID, h.S.Clock)
	if err != nil {
		t.Fatal(err)
	}
	if n.Subject != "[Life] Weekly Report" || n.Channel != "official" || n.Kind != "report" {
		t.Errorf("notice %q on %s (%s)", n.Subject, n.Channel, n.Kind)
	}
	lines := strings.Split(n.Body, "\n")
	rows := map[string]string{}
	first := -1
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == f[2] && len(f[1]) == 51 {
			rows[f[0]] = f[1]
			if first < 0 {
				first = i
			}
		}
	}
	if len(rows) != 51 {
		t.Fatalf("%d grid rows, want 51:\n%s", len(rows), n.Body)
	}
	if !strings.HasPrefix(strings.TrimSpace(lines[first]), "50 ") {
		t.Errorf("the top row is %q, want Ymax = 50", lines[first])
	}
	check := func(y string, x int, want byte) {
		if got := rows[y][x]; got != want {
			t.Errorf("cell (%d, %s) drawn %q, want %q", x, y, got, want)
		}
	}
	check("50", 0, 'A')
	check("0", 50, 'A')
	check("34", 12, 'B')
	check("34", 13, '.')
	for _, want := range []string{"Legend:", "  A  Alice", "  B  Bob", "The contest owns 3 Vials.",
		"Alice       A         8      2", "VPP     10", "R21     amended", "Recent events", "Randomness (G5)"} {
		if !strings.Contains(n.Body, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(n.Body, "  C  Carol") {
		t.Errorf("the legend names Carol, who Controls nothing")
	}
}
