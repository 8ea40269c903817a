package contracttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"referee/contract"
)

// CheckGuide checks a game's players' guide as every game's test does: each
// line fits 72 columns (a mail reader's), each verb is shown, and every test
// the guide names as its evidence is a test of the package (read from the
// *_test.go files of the working directory, the package's).
//
// A verb is shown when shown says so; with shown nil, when every form of its
// syntax (a line of it, or a part between " / ") is in the guide.
func CheckGuide(t testing.TB, g contract.Game, shown func(v *contract.Verb, guide string) bool) {
	t.Helper()
	guide := g.Spec().Guide
	for i, l := range strings.Split(guide, "\n") {
		if n := utf8.RuneCountInString(l); n > 72 {
			t.Errorf("%s guide line %d is %d columns, over 72: %q", g.Spec().ID, i+1, n, l)
		}
	}
	flat := flatten(guide)
	for _, v := range g.Verbs() {
		if shown != nil {
			if !shown(v, guide) {
				t.Errorf("the %s guide does not show verb %s (%s)", g.Spec().ID, v.Name, v.Syntax)
			}
			continue
		}
		for _, form := range syntaxForms(v.Syntax) {
			if !strings.Contains(flat, form) {
				t.Errorf("the %s guide lacks the syntax %q of verb %s", g.Spec().ID, form, v.Name)
			}
		}
	}
	tests := testNames()
	for _, m := range regexp.MustCompile(`\b((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)`).FindAllString(guide, -1) {
		if !tests[m] {
			t.Errorf("the %s guide names %s, which is not a test of its package", g.Spec().ID, m)
		}
	}
}

// syntaxForms are the forms of a verb's syntax, whitespace flattened.
func syntaxForms(syntax string) []string {
	var out []string
	for _, line := range strings.Split(syntax, "\n") {
		if strings.TrimSpace(line) == "---" {
			continue
		}
		for _, form := range strings.Split(line, " / ") {
			if f := flatten(form); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

func flatten(s string) string { return strings.Join(strings.Fields(s), " ") }

// testNames are the Test, Benchmark and Fuzz functions of the package in the
// working directory.
func testNames() map[string]bool {
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
}
