package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/contract"
)

// VerifyRevisions re-computes every revision the journal holds: for each
// correction applied, the history before it is re-run with the correction
// from a kept snapshot before the point it touches (the same seeds, the same
// labels), and the revision computed is compared with the journaled one:
// outcomes, facts, draws, notices, overrides and both hashes; one written
// before the answer to its claim was recorded among the recent events is
// re-computed without it (Rerun.UnrecordedAnswer). It returns
// how many it checked and the mismatches.
func VerifyRevisions(e *contract.Engine, path string) (int, []string, error) {
	snaps, err := Snapshots(path)
	if err != nil || len(snaps) == 0 {
		return 0, nil, err
	}
	_, steps, err := History(e, path, snaps[0].Inputs)
	if err != nil {
		return 0, nil, err
	}
	checked := 0
	var bad []string
	for _, st := range steps {
		in := st.Input
		if in == nil || in.Kind != contract.InCorrect || in.Fix == nil || in.Error != "" {
			continue
		}
		stated := revisionOf(st.Entries)
		if stated == nil {
			bad = append(bad, fmt.Sprintf("journal line %d: the correction of CoE #%d has no revision", st.Line, in.Fix.CoE))
			continue
		}
		checked++
		got, err := recomputeRevision(e, path, st.N, *in.Fix, stated)
		if err != nil {
			bad = append(bad, fmt.Sprintf("journal line %d: the revision of CoE #%d cannot be re-computed: %v", st.Line, in.Fix.CoE, err))
			continue
		}
		want, err := canonicalJSON(stated)
		if err != nil {
			return checked, bad, err
		}
		have, err := canonicalJSON(got)
		if err != nil {
			return checked, bad, err
		}
		if !bytes.Equal(want, have) {
			msg := fmt.Sprintf("journal line %d: the revision of CoE #%d differs from its re-computation (%s)", st.Line, in.Fix.CoE, differingKeys(want, have))
			if why := readsOtherwise(e, path, *in.Fix, st.N); why != "" {
				msg += "; " + why
			}
			bad = append(bad, msg)
		}
	}
	return checked, bad, nil
}

// revisionOf is the journaled revision among a correction's entries.
func revisionOf(entries []contract.Entry) map[string]any {
	for _, en := range entries {
		if en.Verb == "revision" {
			r, _ := en.Detail["revision"].(map[string]any)
			return r
		}
	}
	return nil
}

// recomputeRevision re-runs the inputs before input n with the correction,
// from the newest kept snapshot before the point it touches.
func recomputeRevision(e *contract.Engine, path string, n int64, fix contract.Correction, stated map[string]any) (*contract.Revision, error) {
	base, inputs, err := CorrectionHistory(e, path, fix, n)
	if err != nil {
		return nil, err
	}
	// The notices the journal says had ratified are the ones the
	// correction overrode.
	ratified := map[string]bool{}
	if list, ok := stated["overrides"].([]any); ok {
		for _, x := range list {
			s, _ := x.(string)
			id, _, _ := strings.Cut(s, " (")
			ratified[id] = true
		}
	}
	_, rev, err := e.Rerun(&contract.Rerun{Base: base, Inputs: inputs, Fix: fix, Ratified: func(id string) bool { return ratified[id] },
		MailboxHashes: stated["hashes"] != contract.HashesOfTheGames, RenumberedRulings: stated["rulings"] != contract.RulingsKept,
		RenumberedSeries: stated["series"] != contract.SeriesKept,
		PlacedItems:      stated["items"] != contract.ItemsByText,
		UnreadAhead:      stated["ahead"] != contract.AheadRead,
		LoneLines:        stated["lines"] != contract.ReportEntries,
		UnrecordedAnswer: stated["answer"] != contract.AnswerRecorded})
	return rev, err
}

// readsOtherwise says where this build re-does the history a correction
// re-ran (from its snapshot up to input n) otherwise than the journal
// holds it, as a build that reads some message otherwise than the one
// that journaled it does; "" when it re-does it as journaled.
func readsOtherwise(e *contract.Engine, path string, fix contract.Correction, n int64) string {
	base, _, err := CorrectionHistory(e, path, fix, n)
	if err != nil {
		return ""
	}
	var re *RedoError
	if err := redoUpTo(e, base, path, n-1, nil); errors.As(err, &re) {
		return fmt.Sprintf("this build re-does the history before it otherwise than the journal holds it (%s); verify with the build that wrote the journal", re.Error())
	}
	return ""
}

// CorrectionHistory is what a correction re-runs: the newest kept snapshot
// before the earliest point the correction touches, and the journal's
// inputs after it, up to input n (excluded; 0: to the end). The earliest
// point is found in the whole history since the first snapshot, with the
// earlier corrections applied (contract.EffectiveInputs). An earlier
// correction journaled after a snapshot must also have touched nothing
// before it: such a snapshot shows the history as it was before that
// correction, which the re-run could not apply to it.
func CorrectionHistory(e *contract.Engine, path string, fix contract.Correction, n int64) (*contract.State, []contract.Input, error) {
	snaps, err := Snapshots(path)
	if err != nil {
		return nil, nil, err
	}
	if len(snaps) == 0 {
		return nil, nil, fmt.Errorf("%s: no snapshot of the state is kept to re-run from", SnapshotDir(path))
	}
	_, steps, err := History(e, path, snaps[0].Inputs)
	if err != nil {
		return nil, nil, err
	}
	steps = before(steps, n)
	all, points, err := contract.CorrectedPoints(Inputs(steps))
	if err != nil {
		return nil, nil, err
	}
	_, from, err := contract.EditInputs(all, &fix)
	if err != nil {
		return nil, nil, err
	}
	// Inputs leaves out the steps without an input: the input numbers of
	// the corrections, by their index among the inputs.
	var nums []int64
	for _, st := range steps {
		if st.Input != nil {
			nums = append(nums, st.N)
		}
	}
	at := snaps[0].Inputs
	for _, sn := range snaps {
		if !sn.Clock.Before(from) || (n != 0 && sn.Inputs >= n) {
			continue
		}
		ok := true
		for i, p := range points {
			if nums[i] > sn.Inputs && !sn.Clock.Before(p) {
				ok = false
			}
		}
		if ok {
			at = sn.Inputs
		}
	}
	base, steps, err := History(e, path, at)
	if err != nil {
		return nil, nil, err
	}
	return base, Inputs(before(steps, n)), nil
}

