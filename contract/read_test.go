package contract_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

// listToy is the toy game reading a private message's "- " lines whole as
// one list, as Rumble reads a private list (an Extractor): the list stands
// at the message's start, and quotes its lines joined by " / ".
type listToy struct{ toy }

var listVerb = &contract.Verb{Name: "list", Syntax: `a private list, each line starting "- "`, Rule: "T16", Scope: contract.PrivateOnly,
	Do: func(c *contract.Ctx, a *contract.Action) error {
		c.Did("%d lines listed", strings.Count(a.Body, "\n")+1)
		return nil
	}}

func (g *listToy) Extract(c *contract.Ctx, m *contract.Message) []*contract.Action {
	if m.Channel != contract.ChanPrivate {
		return nil
	}
	var items []string
	for _, l := range strings.Split(m.Text, "\n") {
		if strings.HasPrefix(l, "- ") {
			items = append(items, strings.TrimSpace(l))
		}
	}
	if len(items) == 0 {
		return nil
	}
	return []*contract.Action{{Line: strings.Join(items, " / "), Offset: 0, Verb: listVerb, Body: strings.Join(items, "\n"), Args: map[string]string{}}}
}

// quoted is the lines a receipt quotes, in order.
func quoted(r *contract.Notice) []string {
	var out []string
	for _, l := range strings.Split(r.Body, "\n") {
		if q, ok := strings.CutPrefix(l, "> "); ok {
			out = append(out, q)
		}
	}
	return out
}

// TestListReadWholeComesFirst: a list a game reads whole from a private
// message stands at the message's start, so its receipt quotes it first,
// before a sentence of the first line, performed or not understood; a
// sentence the list quotes is performed once, as part of the list.
func TestListReadWholeComesFirst(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &listToy{})
	r := h.Private("2026-12-01T10:05:00Z", alice, "I seal 3.\n\n- north\n- south\n")
	if r == nil {
		t.Fatal("no receipt")
	}
	if d := cmp.Diff([]string{"- north / - south", "I seal 3."}, quoted(r)); d != "" {
		t.Errorf("receipt order (-want +got):\n%s\n%s", d, r.Body)
	}
	if !strings.Contains(r.Body, "2 lines listed") || !strings.Contains(r.Body, "Done: sealed") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	r = h.Private("2026-12-01T10:10:00Z", alice, "I jion the Toy game.\n\n- I seal 4.\n- east\n")
	if r == nil {
		t.Fatal("no receipt")
	}
	if d := cmp.Diff([]string{"- I seal 4. / - east", "I jion the Toy game."}, quoted(r)); d != "" {
		t.Errorf("receipt order (-want +got):\n%s\n%s", d, r.Body)
	}
	if strings.Contains(r.Body, "sealed") {
		t.Errorf("a sentence of the list was performed by itself:\n%s", r.Body)
	}
}

// TestJoinedActions: several actions joined by "and" with one subject are
// each performed, in the order written, a part naming no game taking the
// game another part names; the receipt quotes each part as written ("I
// ...", then "... and ..."). At most five parts, and 400 characters: a
// longer list is not read as one.
func TestJoinedActions(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &toy{}, &other{})
	r := h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game and score 1 point and score 2 points and score 3 points and score 4 points.")
	want := []string{"I join the Toy game", "... and score 1 point", "... and score 2 points", "... and score 3 points", "... and score 4 points."}
	if d := cmp.Diff(want, quoted(r)); d != "" || !strings.Contains(r.Body, "5 done, 0 not done.") {
		t.Errorf("five joined actions (-want +got):\n%s\n%s", d, r.Body)
	}
	r = h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game and score 1 point and score 2 points and score 3 points and score 4 points and score 5 points.")
	if !strings.Contains(r.Body, "Not done: not understood") || strings.Contains(r.Body, "you joined") {
		t.Errorf("six joined actions were read:\n%s", r.Body)
	}

	// "I join the Toy game and ask the contestmaster about xxx": the action
	// (after "I ") 400 characters long, then 401.
	ask := func(n int) string {
		s := "I join the Toy game and ask the contestmaster about x."
		p, ok := contract.ReadPerformative(s)
		if !ok {
			t.Fatalf("%q is not read", s)
		}
		return strings.Replace(s, "about x", "about "+strings.Repeat("x", n-len(p.Action)+1), 1)
	}
	for i, c := range []struct {
		n    int
		read bool
	}{{400, true}, {401, false}} {
		who := fmt.Sprintf("P%c <p%d@example.test>", 'a'+i, i)
		r := h.Public(fmt.Sprintf("2026-12-01T10:1%d:00Z", i), who, ask(c.n))
		if got := strings.Contains(r.Body, "2 done, 0 not done."); got != c.read {
			t.Errorf("joined actions of %d characters read as two: %v, want %v:\n%s", c.n, got, c.read, r.Body)
		}
	}
}

// TestAndWithinOneAction: a sentence that reads whole as one action is not
// split at an "and" inside it, even where each part would be an action.
func TestAndWithinOneAction(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I ask the contestmaster whether pokes stack and join the Toy game.")
	if d := cmp.Diff([]string{"I ask the contestmaster whether pokes stack and join the Toy game."}, quoted(r)); d != "" || !strings.Contains(r.Body, "1 done, 0 not done.") {
		t.Errorf("receipt (-want +got):\n%s\n%s", d, r.Body)
	}
	if len(h.S.Members("toy")) != 0 {
		t.Error("the question's words were performed")
	}
}

// TestReadGivesTheCondition: Read (the phrasing corpus's reader) gives an
// action's condition as "if", and none for an action without one.
func TestReadGivesTheCondition(t *testing.T) {
	e := newToy(t).E
	got := e.Read("If I own more than 5 coins, I poke Bob in Toy. I poke Carol in Toy.")
	if len(got) != 2 || got[0].Args["if"] != "I own more than 5 coins" || got[0].Args["who"] != "Bob" {
		t.Fatalf("read as %+v", got)
	}
	if c, ok := got[1].Args["if"]; ok {
		t.Errorf("an action without a condition read with the condition %q", c)
	}
}

// greedyToy is the toy game listing first a verb that the toy's "poke
// <player>" also matches.
type greedyToy struct{ toy }

func (g *greedyToy) Verbs() []*contract.Verb {
	all := &contract.Verb{Name: "poke all", Pattern: `poke everyone`, Syntax: "I poke everyone in Toy", Rule: "T4",
		Do: func(c *contract.Ctx, a *contract.Action) error { c.Did("everyone is poked"); return nil }}
	return append([]*contract.Verb{all}, g.toy.Verbs()...)
}

// TestFirstVerbListedWins: a sentence that two verbs of one game match is
// read as the one the game lists first.
func TestFirstVerbListedWins(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &greedyToy{})
	r := h.Public("2026-12-01T10:05:00Z", alice, "I poke everyone in Toy.")
	if r == nil || !strings.Contains(r.Body, "Done: everyone is poked") {
		t.Errorf("receipt: %v", r)
	}
}
