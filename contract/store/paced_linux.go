package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// pacePiece is how much of a file is written at a time, and, paced,
// written back to the disk.
const pacePiece = 128 << 10

// pace writes n bytes of f from off back to the disk and waits for them
// (sync_file_range). It makes nothing durable (the caller's fsync does,
// and has only the file's metadata left to write); it keeps the disk's
// queue short, so that the journal's own sync is not queued behind a
// whole snapshot. Where sync_file_range is refused (a file system
// without it), the caller's fsync writes the bytes back.
func pace(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
}
