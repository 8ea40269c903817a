package contract_test

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// trickyIDs are Message-IDs a YAML writer must quote or fold: indicators,
// quotes, a colon-space, a leading dash, a number, a date, non-ASCII, and
// one longer than a YAML simple key may be.
var trickyIDs = []string{
	"CAB1xyz=abc@mail.gmail.com",
	"- starts with a dash@example.test",
	"has: colon space@example.test",
	"#hash@example.test",
	`quote"d'@example.test`,
	"12345",
	"2026-12-01",
	"null",
	"ünïcödé@exämple.test",
	"tab\there@example.test",
	strings.Repeat("long", 60) + "@example.test",
	strings.Repeat("longer ", 300) + "@example.test",
	"\n",
	"not\x80utf-8",
	"nel\u0085ls\u2028bom\ufeff",
	"",
}

func encodeDecode(t *testing.T, s *contract.State) *contract.State {
	t.Helper()
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := e.Decode(b)
	if err != nil {
		t.Fatalf("the encoding does not decode: %v\n%s", err, b)
	}
	return back
}

func sameSeen(a, b map[string]time.Time) bool {
	return maps.EqualFunc(a, b, func(x, y time.Time) bool { return x.Equal(y) })
}

// TestReceiptsEncoding: the receipt times per sender, written by hand, read
// back exactly, whatever the sender's address.
func TestReceiptsEncoding(t *testing.T) {
	h := newToy(t)
	at := contracttest.At(t, "2026-12-01T10:00:00Z")
	h.S.Receipts = map[string][]time.Time{}
	for i, id := range trickyIDs {
		var ts []time.Time
		for k := 0; k < i%3; k++ {
			ts = append(ts, at.Add(time.Duration(k)*time.Minute+987654321))
		}
		h.S.Receipts[id] = ts
	}
	back := encodeDecode(t, h.S)
	if len(back.Receipts) != len(h.S.Receipts) {
		t.Fatalf("%d senders read back, want %d", len(back.Receipts), len(h.S.Receipts))
	}
	for addr, ts := range h.S.Receipts {
		got := back.Receipts[addr]
		if len(got) != len(ts) {
			t.Errorf("%q: %v read back as %v", addr, ts, got)
			continue
		}
		for i := range ts {
			if !got[i].Equal(ts[i]) {
				t.Errorf("%q: %v read back as %v", addr, ts, got)
			}
		}
	}
}

// TestSeenEncoding: the processed-message memory, written from kept text,
// reads back exactly, in byte order of the Message-IDs, and the kept text
// follows every change to the map, also one made behind its back.
func TestSeenEncoding(t *testing.T) {
	h := newToy(t)
	s := h.S
	at := contracttest.At(t, "2026-12-01T10:00:00Z")
	s.Seen.Horizon = at.Add(-30 * 24 * time.Hour)
	s.Seen.Latest = at.Add(time.Duration(len(trickyIDs)) * time.Minute)
	s.Seen.IDs = map[string]time.Time{}
	for i, id := range trickyIDs {
		s.Seen.IDs[id] = at.Add(time.Duration(i)*time.Minute + 123456789)
	}
	back := encodeDecode(t, s)
	if !sameSeen(back.Seen.IDs, s.Seen.IDs) || !back.Seen.Horizon.Equal(s.Seen.Horizon) || !back.Seen.Latest.Equal(s.Seen.Latest) {
		t.Fatalf("seen read back as %+v, want %+v", back.Seen, s.Seen)
	}
	b, _ := contract.Encode(s)
	if i, j := bytes.Index(b, []byte("CAB1xyz")), bytes.Index(b, []byte("ünïcödé")); i < 0 || j < 0 || i > j {
		t.Errorf("IDs not in byte order:\n%s", b)
	}

	// Behind the kept text's back: a time changed, an ID gone, one added, in
	// the state and in a snapshot encoded by the same Encoder.
	var enc contract.Encoder
	if _, err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	snap := contract.Snapshot(s)
	s.Seen.IDs["12345"] = at.Add(time.Hour)
	delete(s.Seen.IDs, "null")
	s.Seen.IDs["new@example.test"] = at
	for _, st := range []*contract.State{s, snap, s} {
		back := encodeDecode(t, st)
		if !sameSeen(back.Seen.IDs, st.Seen.IDs) {
			t.Errorf("after changes, seen read back as %v, want %v", back.Seen.IDs, st.Seen.IDs)
		}
		sameEncoding(t, &enc, st)
	}
	// Emptied.
	clear(s.Seen.IDs)
	if b, _ := contract.Encode(s); !bytes.Contains(b, []byte("\n  ids: {}\n")) {
		t.Errorf("an empty memory is not written as ids: {}:\n%s", b)
	}
}

