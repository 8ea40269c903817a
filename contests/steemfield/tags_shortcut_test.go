package steemfield

import (
	"strings"
	"testing"
)

// checkNoBraceNoTag fails when a text without "{" has tags: Extract
// takes such a text for one without, unread.
func checkNoBraceNoTag(t *testing.T, s string) {
	t.Helper()
	if strings.IndexByte(s, '{') >= 0 {
		s = strings.ReplaceAll(s, "{", "")
	}
	if acts := extractTags(s); len(acts) > 0 {
		t.Errorf("%q has no \"{\", and %d tags: the first %q", s, len(acts), acts[0].Line)
	}
}

// TestNoBraceNoTag: the texts of TestExtract and FuzzExtract's seeds,
// their braces taken out, have no tag.
func TestNoBraceNoTag(t *testing.T) {
	for _, s := range noBraceSeeds {
		checkNoBraceNoTag(t, s)
	}
}

var noBraceSeeds = []string{"{YES}\nBecause the cap is too low.", "I say { no } to this", "---\n{PROPOSAL:ADDITION}\nAddition\nx\n---",
	`{GIFT_3_LAND_TO:"a"}`, "{PLACE: L(1, 1)}", "---\n{proposal", "{DELEGATE: 1.5}", "YES}", "---\nPROPOSAL:ADDITION}\n---", "\uff5bYES}"}

func FuzzNoBraceNoTag(f *testing.F) {
	for _, s := range noBraceSeeds {
		f.Add(s)
	}
	f.Fuzz(checkNoBraceNoTag)
}
