package wackyworld

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"testing"
	"time"

	"referee/contract"
)

// testSecret is the fixed master secret of the tests, so draws can be
// recomputed (G5).
var testSecret = bytes.Repeat([]byte{7}, 32)

const cm = "cm@example.test"

// harness drives the interpreter with Wacky World alone, applying messages
// and scheduled events as the daemon does.
type harness struct {
	t    *testing.T
	e    *contract.Engine
	s    *contract.State
	n    int
	sent int
}

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("parse time %q: %v", s, err)
	}
	return at
}

func newHarness(t *testing.T, start string) *harness {
	t.Helper()
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test", Contestmaster: cm}, New())
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	s, _, err := e.NewState(testSecret, mustTime(t, start))
	if err != nil {
		t.Fatalf("new state: %v", err)
	}
	h := &harness{t: t, e: e, s: s}
	h.sent = len(s.Outbox)
	return h
}

func (h *harness) data() *State { return h.s.Games[ID].Data.(*State) }

// send applies one message and returns the notices it caused.
func (h *harness) send(at, from, body string, ch contract.Channel) []*contract.Notice {
	h.t.Helper()
	addr, err := mail.ParseAddress(from)
	if err != nil {
		h.t.Fatalf("address %q: %v", from, err)
	}
	h.n++
	m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", h.n), From: strings.ToLower(addr.Address), Name: addr.Name,
		Arrived: mustTime(h.t, at), Channel: ch, Text: body, Subject: "Wacky World", Authenticated: true}
	if _, err := h.e.Apply(h.s, m); err != nil {
		h.t.Fatalf("apply %q: %v", body, err)
	}
	return h.drain()
}

func (h *harness) drain() []*contract.Notice {
	var out []*contract.Notice
	for _, o := range h.s.Outbox[h.sent:] {
		n := o.Notice
		out = append(out, &n)
	}
	h.sent = len(h.s.Outbox)
	return out
}

// public sends a public message and returns its receipt (nil if none).
func (h *harness) public(at, from, body string) *contract.Notice {
	h.t.Helper()
	return receiptOf(h.send(at, from, body, contract.ChanPublic))
}

func receiptOf(ns []*contract.Notice) *contract.Notice {
	for _, n := range ns {
		if n.Kind == "receipt" {
			return n
		}
	}
	return nil
}

// advance runs the scheduled events up to at.
func (h *harness) advance(at string) []*contract.Notice {
	h.t.Helper()
	if _, err := h.e.Advance(h.s, mustTime(h.t, at)); err != nil {
		h.t.Fatalf("advance to %s: %v", at, err)
	}
	return h.drain()
}

// party returns the party with this address.
func (h *harness) party(addr string) *Party {
	h.t.Helper()
	p := h.data().party(addr)
	if p == nil {
		h.t.Fatalf("no party %s", addr)
	}
	return p
}

// place puts a party on a tile (test setup).
func (h *harness) place(addr string, x, y int) {
	h.t.Helper()
	p := h.party(addr)
	at := Pos{x, y}
	p.At, p.Last = &at, &at
}

// terrain sets tiles from a list of "x,y=c".
func (h *harness) terrain(sets ...string) {
	h.t.Helper()
	for _, s := range sets {
		var x, y int
		var c byte
		if _, err := fmt.Sscanf(s, "%d,%d=%c", &x, &y, &c); err != nil {
			h.t.Fatalf("terrain %q: %v", s, err)
		}
		h.data().set(Pos{x, y}, c)
	}
}

func (h *harness) snapshot() []byte {
	h.t.Helper()
	b, err := contract.Encode(h.s)
	if err != nil {
		h.t.Fatalf("encode: %v", err)
	}
	return b
}

// done reports whether a receipt says the (only) action was done.
func done(n *contract.Notice) bool {
	return n != nil && strings.Contains(n.Body, "1 done, 0 not done")
}
