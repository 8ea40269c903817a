package store

import (
	"os"
	"runtime"
)

// FailSnapshotJournalSync makes the journal's sync of every background
// snapshot fail with err (as a failed write-back does) until restore.
func FailSnapshotJournalSync(err error) (restore func()) {
	old := syncJournal
	syncJournal = func(*os.File) error { return err }
	return func() { syncJournal = old }
}

// WaitSpare waits until the spare temporary file a save started making in
// the background is made (or given up).
func (j *Journal) WaitSpare() {
	for j.making.Load() {
		runtime.Gosched()
	}
}

// SaveSize is the size Log and CommitSteps grow their buffer to for a save
// of steps.
var SaveSize = saveSize