// FuzzSeenID: any Message-ID the referee remembers, and any address it
// counts receipts for, is read back as it was; so is any text in every
// other place of the state (checkTextRoundTrip).
func FuzzSeenID(f *testing.F) {
	for _, id := range slices.Concat(trickyIDs, leadingBreaks) {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		h := newToy(t)
		h.S.Seen.IDs = map[string]time.Time{id: contracttest.At(t, "2026-12-01T10:00:00Z"), "other@example.test": contracttest.At(t, "2026-12-02T10:00:00Z")}
		h.S.Receipts = map[string][]time.Time{id: {contracttest.At(t, "2026-12-01T10:00:00Z")}}
		h.S.Receipted = map[string]string{id: "toy", "other@example.test": "toy"}
		b, err := contract.Encode(h.S)
		if err != nil {
			t.Fatalf("Message-ID %q: %v", id, err)
		}
		e, _ := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
		back, err := e.Decode(b)
		if err != nil {
			t.Fatalf("Message-ID %q: the encoding does not decode: %v\n%s", id, err, b)
		}
		if !sameSeen(back.Seen.IDs, h.S.Seen.IDs) {
			t.Fatalf("Message-ID %q read back as %q", id, back.Seen.IDs)
		}
		if r := back.Receipts[id]; len(r) != 1 || !r[0].Equal(h.S.Receipts[id][0]) {
			t.Fatalf("receipts of %q read back as %q", id, back.Receipts)
		}
		if !maps.Equal(back.Receipted, h.S.Receipted) {
			t.Fatalf("the games of the receipts of %q read back as %q", id, back.Receipted)
		}
		checkTextRoundTrip(t, textState(t, id))
	})
}

// sameEncoding: what an Encoder writes from its kept text, directly and
// through a Take (a background snapshot's), is what a fresh encoding writes.
func sameEncoding(t *testing.T, enc *contract.Encoder, s *contract.State) {
	t.Helper()
	want, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := enc.Take(s).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the Encoder's kept text, taken, is stale:\n%s\nwant\n%s", got, want)
	}
	got, err = enc.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the Encoder's kept text is stale:\n%s\nwant\n%s", got, want)
	}
}

