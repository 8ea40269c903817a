package store

import (
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// pacePiece is how much of a paced file is written back at a time.
const pacePiece = 128 << 10

// writePaced writes data to the new file f piece by piece, each written
// back to the disk and waited for (sync_file_range) before the next is
// written. It makes nothing durable (the caller's fsync does, and has
// only the file's metadata left to write); it keeps the disk's queue
// short, so that the journal's own sync is not queued behind a whole
// snapshot. Where sync_file_range is refused (a file system without it),
// the pieces are written all the same, and the caller's fsync writes
// them back.
func writePaced(f *os.File, data []byte) error {
	fd := int(f.Fd())
	var off int64
	for piece := range slices.Chunk(data, pacePiece) {
		if _, err := f.Write(piece); err != nil {
			return err
		}
		_ = unix.SyncFileRange(fd, off, int64(len(piece)), unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
		off += int64(len(piece))
	}
	return nil
}
