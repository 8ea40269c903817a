package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"referee/internal/benchanchor"
	"referee/internal/bridge"
)

// writeFileByPath is how emlWriter wrote a file before it held its folder
// open: the file opened by its whole path. The tests hold writeFile to it.
func writeFileByPath(name string, raw []byte, chmod bool) error {
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
	})
	if errors.Is(err, unix.EEXIST) {
		fd, err = ignoringEINTR(func() (int, error) {
			return unix.Open(name, unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
		})
		chmod = true
	}
	if err != nil {
		return err
	}
	for len(raw) > 0 && err == nil {
		var n int
		if n, err = unix.Write(fd, raw); err == nil && n == 0 {
			err = io.ErrShortWrite
		} else if err == nil {
			raw = raw[n:]
		} else if errors.Is(err, unix.EINTR) {
			err = nil
		}
	}
	if err == nil && chmod {
		err = unix.Fchmod(fd, 0o644)
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	return err
}

// TestEmlNameIsPrintfs: a file's name is what "%04d.eml" writes, for
// numbers of one to seven digits and random ones.
func TestEmlNameIsPrintfs(t *testing.T) {
	ns := []int{0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 1234567}
	r := rand.New(rand.NewPCG(14, 2))
	for range 2000 {
		ns = append(ns, r.IntN(1<<r.IntN(31)))
	}
	for _, n := range ns {
		if got, want := emlName(n), fmt.Sprintf("%04d.eml", n); got != want {
			t.Errorf("emlName(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestEmlFileIsByPaths: a mail written in the folder held open is the
// file, with the mode, that writing it by its path made, over random
// texts, under three umasks, where no file was, where a killed replay left
// one (shorter, longer, mode 0600), and where a folder takes its name (the
// same error).
func TestEmlFileIsByPaths(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	r := rand.New(rand.NewPCG(14, 3))
	for _, mask := range []int{0o022, 0o077, 0} {
		syscall.Umask(mask)
		byPath, held := t.TempDir(), t.TempDir()
		w, err := newEmlWriter(held, bridge.Addresses{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 200 {
			raw := make([]byte, r.IntN(3)*r.IntN(20000))
			for j := range raw {
				raw[j] = byte(r.IntN(256))
			}
			name := emlName(i)
			// What is there before: nothing, a file cut short or
			// longer, of mode 0600, or a folder.
			left := r.IntN(4)
			for _, dir := range []string{byPath, held} {
				p := filepath.Join(dir, name)
				switch left {
				case 1, 2:
					if err := os.WriteFile(p, bytes.Repeat([]byte("x"), left*len(raw)/2+1), 0o600); err != nil {
						t.Fatal(err)
					}
					os.Chmod(p, 0o600)
				case 3:
					if err := os.Mkdir(p, 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			want := writeFileByPath(filepath.Join(byPath, name), raw, umask()&0o644 != 0)
			got := w.writeFile(name, raw)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("umask %o, %s (left %d): error %v, by path %v", mask, name, left, got, want)
			}
			if left == 3 {
				continue
			}
			a, b := fileOf(t, filepath.Join(byPath, name)), fileOf(t, filepath.Join(held, name))
			if a != b {
				t.Errorf("umask %o, %s (left %d): %s, by path %s", mask, name, left, b, a)
			}
		}
		w.close()
	}
}

// TestEmlWriterClosesItsFolder: a replay's writer, closed, leaves no file
// of the process open: 64 of them, on folders of their own or none, each
// closed twice, and the process has as many open as before (or fewer).
func TestEmlWriterClosesItsFolder(t *testing.T) {
	open := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("open files not listed: %v", err)
		}
		return len(ents)
	}
	before := open()
	for i := range 64 {
		dir := ""
		if i%4 != 0 {
			dir = t.TempDir()
		}
		w, err := newEmlWriter(dir, bridge.Addresses{})
		if err != nil {
			t.Fatal(err)
		}
		w.close()
		w.close()
	}
	if after := open(); after >= before+48 {
		t.Errorf("%d files open after 64 writers closed, %d before", after, before)
	}
}

// fileOf is a file's mode, size and a digest of its text.
func fileOf(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b := readFile(t, path)
	var h uint64 = 14695981039346656037
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return fmt.Sprintf("%v %d %016x", fi.Mode(), len(b), h)
}

// BenchmarkEmlFile times making one mail's file (900 bytes, a receipt's
// size) in a folder that grows as a replay's does, by its path as before
// (bypath) and by its name in the folder held open (now), in the same
// loop, each by the thread's CPU time (the kernel's included, which is
// most of it): bypath-ns/op, now-ns/op and their ratio. The folders are
// made where TMPDIR says: for the figures of a replay, in a folder marked
// with chattr +T (bench/README.md).
//
//	TMPDIR=/tmp/runs go test ./cmd/referee -run '^$' -bench '^BenchmarkEmlFile$' -benchtime 20000x -count 3
func BenchmarkEmlFile(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		d, err := benchanchor.ThreadCPU()
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	raw := bytes.Repeat([]byte("Done: you are a contestant of Life.\r\n"), 25)
	byPath, held := b.TempDir(), b.TempDir()
	w, err := newEmlWriter(held, bridge.Addresses{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.close()
	chmod := w.chmod
	var now, before time.Duration
	n := 0
	for b.Loop() {
		n++
		t0 := cpu()
		if err := writeFileByPath(filepath.Join(byPath, fmt.Sprintf("%04d.eml", n)), raw, chmod); err != nil {
			b.Fatal(err)
		}
		t1 := cpu()
		if err := w.writeFile(emlName(n), raw); err != nil {
			b.Fatal(err)
		}
		now += cpu() - t1
		before += t1 - t0
	}
	b.ReportMetric(float64(before.Nanoseconds())/float64(n), "bypath-ns/op")
	b.ReportMetric(float64(now.Nanoseconds())/float64(n), "now-ns/op")
	b.ReportMetric(float64(now)/float64(before), "ratio")
}
