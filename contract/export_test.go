package contract

import (
	"bytes"
	"maps"
	"slices"
)

// EncodeTop lets the tests encode a state through a struct other than State.
func EncodeTop(top any, s *State) ([]byte, error) {
	pieces, err := new(Encoder).encodeTop(top, s)
	return bytes.Join(pieces, nil), err
}

// ExtractCorrections is Engine.extractCorrections, for its fuzz test.
func ExtractCorrections(e *Engine, text string) ([]*Action, string) {
	return e.extractCorrections(text)
}

// SetMaxEvents bounds the events of one Advance at n until the test ends.
func SetMaxEvents(t interface{ Cleanup(func()) }, n int) {
	old := maxEvents
	maxEvents = n
	t.Cleanup(func() { maxEvents = old })
}

// HashTexter writes the text a state hash covers, keeping what it kept
// between calls as the engine's does.
type HashTexter struct{ c hashText }

// Texts is the text a state hash of game covers in s, as the engine writes
// it (in parts, with the texts kept) and as the YAML encoder writes it
// whole.
func (h *HashTexter) Texts(s *State, game string) (parts, whole []byte, err error) {
	hs := hashedState{Game: game, Seq: s.JournalSeq, Time: s.Clock, Players: s.Players, Ledger: s.Ledger, Points: s.Points,
		Intents: s.Intents, Rulings: s.Rulings, Claims: s.Claims, Games: map[string]*GameState{game: s.Games[game]}}
	if parts, err = h.c.of(&hs); err != nil {
		return nil, nil, err
	}
	whole, err = marshalText(&hs)
	return parts, whole, err
}

// SectionsWhole is the "games:" key of s as the state file writes it with
// each game's section encoded whole (encodeSection), not from its parts.
func SectionsWhole(s *State) (string, error) {
	out := "games:\n"
	for _, id := range slices.Sorted(maps.Keys(s.Games)) {
		b, err := encodeSection(s.Games[id], nil)
		if err != nil {
			return "", err
		}
		out += string(underGames(id, b.text))
	}
	return out, nil
}
