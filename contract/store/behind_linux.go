package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// writeBackFile hands n bytes of f from off to the disk, and with wait waits
// for them (and for any of them handed over before). A file system without
// sync_file_range is not an error: its sync writes everything back.
func writeBackFile(f *os.File, off, n int64, wait bool) error {
	flags := unix.SYNC_FILE_RANGE_WRITE
	if wait {
		flags |= unix.SYNC_FILE_RANGE_WAIT_BEFORE | unix.SYNC_FILE_RANGE_WAIT_AFTER
	}
	for {
		err := unix.SyncFileRange(int(f.Fd()), off, n, flags)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.ESPIPE), errors.Is(err, unix.EOPNOTSUPP):
			return nil
		}
		return err
	}
}

// letGo lets the pages of n bytes of f from off, written back, go from the
// page cache (advice: nothing changes on the disk, and what cannot be let
// go stays).
func letGo(f *os.File, off, n int64) {
	_ = unix.Fadvise(int(f.Fd()), off, n, unix.FADV_DONTNEED)
}
