package life

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"

	"gopkg.in/yaml.v3"
)

const (
	alice = "Alice <alice@example.test>"
	bob   = "Bob <bob@example.test>"
	carol = "Carol <carol@example.test>"
	cm    = "CM <cm@example.test>"
)

func newHarness(t *testing.T, start string) *contracttest.Harness {
	t.Helper()
	return contracttest.New(t, start, New())
}

// recordedJoins is a harness that records its inputs from 2026-11-16T12:00Z,
// in which each of players joins the Life contest, a minute apart from
// 13:00: their joins are m1, m2, ... in that order.
func recordedJoins(t *testing.T, players ...string) *contracttest.Harness {
	t.Helper()
	h := newHarness(t, "2026-11-16T12:00:00Z")
	h.Record()
	for i, p := range players {
		done(t, h.Public(fmt.Sprintf("2026-11-16T13:%02d:00Z", i), p, "I join the Life contest."), "Done")
	}
	return h
}

func st(h *contracttest.Harness) *State { return h.Data(ID).(*State) }

func balance(h *contracttest.Harness, owner string) int64 { return h.S.Ledger.Balance(Vial, owner) }

// done fails the test unless the receipt reports the action done.
func done(t *testing.T, rec *contract.Notice, want ...string) {
	t.Helper()
	if rec == nil {
		t.Fatal("no receipt")
	}
	for _, w := range want {
		if !strings.Contains(flat(rec.Body), flat(w)) {
			t.Errorf("receipt lacks %q:\n%s", w, rec.Body)
		}
	}
}

// snapshot is what a rejected action must leave unchanged: the game's state,
// its parameters, the ledger, the points and the memberships.
func snapshot(t *testing.T, h *contracttest.Harness) string {
	t.Helper()
	var members []string
	for _, p := range h.S.Players {
		members = append(members, p.Name+":"+strings.Join(p.Member, ","))
	}
	b, err := yaml.Marshal(map[string]any{"life": st(h), "params": h.S.Games[ID].Params,
		"ledger": h.S.Ledger, "points": h.S.Points, "members": members, "cm": h.S.Games[ID].Contestmaster})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// notDone fails the test unless the receipt reports the action refused,
// citing want.
func notDone(t *testing.T, rec *contract.Notice, want string) {
	t.Helper()
	if rec == nil {
		t.Fatal("no receipt")
	}
	if !strings.Contains(rec.Body, "Not done") || !strings.Contains(flat(rec.Body), flat(want)) {
		t.Errorf("receipt does not refuse with %q:\n%s", want, rec.Body)
	}
}

// cellsOf is the set of a player's Cells.
func cellsOf(h *contracttest.Harness, addr string) string { return st(h).Cells[addr] }

type harness = contracttest.Harness

// flat folds the receipt's wrapping so that phrases match across lines.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
