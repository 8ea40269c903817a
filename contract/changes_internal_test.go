package contract

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestChangesSpareComparisons: the state hash's text and the state
// file's, each kept between uses (hashText, Encoder and Encoder.Take),
// follow an item of a game's data list, a player and a citable record
// changed after they were kept, each saved first as every change is
// (SaveValue, touchPlayer, touchCitedDone), with no transaction open and
// inside one, written again after the text was kept in it: each text is
// the whole encoding, byte for byte. And an item changed without its save
// is not compared, so the texts kept are not the whole encoding: the saves
// noted are what spares the comparisons (changes.go).
func TestChangesSpareComparisons(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	h, d := listState(40)
	x := &Cited{ID: "g/notice/1", Game: "g", Kind: "notice", Subject: "a notice", From: 1, Seq: 2, Hash: "ab", Published: at, Status: "pending"}
	s := &State{Secret: strings.Repeat("ab", 32), Players: h.Players, Points: h.Points, Games: h.Games, Cited: []*Cited{x}}
	s.Begin().End() // the state's log of changes
	var c hashText
	var enc, taking Encoder
	check := func(when string) {
		t.Helper()
		pieces, err := c.pieces(h, s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := oldHashText(h)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Join(pieces, nil); !bytes.Equal(got, want) {
			t.Errorf("%s: the state hash's text differs from the whole encoding:\n%s\nwant\n%s", when, got, want)
		}
		want, err = Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := enc.Encode(s); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the Encoder's text differs from the whole encoding (%v):\n%s\nwant\n%s", when, err, got, want)
		}
		if got, err := taking.Take(s).Encode(); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the text taken differs from the whole encoding (%v):\n%s\nwant\n%s", when, err, got, want)
		}
	}
	check("first")
	ctx := &Ctx{s: s, game: "g", gs: s.Games["g"]}
	SaveValue(ctx, d.Items[3])
	d.Items[3].Score = 999
	check("an item saved and changed")
	tx := s.Begin()
	SaveValue(ctx, d.Items[4])
	d.Items[4].Score = -1
	check("an item changed in a transaction")
	d.Items[4].Tags = append(d.Items[4].Tags, "z")
	check("the item written again after the texts were kept")
	tx.End()
	d.Items[4].Text = "once more"
	check("and again after the transaction")
	s.Join(s.Players[0], "other", at)
	check("a player joined a game")
	s.touchCitedDone(x)
	x.Status, x.Ratified = "ratified", at
	check("a record ratified")

	d.Items[5].Score = 12345 // behind the saves' back
	pieces, err := c.pieces(h, s)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bytes.Join(pieces, nil), []byte("12345")) {
		t.Error("an item changed without a save was compared with its copy: no comparison is spared")
	}
	taken, err := taking.Take(s).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(taken, []byte("12345")) {
		t.Error("an item changed without a save was compared with its copy when taken: no comparison is spared")
	}
}
