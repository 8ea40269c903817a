package contracttest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// CheckCitations checks that every citation of the game's rules in the Go
// files of the working directory (the package's code, not its tests, which
// cite missing rules on purpose: a `Rule:` string, a `// Life R16` comment)
// names a rule that exists. cite matches a
// citation, its first group the rule's reference ("16"); known holds the
// references of the rule text.
func CheckCitations(t testing.TB, cite *regexp.Regexp, known map[string]bool) {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range cite.FindAllStringSubmatch(line, -1) {
				n++
				if !known[m[1]] {
					t.Errorf("%s:%d cites %q, which the rules do not have", f, i+1, m[0])
				}
			}
		}
	}
	if n == 0 {
		t.Errorf("no citation matches %s: the check checks nothing", cite)
	}
}
