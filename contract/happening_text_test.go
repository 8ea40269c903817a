package contract

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// encodersHappening is an entry of a section's recent events as the YAML
// encoder writes it in the state file: the text happeningItem must equal.
func encodersHappening(t testing.TB, ev Happening) []byte {
	t.Helper()
	b, err := encodeYAML(struct {
		R []Happening `yaml:"recent"`
	}{[]Happening{ev}})
	if err != nil {
		t.Fatal(err)
	}
	return b[len("recent:\n"):]
}

// sameHappening: ev written by hand, when happeningItem writes it, is the
// encoder's text; plain says whether it must be written by hand.
func sameHappening(t testing.TB, ev Happening) (byHand bool) {
	t.Helper()
	got, ok := happeningItem(ev)
	if !ok {
		return false
	}
	if want := encodersHappening(t, ev); !bytes.Equal(got, want) {
		t.Fatalf("%q, %q written by hand:\n%s\nthe encoder writes:\n%s", ev.Who, ev.What, got, want)
	}
	return true
}

// happeningRunes are the characters the random texts are drawn from: the
// plainRunes first, those of most events, then each that makes the
// encoder quote, escape or fold a text, or read it as something else.
const plainRunes = 28

var happeningRunes = []string{
	"a", "Z", "é", "漢", "0", "9", " ", " ", "(", ")", ",", ".", "-", "'", "\"", "/", "+", "=", "!", "&", "*", "|", ">", "%", "@", "`", "~", "\\",
	":", "#", "?", "[", "]", "{", "}", "\t", "\n", "\r", "\x00", "\x7f", "\u0085", "\u00a0", "\u2028", "\ufeff", "\ufffd", "\ufffe", "😀", "\xff",
	"true", "null", "yes", "No", "off", "y", "1.5", "0x1F", "2026-12-01", ".inf", "---", "...", ": ", " #", "<<",
}

// TestHappeningTextIsTheEncoders: every recent event happeningItem writes
// by hand is byte for byte the YAML encoder's text (happeningsAsTheEncoder).
func TestHappeningTextIsTheEncoders(t *testing.T) {
	happeningsAsTheEncoder(t, rand.New(rand.NewPCG(3, 4)), sameHappening)
}

// happeningsAsTheEncoder checks with same, which says whether an event was
// written by hand (and fails t if that text is not the encoder's), the
// texts of events as they are, YAML's tricky ones, and 20,000 random ones
// drawn by r from plain and unplain characters at any time and zone; the
// plain ones, and at least 1,000 of the random ones, must be written by hand.
func happeningsAsTheEncoder(t *testing.T, r *rand.Rand, same func(testing.TB, Happening) bool) {
	at := time.Date(2026, 12, 1, 10, 4, 5, 120000000, time.UTC)
	for _, plain := range []string{"Alice", "takes control of Cell (16, 14) (R16)", "Bob's bid, 3 stamina", "a", "Zoë", "yesterday", "nullified", "wins 5 coins & a Vial!", "Ünïcode 漢字 ok"} {
		if !same(t, Happening{Time: at, Who: plain, What: plain}) {
			t.Errorf("%q is not written by hand", plain)
		}
	}
	for _, tricky := range slices.Concat(trickyEvents, happeningRunes) {
		same(t, Happening{Time: at, Who: "Alice", What: tricky})
		same(t, Happening{Time: at, Who: tricky, What: "joins"})
	}
	zones := []*time.Location{time.UTC, time.FixedZone("", 2*3600), time.FixedZone("X", -5*3600-30*60), time.FixedZone("", 59)}
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
		if same(t, ev) {
			hand++
		}
	}
	if hand < 1000 {
		t.Errorf("only %d of 20000 random events written by hand", hand)
	}
}

// fuzzHappenings seeds f with the tricky events and a plain one, and runs
// same on every event the fuzzer makes of them.
func fuzzHappenings(f *testing.F, same func(testing.TB, Happening) bool) {
	for i, ev := range trickyEvents {
		f.Add(trickyEvents[(i+1)%len(trickyEvents)], ev, int64(i)*1e9+int64(i), 3600*i)
	}
	f.Add("Alice", "takes control of Cell (16, 14) (R16)", int64(1764583200e9), 0)
	f.Fuzz(func(t *testing.T, who, what string, ns int64, offset int) {
		same(t, Happening{Time: time.Unix(0, ns).In(time.FixedZone("", offset%(24*3600))), Who: who, What: what})
	})
}

// FuzzHappeningText: any recent event happeningItem writes by hand is the
// encoder's text.
func FuzzHappeningText(f *testing.F) {
	fuzzHappenings(f, sameHappening)
}
