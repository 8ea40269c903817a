package contracttest

import (
	"referee/contract"
)

// record is what a harness keeps for corrections: the state when recording
// began and every input since (the journal's inputs).
type record struct {
	base   *contract.State
	inputs []contract.Input
}

// Record starts keeping the harness's inputs (messages, clock advances,
// and every notice drained counted as sent), so that Correct can re-run
// them as the daemon re-runs the journal's.
func (h *Harness) Record() {
	h.rec = &record{base: contract.Snapshot(h.S)}
}

func (h *Harness) input(in contract.Input) {
	if h.rec != nil {
		h.rec.inputs = append(h.rec.inputs, in)
	}
}

// Correct re-runs the recorded history with a correction, as the daemon
// does when the contestmaster's correction is accepted: the new state
// replaces the harness's, the revision and the corrected receipts are
// published (and returned among the notices), and the correction is
// recorded. A refused correction returns its error and the notice telling
// the contestmaster why, and changes nothing else.
func (h *Harness) Correct(at string, fix contract.Correction, ratified func(id string) bool) (*contract.Revision, []*contract.Notice, error) {
	h.T.Helper()
	if h.rec == nil {
		h.T.Fatal("Correct needs Record first")
	}
	t := At(h.T, at)
	s, rev, err := h.E.Rerun(&contract.Rerun{Base: h.rec.base, Inputs: h.rec.inputs, Current: h.S, Fix: fix, Ratified: ratified})
	if err != nil {
		// As the daemon: the refusal is an input, and the contestmaster
		// is told.
		in := contract.Input{Kind: contract.InCorrect, At: t, Fix: &fix, Error: err.Error()}
		ent, rerr := h.E.Redo(h.S, &in)
		if rerr != nil {
			h.T.Fatalf("a refused correction: %v", rerr)
		}
		h.input(in)
		h.Entries = append(h.Entries, ent...)
		h.checkRoundTrip()
		return nil, h.drain(), err
	}
	h.Entries = append(h.Entries, rev.Entries...)
	h.Entries = append(h.Entries, h.E.PublishRevision(s, rev, t))
	h.S = s
	h.input(contract.Input{Kind: contract.InCorrect, At: t, Fix: &fix, Seq: s.JournalSeq, Answer: rev.Event})
	h.checkRoundTrip()
	return rev, h.drain(), nil
}

// Recorded is what Record kept: the state when recording began and every
// input since.
type Recorded struct {
	Base   *contract.State
	Inputs []contract.Input
}

// RecordedInputs is what Record kept, for a test that re-runs it itself.
func (h *Harness) RecordedInputs() Recorded {
	h.T.Helper()
	if h.rec == nil {
		h.T.Fatal("RecordedInputs needs Record first")
	}
	return Recorded{Base: h.rec.base, Inputs: h.rec.inputs}
}
