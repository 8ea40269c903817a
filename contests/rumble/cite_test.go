package rumble

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestCitations: every "Rumble <n>" in the package, and every further number
// of a list ("Rumble 2, 5, 6, 8"), names a paragraph of paragraphs.txt, and
// every ruling it cites is one of docs/rulings.md.
func TestCitations(t *testing.T) {
	b, err := os.ReadFile("paragraphs.txt")
	if err != nil {
		t.Fatal(err)
	}
	// A paragraph starts a line with its number, the one after the last.
	known := map[string]bool{}
	next := 1
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, strconv.Itoa(next)+". ") {
			known[strconv.Itoa(next)] = true
			next++
		}
	}
	if next < 17 {
		t.Fatalf("paragraphs.txt has paragraphs 1 to %d, want 1 to 17", next-1)
	}
	contracttest.CheckCitations(t, regexp.MustCompile(`\bRumble (\d+)((?:,? (?:and )?\d+)*)\b`), known)
}
