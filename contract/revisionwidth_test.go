package contract_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"referee/contract"
)

// TestRevisionStateFitsTheMail: a revision whose state changes are lines of
// a game's report (Rumble's, which has no facts of its own) keeps within the
// mail's width, each line whole under what it was and what it is now. The
// table put a whole report line in each of "was" and "now", 130 columns in a
// post to the official list.
func TestRevisionStateFitsTheMail(t *testing.T) {
	gone := []string{"alice           100  alive           d5e4cd63dd739e38", "                                d5e4cd63dd739e38)"}
	came := []string{"alice           100  alive           5dc38726641953d1", "                                5dc38726641953d1)"}
	rev := &contract.Revision{CoE: 1, State: []contract.StateChange{
		{What: "Vials of Alice", Old: "6", New: "8"},
		{What: "Rumble report", Old: gone[0]}, {What: "Rumble report", Old: gone[1]},
		{What: "Rumble report", New: came[0]}, {What: "Rumble report", New: came[1]},
	}}
	body := rev.Text()
	for _, l := range strings.Split(body, "\n") {
		if n := utf8.RuneCountInString(l); n > 76 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	want := "Vials of Alice\n  was: 6\n  now: 8\nRumble report\n  was:\n    " + gone[0] + "\n    " + gone[1] + "\n  now:\n    " + came[0] + "\n    " + came[1] + "\n"
	if !strings.Contains(body, want) {
		t.Errorf("the state reads\n%s\nwant it to hold\n%s", body, want)
	}
}
