package store

import (
	"testing"

	"referee/contract"
)

// TestInputsMarkRenumberedRulings: a correction whose journaled revision
// is not marked "rulings": "kept" (made by a build before ruling requests
// kept their numbers) is given to a re-run as having renumbered them, so
// that a later correction re-runs its history as it was made
// (TestCorrectionAfterOneThatRenumberedRulings); a marked one, a refused
// one and other inputs are not.
func TestInputsMarkRenumberedRulings(t *testing.T) {
	fix := &contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}
	revision := func(mark string) []contract.Entry {
		r := map[string]any{"coe": 1}
		if mark != "" {
			r["rulings"] = mark
		}
		return []contract.Entry{{Verb: "correction"}, {Verb: "revision", Detail: map[string]any{"revision": r}}}
	}
	steps := []Step{
		{Input: &contract.Input{Kind: contract.InMessage, Msg: &contract.Message{ID: "m1@example.test"}}},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision("")},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(contract.RulingsKept)},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix, Error: "refused"}},
	}
	want := []bool{false, true, false, false}
	for i, in := range Inputs(steps) {
		if in.RenumberedRulings != want[i] {
			t.Errorf("input %d (%s): RenumberedRulings %v, want %v", i, in.Kind, in.RenumberedRulings, want[i])
		}
	}
	if steps[1].Input.RenumberedRulings {
		t.Error("Inputs changed the journal's step")
	}
}

// TestInputsMarkRenumberedSeries: a correction whose journaled revision is
// not marked "series": "kept" (made by a build before the games' series
// kept their numbers) is given to a re-run as having renumbered them
// (TestCorrectionRenumberedSeriesAsMadeBefore); a marked one is not,
// whatever its ruling requests' mark.
func TestInputsMarkRenumberedSeries(t *testing.T) {
	fix := &contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}
	revision := func(marks map[string]any) []contract.Entry {
		return []contract.Entry{{Verb: "correction"}, {Verb: "revision", Detail: map[string]any{"revision": marks}}}
	}
	steps := []Step{
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"coe": 1})},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"rulings": contract.RulingsKept})},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"rulings": contract.RulingsKept, "series": contract.SeriesKept})},
	}
	type marks struct{ rulings, series bool }
	want := []marks{{true, true}, {false, true}, {false, false}}
	for i, in := range Inputs(steps) {
		if got := (marks{in.RenumberedRulings, in.RenumberedSeries}); got != want[i] {
			t.Errorf("input %d: renumbered %+v, want %+v", i, got, want[i])
		}
	}
}

// TestInputsMarkPlacedItems: a correction whose journaled revision is not
// marked "items": "text" (made by a build that matched a message's items
// of a series by place alone) is given to a re-run as having matched them
// so (TestCorrectionPlacedItemsAsMadeBefore); a marked one is not.
func TestInputsMarkPlacedItems(t *testing.T) {
	fix := &contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}
	revision := func(marks map[string]any) []contract.Entry {
		return []contract.Entry{{Verb: "correction"}, {Verb: "revision", Detail: map[string]any{"revision": marks}}}
	}
	steps := []Step{
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"series": contract.SeriesKept})},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"series": contract.SeriesKept, "items": contract.ItemsByText})},
	}
	want := []bool{true, false}
	for i, in := range Inputs(steps) {
		if in.PlacedItems != want[i] {
			t.Errorf("input %d: placed %v, want %v", i, in.PlacedItems, want[i])
		}
	}
}

// TestInputsMarkUnreadAhead: a correction whose journaled revision is not
// marked "ahead": "read" (made by a build that numbered a message's items
// without reading them ahead) is given to a re-run as made so; a marked
// one is not.
func TestInputsMarkUnreadAhead(t *testing.T) {
	fix := &contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}
	revision := func(marks map[string]any) []contract.Entry {
		return []contract.Entry{{Verb: "correction"}, {Verb: "revision", Detail: map[string]any{"revision": marks}}}
	}
	steps := []Step{
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"items": contract.ItemsByText})},
		{Input: &contract.Input{Kind: contract.InCorrect, Fix: fix}, Entries: revision(map[string]any{"items": contract.ItemsByText, "ahead": contract.AheadRead})},
	}
	want := []bool{true, false}
	for i, in := range Inputs(steps) {
		if in.UnreadAhead != want[i] {
			t.Errorf("input %d: unread ahead %v, want %v", i, in.UnreadAhead, want[i])
		}
	}
}
