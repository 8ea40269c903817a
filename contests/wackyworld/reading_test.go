package wackyworld

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A transfer that names no recipient is not a drop (Wacky 6b): "I transfer
// Bob 3 Vials" from a party left a thing called "Bob 3 Vials" on eir tile
// and spent eir Game Action for the turn. It is now the transfer of Vials
// it says; "I transfer my hat" gets the form of a transfer; neither drops
// anything, and "I transfer my hat to Wacky World" still drops the hat.
func TestTransferWithoutTheWorldIsNoDrop(t *testing.T) {
	h := contracttest.New(t, "2026-11-30T09:00:00Z", New(), life.New())
	for _, who := range []string{"Alice <alice@example.test>", "Bob <bob@example.test>"} {
		h.Quietly("2026-11-30T10:00:00Z", who, contract.ChanPublic, "I join the Life contest.")
		h.Quietly("2026-11-30T10:01:00Z", who, contract.ChanPublic, "I join Wacky World.")
	}
	for text, want := range map[string]string{
		"I transfer Bob 3 Vials.": "Done: 3 Vials moved from Alice to Bob",
		"I transfer my hat.":      "Not done: not understood; the form is: I transfer N <currency> to <player>",
	} {
		r := h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", text)
		if r == nil || !strings.Contains(flat(r.Body), want) {
			t.Fatalf("%q: receipt\n%v", text, r)
		}
		if st := h.Data(ID).(*State); len(st.Assets) != 0 {
			t.Fatalf("%q left a thing: %+v", text, st.Assets[0])
		}
	}
	r := h.Public("2026-12-01T10:05:00Z", "Alice <alice@example.test>", "I transfer my hat to Wacky World.")
	if r == nil || !strings.Contains(r.Body, "Done: hat (#1) now lies at") {
		t.Fatalf("the drop to Wacky World: receipt\n%v", r)
	}
}

// flat folds a receipt's wrapping so that phrases match across lines.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// An amount of a currency written in words is refused as one in figures is
// (Wacky 6b, decision 5): "I drop three Vials" left a thing called "three
// Vials" on the tile, the Vials still the player's, and spent eir Game
// Action.
func TestDropCurrencyInWords(t *testing.T) {
	h := contracttest.New(t, "2026-11-30T09:00:00Z", New(), life.New())
	h.Quietly("2026-11-30T10:00:00Z", "Alice <alice@example.test>", contract.ChanPublic, "I join the Life contest.")
	h.Quietly("2026-11-30T10:01:00Z", "Alice <alice@example.test>", contract.ChanPublic, "I join Wacky World.")
	for _, what := range []string{"three Vials", "twenty-one Vials", "all my Vials", "my Vials", "some of my x-points"} {
		r := h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I drop "+what+" in Wacky World.")
		if r == nil || !strings.Contains(flat(r.Body), "Not done: this contract CANNOT own "+what) {
			t.Errorf("%q: receipt\n%v", what, r)
		}
		if st := h.Data(ID).(*State); len(st.Assets) != 0 {
			t.Fatalf("%q left a thing: %+v", what, st.Assets[0])
		}
	}
	r := h.Public("2026-12-01T10:05:00Z", "Alice <alice@example.test>", "I drop my silver spoon in Wacky World.")
	if r == nil || !strings.Contains(r.Body, "Done: silver spoon (#1) now lies at") {
		t.Fatalf("the spoon: receipt\n%v", r)
	}
}

// "asset 1" (and "asset no. 1", "asset number 1") names asset #1, as
// "asset #1" does (decision 6): "I pick up asset 1" looked for a thing
// called "asset 1" and said there was none on a tile where asset #1 lay.
func TestPickUpAssetWithoutHash(t *testing.T) {
	for _, ref := range []string{"asset 1", "asset no. 1", "Asset number 1"} {
		h := newHarness(t, "2026-12-01T09:00:00Z")
		for _, who := range []string{alice, bob} {
			if r := h.public("2026-12-01T10:00:00Z", who, "I join Wacky World."); !done(r) {
				t.Fatalf("join: %v", r)
			}
		}
		h.place("alice@example.test", 5, 5)
		h.place("bob@example.test", 5, 5)
		if r := h.public("2026-12-01T10:05:00Z", bob, "I drop a hat in Wacky World."); !done(r) {
			t.Fatalf("drop: %v", r)
		}
		r := h.public("2026-12-01T10:10:00Z", alice, "I pick up "+ref+" in Wacky World.")
		if r == nil || !strings.Contains(flat(r.Body), "Done:") || !strings.Contains(r.Body, "hat") {
			t.Errorf("%q: receipt\n%v", ref, r)
		}
		if n := len(h.data().Assets); n != 0 {
			t.Errorf("%q: %d things still lie in the World", ref, n)
		}
	}
}

// TestWackyNamesTheGame: "wacky" names Wacky World wherever a game's name is
// read, as no other game's name has the word: "help wacky" and "I join the
// Wacky contest" were told "no game here is called "wacky"".
func TestWackyNamesTheGame(t *testing.T) {
	h := contracttest.New(t, "2026-11-30T09:00:00Z", New(), life.New())
	if r := h.Private("2026-11-30T10:00:00Z", "Alice <alice@example.test>", "help wacky"); r == nil || !strings.Contains(r.Body, spec.Guide[:40]) {
		t.Errorf("help wacky:\n%v", r)
	}
	for i, text := range []string{"I join the Wacky contest.", "I join wacky."} {
		who := []string{"Alice <alice@example.test>", "Bob <bob@example.test>"}[i]
		if r := h.Public("2026-11-30T10:01:00Z", who, text); r == nil || !strings.Contains(r.Body, "Done") || strings.Contains(r.Body, "Not done") {
			t.Errorf("%q:\n%v", text, r)
		}
	}
	if r := h.Public("2026-12-01T10:05:00Z", "Alice <alice@example.test>", "I transfer my hat to wacky."); r == nil || !strings.Contains(r.Body, "Done: hat (#1) now lies at") {
		t.Errorf("the drop to wacky:\n%v", r)
	}
}
