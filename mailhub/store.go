package mailhub

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// The hub's files, under Options.Dir:
//
//	seq                       the last UID given out; one counter for the hub
//	uidvalidity               the last UIDVALIDITY given out
//	mail.dat                  each message once, as submitted (a list post
//	                          once for all its readers, with its List-Id),
//	                          one after the other
//	lists.log                 one line per list post
//	users/u-<addr>/m-<mailbox>.log
//	                          one log per mailbox: a header line, then one
//	                          line per append, flag change, expunge or
//	                          subscription
//
// Every INBOX holds the list posts made since it was created (the header's
// "join") besides its own appends: a list post is written once, however
// many players there are. The trace fields a delivering MTA prepends
// (Return-Path, Delivered-To, Received) are not stored; they are rebuilt
// from the log line on every read, so each copy reads the same each time.
//
// A message becomes visible only when its log line is written, after its
// text is complete in mail.dat: text a crash cut short is never shown, and
// the next message is written after it. A log line cut by a crash is not a
// line: it is ignored, and cut off before the next append. Files are not
// fsynced: mail survives the hub's process being killed, not the machine
// losing power (the hub is for local use). Each delivery writes three
// times to files the hub keeps open (the UID counter, mail.dat, a log) and
// creates none.

// logRec is one line of a mailbox log or of lists.log.
type logRec struct {
	// Header (first line of a mailbox log).
	UIDValidity uint32 `json:"uidvalidity,omitempty"`
	Join        uint32 `json:"join,omitempty"` // INBOX: list posts with a higher UID are in it

	Op    string      `json:"op,omitempty"` // "a" append, "f" flags, "x" expunge, "s" subscription
	UID   uint32      `json:"uid,omitempty"`
	Off   int64       `json:"off,omitempty"`   // where the text starts in mail.dat
	Size  int64       `json:"size,omitempty"`  // of the text
	Time  time.Time   `json:"t,omitzero"`      // INTERNALDATE
	RP    string      `json:"rp,omitempty"`    // Return-Path; "" with To "": nothing prepended
	To    string      `json:"to,omitempty"`    // Delivered-To
	Flags []imap.Flag `json:"flags,omitempty"` // "a", "f"
	Sub   bool        `json:"sub,omitempty"`   // "s"
	List  string      `json:"list,omitempty"`  // lists.log: the list address
}

// msg is a message of a loaded mailbox.
type msg struct {
	uid       uint32
	off, size int64 // of the text in mail.dat; the trace fields come on top
	t         time.Time
	rp, to    string
	flags     []imap.Flag
}

// box is a mailbox loaded in memory because a session selected it. It is
// dropped when the last session leaves it.
type box struct {
	user, name  string
	uidValidity uint32
	join        uint32 // 0: no list posts (not an INBOX)
	subscribed  bool
	msgs        []*msg // in UID order
	uidNext     uint32
	tracker     *imapserver.MailboxTracker
	refs        int
	log         *os.File // open while selected
	gone        bool     // deleted or renamed away while selected
}

// store is the hub's mail on disk. Every method takes mu: one lock for the
// hub, as mail comes one message at a time.
type store struct {
	dir     string
	mu      sync.Mutex
	last    uint32 // the last UID given out
	seq     *os.File
	data    *os.File // mail.dat
	dataEnd int64
	listLog *os.File
	lists   []logRec           // every list post: UID, list, size, time
	users   map[string]bool    // known mailbox owners
	open    map[[2]string]*box // user, mailbox -> loaded box
	// bounces is each list's bounce address, made once.
	bounces map[string]string
}

const mailboxDelim = '/'

