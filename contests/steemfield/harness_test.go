package steemfield

import (
	"net/mail"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

var players = []string{
	"Alice <alice@example.test>",
	"Bob <bob@example.test>",
	"Carol <carol@example.test>",
	"Dave <dave@example.test>",
	"Erin <erin@example.test>",
}

func newHarness(t *testing.T) *contracttest.Harness {
	t.Helper()
	return contracttest.New(t, "2026-12-01T09:00:00Z", New())
}

// joinAll makes the first n players join at 10:00, 10:01, ...; the game
// starts with the third.
func joinAll(t *testing.T, h *contracttest.Harness, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		r := h.Public("2026-12-01T10:0"+string(rune('0'+i))+":00Z", players[i], "{DELEGATE: 1}")
		if r == nil || !strings.Contains(r.Body, "1 done") {
			t.Fatalf("join %s: %v", players[i], r)
		}
	}
}

// reply sends a public comment under one of the totem's posts.
func reply(t *testing.T, h *contracttest.Harness, at, from, text, post string) *contract.Notice {
	t.Helper()
	a, err := mail.ParseAddress(from)
	if err != nil {
		t.Fatal(err)
	}
	when := contracttest.At(t, at)
	id := contract.MessageID(post, "example.test")
	return contracttest.Receipt(h.Send(&contract.Message{From: strings.ToLower(a.Address), Name: a.Name,
		Date: when, Arrived: when, Subject: "Re: post", Channel: contract.ChanPublic, Authenticated: true,
		Text: text, InReplyTo: []string{id}, References: []string{id}}))
}

// data0 is the game's own state.
func data0(h *contracttest.Harness) *State { return h.Data(ID).(*State) }

func land(h *contracttest.Harness, who string) int64 { return h.S.Ledger.Balance(LAND, who) }

// give moves LAND from the totem to a player (test setup).
func give(t *testing.T, h *contracttest.Harness, who string, n int64) {
	t.Helper()
	if err := h.S.Ledger.Move(LAND, Totem, who, n); err != nil {
		t.Fatal(err)
	}
}

func mustContain(t *testing.T, r *contract.Notice, want ...string) {
	t.Helper()
	if r == nil {
		t.Fatalf("no receipt; want %q", want)
	}
	body := strings.Join(strings.Fields(r.Body), " ")
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("receipt lacks %q:\n%s", w, r.Body)
		}
	}
}

const (
	r1 = "steemfield/round/1/results-post"
	p1 = "steemfield/round/1/proposal-post"
)
