package store_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// problems is what `referee check` lists for the journal at path against a
// state that includes up to keep, a line each.
func problems(t *testing.T, path string, keep int64) string {
	t.Helper()
	sc, err := store.ScanJournal(path, store.Position{Seq: keep})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range sc.Problems() {
		got = append(got, fmt.Sprintf("%d: %s", p.Line, p.Problem))
	}
	return strings.Join(got, "\n")
}

// TestJournalCheckLists: each kind of problem `referee check` finds, on
// the line it names, with the words the operator reads.
func TestJournalCheckLists(t *testing.T) {
	// A journal whose first lines are gone: the gap is at line 1.
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	os.WriteFile(path, []byte(`{"seq":3,"base":2,"outcome":"applied"}`+"\n"+`{"seq":4,"base":3,"outcome":"applied"}`+"\n"), 0o600)
	if got, want := problems(t, path, 4), "1: seq 3 is the first line: seq 1-2 are missing"; got != want {
		t.Errorf("journal starting at seq 3:\n%s\nwant:\n%s", got, want)
	}
	os.WriteFile(path, []byte(`{"seq":2,"base":1,"outcome":"applied"}`+"\n"), 0o600)
	if got, want := problems(t, path, 2), "1: seq 2 is the first line: seq 1 is missing"; got != want {
		t.Errorf("journal starting at seq 2:\n%s\nwant:\n%s", got, want)
	}

	// Lines past an older state, written by more than one save: refused,
	// and listed at the first of them.
	path, _ = journalOf(t, [2]int64{1, 3}, [2]int64{4, 4}, [2]int64{5, 9})
	if got, want := problems(t, path, 3), "4: lines 4-9 (seq 4-9) go past the state, which includes up to seq 3, and were not all written by the one save that never finished: the state is older than its journal"; got != want {
		t.Errorf("lines of two saves past the state:\n%s\nwant:\n%s", got, want)
	}
	// Lines of the one save that never finished: listed as what the next
	// start cuts.
	path, _ = journalOf(t, [2]int64{1, 3}, [2]int64{4, 6})
	if got, want := problems(t, path, 3), "4: lines 4-6 (seq 4-6) written by a save that never finished; the next start cuts it, keeping a copy"; got != want {
		t.Errorf("lines of the unfinished save:\n%s\nwant:\n%s", got, want)
	}
	// A journal that matches its state has nothing to list.
	if got := problems(t, path, 6); got != "" {
		t.Errorf("a journal that matches its state:\n%s", got)
	}
	// With no state, the one save's lines are not what a start would cut
	// (it refuses them): beside a line that does not decode, nothing says so.
	path, _ = journalOf(t, [2]int64{1, 3})
	insertLine(t, path, 2, "garbage")
	if got, want := problems(t, path, 0), `2: does not decode as a journal entry (invalid character 'g' looking for beginning of value): "garbage"`; got != want {
		t.Errorf("a bad line in a journal no state includes:\n%s\nwant:\n%s", got, want)
	}
}

// TestJournalRefusalCountsBadLines: the refusal names the first line that
// does not decode and how many more there are.
func TestJournalRefusalCountsBadLines(t *testing.T) {
	for _, c := range []struct {
		bad  []int
		want string
	}{
		{[]int{2}, `:2: line does not decode as a journal entry (invalid character 'g' looking for beginning of value): "garbage"`},
		{[]int{2, 4}, `:2: line does not decode as a journal entry (invalid character 'g' looking for beginning of value): "garbage" (and 1 more such lines)`},
		{[]int{2, 4, 6}, `"garbage" (and 2 more such lines)`},
	} {
		path, _ := journalOf(t, [2]int64{1, 4})
		for _, n := range c.bad {
			insertLine(t, path, n, "garbage")
		}
		j, err := store.OpenJournal(path, store.Position{Seq: 4})
		if err == nil {
			j.Close()
			t.Fatalf("%d bad lines: opened", len(c.bad))
		}
		if !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%d bad lines: %q, want it to end %q", len(c.bad), err, c.want)
		}
		if len(c.bad) == 1 && strings.Contains(err.Error(), "more such lines") {
			t.Errorf("one bad line counted more: %q", err)
		}
	}
}

// unencodable is a game's data that cannot be written.
type unencodable struct{}

func (unencodable) MarshalYAML() (any, error) { return nil, errors.New("the board cannot be written") }

