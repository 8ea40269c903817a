package contract_test

import (
	"slices"
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// threeIntents is the joined toy harness with Alice's intents #1 and #2
// and Bob's #3 open.
func threeIntents(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Public("2026-12-01T10:11:00Z", alice, "I intend, with Agoran consent, to reset the Toy rounds.")
	h.Public("2026-12-01T10:12:00Z", bob, "I intend, with 2 support, to crown Dan.")
	return h
}

// TestStanceOnSeveralIntents: a support, an objection or a withdrawal
// naming several intents by number in one sentence, as Agorans write it,
// is one action per intent, each done or refused on its own with its own
// line in the receipt (G7); an intent named twice counts once, and after
// the word "intent" a number needs no "#".
func TestStanceOnSeveralIntents(t *testing.T) {
	h := threeIntents(t)
	in := func(id int) (sup, obj []string) {
		for _, x := range h.S.Intents {
			if x.ID == id {
				return x.Supporters, x.Objectors
			}
		}
		t.Fatalf("intent #%d is not open", id)
		return nil, nil
	}
	for _, c := range []struct {
		who, text string
		want      []string // in the flattened receipt, in this order
	}{
		{carol, "I object to intents #1 and #2.", []string{
			"> I object to intents #1 Done: you object to intent #1 (end the game of Toy)",
			"> ... and #2. Done: you object to intent #2 (reset the Toy rounds)",
			"2 done, 0 not done"}},
		{bob, "I object to intents 1, 2 and 3", []string{
			"> I object to intents 1 Done: you object to intent #1",
			"> ... 2 Done: you object to intent #2",
			"> ... and 3 Not done: the sponsor of intent #3 cannot support or object to it (G7)",
			"2 done, 1 not done"}},
		{dan, "I support #3 and #9", []string{
			"> I support #3 Done: you support intent #3 (crown Dan)",
			"> ... and #9 Not done: there is no open intent #9 (G7)"}},
		{carol, "I withdraw my objections to #1 and #3", []string{
			"> I withdraw my objections to #1 Done: your objection to intent #1 is withdrawn",
			"> ... and #3 Not done: you have no objection to intent #3 to withdraw (G7)"}},
		{carol, "I support intents #3, #3 and intent #3.", []string{
			"> I support intents #3 Done: you support intent #3 (crown Dan) intent #3 is named more than once in the list; it counts once",
			"1 done, 0 not done"}},
		{dan, "I object to intent 2.", []string{
			"> I object to intent 2. Done: you object to intent #2 (reset the Toy rounds)"}},
	} {
		r := flat(h.Public("2026-12-01T11:00:00Z", c.who, c.text).Body)
		at := 0
		for _, w := range c.want {
			i := strings.Index(r[at:], w)
			if i < 0 {
				t.Errorf("%q: the receipt has not %q (in this order):\n%s", c.text, w, r)
				break
			}
			at += i + len(w)
		}
	}
	if _, obj := in(1); !slices.Equal(obj, []string{"Bob"}) {
		t.Errorf("objectors of intent #1: %v, want Bob (Carol's withdrawn)", obj)
	}
	if _, obj := in(2); !slices.Equal(obj, []string{"Carol", "Bob", "Dan"}) {
		t.Errorf("objectors of intent #2: %v, want Carol, Bob, Dan", obj)
	}
	if sup, obj := in(3); !slices.Equal(sup, []string{"Dan", "Carol"}) || len(obj) != 0 {
		t.Errorf("intent #3: supporters %v, objectors %v; want Dan and Carol, none", sup, obj)
	}
}
