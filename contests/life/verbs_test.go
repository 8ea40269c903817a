package life

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Lenient wording: the forms players write reach the right verb.
func TestVerbWording(t *testing.T) {
	tests := []struct{ text, verb string }{
		{"I join the Life contest.", "join"},
		{"I hereby join Life.", "join"},
		{"I become a contestant of Life.", "join"},
		{"I register as a contestant in the Life contest.", "join"},
		{"I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (12, 34).", "claim"},
		{"I transfer one Vial to the Life contest in order to claim cell (1,2).", "claim"},
		{"I pay a Vial to take control of cell (3, 4) in Life.", "claim"},
		{"I claim cell (12,34) in Life.", "claim"},
		{"I take control of cells (5, 5) and (6, 6) in Life.", "claim"},
		{"I transfer 2 Vials of Primordial Ooze to Bob.", "transfer"},
		{"I transfer 1 Vial to the Life contest.", "transfer"},
		{"I consent to Suggestion #1 in Life.", "consent"},
		{"I vote consent on suggestion 1 in Life.", "consent"},
		{"I consent to become the contestmaster of Life.", "volunteer"},
		{"I leave the Life contest.", "leave"},
	}
	for _, tc := range tests {
		h := join3(t)
		h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET VPP = 11")
		n := len(h.Entries)
		h.Public("2026-11-10T12:00:00Z", alice, tc.text)
		var got []string
		for _, e := range h.Entries[n:] {
			if e.Verb != "" {
				got = append(got, e.Verb)
			}
		}
		if len(got) != 1 || got[0] != tc.verb {
			t.Errorf("%q performed %v, want [%s]", tc.text, got, tc.verb)
		}
	}
}

// The guide lists every verb's syntax and HELP line, and every test it names
// exists.
func TestGuideCoversVerbsAndTests(t *testing.T) {
	g := flat(New().Guide())
	for _, v := range New().Verbs() {
		for _, form := range strings.Split(v.Syntax, " / ") {
			if !strings.Contains(g, flat(form)) {
				t.Errorf("the guide lacks the syntax %q of verb %s", form, v.Name)
			}
		}
	}
	for _, m := range regexp.MustCompile(`\b(Test[A-Za-z0-9_]+|Benchmark[A-Za-z0-9_]+)`).FindAllString(g, -1) {
		if !testNames[m] {
			t.Errorf("the guide names %s, which is not a test of this package", m)
		}
	}
	for _, l := range strings.Split(New().Guide(), "\n") {
		if len([]rune(l)) > 72 {
			t.Errorf("guide line longer than 72 columns: %q", l)
		}
	}
}

// testNames are the Test and Benchmark functions of this package's files.
var testNames = func() map[string]bool {
	out := map[string]bool{}
	files, _ := filepath.Glob("*_test.go")
	re := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)\w+)\(`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out[m[1]] = true
		}
	}
	return out
}()
