package mailin

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Raw is one stored message with its arrival time. UID is the IMAP UID for
// IMAP sources and the 1-based position for archives.
type Raw struct {
	Data    []byte
	Arrived time.Time
	UID     uint32
	free    chan<- []byte // where Data's memory goes once released, for the archive's next message
}

// Release tells the archive that read r that r.Data is no longer used: an
// mbox archive reads a later message into the same memory. Neither r.Data
// nor a slice of it may be used after; what Parse returns shares no memory
// with it. Release may be called from any goroutine.
func (r *Raw) Release() {
	if r.free == nil || cap(r.Data) > maxSizeHint {
		return
	}
	select {
	case r.free <- r.Data[:0]:
	default: // the archive holds as many as it keeps
	}
	r.Data, r.free = nil, nil
}

// Archive reads stored mail in arrival order; Next returns io.EOF at the end.
type Archive interface {
	Next() (*Raw, error)
	Close() error
}

// OpenArchive opens stored mail for replay, detecting its kind: a directory
// with cur/ or new/ is a Maildir, a file starting with "From " is an mbox,
// any other file is a single message (.eml).
func OpenArchive(path string) (Archive, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open archive: %w", err)
	}
	if st.IsDir() {
		return openMaildir(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open archive: %w", err)
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(5)
	if bytes.Equal(head, []byte("From ")) {
		return &mboxArchive{f: f, r: br, free: make(chan []byte, mboxFree)}, nil
	}
	return &emlArchive{f: f, r: br, mtime: st.ModTime(), name: filepath.Base(path)}, nil
}

// emlArchive is a single message file: arrival is its Date header, or the
// file's mtime when that is missing or unreadable.
type emlArchive struct {
	f     *os.File
	r     io.Reader
	mtime time.Time
	name  string
	done  bool
}

func (a *emlArchive) Next() (*Raw, error) {
	if a.done {
		return nil, io.EOF
	}
	a.done = true
	data, err := io.ReadAll(a.r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", a.name, err)
	}
	arrived := a.mtime
	if d := headerDate(data); !d.IsZero() {
		arrived = d
	}
	return &Raw{Data: data, Arrived: arrived.UTC(), UID: 1}, nil
}

// headerDate is the time in the Date header of a raw message, or the zero
// time when it is missing or unreadable.
func headerDate(raw []byte) time.Time {
	h, _, _ := readHeader(raw)
	d, _ := parseDate(h.Get("Date"))
	return d
}

func (a *emlArchive) Close() error { return a.f.Close() }