// before is the steps before input n (all of them for 0).
func before(steps []Step, n int64) []Step {
	if n == 0 {
		return steps
	}
	for i, st := range steps {
		if st.N >= n {
			return steps[:i]
		}
	}
	return steps
}

// Inputs lists the inputs of journal steps. A correction whose journaled
// revision is not marked as keeping its ruling requests' numbers, made by
// a build before they were kept, is marked so (RenumberedRulings), one
// not marked as keeping the games' series' numbers alike
// (RenumberedSeries), one not marked as matching their items by text
// (PlacedItems), and one not marked as reading them ahead (UnreadAhead),
// so that a later correction re-runs the history it made as it was made.
func Inputs(steps []Step) []contract.Input {
	out := make([]contract.Input, 0, len(steps))
	for _, st := range steps {
		if st.Input != nil {
			in := *st.Input
			if in.Kind == contract.InCorrect && in.Fix != nil && in.Error == "" {
				if stated := revisionOf(st.Entries); stated != nil {
					in.RenumberedRulings = stated["rulings"] != contract.RulingsKept
					in.RenumberedSeries = stated["series"] != contract.SeriesKept
					in.PlacedItems = stated["items"] != contract.ItemsByText
					in.UnreadAhead = stated["ahead"] != contract.AheadRead
				}
			}
			out = append(out, in)
		}
	}
	return out
}

// canonicalJSON is v as JSON with its objects' keys sorted.
func canonicalJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return nil, err
	}
	return json.Marshal(x)
}

// differingKeys names the top-level keys of two JSON objects whose values
// differ.
func differingKeys(a, b []byte) string {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return "not objects"
	}
	var keys []string
	for k, v := range x {
		if !bytes.Equal(v, y[k]) {
			keys = append(keys, k)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "the same keys"
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// Correct re-runs correction fix against the current state, whose files
// are at path (the journal holding every input up to current): the history
// from CorrectionHistory, the notices current says have ratified refusing
// a change unless fix overrides them. at is when the re-run happens.
//
// Made, it returns the corrected state to go on from and the step to
// journal after it: a `correct` input and the re-run's entries with the
// revision published. Refused (a ratified notice it would change, a
// message not in the record, a record that does not lead to current), it
// returns a nil state and the refusal input for the caller to perform on
// current (Engine.Redo tells the contestmaster why).
func Correct(e *contract.Engine, path string, current *contract.State, fix contract.Correction, at time.Time) (*contract.State, Step, *contract.Revision) {
	return correctBefore(e, path, current, fix, at, 0, nil)
}

// correctBefore is Correct with the journal's inputs before input n (0:
// all of them): a start that re-makes a correction journaled after the
// state file it loaded (redoSave) reads no further than it, and makes its
// revision as stated, the one journaled (revisionOf), was made: its
// hashes, its ruling requests' and its series' numbers as a build before
// their marks made them (Rerun.MailboxHashes, Rerun.RenumberedRulings,
// Rerun.RenumberedSeries, Rerun.PlacedItems, Rerun.UnreadAhead), and its report lines compared as it compared
// them (Rerun.LoneLines), and its answer recorded or not as it was
// (Rerun.UnrecordedAnswer).
func correctBefore(e *contract.Engine, path string, current *contract.State, fix contract.Correction, at time.Time, n int64, stated map[string]any) (*contract.State, Step, *contract.Revision) {
	journaled := n != 0 // made again at a start: it was made once
	ratified := map[string]bool{}
	for _, c := range current.Cited {
		if c.Status == "ratified" {
			ratified[c.ID] = true
		}
	}
	base, inputs, err := CorrectionHistory(e, path, fix, n)
	var s *contract.State
	var rev *contract.Revision
	if err == nil {
		s, rev, err = e.Rerun(&contract.Rerun{Base: base, Inputs: inputs, Current: current, Fix: fix,
			Ratified: func(id string) bool { return ratified[id] }, Journaled: journaled,
			MailboxHashes:     stated != nil && stated["hashes"] != contract.HashesOfTheGames,
			RenumberedRulings: stated != nil && stated["rulings"] != contract.RulingsKept,
			RenumberedSeries:  stated != nil && stated["series"] != contract.SeriesKept,
			PlacedItems:       stated != nil && stated["items"] != contract.ItemsByText,
			UnreadAhead:       stated != nil && stated["ahead"] != contract.AheadRead,
			LoneLines:         stated != nil && stated["lines"] != contract.ReportEntries,
			UnrecordedAnswer:  stated != nil && stated["answer"] != contract.AnswerRecorded})
	}
	if err != nil {
		return nil, Step{Input: &contract.Input{Kind: contract.InCorrect, At: at, Fix: &fix, Error: err.Error()}}, nil
	}
	entries := append(rev.Entries, e.PublishRevision(s, rev, at))
	return s, Step{Input: &contract.Input{Kind: contract.InCorrect, At: at, Fix: &fix, Seq: s.JournalSeq, Answer: rev.Event}, Entries: entries}, rev
}
