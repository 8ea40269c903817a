package wackyworld

import (
	"fmt"
	"net/mail"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// testSecret is the harness's fixed master secret, so draws can be
// recomputed (G5).
var testSecret = contracttest.Secret[:]

const cm = contracttest.Contestmaster

// harness drives the interpreter with Wacky World alone through
// contracttest, with the game's own fixtures on top.
type harness struct {
	t *testing.T
	H *contracttest.Harness
	e *contract.Engine
	s *contract.State
}

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	return contracttest.At(t, s)
}

func newHarness(t *testing.T, start string) *harness {
	t.Helper()
	H := contracttest.New(t, start, New())
	return &harness{t: t, H: H, e: H.E, s: H.S}
}

func (h *harness) data() *State { return h.s.Games[ID].Data.(*State) }

// send applies one message and returns the notices it caused.
func (h *harness) send(at, from, body string, ch contract.Channel) []*contract.Notice {
	h.t.Helper()
	addr, err := mail.ParseAddress(from)
	if err != nil {
		h.t.Fatalf("address %q: %v", from, err)
	}
	t := mustTime(h.t, at)
	return h.H.Send(&contract.Message{From: strings.ToLower(addr.Address), Name: addr.Name,
		Date: t, Arrived: t, Channel: ch, Text: body, Subject: "Wacky World", Authenticated: true})
}

// public sends a public message and returns its receipt (nil if none).
func (h *harness) public(at, from, body string) *contract.Notice {
	h.t.Helper()
	return contracttest.Receipt(h.send(at, from, body, contract.ChanPublic))
}

// advance runs the scheduled events up to at.
func (h *harness) advance(at string) []*contract.Notice {
	h.t.Helper()
	return h.H.Advance(at)
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

// done reports whether a receipt says the (only) action was done.
func done(n *contract.Notice) bool {
	return n != nil && strings.Contains(n.Body, "1 done, 0 not done")
}