// TestEncoderSections: an Encoder's kept text of a game's section follows
// the game's every change, a section gone and another state encoded
// between two encodings of the first.
func TestEncoderSections(t *testing.T) {
	h := newToy(t)
	var enc contract.Encoder
	sameEncoding(t, &enc, h.S)
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join the toy game.")
	sameEncoding(t, &enc, h.S)
	other := newToy(t)
	sameEncoding(t, &enc, other.S)
	sameEncoding(t, &enc, h.S)
	h.S.Games["toy"].Data.(*toyState).Rounds++
	sameEncoding(t, &enc, h.S)
	h.S.Games["toy"].Params["START"] = "7"
	sameEncoding(t, &enc, h.S)
	h.S.Games["toy"].Contestmaster = "new@example.test"
	sameEncoding(t, &enc, h.S)
	snap := contract.Snapshot(h.S)
	delete(snap.Games, "toy")
	sameEncoding(t, &enc, snap)
	sameEncoding(t, &enc, h.S)
	// The last report's date moved to another zone at the same instant
	// (time.Equal holds): the file writes the new zone's offset.
	g := h.S.Games["toy"]
	g.LastReport = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	sameEncoding(t, &enc, h.S)
	g.LastReport = g.LastReport.In(time.FixedZone("", 2*3600))
	sameEncoding(t, &enc, h.S)
	g.LastReport = g.LastReport.In(time.FixedZone("", -5*3600-30*60))
	sameEncoding(t, &enc, h.S)
	g.LastReport = g.LastReport.UTC()
	sameEncoding(t, &enc, h.S)
	// So does a recent event's time.
	event := contract.Happening{Time: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), Who: "Alice", What: "wins a round"}
	g.Recent = append(slices.Clone(g.Recent), event)
	sameEncoding(t, &enc, h.S)
	event.Time = event.Time.In(time.FixedZone("", 3600))
	g.Recent = append(slices.Clone(g.Recent[:len(g.Recent)-1]), event)
	sameEncoding(t, &enc, h.S)
	// A player added, then the section removed and put back.
	h.Public("2026-12-01T10:10:00Z", "Bob <bob@example.test>", "I join the toy game.")
	sameEncoding(t, &enc, h.S)
	delete(h.S.Games, "toy")
	sameEncoding(t, &enc, h.S)
	h.S.Games["toy"] = g
	sameEncoding(t, &enc, h.S)
}

// TestSeenKeysAsWritten: in the state file an operator reads, a Message-ID
// of letters and digits (a to z, A to Z, 0 to 9, the ends of each range
// too) and safe punctuation is written plain, one that YAML could misread
// is quoted, and an ID of up to 512 bytes is an ordinary key, a longer one
// an explicit "? " key.
func TestSeenKeysAsWritten(t *testing.T) {
	h := newToy(t)
	at := contracttest.At(t, "2026-12-01T10:00:00Z")
	long512 := strings.Repeat("a", 512-len("@example.test")) + "@example.test"
	long513 := "b" + long512
	h.S.Seen.IDs = map[string]time.Time{"az.AZ.09@example.test": at, "x: y@example.test": at, long512: at, long513: at}
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n    az.AZ.09@example.test: 2026-12-01T10:00:00Z\n",
		"\n    \"x: y@example.test\": 2026-12-01T10:00:00Z\n",
		"\n    " + long512 + ": 2026-12-01T10:00:00Z\n",
		"\n    ? " + long513 + "\n",
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the state file lacks %q:\n%s", want, b)
		}
	}
}

// TestReceiptedWritten: the game of each remembered message's receipt is
// written a line a message, plain, and reads back; a game's ID the state
// file's own writing does not take (not lower-case letters) is written by
// the YAML encoder and reads back too; none, the key is left out.
func TestReceiptedWritten(t *testing.T) {
	h := newToy(t)
	e, _ := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
	for _, r := range []map[string]string{
		{"2.a@example.test": "life", "10.b@example.test": "rumble", "odd id: \"quoted\"": "toy"},
		{"1.a@example.test": "life", "2.b@example.test": "Not A Game: yes"},
		nil,
	} {
		h.S.Receipted = r
		b, err := contract.Encode(h.S)
		if err != nil {
			t.Fatal(err)
		}
		if r == nil && strings.Contains(string(b), "receipted") {
			t.Fatalf("no receipts' games written as\n%s", b)
		}
		if r != nil && r["10.b@example.test"] == "rumble" && !strings.Contains(string(b), "\nreceipted:\n  10.b@example.test: rumble\n  2.a@example.test: life\n") {
			t.Fatalf("receipts' games written as\n%s", b)
		}
		back, err := e.Decode(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if !maps.Equal(back.Receipted, r) {
			t.Fatalf("receipts' games %q read back as %q", r, back.Receipted)
		}
		var enc contract.Encoder
		sameEncoding(t, &enc, h.S)
	}
}
