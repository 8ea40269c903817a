package scenario

import (
	"slices"
	"testing"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
)

// TestDependentActionsKnown: every game's dependent actions (G7) are the
// ones whose tests check that the action done is the one an intent
// announced: Rumble's end (TestIntentToEndEachGame) and amend
// (TestAmendOnlyAsAnnounced), Wacky World's amend
// (TestAmendOnlyAsAnnounced), the interpreter's own through Toy
// (TestDependentOnlyAsAnnounced). Life and Steemfield have none. A game
// that gains one fails here until a test of its intents is named above.
func TestDependentActionsKnown(t *testing.T) {
	want := map[string][]string{"rumble": {"amend", "end"}, "wackyworld": {"amend"}}
	for _, g := range []contract.Game{life.New(), rumble.New(), steemfield.New(), wackyworld.New()} {
		var got []string
		for _, v := range g.Verbs() {
			if v.Dependent != nil {
				got = append(got, v.Name)
			}
		}
		slices.Sort(got)
		if id := g.Spec().ID; !slices.Equal(got, want[id]) {
			t.Errorf("%s's dependent actions are %q, want %q: test that each is done only as an intent announced it", id, got, want[id])
		}
	}
}
