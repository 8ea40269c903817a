package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"

	"referee/contests/rumble"
	"referee/contract"
	"referee/contract/store"
	"referee/contract/text"
)

const verifyUsage = `Usage: referee verify [--state F] [--config F]

Recomputes, from the state and its journal, every revealed random draw (from the
seeds revealed in Randomness notices, checked against their published
commitments) and every published sealed-submission commitment (from the revealed
submissions and nonces), and reports any mismatch. Draws of weeks whose seed is
not revealed yet are counted as pending. It also holds the state hash each
report or notice published to its ratification and to the state's record of it
(a replay of the same mail recomputes the hashes themselves). Every revision a
correction made is re-computed from the kept snapshots and the journal's
inputs, and compared with the journaled one; one that differs because this
build re-does the history before it otherwise than the journal holds it (a newer
build that reads some message otherwise) says so, naming the first input that
differs: verify it with the build that wrote the journal. Exit status 1 on a
mismatch.
`

func cmdVerify(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("verify", verifyUsage, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArguments(fs); err != nil {
		return err
	}
	cfg, e, s, err := c.loadState()
	if err != nil {
		return err
	}
	entries, err := store.ReadJournal(store.JournalPath(cfg.State))
	if err != nil {
		return err
	}
	r := verify(s, entries)
	revisions, bad, err := store.VerifyRevisions(e, cfg.State)
	if err != nil {
		return err
	}
	r.mismatches = append(r.mismatches, bad...)
	for _, m := range r.mismatches {
		fmt.Fprintln(stdout, "MISMATCH:", m)
	}
	fmt.Fprintln(stdout, r.summary())
	if revisions > 0 {
		fmt.Fprintf(stdout, "%s re-computed from the journal\n", text.Count(revisions, "revision", "revisions"))
	}
	if len(r.mismatches) > 0 {
		return errMismatch
	}
	return nil
}

type verification struct {
	seeds, draws, pending, commitments, citations int
	mismatches                                    []string
}

// summary is verify's line of counts, each phrase in agreement with its
// number: "1 seed checked against its commitment", "2 seeds checked against
// their commitments".
func (r *verification) summary() string {
	seeds := text.Count(r.seeds, "seed", "seeds") + " checked against their commitments"
	if r.seeds == 1 {
		seeds = "1 seed checked against its commitment"
	}
	return fmt.Sprintf("%s, %s recomputed, %s pending (seed not yet revealed), %s recomputed, %s checked, %s",
		seeds, text.Count(r.draws, "draw", "draws"), text.Count(r.pending, "draw", "draws"), text.Count(r.commitments, "commitment", "commitments"),
		text.Count(r.citations, "state hash", "state hashes"), text.Count(len(r.mismatches), "mismatch", "mismatches"))
}

// checkCitations holds the state hash each citable notice published (the
// journal line that sent it) to its ratification's line and to the state's
// record of it. The hash itself is recomputed by replaying the same mail.
func (r *verification) checkCitations(s *contract.State, entries []contract.Entry) {
	cited := map[string]string{}
	for _, en := range entries {
		list, _ := en.Detail["cited"].([]any)
		for _, x := range list {
			m, _ := x.(map[string]any)
			id, _ := m["id"].(string)
			h, _ := m["hash"].(string)
			cited[id] = h
			r.citations++
		}
		if en.Verb == "ratification" && en.Outcome == "event" {
			id, _ := en.Detail["report"].(string)
			h, _ := en.Detail["hash"].(string)
			if c, ok := cited[id]; ok && c != h {
				r.mismatches = append(r.mismatches, fmt.Sprintf("journal line %d: %s ratified with state hash %s, published as %s", en.Seq, id, h, c))
			}
		}
	}
	for _, x := range s.Cites() {
		if c, ok := cited[x.ID]; ok && c != x.Hash {
			r.mismatches = append(r.mismatches, fmt.Sprintf("the state's record of %s has state hash %s, published as %s", x.ID, x.Hash, c))
		}
	}
}

// verify checks the journal's draws and commitments against what was published.
func verify(s *contract.State, entries []contract.Entry) verification {
	var r verification
	commitments := map[string]string{} // week -> published commitment
	seeds := map[string][]byte{}       // week -> revealed seed
	for _, w := range s.Randomness.Weeks {
		commitments[w.Week] = w.Commitment
	}
	for _, en := range entries {
		if en.Verb != "randomness" {
			continue
		}
		if list, ok := en.Detail["committed"].([]any); ok {
			for _, x := range list {
				m, _ := x.(map[string]any)
				w, _ := m["week"].(string)
				c, _ := m["commitment"].(string)
				if prev, ok := commitments[w]; ok && prev != c {
					r.mismatches = append(r.mismatches, fmt.Sprintf("week %s was committed twice with different hashes", w))
				}
				commitments[w] = c
			}
		}
		if m, ok := en.Detail["revealed"].(map[string]any); ok {
			w, _ := m["week"].(string)
			hexSeed, _ := m["seed"].(string)
			seed, err := hex.DecodeString(hexSeed)
			if err != nil {
				r.mismatches = append(r.mismatches, fmt.Sprintf("journal line %d: the revealed seed of %s is not hex", en.Seq, w))
				continue
			}
			seeds[w] = seed
		}
	}
	weeks := make([]string, 0, len(seeds))
	for w := range seeds {
		weeks = append(weeks, w)
	}
	sort.Strings(weeks)
	for _, w := range weeks {
		r.seeds++
		if c := commitments[w]; c != contract.Commitment(seeds[w]) {
			r.mismatches = append(r.mismatches, fmt.Sprintf("the revealed seed of %s does not hash to its commitment %s", w, c))
		}
	}
	r.checkCitations(s, entries)
	for _, en := range entries {
		draws, _ := en.Detail["draws"].([]any)
		for _, x := range draws {
			m, _ := x.(map[string]any)
			label, _ := m["label"].(string)
			n := toInt(m["n"])
			v := toInt(m["value"])
			parts := strings.SplitN(label, "/", 3)
			if len(parts) < 3 || n == 0 {
				continue // keys for fast keyed functions are not single draws
			}
			seed, ok := seeds[parts[1]]
			if !ok {
				r.pending++
				continue
			}
			r.draws++
			if got := contract.Intn(seed, label, n); got != v {
				r.mismatches = append(r.mismatches, fmt.Sprintf("journal line %d: draw %s of %d gave %d, recomputed %d", en.Seq, label, n, v, got))
			}
		}
		reveals, _ := en.Detail["reveals"].([]any)
		for _, x := range reveals {
			m, _ := x.(map[string]any)
			canonical, _ := m["canonical"].(string)
			nonce, _ := m["nonce"].(string)
			commitment, _ := m["commitment"].(string)
			r.commitments++
			if !rumble.VerifyCommitment(canonical, nonce, commitment) {
				r.mismatches = append(r.mismatches, fmt.Sprintf("journal line %d: the commitment %s of %v (%v) does not match its revealed submission", en.Seq, commitment, m["contestant"], m["phase"]))
			}
		}
	}
	return r
}

func toInt(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	}
	return 0
}
