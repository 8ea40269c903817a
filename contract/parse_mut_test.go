package contract_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestActionsAsWrittenAtTheEdges: what the receipt quotes and does for
// sentences at the edges of the reader's quick tests: a list item marked
// "z)", an action that starts with a byte that begins no character (a text
// that is not UTF-8), and a trailing "too" 64 bytes after a character of
// two bytes (where the reader cuts the end it looks at).
func TestActionsAsWrittenAtTheEdges(t *testing.T) {
	long := "I ask the contestmaster whether \u00e9" + strings.Repeat(" pokes", 8) + " stack ever"
	for _, c := range []struct {
		why, text string
		quoted    []string
		done      string
		asked     string
	}{
		{"a list's item z",
			"I join the Toy game.\nz) I ask the contestmaster whether pokes stack.",
			[]string{"I join the Toy game.", "z) I ask the contestmaster whether pokes stack."}, "2 done, 0 not done.", "whether pokes stack"},
		{"an action starting inside a character, read as no action",
			"I \x80 too.", nil, "", ""},
		{"a trailing word after a character cut in two",
			long + " too.",
			[]string{long + " too."}, "1 done, 0 not done.", long[len("I ask the contestmaster "):]},
	} {
		h := newToy(t)
		r := h.Public("2026-12-01T10:05:00Z", alice, c.text)
		if r == nil || c.quoted == nil {
			if r != nil || c.quoted != nil {
				t.Errorf("%s: receipt %v, want one quoting %q", c.why, r, c.quoted)
			}
			continue
		}
		// The receipt wraps a long sentence on lines of its own.
		if d := cmp.Diff(strings.Join(c.quoted, " "), strings.Join(quoted(r), " ")); d != "" || !strings.Contains(r.Body, c.done) {
			t.Errorf("%s: receipt (-want +got):\n%s\n%s", c.why, d, r.Body)
		}
		if c.asked != "" && (len(h.S.Rulings) != 1 || h.S.Rulings[0].Question != c.asked) {
			t.Errorf("%s: the contestmaster was asked %+v, want %q", c.why, h.S.Rulings, c.asked)
		}
	}
}

// TestTrailingWordAfterLongWhiteSpace: a trailing "too" after a run of
// white space longer than the end the reader looks at (64 bytes: a line
// of a mail wrapped and indented, say) is dropped as any trailing "too"
// is, and the action is done.
func TestTrailingWordAfterLongWhiteSpace(t *testing.T) {
	for _, gap := range []string{strings.Repeat(" ", 61), strings.Repeat("\t", 70), "\n" + strings.Repeat(" ", 80)} {
		h := newToy(t)
		r := h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game"+gap+"too.")
		if r == nil || !strings.Contains(r.Body, "Done: you joined Toy") || !strings.Contains(r.Body, "1 done, 0 not done.") {
			t.Errorf("%q before \"too\": receipt %v", gap, r)
		}
	}
}
