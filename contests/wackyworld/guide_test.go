package wackyworld

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

var exampleRE = regexp.MustCompile(`^\s+I (.+?)\.?$`)
var trailingRef = regexp.MustCompile(`(?i)\s+(?:in\s+|to\s+)?(?:the\s+)?wacky world(?:\s+contract)?$`)

// TestGuide: the guide fits mail (72 columns) and shows, for every verb of the
// table, an example that the verb's own pattern reads.
func TestGuide(t *testing.T) {
	contracttest.CheckGuide(t, New(), hasExample)
}

// hasExample: the guide shows an example that the verb's own pattern reads.
func hasExample(v *contract.Verb, guide string) bool {
	re := regexp.MustCompile(`(?i)^(?:` + v.Pattern + `)$`)
	for _, l := range strings.Split(guide, "\n") {
		m := exampleRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		ex := m[1]
		if j := strings.Index(ex, "  "); j > 0 {
			ex = ex[:j] // drop a trailing comment
		}
		ex = strings.TrimSuffix(strings.TrimSpace(ex), ".")
		ex = trailingRef.ReplaceAllString(ex, "")
		ex = strings.TrimPrefix(ex, "intend, without 3 objections, to ")
		if re.MatchString(ex) {
			return true
		}
	}
	return false
}

// TestReport: the weekly report's layout (golden), with a party on a shared
// tile, a public asset and a medal whose tile stays hidden.
func TestReport(t *testing.T) {
	h := world(t)
	h.public("2026-12-01T10:30:00Z", carol, "I join Wacky World.")
	h.place(cAddr, 5, 5)
	h.terrain(`0,0="`, "15,15=#", `7,7="`)
	h.public("2026-12-01T11:00:00Z", bob, "I drop a lantern in Wacky World.")
	h.send("2026-12-01T11:30:00Z", "Atlas <"+cm+">", "I create a medal in Wacky World.", contract.ChanPublic)
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Subject != "[Atlas] Weekly Report" || rep.Channel != contract.ChanOfficial || rep.Kind != "report" {
		t.Errorf("report notice %q on %s (%s)", rep.Subject, rep.Channel, rep.Kind)
	}
	for _, want := range []string{"The World is 16 by 16", " 5 .....*", "lantern (#1)  Bob", "1 more asset lies"} {
		if !strings.Contains(rep.Body, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(rep.Body, h.data().Assets[1].At.String()) {
		t.Errorf("report names the medal's tile")
	}
	golden(t, "testdata/report.golden", rep.Body)
}

// TestCitations: every "Wacky <n>" and "Wacky <n><letter>" in the package,
// and every further one of a list ("Wacky 1, 5"), names a section or a
// paragraph of contract.txt, and every ruling it cites is one of
// docs/rulings.md.
func TestCitations(t *testing.T) {
	b, err := os.ReadFile("contract.txt")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	section := ""
	for _, l := range strings.Split(string(b), "\n") {
		if m := regexp.MustCompile(`^(\d+)\. [A-Z]`).FindStringSubmatch(l); m != nil {
			section = m[1]
			known[section] = true
		} else if m := regexp.MustCompile(`^([a-z])\. [A-Z]`).FindStringSubmatch(l); m != nil && section != "" {
			known[section+m[1]] = true
		}
	}
	contracttest.CheckCitations(t, regexp.MustCompile(`\bWacky (\d+[a-z]?)((?:,? (?:and )?\d+[a-z]?)*)\b`), known)
}
