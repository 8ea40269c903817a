package contract_test

import (
	"bytes"
	"testing"

	"referee/contract"
)

// TestSnapshotIsDeep changes everything reachable in a copy and checks the
// original's encoding is untouched.
func TestSnapshotIsDeep(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Public("2026-12-01T10:07:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Advance("2026-12-08T00:00:00Z")
	before, _ := contract.Encode(h.S)
	c := contract.Snapshot(h.S)
	if b, _ := contract.Encode(c); !bytes.Equal(b, before) {
		t.Fatal("the snapshot encodes differently from the original")
	}
	c.Players[0].Name = "Mallory"
	c.Players[0].Addresses[0] = "x@example.test"
	c.Players[0].Joined["toy"] = c.Players[0].Joined["toy"].AddDate(1, 0, 0)
	c.Ledger.Balances["toy/coin"]["Bob"] = 99
	c.Games["toy"].Data.(*toyState).Rounds = 42
	c.Games["toy"].Params["START"] = "7"
	c.Intents[0].Objectors = append(c.Intents[0].Objectors, "Eve")
	c.Seen.IDs["new"] = c.Clock
	c.Randomness.Weeks[0].Seed = "changed"
	if after, _ := contract.Encode(h.S); !bytes.Equal(after, before) {
		t.Error("changing the snapshot changed the original")
	}
}
