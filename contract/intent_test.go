package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// joined is a toy harness where Alice, Bob, Carol and Dan have joined.
func joined(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := newToy(t)
	for _, p := range []string{alice, bob, carol, dan} {
		h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
	}
	return h
}

const dan = "Dan <dan@example.test>"

// TestIntentExpires: an intent can be resolved until 14 days after it is
// tabled (G7); at the 14th day it is dropped from the state, with a journal
// line, and "I do so" then finds nothing to resolve.
func TestIntentExpires(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Advance("2026-12-15T10:09:00Z")
	if len(h.S.Intents) != 1 {
		t.Fatalf("the intent is gone before its 14 days: %+v", h.S.Intents)
	}
	h.Advance("2026-12-15T10:10:00Z")
	if len(h.S.Intents) != 0 {
		t.Errorf("the state still holds the intent after 14 days: %+v", h.S.Intents)
	}
	expired := false
	for _, en := range h.Entries {
		expired = expired || en.Verb == "intent expired" && en.Detail["intent"] == 1
	}
	if !expired {
		t.Error("the journal has no line for the expired intent")
	}
	r := h.Public("2026-12-15T10:11:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "0 done, 1 not done") || h.Data("toy").(*toyState).Ended {
		t.Errorf("an intent resolved after 14 days:\n%s", r.Body)
	}

	// A minute before the 14 days end it still resolves.
	h = joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r = h.Public("2026-12-15T10:09:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: the game of Toy is over") {
		t.Errorf("an intent did not resolve on its 14th day:\n%s", r.Body)
	}
}

// TestAgoranConsent: with Agoran consent, the action passes only with more
// supporters than objectors; a tie does not pass (G7, AGORA "Dependent
// actions").
func TestAgoranConsent(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend, with Agoran consent, to reset the Toy rounds.")
	if !strings.Contains(flat(r.Body), "intent #1 tabled: reset the Toy rounds, with Agoran consent") {
		t.Fatalf("receipt:\n%s", r.Body)
	}
	h.Public("2026-12-01T11:00:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T11:01:00Z", carol, "I object to intent #1.")
	r = h.Public("2026-12-03T10:00:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "intent #1 can be resolved from 2026-12-05 10:10 (4 days after it)") {
		t.Errorf("resolved before 4 days:\n%s", r.Body)
	}
	r = h.Public("2026-12-05T10:11:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "intent #1 has 1 supporter and 1 objector; consent needs more supporters") {
		t.Errorf("a tie passed:\n%s", r.Body)
	}
	h.Public("2026-12-05T11:00:00Z", dan, "I support intent #1.")
	r = h.Public("2026-12-05T11:01:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: the Toy rounds are reset") {
		t.Errorf("two supporters against one objector did not pass:\n%s", r.Body)
	}
}

