package contracttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rulingCite matches a citation of a ruling of docs/rulings.md ("G4",
// "ruling L5", "U3"), not a word that merely looks like one: a Life rule
// "B3/S23" or a week "2026-W50" is preceded or followed by a slash or a dash.
var rulingCite = regexp.MustCompile(`(?:^|[^\w/-])([GLSUW]\d+)\b`)

// rulingHead matches a ruling's entry in docs/rulings.md: "- **G4 Where".
var rulingHead = regexp.MustCompile(`(?m)^- \*\*([GLSUW]\d+)\b`)

// listRef matches each further reference of a list ("5" and "8" in
// "Rumble 2, 5, 8", "13" in "Life R9, R13").
var listRef = regexp.MustCompile(`\d+[a-z]?`)

// CheckCitations checks that every citation in the Go files of the working
// directory names a rule or ruling that exists: the package's code, not its
// tests, which cite missing rules on purpose.
//
// A citation of the game's rules (a `Rule:` string, a `// Life R16` comment)
// is what cite matches: its first group the rule's reference ("16"), which
// known must hold; a second group, when cite has one, a list of further
// references of the same rule text ("9, R13" of "Life R2, R9, R13"), each of
// which known must hold too. cite may be nil for a package that has no rule
// text of its own.
//
// A citation of a ruling ("G4", "ruling L5", "S8", "U3", "W6") must name a
// ruling of docs/rulings.md at the module's root.
func CheckCitations(t testing.TB, cite *regexp.Regexp, known map[string]bool) {
	t.Helper()
	rulings := Rulings(t)
	files, _ := filepath.Glob("*.go")
	n, r := 0, 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if cite != nil {
				for _, m := range cite.FindAllStringSubmatch(line, -1) {
					n++
					refs := []string{m[1]}
					if len(m) > 2 {
						refs = append(refs, listRef.FindAllString(m[2], -1)...)
					}
					for _, ref := range refs {
						if !known[ref] {
							t.Errorf("%s:%d cites %q (%s), which the rules do not have", f, i+1, m[0], ref)
						}
					}
				}
			}
			for _, m := range rulingCite.FindAllStringSubmatchIndex(line, -1) {
				if m[1] < len(line) && (line[m[1]] == '/' || line[m[1]] == '-') {
					continue // "S23/B3", "W50-..."
				}
				r++
				if id := line[m[2]:m[3]]; !rulings[id] {
					t.Errorf("%s:%d cites ruling %s, which docs/rulings.md does not have", f, i+1, id)
				}
			}
		}
	}
	if cite != nil && n == 0 {
		t.Errorf("no citation matches %s: the check checks nothing", cite)
	}
	if cite == nil && r == 0 {
		t.Errorf("no ruling is cited: the check checks nothing")
	}
}

// Rulings are the rulings of docs/rulings.md at the root of the module that
// holds the working directory, by number ("G4").
func Rulings(t testing.TB) map[string]bool {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory: cannot find docs/rulings.md")
		}
		dir = up
	}
	b, err := os.ReadFile(filepath.Join(dir, "docs", "rulings.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range rulingHead.FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = true
	}
	if len(out) == 0 {
		t.Fatal("docs/rulings.md holds no ruling")
	}
	return out
}
