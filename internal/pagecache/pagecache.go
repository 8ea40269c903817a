//go:build linux

// Package pagecache tells the tests whether a file's pages are in the page
// cache (mincore), and whether a folder's file system lets written-back
// pages go when told to (tmpfs keeps them: they are the file).
package pagecache

import (
	"bytes"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Resident is how many of the pages of the file at path, from off for n
// bytes (n 0: to its end), are in the page cache, and how many there are.
func Resident(path string, off, n int64) (in, all int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	if n == 0 {
		st, err := f.Stat()
		if err != nil {
			return 0, 0, err
		}
		n = st.Size() - off
	}
	if n <= 0 {
		return 0, 0, nil
	}
	page := int64(os.Getpagesize())
	n += off % page
	off -= off % page
	m, err := unix.Mmap(int(f.Fd()), off, int(n), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Munmap(m)
	vec := make([]byte, (n+page-1)/page)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		return 0, 0, errno
	}
	for _, v := range vec {
		in += int(v & 1)
	}
	return in, len(vec), nil
}

// LetsGo says whether the file system of dir lets the pages of a file,
// written back, go from the page cache when told (FADV_DONTNEED): a probe
// file is written, synced, let go and looked at, then removed.
func LetsGo(dir string) (bool, error) {
	path := filepath.Join(dir, ".pagecache-probe")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), 1<<16), 0o600); err != nil {
		return false, err
	}
	defer os.Remove(path)
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return false, err
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return false, nil
	}
	in, _, err := Resident(path, 0, 0)
	return err == nil && in == 0, err
}
