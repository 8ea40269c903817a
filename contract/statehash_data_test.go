package contract_test

import (
	"bytes"
	"fmt"
	"testing"

	"referee/contract"
	"referee/internal/benchgames"
)

// TestHashTextOfGamesData: the text a state hash covers, written with each
// list of a game's data encoded item by item and the items' texts kept, is
// the YAML encoding of the whole, byte for byte: in Rumble, Steemfield and
// Wacky World after a stretch of play with 70 players (more than one
// document of items, itemChunk), and after each of 300 messages of play
// that follow (actions that change an item, add one or none).
func TestHashTextOfGamesData(t *testing.T) {
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	for _, g := range benchgames.Games {
		t.Run(g.ID, func(t *testing.T) {
			e, s, at := g.Setup(t, contract.Config{}, 70)
			var h contract.HashTexter
			same := func(when string) {
				t.Helper()
				parts, whole, err := h.Texts(s, g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(parts, whole) {
					i := 0
					for i < min(len(parts), len(whole)) && parts[i] == whole[i] {
						i++
					}
					t.Fatalf("%s: the text in parts differs from the whole at byte %d:\n%q\nagainst\n%q", when, i,
						parts[max(0, i-200):min(len(parts), i+200)], whole[max(0, i-200):min(len(whole), i+200)])
				}
			}
			same("after the setup")
			for i, m := range benchgames.Mail(g, 70, at)[:300] {
				if _, err := e.Apply(s, m); err != nil {
					t.Fatal(err)
				}
				s.Outbox = nil
				same(fmt.Sprintf("after message %d (%q)", i, m.Text))
			}
		})
	}
}