// TestCommitEncodeFailure: a state that cannot be encoded is not saved and
// leaves no journal line behind; the next save goes on from the last one.
func TestCommitEncodeFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.yaml")
	j := firstSave(t, path)
	defer j.Close()
	bad := version(2)
	bad.Games["life"] = &contract.GameState{Contestmaster: "cm@example.test", Data: unencodable{}}
	err := store.Commit(j, path, bad, entries(2, 2, "lost"))
	if err == nil || !strings.Contains(err.Error(), "the board cannot be written") {
		t.Fatalf("Commit of a state that cannot be encoded: %v", err)
	}
	if seq, lines := committed(t, path); seq != 1 || lines != "1:one" {
		t.Errorf("after the failed save: state at seq %d, journal %q; want 1, %q", seq, lines, "1:one")
	}
	if err := store.Commit(j, path, version(2), entries(2, 2, "two")); err != nil {
		t.Fatal(err)
	}
	if seq, lines := committed(t, path); seq != 2 || lines != "1:one 2:two" {
		t.Errorf("the next save: state at seq %d, journal %q; want 2, %q", seq, lines, "1:one 2:two")
	}
}

// TestOpenedSays: what the log says OpenJournal cut, naming only what it
// cut.
func TestOpenedSays(t *testing.T) {
	path, _ := journalOf(t, [2]int64{1, 3})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":4`)
	f.Close()
	j, err := store.OpenJournal(path, store.Position{Seq: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Opened().String(); got != "a torn last line (8 bytes)" {
		t.Errorf("a torn line cut: %q", got)
	}
	j.Close()
	path, _ = journalOf(t, [2]int64{1, 3}, [2]int64{4, 5})
	j, err = store.OpenJournal(path, store.Position{Seq: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if got := j.Opened().String(); !strings.HasPrefix(got, "lines 4-5 (seq 4-5) of a save that never finished, copied to journal.jsonl.cut-") || strings.Contains(got, "torn") {
		t.Errorf("an unfinished save cut: %q", got)
	}
}

// TestJournalLineSeqAndExcerpt: a line with seq 0 does not decode; the
// refusal quotes a line of 60 bytes whole and cuts a longer one.
func TestJournalLineSeqAndExcerpt(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"seq":0,"outcome":"applied"}`, `(no seq): "{\"seq\":0,\"outcome\":\"applied\"}"`},
		{strings.Repeat("g", 60), `"` + strings.Repeat("g", 60) + `"`},
		{strings.Repeat("g", 61), `"` + strings.Repeat("g", 60) + `"...`},
	} {
		path, _ := journalOf(t, [2]int64{1, 3})
		insertLine(t, path, 2, c.line)
		j, err := store.OpenJournal(path, store.Position{Seq: 3})
		if err == nil {
			j.Close()
			t.Fatalf("%q: opened", c.line)
		}
		if !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%q: %v, want it to end %s", c.line, err, c.want)
		}
	}
}

// TestCommitOfATimePastYear9999: a journal line cannot hold a time past
// year 9999 (encoding/json refuses it), so a save with one, in an entry or
// in an input, fails with the line and the reason, and leaves the state
// file and the journal as they were: no line of it is written, none
// skipped while the rest go through. The next save goes on from there.
func TestCommitOfATimePastYear9999(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.yaml")
	j, err := store.OpenJournal(store.JournalPath(path), store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := store.Commit(j, path, version(1), entries(1, 1, "one")); err != nil {
		t.Fatal(err)
	}
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	journal, _ := os.ReadFile(store.JournalPath(path))
	unchanged := func(what string, err error, want string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "year outside of range") {
			t.Errorf("%s: error %v, want one naming %q and the year", what, err, want)
		}
		if seq, lines := committed(t, path); seq != 1 || lines != "1:one" {
			t.Errorf("%s: state at seq %d, journal %q; want 1, %q", what, seq, lines, "1:one")
		}
		if now, _ := os.ReadFile(store.JournalPath(path)); !bytes.Equal(now, journal) {
			t.Errorf("%s: the journal changed:\n%s", what, now)
		}
	}
	late := entries(2, 3, "two")
	late[1].Time = far
	unchanged("an entry's time", store.Commit(j, path, version(3), late), "journal entry 3")
	in := &contract.Input{Kind: contract.InAdvance, At: far}
	unchanged("an input's time", store.CommitSteps(j, path, version(2), []store.Step{{Input: in, Entries: entries(2, 2, "two")}}), "journal input 1")
	unchanged("an input's time, journaled alone", j.Log(version(2), []store.Step{{Input: in, Entries: entries(2, 2, "two")}}, true), "journal input 1")
	if err := store.Commit(j, path, version(2), entries(2, 2, "two")); err != nil {
		t.Fatal(err)
	}
	if seq, lines := committed(t, path); seq != 2 || lines != "1:one 2:two" {
		t.Errorf("the next save: state at seq %d, journal %q; want 2, %q", seq, lines, "1:one 2:two")
	}
}
