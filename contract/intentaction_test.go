package contract_test

import (
	"fmt"
	"testing"

	"referee/contract/contracttest"
)

// openIntents is what a refused action changes nothing of: the open
// intents with their supporters and objectors, and Toy's data.
func openIntents(h *contracttest.Harness) string {
	s := fmt.Sprintf("%+v", *h.Data("toy").(*toyState))
	for _, in := range h.S.Intents {
		s += fmt.Sprintf("\n%+v", *in)
	}
	return s
}

// TestDependentOnlyAsAnnounced: a dependent action done by its method is
// the one an intent announced, with the same arguments (G7). Alice's
// intent, with 2 support, to crown Bob does not crown Carol, whether
// Alice or Carol, one of its supporters, does it; her intent, with 2 days
// notice, to rename the game to Rex does not rename it to Max. Each is
// refused naming the intents that could be resolved and what they
// announced, and nothing changes. Where each was done through the intent
// to the other. The announced action, in another case and with a final
// full stop, is done.
func TestDependentOnlyAsAnnounced(t *testing.T) {
	h := joined(t)
	receiptHas(t, h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 2 support, to crown Bob in Toy.").Body, "Done: intent #1 tabled")
	receiptHas(t, h.Public("2026-12-01T10:11:00Z", alice, "I intend, with 2 days notice, to rename the game to Rex in Toy.").Body, "Done: intent #2 tabled")
	receiptHas(t, h.Public("2026-12-01T10:12:00Z", carol, "I support intent #1.").Body, "Done: you support intent #1")
	receiptHas(t, h.Public("2026-12-01T10:13:00Z", dan, "I support intent #1.").Body, "Done: you support intent #1")
	before := openIntents(h)
	for _, c := range []struct{ who, text, want string }{
		{alice, "I crown Carol in Toy.", `> I crown Carol in Toy. Not done: no intent of yours announced this action; your intent #1 announced: crown Bob in Toy; this one needs an intent of its own, announced "I intend, with 2 support, to crown Carol in Toy" (G7)`},
		{carol, "I crown Carol in Toy.", `> I crown Carol in Toy. Not done: no intent you may resolve announced this action; Alice's intent #1 announced: crown Bob in Toy; this one needs an intent of its own`},
		{alice, "I rename the game to Max in Toy.", `> I rename the game to Max in Toy. Not done: no intent of yours announced this action; your intent #2 announced: rename the game to Rex in Toy; this one needs an intent of its own, announced "I intend, with 2 days notice, to rename the game to Max in Toy" (G7)`},
	} {
		r := h.Public("2026-12-03T10:20:00Z", c.who, c.text)
		receiptHas(t, r.Body, c.want, "0 done, 1 not done")
	}
	if after := openIntents(h); after != before {
		t.Errorf("refused actions changed the state:\n%s\nwas\n%s", after, before)
	}
	receiptHas(t, h.Public("2026-12-03T10:21:00Z", carol, "I crown BOB in Toy.").Body, "Done: BOB is crowned", "intent #1 resolved")
	receiptHas(t, h.Public("2026-12-03T10:22:00Z", alice, "I rename the game to rex in Toy.").Body, "Done: Toy is now called rex", "intent #2 resolved")
	if len(h.S.Intents) != 0 {
		t.Errorf("intents still open: %+v", h.S.Intents)
	}
}
