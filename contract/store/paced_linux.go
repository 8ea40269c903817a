package store

import "os"

// pacePiece is how much of a file is written at a time, and, paced,
// written back to the disk.
const pacePiece = 128 << 10

// pace writes n bytes of f from off back to the disk and waits for them
// (sync_file_range). It makes nothing durable (the caller's fsync does,
// and has only the file's metadata left to write); it keeps the disk's
// queue short, so that the journal's own sync is not queued behind a
// whole snapshot. Where sync_file_range is refused (a file system
// without it), the caller's fsync writes the bytes back. Its error is a
// failed write-back, which the kernel may report once only, here, and not
// to the caller's fsync after: the file is not to be trusted.
func pace(f *os.File, off, n int64) error {
	return writeBack(f, off, n, true)
}
