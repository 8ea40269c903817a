package store

import "os"

// FailSnapshotJournalSync makes the journal's sync of every background
// snapshot fail with err (as a failed write-back does) until restore.
func FailSnapshotJournalSync(err error) (restore func()) {
	old := syncJournal
	syncJournal = func(*os.File) error { return err }
	return func() { syncJournal = old }
}