func openStore(dir string) (*store, error) {
	s := &store{dir: dir, users: map[string]bool{}, open: map[[2]string]*box{}, bounces: map[string]string{}}
	if err := os.MkdirAll(filepath.Join(dir, "users"), 0o700); err != nil {
		return nil, err
	}
	var err error
	if s.seq, err = os.OpenFile(filepath.Join(dir, "seq"), os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return nil, err
	}
	// Two hubs on one directory would write over each other's mail. The
	// lock goes with the file, or with the process.
	if err := syscall.Flock(int(s.seq.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		s.seq.Close()
		return nil, fmt.Errorf("another mail hub is using this directory (%w)", err)
	}
	if b, err := io.ReadAll(s.seq); err == nil {
		n, _ := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 32)
		s.last = uint32(n)
	}
	if s.data, err = os.OpenFile(filepath.Join(dir, "mail.dat"), os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		s.close()
		return nil, err
	}
	fi, err := s.data.Stat()
	if err != nil {
		s.close()
		return nil, err
	}
	s.dataEnd = fi.Size()
	if s.listLog, err = openLog(filepath.Join(dir, "lists.log"), true); err != nil {
		s.close()
		return nil, err
	}
	if err := readLog(filepath.Join(dir, "lists.log"), func(r logRec) {
		s.lists = append(s.lists, r)
		s.last = max(s.last, r.UID)
	}); err != nil {
		s.close()
		return nil, err
	}
	users, err := os.ReadDir(filepath.Join(dir, "users"))
	if err != nil {
		s.close()
		return nil, err
	}
	for _, e := range users {
		u, ok := strings.CutPrefix(e.Name(), "u-")
		if !ok || !e.IsDir() {
			continue
		}
		// A user whose INBOX a crash kept from being made gets it at the
		// next login or mail.
		if addr, err := url.QueryUnescape(u); err == nil {
			if _, err := os.Stat(s.boxPath(addr, "INBOX")); err == nil {
				s.users[addr] = true
			}
		}
	}
	return s, nil
}

func (s *store) close() error {
	// Connections may still be closing their sessions.
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, f := range []*os.File{s.seq, s.data, s.listLog} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	for _, b := range s.open {
		if b.log != nil {
			errs = append(errs, b.log.Close())
			b.log = nil
		}
	}
	return errors.Join(errs...)
}

// nextUID gives out a UID, recording it first.
func (s *store) nextUID() (uint32, error) {
	if s.last == ^uint32(0) {
		return 0, errors.New("mail hub: UIDs exhausted")
	}
	n := s.last + 1
	if _, err := s.seq.WriteAt(fmt.Appendf(nil, "%010d\n", n), 0); err != nil {
		return 0, fmt.Errorf("mail hub: record UID: %w", err)
	}
	s.last = n
	return n, nil
}

func (s *store) userDir(user string) string {
	return filepath.Join(s.dir, "users", "u-"+url.QueryEscape(user))
}

func (s *store) boxPath(user, name string) string {
	return filepath.Join(s.userDir(user), "m-"+url.QueryEscape(name)+".log")
}

// writeText stores a message's text under a new UID; it returns the UID
// and where the text starts.
func (s *store) writeText(b []byte) (uint32, int64, error) {
	n, err := s.nextUID()
	if err != nil {
		return 0, 0, err
	}
	off := s.dataEnd
	// Whatever happens, the next text goes after what this write reached.
	w, err := s.data.WriteAt(b, off)
	s.dataEnd += int64(w)
	if err != nil {
		return 0, 0, fmt.Errorf("mail hub: write message: %w", err)
	}
	return n, off, nil
}

// openLog opens the log at path for appending, cutting off a line a crash
// left unfinished.
func openLog(path string, create bool) (*os.File, error) {
	flags := os.O_RDWR | os.O_APPEND
	if create {
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil, err
	}
	if err := cutTornLine(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("mail hub: %s: %w", path, err)
	}
	return f, nil
}

// writeLog appends one line to an open log.
func writeLog(f *os.File, r logRec) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		// A part of the line may be written: cut it before the next.
		return errors.Join(fmt.Errorf("mail hub: %s: %w", f.Name(), err), cutTornLine(f))
	}
	return nil
}

// appendLog appends one line to the log at path.
func appendLog(path string, r logRec) error {
	f, err := openLog(path, false)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeLog(f, r)
}

// appendBox appends one line to a mailbox's log, through the file kept
// open while it is selected if it is.
func (s *store) appendBox(user, name string, r logRec) error {
	if b := s.open[[2]string{user, name}]; b != nil && b.log != nil {
		return writeLog(b.log, r)
	}
	err := appendLog(s.boxPath(user, name), r)
	if errors.Is(err, fs.ErrNotExist) {
		return errNoMailbox(imap.ResponseCodeTryCreate)
	}
	return err
}

// cutTornLine truncates f after its last newline.
func cutTornLine(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return err
	}
	if last[0] == '\n' {
		return nil
	}
	buf := make([]byte, min(size, 1<<20))
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return f.Truncate(start + int64(i) + 1)
		}
		end = start
	}
	return f.Truncate(0)
}

// readLog calls fn for each whole line of the log at path. A line that
// does not decode is skipped: only a crash writes one, and only last.
func readLog(path string, fn func(logRec)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return nil // a line without its newline is unfinished
		}
		if err != nil {
			return err
		}
		var r logRec
		if json.Unmarshal(line, &r) == nil {
			fn(r)
		}
	}
}

