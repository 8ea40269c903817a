package contract

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
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
// encoder's text at the entry's depth, for the texts of events as they
// are, YAML's tricky ones, and random ones drawn from plain and unplain
// characters at any time and zone; and the plain ones are written by hand.
func TestHashHappeningIsTheEncoders(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 4, 5, 120000000, time.UTC)
	for _, plain := range []string{"Alice", "takes control of Cell (16, 14) (R16)", "Bob's bid, 3 stamina", "a", "Zoë", "yesterday", "nullified", "wins 5 coins & a Vial!", "Ünïcode 漢字 ok"} {
		if !sameHashHappening(t, Happening{Time: at, Who: plain, What: plain}) {
			t.Errorf("%q is not written by hand", plain)
		}
	}
	for _, tricky := range append(append([]string(nil), trickyEvents...), happeningRunes...) {
		sameHashHappening(t, Happening{Time: at, Who: "Alice", What: tricky})
		sameHashHappening(t, Happening{Time: at, Who: tricky, What: "joins"})
	}
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("X", -5*3600-30*60), time.FixedZone("", 59)}
	r := rand.New(rand.NewPCG(5, 6))
	text := func() string {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteString("Cell")
		}
		from := happeningRunes
		if r.IntN(2) == 0 {
			from = happeningRunes[:plainRunes]
		}
		for range r.IntN(12) {
			b.WriteString(from[r.IntN(len(from))])
		}
		return b.String()
	}
	hand := 0
	for range 20000 {
		ev := Happening{Time: time.Unix(r.Int64N(1<<36)-1<<35, r.Int64N(1e9)).In(zones[r.IntN(len(zones))]), Who: text(), What: text()}
		if sameHashHappening(t, ev) {
			hand++
		}
	}
	if hand < 1000 {
		t.Errorf("only %d of 20000 random events written by hand", hand)
	}
}

// FuzzHashHappening: any recent event plainHappening writes by hand is the
// encoder's text at its depth in hashedState.
func FuzzHashHappening(f *testing.F) {
	for i, ev := range trickyEvents {
		f.Add(trickyEvents[(i+1)%len(trickyEvents)], ev, int64(i)*1e9+int64(i), 3600*i)
	}
	f.Add("Alice", "takes control of Cell (16, 14) (R16)", int64(1764583200e9), 0)
	f.Fuzz(func(t *testing.T, who, what string, ns int64, offset int) {
		sameHashHappening(t, Happening{Time: time.Unix(0, ns).In(time.FixedZone("", offset%(24*3600))), Who: who, What: what})
	})
}
