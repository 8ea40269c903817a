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

func st(h *contracttest.Harness) *State { return h.Data(ID).(*State) }

func land(h *contracttest.Harness, who string) int64 { return h.S.Ledger.Balance(LAND, who) }

func TestSmoke(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 5)
	r1 := postID("results", 1)
	reply(t, h, "2026-12-01T11:00:00Z", players[0], "{PLACE: L(3, 4)}", r1)
	ns := h.Advance("2026-12-05T10:00:00Z")
	for _, n := range ns {
		t.Logf("%s %s\n%s", n.ID, n.Subject, n.Body)
	}
}
