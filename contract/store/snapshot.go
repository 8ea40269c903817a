package store

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/contract"
)

// Snapshots: every whole save of the state (Commit, Snapshot) is also kept
// as snapshots/<journal_inputs>-<clock>.yaml beside the state file (a hard
// link to the file written, so it costs no second write). A correction
// re-runs the journal's inputs from a snapshot at or before the point it
// corrects (History), so the snapshots a correction may need are kept:
//
//   - the first snapshot (the start of the game's history),
//   - every snapshot whose clock is within SnapshotKeep of the newest's
//     (a report self-ratifies long before: every point still open to a
//     correction lies in that window),
//   - and the newest one older than that window, the start for a point at
//     the window's edge.
//
// The others are removed after each save. The journal itself is never cut
// by this: any point can be re-run from the first snapshot.

// SnapshotKeep is how far back, on the state's clock, the snapshots are
// all kept, unless the journal is told otherwise (SetSnapshotKeep).
const SnapshotKeep = 30 * 24 * time.Hour

// SnapshotDir is the folder of the snapshots of the state at path.
func SnapshotDir(path string) string { return filepath.Join(filepath.Dir(path), "snapshots") }

// SetSnapshotKeep sets how far back the snapshots are all kept (0: the
// default, SnapshotKeep).
func (j *Journal) SetSnapshotKeep(d time.Duration) { j.keep = d }

func (j *Journal) keepFor() time.Duration {
	if j.keep > 0 {
		return j.keep
	}
	return SnapshotKeep
}

const clockName = "20060102T150405Z"

// snapshotName is the file name of the snapshot of s.
func snapshotName(s *contract.State) string {
	return fmt.Sprintf("%012d-%s.yaml", s.JournalInputs, s.Clock.UTC().Format(clockName))
}

// keepSnapshot links the synced temporary file tmp, the state s about to
// replace path, into the snapshots folder, and returns the link ("" when
// it could not be made: a snapshot is a copy, never a reason to fail a
// save).
func keepSnapshot(tmp, path string, s *contract.State) string {
	return keepSnapshotAs(tmp, path, snapshotName(s))
}

// keepSnapshotAs is keepSnapshot for the snapshot named base.
func keepSnapshotAs(tmp, path, base string) string {
	dir := SnapshotDir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	name := filepath.Join(dir, base)
	os.Remove(name) // the same point saved again (a replay's last save)
	if err := os.Link(tmp, name); err != nil {
		return ""
	}
	return name
}

// Snapshot is a kept snapshot: its file, the last input it includes and its
// clock.
type Snapshot struct {
	Path   string
	Inputs int64
	Clock  time.Time
}

// Snapshots lists the snapshots kept beside the state at path, oldest
// (fewest inputs) first.
func Snapshots(path string) ([]Snapshot, error) {
	dir := SnapshotDir(path)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Snapshot
	for _, en := range ents {
		num, clock, ok := strings.Cut(strings.TrimSuffix(en.Name(), ".yaml"), "-")
		if !ok || !strings.HasSuffix(en.Name(), ".yaml") {
			continue
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			continue
		}
		t, err := time.Parse(clockName, clock)
		if err != nil {
			continue
		}
		out = append(out, Snapshot{Path: filepath.Join(dir, en.Name()), Inputs: n, Clock: t})
	}
	// By count of inputs, and those of one count by their clock (the
	// names' order, as read).
	slices.SortStableFunc(out, func(a, b Snapshot) int { return cmp.Compare(a.Inputs, b.Inputs) })
	return out, nil
}

// pruneSnapshots removes the snapshots of the state at path that the rule
// above does not keep.
func pruneSnapshots(path string, keep time.Duration) {
	snaps, err := Snapshots(path)
	if err != nil || len(snaps) == 0 {
		return
	}
	cutoff := snaps[len(snaps)-1].Clock.Add(-keep)
	// From the newest down to the second: the first older than the window
	// met is kept, every older one after it goes; the first snapshot stays.
	edge := false // the newest older than the window was met
	for i := len(snaps) - 1; i > 0; i-- {
		if !snaps[i].Clock.Before(cutoff) {
			continue
		}
		if edge {
			os.Remove(snaps[i].Path)
		}
		edge = true
	}
}

// History is what a correction re-runs from: the snapshot to start from,
// the newest kept at or before input at (loaded as it is), and every input
// of the journal after it, in order, each with the entries it made, its
// number and its line. The inputs up to at re-do the state at that point;
// the ones after it are the history to re-run. The journal's last save, if
// unfinished, is not among them.
func History(e *contract.Engine, path string, at int64) (*contract.State, []Step, error) {
	snaps, err := Snapshots(path)
	if err != nil {
		return nil, nil, err
	}
	var from *Snapshot
	for i := range snaps {
		if snaps[i].Inputs <= at {
			from = &snaps[i]
		}
	}
	if from == nil {
		return nil, nil, fmt.Errorf("%s: no snapshot at or before input %d", SnapshotDir(path), at)
	}
	s, err := loadFile(e, from.Path)
	if err != nil {
		return nil, nil, err
	}
	jpath := JournalPath(path)
	f, err := os.Open(jpath)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	jr := &journalReader{path: jpath, r: bufio.NewReaderSize(f, 1<<16)}
	var steps []Step
	pos := At(s)
	for !jr.done {
		save, _, err := jr.save(pos)
		if err != nil {
			return nil, nil, err
		}
		if save == nil {
			break
		}
		for _, st := range save {
			pos.Inputs = st.N
			if n := len(st.Entries); n > 0 {
				pos.Seq = st.Entries[n-1].Seq
			}
		}
		steps = append(steps, save...)
	}
	return s, steps, nil
}

