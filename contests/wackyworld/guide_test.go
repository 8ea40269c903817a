package wackyworld

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"referee/contract"
)

var exampleRE = regexp.MustCompile(`^\s+I (.+?)\.?$`)
var trailingRef = regexp.MustCompile(`(?i)\s+(?:in\s+|to\s+)?(?:the\s+)?wacky world(?:\s+contract)?$`)

// TestGuide: the guide fits mail (72 columns) and shows, for every verb of the
// table, an example that the verb's own pattern reads.
func TestGuide(t *testing.T) {
	g := New()
	lines := strings.Split(g.Guide(), "\n")
	for i, l := range lines {
		if utf8.RuneCountInString(l) > 72 {
			t.Errorf("guide line %d is over 72 columns: %q", i+1, l)
		}
	}
	var examples []string
	for _, l := range lines {
		if m := exampleRE.FindStringSubmatch(l); m != nil {
			ex := m[1]
			if j := strings.Index(ex, "  "); j > 0 {
				ex = ex[:j] // drop a trailing comment
			}
			ex = strings.TrimSuffix(strings.TrimSpace(ex), ".")
			examples = append(examples, trailingRef.ReplaceAllString(ex, ""))
		}
	}
	for _, v := range g.Verbs() {
		re := regexp.MustCompile(`(?i)^(?:` + v.Pattern + `)$`)
		found := false
		for _, ex := range examples {
			ex = strings.TrimPrefix(ex, "intend, without 3 objections, to ")
			if re.MatchString(ex) {
				found = true
			}
		}
		if !found {
			t.Errorf("the guide has no example of verb %q (%s)", v.Name, v.Syntax)
		}
	}
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
