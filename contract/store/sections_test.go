package store_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// TestSavedSectionsAsEncoded: the state file the journal saves, from the
// text its Encoder kept of the last save, is byte for byte a fresh
// encoding of the state, saved directly (Journal.Save) or as a background
// snapshot (StartSnapshot), after a game's last report moved to another
// zone at the same instant, a player joined and a section went.
func TestSavedSectionsAsEncoded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	report := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	s := version(3)
	s.Games["life"] = &contract.GameState{Contestmaster: "cm@example.test", Params: map[string]string{}, LastReport: report,
		Recent: []contract.Happening{{Time: report, Who: "Alice", What: "joins"}}}
	s.Games["rumble"] = &contract.GameState{Contestmaster: "cm@example.test", LastReport: report}
	saved := func(what string, snapshot bool) {
		t.Helper()
		if snapshot {
			p, err := j.StartSnapshot(path, s)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Write(); err != nil {
				t.Fatal(err)
			}
		} else if err := j.Save(path, s); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := contract.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the saved file is not the state's encoding:\n%s\nwant\n%s", what, got, want)
		}
	}
	for _, snapshot := range []bool{false, true} {
		saved("first save", snapshot)
		for _, loc := range []*time.Location{time.FixedZone("", 2*3600), time.FixedZone("", -5*3600-30*60), time.UTC} {
			s.Games["life"].LastReport = report.In(loc)
			saved("last report in another zone", snapshot)
		}
		s.Players = append(s.Players, &contract.Player{Name: "Newcomer", Addresses: []string{"new@example.test"}})
		saved("a player added", snapshot)
		rumble := s.Games["rumble"]
		delete(s.Games, "rumble")
		saved("a section removed", snapshot)
		s.Games["rumble"] = rumble
		saved("the section back", snapshot)
	}
}
