package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// pacePiece is how much of a paced file is written back at a time.
const pacePiece = 128 << 10

// writePaced writes data to the new file f piece by piece, each written
// back to the disk and waited for (sync_file_range) before the next is
// written. It makes nothing durable (the caller's fsync does, and has
// only the file's metadata left to write); it keeps the disk's queue
// short, so that the journal's own sync is not queued behind a whole
// snapshot. Where sync_file_range is refused, the rest is written at once.
func writePaced(f *os.File, data []byte) error {
	fd := int(f.Fd())
	for off := 0; off < len(data); {
		n := min(pacePiece, len(data)-off)
		if _, err := f.Write(data[off : off+n]); err != nil {
			return err
		}
		if err := unix.SyncFileRange(fd, int64(off), int64(n), unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER); err != nil {
			_, err := f.Write(data[off+n:])
			return err
		}
		off += n
	}
	return nil
}