// createUser makes user's directory and INBOX if they do not exist.
func (s *store) createUser(user string) (bool, error) {
	if s.users[user] {
		return false, nil
	}
	if err := os.MkdirAll(s.userDir(user), 0o700); err != nil {
		return false, err
	}
	if err := s.createBox(user, "INBOX"); err != nil && !isAlreadyExists(err) {
		return false, err
	}
	s.users[user] = true
	return true, nil
}

var errAlreadyExists = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAlreadyExists, Text: "Mailbox already exists"}

func isAlreadyExists(err error) bool { return errors.Is(err, errAlreadyExists) }

func errNoMailbox(code imap.ResponseCode) error {
	return &imap.Error{Type: imap.StatusResponseTypeNo, Code: code, Text: "No such mailbox"}
}

// createBox writes a new mailbox's header: its UIDVALIDITY (never given
// out before, so a re-created mailbox does not pass for the old one) and,
// for an INBOX, the UID after which list posts belong to it.
func (s *store) createBox(user, name string) error {
	path := s.boxPath(user, name)
	if _, err := os.Stat(path); err == nil {
		return errAlreadyExists
	}
	uv, err := s.nextUIDValidity()
	if err != nil {
		return err
	}
	hdr := logRec{UIDValidity: uv}
	if name == "INBOX" {
		hdr.Join = s.last
	}
	line, _ := json.Marshal(hdr)
	tmp := filepath.Join(s.userDir(user), ".new-"+filepath.Base(path))
	if err := os.WriteFile(tmp, append(line, '\n'), 0o600); err != nil {
		return fmt.Errorf("mail hub: create %s %s: %w", user, name, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("mail hub: create %s %s: %w", user, name, err)
	}
	return nil
}

// nextUIDValidity is the clock in seconds, or one more than the last one
// given out if that is later (RFC 3501 2.3.1.1: a new mailbox must not
// reuse the value of one that existed under its name).
func (s *store) nextUIDValidity() (uint32, error) {
	path := filepath.Join(s.dir, "uidvalidity")
	var last uint32
	if b, err := os.ReadFile(path); err == nil {
		n, _ := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 32)
		last = uint32(n)
	}
	uv := max(last+1, uint32(time.Now().Unix()))
	if err := os.WriteFile(path, fmt.Appendf(nil, "%d\n", uv), 0o600); err != nil {
		return 0, fmt.Errorf("mail hub: record UIDVALIDITY: %w", err)
	}
	return uv, nil
}

// load reads a mailbox from disk.
func (s *store) load(user, name string) (*box, error) {
	b := &box{user: user, name: name}
	type state struct {
		m       *msg
		flags   []imap.Flag
		flagged bool
		gone    bool
	}
	byUID := map[uint32]*state{}
	first := true
	err := readLog(s.boxPath(user, name), func(r logRec) {
		if first {
			first = false
			b.uidValidity, b.join = r.UIDValidity, r.Join
			return
		}
		if r.Op != "s" && (r.UID == 0 || r.UID == ^uint32(0)) {
			return // not a UID the hub gives out
		}
		st := byUID[r.UID]
		if st == nil && r.Op != "s" {
			st = &state{}
			byUID[r.UID] = st
		}
		switch r.Op {
		case "a":
			st.m = &msg{uid: r.UID, off: r.Off, size: r.Size, t: r.Time, rp: r.RP, to: r.To, flags: r.Flags}
		case "f":
			st.flags, st.flagged = r.Flags, true
		case "x":
			st.gone = true
		case "s":
			b.subscribed = r.Sub
		}
		b.uidNext = max(b.uidNext, r.UID+1)
	})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errNoMailbox(imap.ResponseCodeNonExistent)
		}
		return nil, err
	}
	if first {
		return nil, fmt.Errorf("mail hub: %s %s: no header", user, name)
	}
	if name == "INBOX" {
		for _, p := range s.lists {
			if p.UID > b.join {
				if byUID[p.UID] == nil {
					byUID[p.UID] = &state{}
				}
				byUID[p.UID].m = s.listMsg(p, user)
				b.uidNext = max(b.uidNext, p.UID+1)
			}
		}
		// UIDNEXT changes only when mail comes (RFC 3501 2.3.1.1); the
		// next UID given out may be higher.
		b.uidNext = max(b.uidNext, b.join+1)
	}
	for _, st := range byUID {
		if st.m == nil || st.gone {
			continue
		}
		if st.flagged {
			st.m.flags = st.flags
		}
		b.msgs = append(b.msgs, st.m)
	}
	sort.Slice(b.msgs, func(i, j int) bool { return b.msgs[i].uid < b.msgs[j].uid })
	if b.uidNext == 0 {
		b.uidNext = 1
	}
	b.tracker = imapserver.NewMailboxTracker(uint32(len(b.msgs)))
	return b, nil
}

