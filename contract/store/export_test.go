package store

import (
	"os"
	"runtime"
)

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

// FailJournalSync makes the journal's own syncs (a save's, Sync, a
// PendingSave's, a whole save's) fail with err until restore is called,
// as a failed write-back reported to fsync does: a disk's cannot be had
// on demand.
func FailJournalSync(err error) (restore func()) {
	old := syncLog
	syncLog = func(*os.File) error { return err }
	return func() { syncLog = old }
}