// syncJournal syncs the journal's file for a background snapshot (a
// test makes it fail).
var syncJournal = (*os.File).Sync

// FailSnapshotJournalSync makes the journal's sync of every background
// snapshot fail with err (as a failed write-back does) until restore: for
// the tests of this package and of the daemon, which cannot fail a disk.
func FailSnapshotJournalSync(err error) (restore func()) {
	old := syncJournal
	syncJournal = func(*os.File) error { return err }
	return func() { syncJournal = old }
}

// PendingSnapshot is a snapshot of the state encoded by
// Journal.StartSnapshot and not yet written: Write writes it.
type PendingSnapshot struct {
	j     *Journal
	path  string
	taken *contract.Taken // the state as at StartSnapshot
	name  string          // under snapshots/
	at    Position
	// sync: lines it includes were written without a sync.
	sync bool
}

// StartSnapshot takes a snapshot of s, which includes every line journaled
// so far, for the state file at path, and returns it for Write to encode
// and write. Taking it (Encoder.Take: a copy of what changed since the
// journal's Encoder last encoded a state, the kept text of the players and
// game sections that did not) is the only part that reads s: once StartSnapshot
// returns, the caller may change s and journal more lines (Log,
// LogPending) while Write runs in another goroutine, so a whole-state
// encode and write never stands between two messages. Write must be called
// once; until it returns the journal takes no other whole save
// (CommitSteps, Snapshot, another StartSnapshot), and Close waits for it.
func (j *Journal) StartSnapshot(path string, s *contract.State) (*PendingSnapshot, error) {
	if err := j.refusing(); err != nil {
		return nil, err
	}
	j.writing.Add(1)
	return &PendingSnapshot{j: j, path: path, taken: j.enc.Take(s), name: snapshotName(s), at: At(s), sync: j.dirty}, nil
}

// Drop lets the snapshot go unwritten, in place of Write: the state file
// and the journal are as they were, and the journal takes whole saves
// again.
func (p *PendingSnapshot) Drop() {
	p.taken = nil
	p.j.writing.Done()
}

// At is the position of the journal the snapshot includes.
func (p *PendingSnapshot) At() Position { return p.at }

// Write writes the snapshot as CommitSteps writes a state: the journal's
// lines it includes synced (those written without a sync; the sync runs
// while the state is encoded and written), the state encoded (with the
// journal's Encoder, which pays for what changed since its last encoding)
// and written to a temporary file and
// synced, linked into snapshots/, renamed over the state file, the
// directory synced, the old snapshots pruned. A crash at any instant leaves
// the old state file or the new one, each with the journal's lines it
// includes on disk; on an error the old one stays, and the journal, which
// holds everything, is untouched.
func (p *PendingSnapshot) Write() error {
	j := p.j
	defer j.writing.Done()
	jerr := make(chan error, 1)
	if p.sync {
		// os.File's Sync may run beside the Write of a Log: it touches
		// nothing of the Journal's own fields.
		go func() { jerr <- syncJournal(j.f) }()
	} else {
		jerr <- nil
	}
	data, err := p.taken.EncodePieces()
	p.taken = nil
	if err != nil {
		if serr := <-jerr; serr != nil {
			return fmt.Errorf("%w; and %w", err, j.syncFailed(serr))
		}
		return err
	}
	var tmp string
	if f := j.takeSpare(p.path); f != nil {
		tmp, err = fillTemp(p.path, f, data, true)
	} else {
		tmp, err = writeTempPieces(p.path, data, 0o600, true)
	}
	if err != nil {
		if serr := <-jerr; serr != nil {
			return fmt.Errorf("%w; and %w", err, j.syncFailed(serr))
		}
		return err
	}
	if err := <-jerr; err != nil {
		os.Remove(tmp)
		return j.syncFailed(err)
	}
	snap := keepSnapshotAs(tmp, p.path, p.name)
	if err := os.Rename(tmp, p.path); err != nil {
		os.Remove(tmp)
		if snap != "" {
			os.Remove(snap)
		}
		if isDir(p.path) {
			return fmt.Errorf("save %s: it is a directory, not a state file: move it away", p.path)
		}
		return fmt.Errorf("save %s: %w", p.path, err)
	}
	if err := syncDir(filepath.Dir(p.path)); err != nil {
		return err
	}
	if snap != "" {
		syncDir(filepath.Dir(snap))
		pruneSnapshots(p.path, j.keepFor())
	}
	j.makeSpare(p.path)
	return nil
}
