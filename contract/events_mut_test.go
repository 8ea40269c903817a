package contract_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// quiz is a second game that asks its contestmaster rulings under the same
// keys as the toy, lists its open ones, and refuses silence at a deadline.
type quiz struct{ toy }

func (g *quiz) Spec() contract.Spec {
	return contract.Spec{ID: "quiz", Title: "Quiz", Aliases: []string{"quiz"}, Guide: "The quiz.\n"}
}

func (g *quiz) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "ask", Pattern: `ask the contestmaster (?P<q>.+)`, Syntax: "I ask the contestmaster <question> in Quiz", Rule: "Q1",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				r := c.AskRuling("q/"+a.Arg("q"), a.Arg("q"), "the answer is no")
				c.Did("asked as ruling #%d", r.ID)
				return nil
			}},
		{Name: "open", Pattern: `list the open rulings`, Syntax: "I list the open rulings in Quiz", Rule: "Q2",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				var ids []string
				for _, r := range c.Rulings() {
					ids = append(ids, fmt.Sprintf("#%d", r.ID))
				}
				c.Did("open rulings of Quiz: %s", strings.Join(ids, ", "))
				return nil
			}},
	}
}

func (g *quiz) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	if timedOut {
		return errors.New("quiz: silence is not an answer")
	}
	return g.toy.OnRuling(c, r, timedOut)
}

// TestRulingAskedOncePerGame: a game asking again what it already asked gets
// the open request back, and the contestmaster no second mail; another game
// asking under the same key gets its own request (G8). Each game lists its
// own open requests, and a game's failure at a deadline is the referee's
// fault, naming the request.
func TestRulingAskedOncePerGame(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &toy{}, &quiz{})
	asked := func(at, text, want string) {
		t.Helper()
		r := h.Public(at, alice, text)
		if r == nil || !strings.Contains(r.Body, want) {
			t.Errorf("%q: receipt lacks %q:\n%v", text, want, r)
		}
	}
	requests := func() int {
		n := 0
		for _, o := range h.Sent {
			if o.Kind == "ruling" {
				n++
			}
		}
		return n
	}
	asked("2026-12-01T10:05:00Z", "I ask the contestmaster whether pokes stack in Toy.", "asked as ruling #1")
	asked("2026-12-01T10:06:00Z", "I ask the contestmaster whether pokes stack in Toy.", "asked as ruling #1")
	if n := requests(); n != 1 {
		t.Errorf("the contestmaster got %d ruling requests for one question, want 1", n)
	}
	asked("2026-12-01T10:07:00Z", "I ask the contestmaster whether pokes stack in Quiz.", "asked as ruling #2")
	if n := requests(); n != 2 {
		t.Errorf("the contestmaster got %d ruling requests for a question of each game, want 2", n)
	}
	asked("2026-12-01T10:08:00Z", "I list the open rulings in Quiz.", "open rulings of Quiz: #2")

	// The toy's request ends in silence, as its default; the quiz's
	// refuses it.
	h.Advance("2026-12-03T10:06:00Z")
	if st := h.Data("toy").(*toyState); len(st.Rulings) != 1 || st.Rulings[0] != "q/whether pokes stack: (silence) the answer is no" {
		t.Errorf("the toy's rulings: %q", st.Rulings)
	}
	_, err := h.E.Advance(h.S, contracttest.At(t, "2026-12-03T10:08:00Z"))
	if err == nil || !strings.Contains(err.Error(), "ruling #2 deadline: quiz: silence is not an answer") {
		t.Errorf("the quiz's failure at the deadline: %v", err)
	}
}

// TestExpiryJournaled: an intent's expiry has its journal line, in the
// journal's numbering, under its game (G7).
func TestExpiryJournaled(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Advance("2026-12-15T10:10:00Z")
	h.Public("2026-12-15T10:11:00Z", bob, "I transfer 1 coin to Alice.")
	var expired *contract.Entry
	for i, en := range h.Entries {
		if i > 0 && en.Seq != h.Entries[i-1].Seq+1 {
			t.Errorf("journal line %d (%s) numbered %d after %d", i, en.Verb, en.Seq, h.Entries[i-1].Seq)
		}
		if en.Verb == "intent expired" {
			expired = &h.Entries[i]
		}
	}
	if expired == nil || expired.Game != "toy" || expired.Detail["intent"] != 1 {
		t.Errorf("the expiry's journal line: %+v", expired)
	}
}

// TestWeeklyRandomnessJournaled: the weekly Randomness notice has its
// journal line, recording the commitment it publishes and the seed it
// reveals (DESIGN "Randomness"), which `referee verify` checks.
func TestWeeklyRandomnessJournaled(t *testing.T) {
	h := newToy(t)
	h.Advance("2026-12-07T00:00:00Z")
	commitment := noticeMatch(t, h.Sent, `2026-W51  2026-12-14  ([0-9a-f]{64})`)
	seed := noticeMatch(t, h.Sent, `(?m)^2026-W49  ([0-9a-f]{64})$`)
	var line *contract.Entry
	for i, en := range h.Entries {
		if en.Verb == "randomness" && en.Time.Equal(contracttest.At(t, "2026-12-07T00:00:00Z")) {
			line = &h.Entries[i]
		}
	}
	if line == nil {
		t.Fatalf("no journal line for the weekly Randomness notice: %+v", h.Entries)
	}
	got := fmt.Sprint(line.Detail["committed"], line.Detail["revealed"])
	for _, want := range []string{"week:2026-W51", "commitment:" + commitment, "week:2026-W49", "seed:" + seed} {
		if !strings.Contains(got, want) {
			t.Errorf("the journal line lacks %q: %s", want, got)
		}
	}
}
