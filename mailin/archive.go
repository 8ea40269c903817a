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
	// CutShort: the archive ended inside this message's last line, as a
	// file cut short does (a copy stopped, a full disk): the message is
	// read as it is, and its reader may refuse to take it for whole.
	CutShort bool
	free     chan<- []byte // where Data's memory goes once released, for the archive's next message
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
// a file starting with a header field is a single message (.eml), and any
// other file is an error.
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
	if !startsWithField(br) {
		f.Close()
		return nil, fmt.Errorf("open archive: %s is neither an mbox (its first line is not a \"From \" line) nor a message (its first line is not a header field)", path)
	}
	return &emlArchive{f: f, r: br, mtime: st.ModTime(), name: filepath.Base(path)}, nil
}

// startsWithField tells whether br's first line begins with a header
// field's name and its colon (RFC 5322 2.2: printable ASCII but the colon),
// as every message does: a file that does not (a text, a picture, an empty
// file) is not taken for a message with no header, which replay would apply
// as mail from nobody arriving at the file's mtime.
func startsWithField(br *bufio.Reader) bool {
	head, _ := br.Peek(998) // a line's longest (RFC 5322 2.1.1); less at the file's end
	for i, c := range head {
		if c == ':' {
			return i > 0
		}
		if c < '!' || c > '~' {
			return false
		}
	}
	return false
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