// listMsg is user's copy of a list post.
func (s *store) listMsg(p logRec, user string) *msg {
	rp, ok := s.bounces[p.List]
	if !ok {
		// A list server resends with its own bounce address.
		local, domain, _ := strings.Cut(p.List, "@")
		rp = local + "-bounces@" + domain
		s.bounces[p.List] = rp
	}
	return &msg{uid: p.UID, off: p.Off, size: p.Size, t: p.Time, rp: rp, to: user}
}

// acquire returns the loaded mailbox, loading it if need be, for a new
// session; release gives it back.
func (s *store) acquire(user, name string) (*box, error) {
	k := [2]string{user, name}
	b := s.open[k]
	if b == nil {
		var err error
		if b, err = s.load(user, name); err != nil {
			return nil, err
		}
		if b.log, err = openLog(s.boxPath(user, name), false); err != nil {
			return nil, err
		}
		s.open[k] = b
	}
	b.refs++
	return b, nil
}

func (s *store) release(b *box) {
	b.refs--
	if b.refs > 0 {
		return
	}
	if !b.gone {
		delete(s.open, [2]string{b.user, b.name})
	}
	if b.log != nil {
		b.log.Close()
		b.log = nil
	}
}

// forget drops a mailbox deleted or renamed: sessions that have it
// selected keep what they see, and the next SELECT reads the disk.
func (s *store) forget(user, name string) {
	k := [2]string{user, name}
	if b := s.open[k]; b != nil {
		b.gone = true
		delete(s.open, k)
	}
}

// peek returns the mailbox, loaded or read for the moment.
func (s *store) peek(user, name string) (*box, error) {
	if b := s.open[[2]string{user, name}]; b != nil {
		return b, nil
	}
	return s.load(user, name)
}

// add appends a message to a mailbox's log and, if it is loaded, to its
// sessions' view.
func (s *store) add(user, name string, m *msg) error {
	if err := s.appendBox(user, name, logRec{Op: "a", UID: m.uid, Off: m.off, Size: m.size, Time: m.t, RP: m.rp, To: m.to, Flags: m.flags}); err != nil {
		return err
	}
	if b := s.open[[2]string{user, name}]; b != nil {
		b.push(m)
	}
	return nil
}

func (b *box) push(m *msg) {
	b.msgs = append(b.msgs, m)
	b.uidNext = max(b.uidNext, m.uid+1)
	b.tracker.QueueNumMessages(uint32(len(b.msgs)))
}

// post records a list post (its text already written) and shows
// it in every loaded INBOX. It returns the users to signal.
func (s *store) post(uid uint32, list string, off, size int64, t time.Time) ([]string, error) {
	r := logRec{UID: uid, List: list, Off: off, Size: size, Time: t}
	if err := writeLog(s.listLog, r); err != nil {
		return nil, err
	}
	s.lists = append(s.lists, r)
	var users []string
	for k, b := range s.open {
		if k[1] == "INBOX" && uid > b.join {
			b.push(s.listMsg(r, b.user))
			users = append(users, b.user)
		}
	}
	return users, nil
}

// prefix is the trace fields a delivering MTA adds (RFC 5321 4.4:
// Return-Path, Received; Delivered-To as Postfix and Dovecot write it).
func (m *msg) prefix() []byte {
	if m.to == "" {
		return nil
	}
	return fmt.Appendf(nil, "Return-Path: <%s>\r\nDelivered-To: %s\r\nReceived: by %s (referee mail hub) for <%s>;\r\n %s\r\n",
		m.rp, m.to, Hostname, m.to, m.t.UTC().Format(time.RFC1123Z)) // date-time, RFC 5322 3.3
}

func (m *msg) fullSize() int64 { return int64(len(m.prefix())) + m.size }

// read returns the whole message as a client sees it.
func (s *store) read(m *msg) ([]byte, error) {
	p := m.prefix()
	b := make([]byte, len(p)+int(m.size))
	copy(b, p)
	if _, err := s.data.ReadAt(b[len(p):], m.off); err != nil {
		return nil, fmt.Errorf("mail hub: read message %d: %w", m.uid, err)
	}
	return b, nil
}

// boxes lists user's mailbox names.
func (s *store) boxes(user string) ([]string, error) {
	ents, err := os.ReadDir(s.userDir(user))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "m-")
		if !ok {
			continue
		}
		n, ok = strings.CutSuffix(n, ".log")
		if !ok {
			continue
		}
		if name, err := url.QueryUnescape(n); err == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}
