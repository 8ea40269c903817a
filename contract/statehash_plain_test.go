package contract

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// sameHashHappening: ev, when plainHappening writes it, is written as the
// YAML encoder writes it at its depth in hashedState (happeningText); byHand
// says whether plainHappening wrote it.
func sameHashHappening(t testing.TB, ev Happening) (byHand bool) {
	t.Helper()
	got, ok := plainHappening(ev)
	if !ok {
		return false
	}
	want, err := happeningText(ev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%q, %q at %v written by hand for the state hash:\n%s\nthe encoder writes:\n%s", ev.Who, ev.What, ev.Time, got, want)
	}
	return true
}

// TestHashHappeningIsTheEncoders: every recent event plainHappening writes
// by hand into the text a state hash covers is byte for byte the YAML
// encoder's text at the entry's depth (happeningsAsTheEncoder).
func TestHashHappeningIsTheEncoders(t *testing.T) {
	happeningsAsTheEncoder(t, rand.New(rand.NewPCG(5, 6)), sameHashHappening)
}

// FuzzHashHappening: any recent event plainHappening writes by hand is the
// encoder's text at its depth in hashedState.
func FuzzHashHappening(f *testing.F) {
	fuzzHappenings(f, sameHashHappening)
}

// TestHashLedgerIsTheEncoders: the state hash's text with the ledger and
// the points written from the kept text of their keys is byte for byte
// the whole encoding, for ledgers drawn at random, one hashText kept
// across them (keys coming and going, learnt again), with keys of every
// kind (tricky ones, long ones the encoder writes as explicit keys, ones
// on two lines), empty and missing maps, amounts of any sign.
func TestHashLedgerIsTheEncoders(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	names := []string{"Alice", "Bob", "life/vial", "rumble/stamina", "10", "2b", "a b", "é", "Z", "yes", "null", "", "~", "- x", "a: b", "#c",
		"two\nlines", "\nstarts", strings.Repeat("k", 200), "tab\there", "\xff"}
	plain := names[:11]
	key := func(from []string) string { return from[r.IntN(len(from))] }
	var c hashText
	byHand := 0
	for range 1000 {
		from := plain
		if r.IntN(8) == 0 {
			from = names
		}
		l := Ledger{}
		if r.IntN(10) > 0 {
			l.Balances = map[string]map[string]int64{}
			for range r.IntN(4) {
				m := map[string]int64{}
				for range r.IntN(5) {
					m[key(from)] = r.Int64N(2000) - 1000
				}
				l.Balances[key(from)] = m
			}
		}
		if r.IntN(10) > 0 {
			l.Supply = map[string]int64{}
			for range r.IntN(3) {
				l.Supply[key(from)] = r.Int64N(1 << 40)
			}
		}
		var points map[string]map[string]int
		if r.IntN(10) > 0 {
			points = map[string]map[string]int{}
			for range r.IntN(4) {
				m := map[string]int{}
				for range r.IntN(3) {
					m[key(from)] = r.IntN(50) - 10
				}
				points[key(from)] = m
			}
		}
		h := &hashedState{Seq: 3, Ledger: l, Points: points}
		sameHashText(t, &c, h)
		if _, _, ok := c.ledger(&h.Ledger, h.Points); ok {
			byHand++
		}
	}
	if byHand < 600 {
		t.Errorf("only %d of 1000 ledgers written from their keys' text", byHand)
	}
}
