package store

import (
	"fmt"
	"os"
)

// behindWindow is how much of the journal is written back to the disk at a
// time behind its end, and then let go from memory (writeBehind).
const behindWindow = 8 << 20

// writeBehind writes the journal back to the disk behind its end and lets
// the pages written back go from the page cache, so that a journal written
// in a stream (a replay's saves: hundreds of megabytes between two syncs)
// holds at most two windows of the page cache, not all it wrote. The
// replay never reads those lines again, and the kernel, once they are let
// go, gives their pages to the next lines at once: a page the process has
// never touched can cost many times the copy into it (a virtual machine
// whose host took back the memory the guest had left free). It makes
// nothing durable: the journal's sync still does, and a failed write-back
// met here is made sticky as a failed sync is (see Journal.syncFailed).
//
// The window [dropped, started) was handed to the disk the last time;
// [started, end) is written and not yet handed over. Once that passes
// behindWindow, it is handed over (without waiting), and the earlier
// window is waited for and let go.
//
// It waits through f, a file description of its own: Linux reports a
// failed write-back once to each open file description of the file, and
// waiting through the journal's own would take the report from the
// journal's next sync. That sync may run on another goroutine (a
// PendingSave's) while a Log meets the failure here, and would then say
// lines are on disk that are not.
type writeBehind struct {
	f                *os.File
	started, dropped int64
}

// openWriteBehind opens the journal at path again for writeBehind, which
// starts at its end, off.
func openWriteBehind(path string, off int64) (writeBehind, error) {
	f, err := os.Open(path)
	if err != nil {
		return writeBehind{}, fmt.Errorf("open journal: %w", err)
	}
	return writeBehind{f: f, started: off, dropped: off}, nil
}

// wrote notes that the journal now ends at end, and hands the disk and
// lets go what passed a window; the error is a failed write-back.
func (b *writeBehind) wrote(end int64) error {
	if end-b.started < behindWindow {
		return nil
	}
	if err := writeBack(b.f, b.started, end-b.started, false); err != nil {
		return err
	}
	if b.started > b.dropped {
		if err := writeBack(b.f, b.dropped, b.started-b.dropped, true); err != nil {
			return err
		}
		letGo(b.f, b.dropped, b.started-b.dropped)
		b.dropped = b.started
	}
	b.started = end
	return nil
}

// cut notes that the journal was cut back to size.
func (b *writeBehind) cut(size int64) {
	b.started, b.dropped = min(b.started, size), min(b.dropped, size)
}

// writeBack is writeBackFile; FailWriteBack changes it.
var writeBack = writeBackFile

// FailWriteBack makes every write-back (the journal's behind its end, a
// paced snapshot's) fail with err until restore is called: a test hook, as
// a disk's failed write-back cannot be had on demand.
func FailWriteBack(err error) (restore func()) {
	old := writeBack
	writeBack = func(*os.File, int64, int64, bool) error { return err }
	return func() { writeBack = old }
}
