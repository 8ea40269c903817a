package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contract"
	"referee/internal/bridge"
	"referee/internal/pagecache"
)

// residentPages is how many pages of the file at path are in the page
// cache, and how many it has.
func residentPages(t *testing.T, path string) (in, all int) {
	t.Helper()
	in, all, err := pagecache.Resident(path, 0, 0)
	if err != nil || all == 0 {
		t.Fatalf("%s: %v, %d pages", path, err, all)
	}
	return in, all
}

// openFiles is how many files the process has open.
func openFiles(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	return len(fds)
}

// TestEmlFilesLetGoAfterSync: the mails a replay writes are let go from
// the page cache once the sync has written them back (a replay writes
// hundreds of megabytes of them and never reads them), each file whole
// and closed; past the files kept open between two syncs, the rest are
// closed at once and written as well.
func TestEmlFilesLetGoAfterSync(t *testing.T) {
	dir := t.TempDir()
	if ok, err := pagecache.LetsGo(dir); err != nil || !ok {
		t.Skipf("the file system of %s keeps the pages of a file written back (tmpfs?): nothing to let go (%v)", dir, err)
	}
	addr := bridge.Addresses{Referee: "referee@example.test", PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test", PublicTag: "BUS:", OfficialTag: "OFF:"}
	var outbox []*contract.Outgoing
	for i := range 300 {
		outbox = append(outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("receipt/%d@example.test", i), Kind: "receipt",
			Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: fmt.Sprintf("Re: claim %d", i),
			Body: strings.Repeat(fmt.Sprintf("Claim %d done. ", i), 600) + "\n", Time: time.Date(2026, 11, 2, 8, 0, i%60, 0, time.UTC)}})
	}
	for _, kept := range []int{keptFiles, 100} {
		out := filepath.Join(dir, fmt.Sprint("out-", kept))
		before := openFiles(t)
		w, err := newEmlWriter(out, addr)
		if err != nil {
			t.Fatal(err)
		}
		w.maxKept = kept
		w.background()
		if err := w.write(outbox[:150], 1, func(string) {}); err != nil {
			t.Fatal(err)
		}
		if err := w.write(outbox[150:], 151, func(string) {}); err != nil {
			t.Fatal(err)
		}
		if err := w.sync(); err != nil {
			t.Fatal(err)
		}
		if open := openFiles(t) - before; open != 1 {
			t.Errorf("kept %d: %d files open after the sync, want 1 (the folder)", kept, open)
		}
		w.close()
		// Counted before any is read (a read brings the pages back):
		// those kept open are let go, those closed at once are left to
		// the kernel, which has not let them go yet.
		var letGo, left, letGoPages, leftPages int
		for i := range outbox {
			in, all := residentPages(t, filepath.Join(out, emlName(i+1)))
			if i < kept {
				letGo, letGoPages = letGo+in, letGoPages+all
			} else {
				left, leftPages = left+in, leftPages+all
			}
		}
		if letGo > letGoPages/20 {
			t.Errorf("kept %d: %d of the %d pages of the files kept open are in the page cache after the sync; want them let go", kept, letGo, letGoPages)
		}
		if kept < len(outbox) && left < leftPages/2 {
			t.Errorf("kept %d: %d of the %d pages of the files closed at once are in the page cache; want most (nothing let them go)", kept, left, leftPages)
		}
		for i := range outbox {
			name := filepath.Join(out, emlName(i+1))
			raw, err := os.ReadFile(name)
			if err != nil || !bytes.Contains(raw, []byte(fmt.Sprintf("Claim %d done.", i))) {
				t.Fatalf("kept %d: %s: %v, %d bytes without its notice", kept, name, err, len(raw))
			}
		}
	}
}

// TestEmlFilesKeptWithinTheOpenFileLimit: where the process meets its
// limit of open files while mails are kept open for their sync (the rest
// of the process took more than the writer left it), the mails kept are
// closed and the replay goes on: every mail is written, whole, and none
// stays open after the sync.
func TestEmlFilesKeptWithinTheOpenFileLimit(t *testing.T) {
	addr := bridge.Addresses{Referee: "referee@example.test", PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test", PublicTag: "BUS:", OfficialTag: "OFF:"}
	var outbox []*contract.Outgoing
	for i := range 60 {
		outbox = append(outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("receipt/%d@example.test", i), Kind: "receipt",
			Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: fmt.Sprintf("Re: claim %d", i),
			Body: fmt.Sprintf("Claim %d done.\n", i), Time: time.Date(2026, 11, 2, 8, 0, i, 0, time.UTC)}})
	}
	for _, background := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "out")
		w, err := newEmlWriter(out, addr)
		if err != nil {
			t.Fatal(err)
		}
		w.maxKept = keptFiles
		if background {
			w.background()
		}
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
		before := openFiles(t)
		low := lim
		low.Cur = uint64(before + 20)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
			t.Fatal(err)
		}
		err = w.write(outbox[:30], 1, func(string) {})
		if err == nil {
			err = w.write(outbox[30:], 31, func(string) {})
		}
		if err == nil {
			err = w.sync()
		}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
		open := openFiles(t) - before
		w.close()
		if err != nil {
			t.Fatalf("background %v: 60 mails with room for 20 open files: %v", background, err)
		}
		if open != 0 {
			t.Errorf("background %v: %d more files open after the sync, want none", background, open)
		}
		for i := range outbox {
			name := filepath.Join(out, emlName(i+1))
			raw, err := os.ReadFile(name)
			if err != nil || !bytes.Contains(raw, []byte(fmt.Sprintf("Claim %d done.", i))) {
				t.Fatalf("background %v: %s: %v, %d bytes without its notice", background, name, err, len(raw))
			}
		}
	}
}