// TestSupportMethod: "with N support" must name at least the game's N (G7);
// the intent resolves once N players support it, by its sponsor or one of
// its supporters, and not by anyone else.
func TestSupportMethod(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 1 support, to crown Dan.")
	if !strings.Contains(flat(r.Body), "this action needs with 2 support (G7)") || len(h.S.Intents) != 0 {
		t.Fatalf("a weaker support method was tabled:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:11:00Z", alice, "I intend, with 2 support, to crown Dan.")
	if !strings.Contains(flat(r.Body), "intent #1 tabled") || !strings.Contains(flat(r.Body), "once 2 supporters have supported it") {
		t.Fatalf("receipt:\n%s", r.Body)
	}
	h.Public("2026-12-01T10:12:00Z", bob, "I support intent #1.")
	r = h.Public("2026-12-01T10:13:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "intent #1 has 1 of the 2 supporters it needs") {
		t.Errorf("resolved with 1 of 2 supporters:\n%s", r.Body)
	}
	h.Public("2026-12-01T10:14:00Z", carol, "I support intent #1.")
	r = h.Public("2026-12-01T10:15:00Z", dan, "I do so (intent #1).")
	if !strings.Contains(r.Body, "0 done, 1 not done") || len(h.S.Intents) != 1 {
		t.Errorf("a player who neither tabled nor supported the intent resolved it:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:16:00Z", carol, "With 2 support, I crown Dan in Toy.")
	if !strings.Contains(r.Body, "Done: Dan is crowned") || len(h.S.Intents) != 0 {
		t.Errorf("a supporter could not resolve the supported intent:\n%s", r.Body)
	}
}

// TestObjectionMethod: an intent may ask for fewer objections to stop it
// than the game allows, never more (G7).
func TestObjectionMethod(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend, without 2 objections, to end the game of Toy.")
	if !strings.Contains(flat(r.Body), "this action is performed without objection; 2 objections would be a weaker requirement") || len(h.S.Intents) != 0 {
		t.Errorf("a weaker objection method was tabled:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:11:00Z", alice, "I intend, with 2 support, to end the game of Toy.")
	if !strings.Contains(flat(r.Body), "this action is performed without objection, not by this method") || len(h.S.Intents) != 0 {
		t.Errorf("another method was tabled:\n%s", r.Body)
	}
}

// TestOnlySponsorResolves: with objections, only the sponsor resolves the
// intent, by reply, by number or by performing the action (G7).
func TestOnlySponsorResolves(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r := h.Public("2026-12-06T10:00:00Z", bob, "I do so (intent #1).")
	if !strings.Contains(flat(r.Body), "Not done: only Alice, who tabled intent #1, can resolve it (G7)") {
		t.Errorf("Bob resolving Alice's intent by number:\n%s", r.Body)
	}
	for _, text := range []string{"I do so (intent #1).", "I do so.", "Without objection, I end the game of Toy."} {
		r := h.Public("2026-12-06T10:00:00Z", bob, text)
		if !strings.Contains(r.Body, "0 done, 1 not done") || h.Data("toy").(*toyState).Ended {
			t.Errorf("%q from Bob resolved Alice's intent:\n%s", text, r.Body)
		}
	}
}

// TestReplyFindsIntent: with several intents open, a stance in a reply to
// one of them applies to that one.
func TestReplyFindsIntent(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Send(&contract.Message{ID: "second@example.test", From: "carol@example.test", Arrived: contracttest.At(t, "2026-12-01T10:11:00Z"),
		Channel: contract.ChanPublic, Text: "I intend, with Agoran consent, to reset the Toy rounds."})
	h.Public("2026-12-01T10:12:00Z", alice, "I intend, with 2 support, to crown Dan.")
	r := contracttest.Receipt(h.Send(&contract.Message{From: "bob@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanPublic,
		InReplyTo: []string{"second@example.test"}, Text: "I object."}))
	if !strings.Contains(r.Body, "Done: you object to intent #2 (reset the Toy rounds)") {
		t.Errorf("the reply did not find intent #2:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T11:01:00Z", dan, "I object.")
	if !strings.Contains(flat(r.Body), "several intents are open: #1 (end the game of Toy), #2 (reset the Toy rounds), #3 (crown Dan)") {
		t.Errorf("an objection naming no intent was applied:\n%s", r.Body)
	}
}

// TestSeveralIntentsHint: with several intents open, an action that names
// none is refused with an example of that same action naming one, the form
// the player has to write next.
func TestSeveralIntentsHint(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Public("2026-12-01T10:11:00Z", alice, "I intend, with Agoran consent, to reset the Toy rounds.")
	for _, c := range []struct{ who, text, want string }{
		{alice, "I do so.", `name one ("I do so (intent #1)")`},
		{bob, "I object.", `name one ("I object to intent #1")`},
		{bob, "I support it.", `name one ("I support intent #1")`},
		{bob, "I withdraw my objection.", `name one ("I withdraw my objection to intent #1")`},
	} {
		r := h.Public("2026-12-05T10:12:00Z", c.who, c.text)
		if !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the reply does not show the form to write (%s):\n%s", c.text, c.want, r.Body)
		}
	}
}

// TestStricterMethodKept: an intent that asks for more support than the
// game needs is judged by what it asked for (G7).
func TestStricterMethodKept(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 3 support, to crown Dan.")
	h.Public("2026-12-01T10:11:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T10:12:00Z", carol, "I support intent #1.")
	r := h.Public("2026-12-01T10:13:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "intent #1 has 2 of the 3 supporters it needs") {
		t.Errorf("an intent asking for 3 supporters resolved with 2:\n%s", r.Body)
	}
}

// TestNoticeMethod: "with T notice" (G7, AGORA "Dependent actions"): the
// intent is resolved by its sponsor once T has passed; "with notice" alone
// means the game's T, a shorter T is refused as weaker, a longer one holds.
func TestNoticeMethod(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 1 day notice, to rename the game to Fun in Toy.")
	if !strings.Contains(flat(r.Body), "with 2 days notice; 1 days notice would be a weaker requirement (G7)") || len(h.S.Intents) != 0 {
		t.Fatalf("a shorter notice than the game's was not refused:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:10:00Z", alice, "I intend, with notice, to rename the game to Fun in Toy.")
	if !strings.Contains(flat(r.Body), "with 2 days notice; it can be resolved from 2026-12-03 10:10") {
		t.Fatalf("with notice: not the game's 2 days:\n%s", r.Body)
	}
	r = h.Public("2026-12-03T10:09:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "intent #1 can be resolved from 2026-12-03 10:10 (after its notice)") {
		t.Errorf("resolved before its notice passed:\n%s", r.Body)
	}
	r = h.Public("2026-12-03T10:10:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: Toy is now called Fun") {
		t.Errorf("not resolved once its notice passed:\n%s", r.Body)
	}

	h = joined(t)
	r = h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 5 days notice, to rename the game to Fun in Toy.")
	if !strings.Contains(flat(r.Body), "with 5 days notice; it can be resolved from 2026-12-06 10:10") {
		t.Fatalf("a longer notice is not kept:\n%s", r.Body)
	}
	r = h.Public("2026-12-06T10:09:00Z", alice, "I do so.")
	if !strings.Contains(flat(r.Body), "can be resolved from 2026-12-06 10:10 (after its notice)") {
		t.Errorf("resolved before its 5 days:\n%s", r.Body)
	}
	r = h.Public("2026-12-06T10:10:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: Toy is now called Fun") {
		t.Errorf("not resolved after its 5 days:\n%s", r.Body)
	}
}

// TestOnlySponsorWithdraws: an intent is withdrawn by its sponsor alone
// (G7); another player's withdrawal is refused, naming the sponsor, and
// the intent stays.
func TestOnlySponsorWithdraws(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r := h.Public("2026-12-01T10:11:00Z", bob, "I withdraw intent #1.")
	if !strings.Contains(r.Body, "only Alice, who tabled intent #1, can withdraw it") || len(h.S.Intents) != 1 {
		t.Fatalf("a player withdrew another's intent:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:12:00Z", alice, "I withdraw intent #1.")
	if !strings.Contains(r.Body, "intent #1 is withdrawn") || len(h.S.Intents) != 0 {
		t.Fatalf("the sponsor could not withdraw:\n%s", r.Body)
	}
}

// TestSupporterDoesSo: "I do so" from a supporter resolves an intent with N
// support, which its supporters may resolve; an intent with Agoran consent
// stays its sponsor's to resolve, however many support it (G7).
func TestSupporterDoesSo(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 2 support, to crown Dan.")
	h.Public("2026-12-01T10:11:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T10:12:00Z", carol, "I support intent #1.")
	r := h.Public("2026-12-01T10:13:00Z", carol, "I do so (intent #1).")
	if !strings.Contains(r.Body, "Done: Dan is crowned") || len(h.S.Intents) != 0 {
		t.Errorf("a supporter's \"I do so\" did not resolve the supported intent:\n%s", r.Body)
	}

	h = joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, with Agoran consent, to reset the Toy rounds.")
	h.Public("2026-12-01T11:00:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T11:01:00Z", carol, "I support intent #1.")
	r = h.Public("2026-12-05T10:11:00Z", bob, "I do so (intent #1).")
	if !strings.Contains(flat(r.Body), "Not done: only Alice, who tabled intent #1, can resolve it (G7)") || len(h.S.Intents) != 1 {
		t.Errorf("a supporter resolved an intent with Agoran consent:\n%s", r.Body)
	}
	r = h.Public("2026-12-05T10:12:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "Done: the Toy rounds are reset") {
		t.Errorf("the sponsor could not resolve it:\n%s", r.Body)
	}
}

// TestIntentTwice: a second intent of the same sponsor to the same action
// while the first is open is tabled, as in Agora, and its receipt names the
// open one (G7); the action itself before either is ripe names the first;
// "I do so" then resolves the first without asking which,
// and the other closes with it, so that it cannot do the action again; an
// objection to "it" still has to name one.
func TestIntentTwice(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r := h.Public("2026-12-01T10:20:00Z", alice, "I intend, without objection, to end the game of toy.")
	want := `until 2026-12-15 10:20; you already intend the same action (intent #1, tabled 2026-12-01 10:10): the first of them resolved closes the others, and "I withdraw intent #2" withdraws this one`
	if !strings.Contains(flat(r.Body), want) {
		t.Errorf("a second intent to the same action:\n%s\nwant %q", r.Body, want)
	}
	r = h.Public("2026-12-01T10:21:00Z", bob, "I intend, without objection, to end the game of Toy.")
	if strings.Contains(r.Body, "already intend") {
		t.Errorf("another player's intent to the same action is called a second one:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T11:00:00Z", carol, "I object.")
	if !strings.Contains(flat(r.Body), "several intents are open") {
		t.Errorf("an objection naming no intent was applied:\n%s", r.Body)
	}
	r = h.Public("2026-12-02T10:00:00Z", alice, "I end the game of Toy.")
	if want := "Not done: intent #1 can be resolved from 2026-12-05 10:10"; !strings.Contains(flat(r.Body), want) {
		t.Errorf("the action itself, before either intent is ripe, does not name the first (%q):\n%s", want, r.Body)
	}
	r = h.Public("2026-12-05T10:15:00Z", alice, "I do so.")
	for _, want := range []string{"Done: the game of Toy is over", "intent #1 resolved; closed with it, to the same action: intent #2, tabled 2026-12-01 10:20",
		// Bob's intent to end the game that is now over closes with it
		// (closeGone).
		"intent #3 of Bob, to end the game of Toy, is closed: the intent was about game 1, which is gone (T8, G7)"} {
		if !strings.Contains(flat(r.Body), want) {
			t.Errorf("I do so with two intents to the same action lacks %q:\n%s", want, r.Body)
		}
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("open intents after the game ended: %+v, want none", h.S.Intents)
	}
}

// TestIntentNotIntendable: an intent to an action the game says could not
// be done in the state as it is (Method.Intendable: Toy's game is over) is
// refused when announced, with the game's rule, and tables nothing: no
// intent, no number taken (G7).
func TestIntentNotIntendable(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Public("2026-12-05T10:15:00Z", alice, "I do so.")
	if !h.Data("toy").(*toyState).Ended {
		t.Fatal("the game of Toy did not end")
	}
	next := h.S.NextIntent
	r := h.Public("2026-12-05T10:20:00Z", bob, "I intend, without objection, to end the game of Toy.")
	receiptHas(t, r.Body, "> I intend, without objection, to end the game of Toy. Not done: the game of Toy is over already (T8)")
	if len(h.S.Intents) != 0 || h.S.NextIntent != next {
		t.Errorf("an intent was tabled (next number %d, was %d): %+v", h.S.NextIntent, next, h.S.Intents)
	}
	// Another dependent action of the game is tabled as before.
	r = h.Public("2026-12-05T10:21:00Z", bob, "I intend, with Agoran consent, to reset the Toy rounds.")
	receiptHas(t, r.Body, "Done: intent #2 tabled: reset the Toy rounds, with Agoran consent")
}

// TestIntentObjectGone: an intent keeps the thing its action acted on when
// it was announced (Method.Object: Toy's game 1), and is an intent to act
// on that thing (G7). When game 1 ends through Bob's intent, Alice's
// intent to end it can never be resolved: it is closed at once, Bob's
// receipt and the game's recent events say so, and it is no longer open,
// where it stayed open (and listed) until tried or expired. Once game 2
// has begun, Alice's "I do so" finds no intent and does not end game 2;
// Bob's intent announced in game 2 ends it.
func TestIntentObjectGone(t *testing.T) {
	h := joined(t)
	receiptHas(t, h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.").Body, "Done: intent #1 tabled")
	receiptHas(t, h.Public("2026-12-01T10:11:00Z", bob, "I intend, without objection, to end the game of Toy.").Body, "Done: intent #2 tabled")
	receiptHas(t, h.Public("2026-12-05T10:15:00Z", bob, "I do so.").Body, "Done: the game of Toy is over", "intent #2 resolved",
		"intent #1 of Alice, to end the game of Toy, is closed: the intent was about game 1, which is gone (T8, G7)")
	if len(h.S.Intents) != 0 {
		t.Errorf("open intents after game 1 ended: %+v, want none", h.S.Intents)
	}
	recent := h.S.Games["toy"].Recent
	if last := recent[len(recent)-1]; last.Who != "referee" || last.What != "closes intent #1 of Alice, to end the game of Toy: the intent was about game 1, which is gone (T8, G7)" {
		t.Errorf("the game's last recent event: %+v", last)
	}
	receiptHas(t, h.Public("2026-12-05T10:16:00Z", carol, "I restart the game of Toy.").Body, "Done: game 2 of Toy begins")
	receiptHas(t, h.Public("2026-12-05T10:17:00Z", bob, "I intend, without objection, to end the game of Toy.").Body, "Done: intent #3 tabled")
	receiptHas(t, h.Public("2026-12-05T10:20:00Z", alice, "I do so.").Body, "> I do so. Not done: there is no open intent this could refer to (G7)")
	if st := h.Data("toy").(*toyState); st.Ended {
		t.Error("Alice's intent of game 1 ended game 2")
	}
	receiptHas(t, h.Public("2026-12-09T10:20:00Z", bob, "I do so.").Body, "Done: the game of Toy is over", "intent #3 resolved")
	if st := h.Data("toy").(*toyState); !st.Ended {
		t.Error("Bob's intent of game 2 did not end it")
	}
}

// TestIntentObjectGoneWhenTried: an intent whose thing is gone, still
// open in a state written before such intents were closed with their
// thing (Alice's intent to end game 1, game 2 going on), is closed when
// tried: "I do so" is not done, the receipt says why in the interpreter's
// own words (Toy gives no Gone) and cites the rule and G7, and game 2
// goes on.
func TestIntentObjectGoneWhenTried(t *testing.T) {
	h := joined(t)
	receiptHas(t, h.Public("2026-12-05T10:15:00Z", bob, "I intend, with Agoran consent, to reset the Toy rounds.").Body, "Done: intent #1 tabled")
	h.Data("toy").(*toyState).Restarts = 1
	h.S.NextIntent = 2
	h.S.Intents = append(h.S.Intents, &contract.Intent{ID: 2, Game: "toy", Verb: "end", Text: "end the game of Toy", Sponsor: "Alice",
		Method: "objection", N: 1, MsgID: "old@example.test", Created: contracttest.At(t, "2026-12-01T10:10:00Z"), Object: "game 1"})
	r := h.Public("2026-12-05T10:20:00Z", alice, "I do so.")
	receiptHas(t, r.Body, "> I do so. Not done: the intent was about game 1, which is gone, and game 2 is not what it announced; intent #2 is closed (T8, G7)")
	if st := h.Data("toy").(*toyState); st.Ended {
		t.Error("Alice's intent of game 1 ended game 2")
	}
	if len(h.S.Intents) != 1 || h.S.Intents[0].ID != 1 {
		t.Errorf("open intents: %+v, want Bob's #1 alone", h.S.Intents)
	}
}

// TestIntentWithoutMethod: "I intend to <a dependent action>" naming no
// method is refused with the form to write, the game's method in it (G7),
// and tables nothing; "I intend to <anything else>" is a plan, no action
// (G3), and gets no line.
func TestIntentWithoutMethod(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend to end the game of Toy. I intend to poke Bob in Toy. I join the Toy game.")
	body := flat(r.Body)
	want := `> I intend to end the game of Toy. Not done: an intent says how the action is to be done: "I intend, without objection, to end the game of Toy" (G7)`
	if !strings.Contains(body, want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	if strings.Contains(body, "poke") {
		t.Errorf("a plan that is no dependent action got a line:\n%s", r.Body)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("an intent without a method was tabled: %+v", h.S.Intents)
	}
}

// TestIntentTwiceObjectedEachOnItsOwn: two intents of Alice's to the same
// action are each supported and objected to on its own, as in Agora (G7
// leaves it to Agora's method; AGORA "Dependent actions"), and the
// players are told so: the sponsor in the second's receipt; an objection
// naming no intent is refused
// with both told apart by sponsor and time; an objection to one, by
// number or by a reply to its announcement, says which it counts against
// and that it does not count against the other, with the form that would
// (unless the objector objects to that one already); and the action waits
// on both objections.
func TestIntentTwiceObjectedEachOnItsOwn(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r := h.Public("2026-12-01T10:20:00Z", alice, "I intend, without objection, to end the game of Toy.")
	receiptHas(t, r.Body, `"I withdraw intent #2" withdraws this one; each is supported and objected to on its own`)
	receiptHas(t, h.Public("2026-12-01T11:00:00Z", bob, "I object.").Body,
		`several intents are open: #1 (end the game of Toy, Alice's, tabled 2026-12-01 10:10), #2 (end the game of Toy, Alice's, tabled 2026-12-01 10:20); name one ("I object to intent #1")`)
	receiptHas(t, h.Public("2026-12-01T11:01:00Z", bob, "I object to intent #1.").Body,
		`Done: you object to intent #1 (end the game of Toy); this objection does not count against Alice's intent #2, tabled 2026-12-01 10:20, to the same action: each intent is supported and objected to on its own (G7); to count it there too, write "I object to intent #2"`)
	at := contracttest.At(t, "2026-12-01T11:02:00Z")
	second := h.S.Intents[1].MsgID
	r = contracttest.Receipt(h.Send(&contract.Message{From: "carol@example.test", Name: "Carol", Date: at, Arrived: at, Subject: "Re: intent",
		Channel: contract.ChanPublic, Authenticated: true, Text: "I object.", InReplyTo: []string{second}, References: []string{second}}))
	receiptHas(t, r.Body, `Done: you object to intent #2 (end the game of Toy); this objection does not count against Alice's intent #1, tabled 2026-12-01 10:10, to the same action`,
		`write "I object to intent #1"`)
	// Bob, objecting to both, is not told of the one he objects to.
	r = h.Public("2026-12-01T11:03:00Z", bob, "I object to intent #2.")
	if receiptHas(t, r.Body, "Done: you object to intent #2 (end the game of Toy)"); strings.Contains(r.Body, "does not count") {
		t.Errorf("an objection to both intents is told it does not count against the first:\n%s", r.Body)
	}
	receiptHas(t, h.Public("2026-12-05T10:30:00Z", alice, "I do so.").Body, "Not done: intent #1 has 1 objection: Bob")
	if st := h.Data("toy").(*toyState); st.Ended {
		t.Error("the game ended with an objection standing against each intent")
	}
}

// TestEndedIntentSaysWhatBecameOfIt: a support, an objection or "I do so"
// naming an intent that expired, was performed or was withdrawn is told
// what became of it and when; it was told only "there is no open intent
// #1" (G7). A number never tabled still gets that.
func TestEndedIntentSaysWhatBecameOfIt(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Public("2026-12-01T10:11:00Z", bob, "I intend, with 2 support, to crown Dan.")
	h.Public("2026-12-01T10:12:00Z", carol, "I intend, with 2 support, to crown Bob.")
	h.Public("2026-12-02T10:00:00Z", dan, "I support intent #2.")
	h.Public("2026-12-02T10:00:30Z", alice, "I support intent #2.")
	receiptHas(t, h.Public("2026-12-02T10:01:00Z", bob, "I do so (intent #2).").Body, "Done")
	receiptHas(t, h.Public("2026-12-02T10:02:00Z", carol, "I withdraw intent #3.").Body, "Done: intent #3 is withdrawn")
	h.Advance("2026-12-15T10:10:00Z")
	for text, want := range map[string]string{
		"I object to intent #1.": "Not done: intent #1 of Alice (to end the game of Toy) expired on 2026-12-15 10:10 UTC; it is no longer open (G7)",
		"I support intent #2.":   "Not done: intent #2 of Bob (to crown Dan) was performed on 2026-12-02 10:01 UTC; it is no longer open (G7)",
		"I do so (intent #3).":   "Not done: intent #3 of Carol (to crown Bob) was withdrawn on 2026-12-02 10:02 UTC; it is no longer open (G7)",
		"I object to intent #9.": "Not done: there is no open intent #9 (G7)",
	} {
		receiptHas(t, h.Public("2026-12-16T10:00:00Z", carol, text).Body, want)
	}
}
