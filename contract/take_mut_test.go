package contract_test

import (
	"testing"

	"referee/contract"
)

// TestEncoderNilPlayerMoved: an Encoder that wrote a state whose list of
// players holds a nil entry (written "- null") writes what Encode writes
// for the next states, where a player takes the nil's place and a nil a
// player's, one way and back.
func TestEncoderNilPlayerMoved(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	a, b := h.S.Players[0], h.S.Players[1]
	var enc contract.Encoder
	for _, ps := range [][]*contract.Player{{nil, b}, {a, nil}, {nil, b}, {a, b}} {
		h.S.Players = ps
		sameEncoding(t, &enc, h.S)
	}
}
