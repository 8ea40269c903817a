package rumble

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestNonContestantsListAnswered: someone who is not a contestant of the
// current game and sends the open phase's list privately, in a form without a
// keyword ("Moss: grows on you" for a power, "Iron Skin: 30" for a bid or an
// allocation), is told that e is not a contestant of game 1 and that nothing
// was recorded (Rumble 2), rather than getting no reply; nothing changes, and
// nothing of the list goes to the public list.
func TestNonContestantsListAnswered(t *testing.T) {
	const frank = "Frank <frank@example.test>" // no player at all
	tests := []struct {
		name  string
		start func(*testing.T) *contracttest.Harness
		text  string
	}{
		{"a power", atPowers, "Moss: grows on you"},
		{"two powers", atPowers, "Moss - grows on you\nRust: eats iron"},
		{"a bid", func(t *testing.T) *contracttest.Harness { return atBids(t) }, "Iron Skin: 30"},
		{"an allocation in a round", func(t *testing.T) *contracttest.Harness { return atRound(t) }, "Iron Skin: 5"},
	}
	for _, tc := range tests {
		for _, from := range []string{frank, erin} {
			t.Run(tc.name+" from "+strings.Fields(from)[0], func(t *testing.T) {
				h := tc.start(t)
				if from == erin {
					mustDone(t, h.Public("2026-12-01T11:30:00Z", erin, "I change my name to Erin.")) // a player, not a contestant
				}
				before, sent, players := snapshot(t, h), len(h.Sent), len(h.S.Players)
				r := h.Private("2026-12-02T12:00:00Z", from, tc.text)
				if r == nil {
					t.Fatal("no reply")
				}
				for _, want := range []string{"you are not a contestant in game 1, so nothing was recorded (Rumble 2)", "0 done, 1 not done"} {
					if !strings.Contains(norm(r.Body), want) {
						t.Errorf("the reply lacks %q:\n%s", want, r.Body)
					}
				}
				if n := len(h.S.Players); n != players {
					t.Errorf("%d players after the list, %d before", n, players)
				}
				if after := snapshot(t, h); after != before {
					t.Errorf("the state changed:\n%s\n---\n%s", before, after)
				}
				for _, n := range h.Sent[sent:] {
					if n.Channel != contract.ChanPrivate {
						t.Errorf("a notice went to %v:\n%s", n.Channel, n.Body)
					}
				}
			})
		}
	}
}

// TestNonContestantsLetterNotAnswered: while powers are due, private mail
// from someone who is not a contestant that does not read as powers (a
// letter with a "Word: text" line in it, a question, a note) was told "you
// are not a contestant in game 1, so nothing was recorded (Rumble 2)", as
// if it had been a submission. It gets no reply now, and nothing changes;
// powers sent the same way are still answered
// (TestNonContestantsListAnswered).
func TestNonContestantsLetterNotAnswered(t *testing.T) {
	const frank = "Frank <frank@example.test>" // no player at all
	for _, text := range []string{
		"Question: how do I join Life?",
		"Note: I am away until Monday.",
		"PS: thanks for running the games",
		"Hi,\n\nQuick question: is the Life round on Monday?\n\nThanks,\nFrank",
		"Re: my mail of yesterday\nPlease ignore it.",
		"Hello - is anyone reading this",
	} {
		for _, from := range []string{frank, erin} {
			h := atPowers(t)
			if from == erin {
				mustDone(t, h.Public("2026-12-01T11:30:00Z", erin, "I change my name to Erin.")) // a player, not a contestant
			}
			before := snapshot(t, h)
			if r := h.Private("2026-12-02T12:00:00Z", from, text); r != nil {
				t.Errorf("%q from %s got a reply:\n%s", text, from, r.Body)
			}
			if after := snapshot(t, h); after != before {
				t.Errorf("%q from %s: the state changed", text, from)
			}
		}
	}
}
