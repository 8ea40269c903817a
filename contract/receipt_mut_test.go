package contract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestHelpBySubject: "help" as the Subject of a message with no text is
// answered with the help; with actions in the text, the actions are
// performed and the Subject is only a subject.
func TestHelpBySubject(t *testing.T) {
	h := newToy(t)
	send := func(at, text string) []*contract.Notice {
		return h.Send(&contract.Message{From: "alice@example.test", Name: "Alice", Arrived: contracttest.At(t, at),
			Subject: "help", Channel: contract.ChanPrivate, Authenticated: true, Text: text})
	}
	ns := send("2026-12-01T10:05:00Z", " \n")
	if len(ns) != 1 || !strings.HasPrefix(ns[0].ID, "help/") || !strings.Contains(ns[0].Body, "The referee: help") {
		t.Errorf("an empty message with Subject help got %+v", ns)
	}
	ns = send("2026-12-01T10:06:00Z", "I seal 7.")
	r := contracttest.Receipt(ns)
	if r == nil || !strings.HasPrefix(r.ID, "receipt/") || !strings.Contains(r.Body, "Done: sealed") {
		t.Errorf("an action under Subject help got %+v", r)
	}
}

// TestReceiptsOfASenderWithNone: a state file that lists a sender with no
// receipt times (an operator's edit) is read, and that sender and others
// get their receipts.
func TestReceiptsOfASenderWithNone(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.S.Receipts["bob@example.test"] = []time.Time{}
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "bob@example.test: []") {
		t.Fatalf("the state file does not list bob with no receipts:\n%s", b)
	}
	if h.S, err = h.E.Decode(b); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{bob, alice} {
		r := h.Public("2026-12-01T10:06:00Z", who, "I join the Toy game.")
		if r == nil || !strings.HasPrefix(r.ID, "receipt/") {
			t.Errorf("%s got no receipt: %+v", who, r)
		}
	}
}

// withLimit is a toy harness whose receipts are limited to n an hour.
func withLimit(t *testing.T, n int) *contracttest.Harness {
	return contracttest.NewConfig(t, contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster,
		ListWait: time.Hour, RateLimit: n}, "2026-12-01T10:00:00Z", &toy{})
}

// fromAlice is a private message from Alice.
func fromAlice(t *testing.T, at, text string) *contract.Message {
	return &contract.Message{From: "alice@example.test", Name: "Alice", Arrived: contracttest.At(t, at),
		Subject: "actions", Channel: contract.ChanPrivate, Authenticated: true, Text: text}
}

// kinds lists what a message got: "receipt" or "paused" per notice.
func kinds(ns []*contract.Notice) string {
	var out []string
	for _, n := range ns {
		switch {
		case strings.HasPrefix(n.ID, "receipt/"):
			out = append(out, "receipt")
		case strings.HasPrefix(n.ID, "receipts-paused/"):
			out = append(out, "paused")
		default:
			out = append(out, n.ID)
		}
	}
	return strings.Join(out, " ")
}

// TestReceiptsResumeAtTheHour: with a limit of 2 an hour, a receipt sent
// exactly an hour ago no longer counts, as the pause notice says
// ("paused until" the first receipt's time plus an hour).
func TestReceiptsResumeAtTheHour(t *testing.T) {
	h := withLimit(t, 2)
	var got []string
	for _, at := range []string{"2026-12-01T10:05:00Z", "2026-12-01T10:35:00Z", "2026-12-01T10:40:00Z", "2026-12-01T11:05:00Z"} {
		got = append(got, kinds(h.Send(fromAlice(t, at, "I seal 1."))))
	}
	if d := cmp.Diff([]string{"receipt", "receipt", "paused", "receipt"}, got); d != "" {
		t.Errorf("receipts (-want +got):\n%s", d)
	}
}

// TestPauseToldAgainAfterAnHour: a sender told that eir receipts are
// paused is told again at the next pause, once the first notice is an
// hour old.
func TestPauseToldAgainAfterAnHour(t *testing.T) {
	h := withLimit(t, 1)
	var got []string
	for _, at := range []string{"2026-12-01T10:05:00Z", "2026-12-01T10:35:00Z", "2026-12-01T10:50:00Z", "2026-12-01T11:05:00Z", "2026-12-01T11:35:00Z"} {
		got = append(got, kinds(h.Send(fromAlice(t, at, "I seal 1."))))
	}
	if d := cmp.Diff([]string{"receipt", "paused", "", "receipt", "paused"}, got); d != "" {
		t.Errorf("receipts (-want +got):\n%s", d)
	}
}

// TestReceiptThreads: a receipt's References are the message's, or its
// In-Reply-To when it has none, then the message itself, so a mail client
// threads the receipt under the message.
func TestReceiptThreads(t *testing.T) {
	h := newToy(t)
	for i, c := range []struct{ refs, inReplyTo, want []string }{
		{nil, nil, []string{"t0@example.test"}},
		{nil, []string{"a@example.test"}, []string{"a@example.test", "t1@example.test"}},
		{[]string{"a@example.test", "b@example.test"}, []string{"b@example.test"}, []string{"a@example.test", "b@example.test", "t2@example.test"}},
	} {
		m := fromAlice(t, "2026-12-01T10:05:00Z", "I seal 1.")
		m.ID, m.References, m.InReplyTo = fmt.Sprintf("t%d@example.test", i), c.refs, c.inReplyTo
		r := contracttest.Receipt(h.Send(m))
		if r == nil {
			t.Fatalf("no receipt for %s", m.ID)
		}
		if d := cmp.Diff(c.want, r.References); d != "" || r.InReplyTo != m.ID {
			t.Errorf("receipt of %s: In-Reply-To %s, References (-want +got):\n%s", m.ID, r.InReplyTo, d)
		}
	}
}
