package contract_test

import (
	"testing"

	"referee/contract"
)

// TestRevisionHashesLeaveTheMailboxOut: a revision's state hashes are those
// of the games, which a replay of the same mail reproduces: the referee that
// read the mail from its INBOX and a replay of its Processed folder (another
// mailbox position, or none for an archive) publish the same hashes. They
// counted the IMAP checkpoint, so a revision's hashes could never be
// recomputed by a replay. referee verify re-computes a revision written
// before with the checkpoint counted (Rerun.MailboxHashes).
func TestRevisionHashesLeaveTheMailboxOut(t *testing.T) {
	correct := func(position contract.Checkpoint, mailbox bool) *contract.Revision {
		t.Helper()
		h := newToy(t)
		h.S.IMAP = position
		h.Record()
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")       // m1
		h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")         // m2
		h.Public("2026-12-01T10:07:00Z", alice, "I transfer 2 coins to Bob.") // m3
		h.Public("2026-12-01T10:10:00Z", alice, "CoE: my transfer.")
		fix := contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}
		in := h.RecordedInputs()
		_, rev, err := h.E.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.S, Fix: fix, MailboxHashes: mailbox})
		if err != nil {
			t.Fatal(err)
		}
		return rev
	}
	live := correct(contract.Checkpoint{UIDValidity: 1796405665, LastUID: 156}, false)
	replayed := correct(contract.Checkpoint{}, false)
	if live.OldHash != replayed.OldHash || live.NewHash != replayed.NewHash {
		t.Errorf("the hashes hang on the mailbox position: %s -> %s read from the INBOX, %s -> %s replayed",
			live.OldHash, live.NewHash, replayed.OldHash, replayed.NewHash)
	}
	if live.Hashes != contract.HashesOfTheGames {
		t.Errorf("a new revision's hashes are marked %q", live.Hashes)
	}
	before := correct(contract.Checkpoint{UIDValidity: 1796405665, LastUID: 156}, true)
	if before.Hashes != "" || before.OldHash == live.OldHash {
		t.Errorf("a revision re-computed as written before: hashes %q, %s as now", before.Hashes, before.OldHash)
	}
}
