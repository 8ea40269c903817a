package contract_test

import (
	"slices"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// said is a receipt's body, flattened (flat); "" when no receipt came.
func said(n *contract.Notice) string {
	if n == nil {
		return ""
	}
	return flat(n.Body)
}

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
		r := said(h.Public("2026-12-01T11:00:00Z", c.who, c.text))
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

// TestStanceNamingNoNumber: intents named by who tabled them or what they
// announce, or in the plural, without their numbers ("all open intents to
// end the game", "Alice's intents") are not guessed at (G7: each intent is
// supported or objected to on its own, by its number): nothing is done,
// even with one intent open, and the receipt lists the open intents the
// player could name with the sentence that names them.
func TestStanceNamingNoNumber(t *testing.T) {
	h := threeIntents(t)
	for _, c := range []struct{ who, text, want string }{
		{carol, "I object to all open intents to end the game", `Not done: "all open intents to end the game" does not name intents by their numbers, ` +
			`and each intent is supported or objected to on its own, by its number: the open ones you could object to are ` +
			`#1 (Alice's: end the game of Toy), #2 (Alice's: reset the Toy rounds), #3 (Bob's: crown Dan); ` +
			`write, for instance, "I object to intents #1, #2 and #3" (G7)`},
		{bob, "I object to Alice's intents.", `you could object to are #1 (Alice's: end the game of Toy), #2 (Alice's: reset the Toy rounds); write, for instance, "I object to intents #1 and #2" (G7)`},
		{carol, "I support every intent of Alice's.", `write, for instance, "I support intents #1, #2 and #3"`},
		{carol, "I withdraw my objections.", `no open intent is one you could withdraw an objection from (G7)`},
	} {
		r := said(h.Public("2026-12-01T11:00:00Z", c.who, c.text))
		if !strings.Contains(r, c.want) || !strings.Contains(r, "0 done, 1 not done") {
			t.Errorf("%q: want %q:\n%s", c.text, c.want, r)
		}
	}
	for _, in := range h.S.Intents {
		if len(in.Supporters)+len(in.Objectors) > 0 {
			t.Errorf("intent #%d has supporters %v and objectors %v", in.ID, in.Supporters, in.Objectors)
		}
	}

	// One intent of Alice's, in a reply to it, is that one.
	r := said(contracttest.Receipt(h.Send(&contract.Message{From: "dan@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:30Z"),
		Channel: contract.ChanPublic, InReplyTo: []string{h.S.Intents[1].MsgID}, Text: "I object to Alice's intent."})))
	if !strings.Contains(r, "Done: you object to intent #2 (reset the Toy rounds)") {
		t.Errorf("\"I object to Alice's intent.\" in a reply to intent #2:\n%s", r)
	}
	h.Public("2026-12-01T11:00:40Z", dan, "I withdraw my objection to intent #2.")

	// Alice's "I withdraw my intents." gets the sentence that withdraws
	// them, and that sentence does.
	r = said(h.Public("2026-12-01T11:01:00Z", alice, "I withdraw my intents."))
	if !strings.Contains(r, `the open ones you could withdraw are #1 (Alice's: end the game of Toy), #2 (Alice's: reset the Toy rounds); write, for instance, "I withdraw intents #1 and #2" (G7)`) {
		t.Fatalf("\"I withdraw my intents.\":\n%s", r)
	}
	h.Public("2026-12-01T11:02:00Z", alice, "I withdraw intents #1 and #2")
	if len(h.S.Intents) != 1 || h.S.Intents[0].ID != 3 {
		t.Errorf("after \"I withdraw intents #1 and #2\" the open intents are %+v, want #3", h.S.Intents)
	}

	// One intent open: "Alice's intents" is not taken for it, nor is an
	// objection to something else.

	h = joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r = said(h.Public("2026-12-01T11:00:00Z", bob, "I object to Alice's intents."))
	if !strings.Contains(r, `write, for instance, "I object to intent #1"`) || len(h.S.Intents[0].Objectors) != 0 {
		t.Errorf("an objection to \"Alice's intents\" with one open:\n%s", r)
	}
	if n := h.Public("2026-12-01T11:01:00Z", bob, "I object to the proposal."); n != nil || len(h.S.Intents[0].Objectors) != 0 {
		t.Errorf("\"I object to the proposal.\" was taken for an objection to intent #1: %v", h.S.Intents[0].Objectors)
	}
}
