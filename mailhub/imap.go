package mailhub

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
)

// imapSession is one IMAP connection over the hub's store. LOGIN accepts any
// password and creates the user's mailbox on first use; IDLE cannot miss an
// update (see Idle).
type imapSession struct {
	hub  *Hub
	user string // "" until Login
	// sel is nil unless a mailbox is selected. Commands run one at a time,
	// but the connection closes while IDLE may still poll: mu guards sel
	// against that.
	mu  sync.Mutex
	sel *view
}

// view is a session's selected mailbox: its own sequence numbers, kept by
// the tracker while other sessions change the mailbox.
type view struct {
	b         *box
	t         *imapserver.SessionTracker
	readOnly  bool
	searchRes imap.UIDSet
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

var (
	errReadOnly  = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "Mailbox is read-only (EXAMINE)"}
	errSameBox   = &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Source and destination mailboxes are identical"}
	errInboxKept = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeCannot, Text: "INBOX cannot be deleted or renamed here"}
)

// systemFlags are the flags every mailbox offers (RFC 9051 2.3.2).
var systemFlags = []imap.Flag{imap.FlagAnswered, imap.FlagFlagged, imap.FlagDeleted, imap.FlagSeen, imap.FlagDraft}

// boxName makes INBOX case-insensitive (RFC 9051 5.1) and drops a trailing
// delimiter.
func boxName(name string) string {
	if strings.EqualFold(name, "INBOX") {
		return "INBOX"
	}
	return strings.TrimRight(name, string(mailboxDelim))
}

// Login accepts any password (RFC 3501 6.2.3 lets the server choose):
// the hub is for local use only.
func (s *imapSession) Login(username, password string) error {
	if err := s.hub.mailbox(username); err != nil {
		s.hub.log.Debug("mail hub login refused", "user", username, "err", err)
		return imapserver.ErrAuthFailed
	}
	s.user = normAddr(username)
	return nil
}

func (s *imapSession) Close() error {
	s.unselect()
	return nil
}

func (s *imapSession) unselect() {
	if s.sel == nil {
		return
	}
	st := s.hub.store
	st.mu.Lock()
	s.sel.t.Close()
	st.release(s.sel.b)
	st.mu.Unlock()
	s.mu.Lock()
	s.sel = nil
	s.mu.Unlock()
}

func (s *imapSession) Select(name string, options *imap.SelectOptions) (*imap.SelectData, error) {
	s.unselect()
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	b, err := st.acquire(s.user, boxName(name))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.sel = &view{b: b, t: b.tracker.NewSession(), readOnly: options != nil && options.ReadOnly}
	s.mu.Unlock()
	d := &imap.SelectData{
		Flags:          systemFlags,
		PermanentFlags: append(slices.Clone(systemFlags), imap.FlagWildcard),
		NumMessages:    uint32(len(b.msgs)),
		UIDNext:        imap.UID(b.uidNext),
		UIDValidity:    b.uidValidity,
	}
	for i, m := range b.msgs {
		if !hasFlag(m.flags, imap.FlagSeen) {
			d.FirstUnseenSeqNum = uint32(i) + 1
			break
		}
	}
	return d, nil
}

func (s *imapSession) Unselect() error {
	s.unselect()
	return nil
}

func (s *imapSession) Create(name string, _ *imap.CreateOptions) error {
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.createBox(s.user, boxName(name))
}

func (s *imapSession) Delete(name string) error {
	name = boxName(name)
	if name == "INBOX" {
		return errInboxKept
	}
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := os.Remove(st.boxPath(s.user, name)); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errNoMailbox(imap.ResponseCodeNonExistent)
		}
		return err
	}
	st.forget(s.user, name)
	return nil
}

func (s *imapSession) Rename(name, newName string, _ *imap.RenameOptions) error {
	name, newName = boxName(name), boxName(newName)
	if name == "INBOX" || newName == "INBOX" {
		return errInboxKept
	}
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	from, to := st.boxPath(s.user, name), st.boxPath(s.user, newName)
	if _, err := os.Stat(to); err == nil {
		return errAlreadyExists
	}
	if err := os.Rename(from, to); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errNoMailbox(imap.ResponseCodeNonExistent)
		}
		return err
	}
	st.forget(s.user, name)
	return nil
}

func (s *imapSession) Subscribe(name string) error   { return s.subscribe(name, true) }
func (s *imapSession) Unsubscribe(name string) error { return s.subscribe(name, false) }

func (s *imapSession) subscribe(name string, sub bool) error {
	name = boxName(name)
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.appendBox(s.user, name, logRec{Op: "s", Sub: sub}); err != nil {
		return err
	}
	if b := st.open[[2]string{s.user, name}]; b != nil {
		b.subscribed = sub
	}
	return nil
}

func (s *imapSession) List(w *imapserver.ListWriter, ref string, patterns []string, options *imap.ListOptions) error {
	if len(patterns) == 0 {
		return w.WriteList(&imap.ListData{Attrs: []imap.MailboxAttr{imap.MailboxAttrNoSelect}, Delim: mailboxDelim})
	}
	st := s.hub.store
	st.mu.Lock()
	names, err := st.boxes(s.user)
	var out []imap.ListData
	for _, name := range names {
		if err != nil {
			break
		}
		if !slices.ContainsFunc(patterns, func(p string) bool { return imapserver.MatchList(name, mailboxDelim, ref, p) }) {
			continue
		}
		if options.SelectSpecialUse {
			continue // the hub has no special-use mailboxes
		}
		d := imap.ListData{Mailbox: name, Delim: mailboxDelim}
		if options.SelectSubscribed || options.ReturnSubscribed || options.ReturnStatus != nil {
			var b *box
			if b, err = st.peek(s.user, name); err != nil {
				break
			}
			if options.SelectSubscribed && !b.subscribed {
				continue
			}
			if b.subscribed {
				d.Attrs = append(d.Attrs, imap.MailboxAttrSubscribed)
			}
			if options.ReturnStatus != nil {
				d.Status = b.status(name, options.ReturnStatus)
			}
		}
		out = append(out, d)
	}
	st.mu.Unlock()
	if err != nil {
		return err
	}
	for i := range out {
		if err := w.WriteList(&out[i]); err != nil {
			return err
		}
	}
	return nil
}

func (s *imapSession) Status(name string, options *imap.StatusOptions) (*imap.StatusData, error) {
	name = boxName(name)
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	b, err := st.peek(s.user, name)
	if err != nil {
		return nil, err
	}
	return b.status(name, options), nil
}

func (b *box) status(name string, options *imap.StatusOptions) *imap.StatusData {
	d := &imap.StatusData{Mailbox: name}
	count := func(f imap.Flag) (n uint32) {
		for _, m := range b.msgs {
			if hasFlag(m.flags, f) {
				n++
			}
		}
		return n
	}
	if options.NumMessages {
		n := uint32(len(b.msgs))
		d.NumMessages = &n
	}
	if options.UIDNext {
		d.UIDNext = imap.UID(b.uidNext)
	}
	if options.UIDValidity {
		d.UIDValidity = b.uidValidity
	}
	if options.NumUnseen {
		n := uint32(len(b.msgs)) - count(imap.FlagSeen)
		d.NumUnseen = &n
	}
	if options.NumDeleted {
		n := count(imap.FlagDeleted)
		d.NumDeleted = &n
	}
	if options.Size {
		var n int64
		for _, m := range b.msgs {
			n += m.fullSize()
		}
		d.Size = &n
	}
	if options.NumRecent {
		var n uint32
		d.NumRecent = &n
	}
	return d
}

func (s *imapSession) Append(name string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	name = boxName(name)
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(r, s.hub.maxBytes+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > s.hub.maxBytes {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTooBig, Text: fmt.Sprintf("Message exceeds %d bytes", s.hub.maxBytes)}
	}
	st := s.hub.store
	st.mu.Lock()
	b, err := st.peek(s.user, name)
	if err != nil {
		st.mu.Unlock()
		return nil, errNoMailbox(imap.ResponseCodeTryCreate)
	}
	t := options.Time
	if t.IsZero() {
		t = s.hub.now()
	}
	uid, off, err := st.writeText(buf.Bytes())
	if err == nil {
		err = st.add(s.user, name, &msg{uid: uid, off: off, size: int64(buf.Len()), t: t, flags: addFlags(nil, options.Flags)})
	}
	st.mu.Unlock()
	if err != nil {
		return nil, err
	}
	s.hub.changed(s.user)
	return &imap.AppendData{UIDValidity: b.uidValidity, UID: imap.UID(uid)}, nil
}

func (s *imapSession) Poll(w *imapserver.UpdateWriter, allowExpunge bool) error {
	s.mu.Lock()
	v := s.sel
	s.mu.Unlock()
	if v == nil {
		return nil
	}
	return v.t.Poll(w, allowExpunge)
}

// Idle reports mailbox changes until stop (RFC 2177). The session
// subscribes to the hub's change signal first, then polls, and polls again
// on every signal, so an update that comes between "+ idling" and the
// subscription is not left waiting for the next one (as it is with
// go-imap v2.0.0-beta.8's own SessionTracker.Idle).
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	changed, cancel := s.hub.subscribe(s.user)
	defer cancel()
	for {
		if err := s.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-changed:
		case <-stop:
			return nil
		}
	}
}

// each calls f, under the store's lock, for each message of the selected
// mailbox in numSet, with its index and the sequence number the client
// knows it by.
func (s *imapSession) each(numSet imap.NumSet, f func(i int, seq uint32, m *msg)) {
	v := s.sel
	numSet = v.static(numSet)
	for i, m := range v.b.msgs {
		seq := v.t.EncodeSeqNum(uint32(i) + 1)
		if seq == 0 {
			continue // not announced to this session yet
		}
		var in bool
		switch set := numSet.(type) {
		case imap.SeqSet:
			in = set.Contains(seq)
		case imap.UIDSet:
			in = set.Contains(imap.UID(m.uid))
		}
		if in {
			f(i, seq, m)
		}
	}
}

// static resolves "*" (the highest sequence number or UID in the
// mailbox) and "$" (the saved search result, RFC 5182).
func (v *view) static(numSet imap.NumSet) imap.NumSet {
	if imap.IsSearchRes(numSet) {
		return v.searchRes
	}
	switch set := numSet.(type) {
	case imap.SeqSet:
		set = slices.Clone(set)
		for i := range set {
			staticRange(&set[i].Start, &set[i].Stop, uint32(len(v.b.msgs)))
		}
		return set
	case imap.UIDSet:
		set = slices.Clone(set)
		var top uint32
		if n := len(v.b.msgs); n > 0 {
			top = v.b.msgs[n-1].uid
		}
		for i := range set {
			staticRange((*uint32)(&set[i].Start), (*uint32)(&set[i].Stop), top)
		}
		return set
	}
	return numSet
}

func staticRange(start, stop *uint32, top uint32) {
	dyn := false
	if *start == 0 {
		*start, dyn = top, true
	}
	if *stop == 0 {
		*stop, dyn = top, true
	}
	if dyn && *start > *stop {
		*start, *stop = *stop, *start
	}
}

// Fetch reads each message's file when the client asks for its content;
// the store's lock is not held while writing to the client.
func (s *imapSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range options.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	type item struct {
		seq   uint32
		m     msg
		flags []imap.Flag
	}
	var items []item
	st := s.hub.store
	st.mu.Lock()
	var err error
	s.each(numSet, func(i int, seq uint32, m *msg) {
		if markSeen && !s.sel.readOnly && !hasFlag(m.flags, imap.FlagSeen) && err == nil {
			err = s.setFlags(i, m, addFlags(slices.Clone(m.flags), []imap.Flag{imap.FlagSeen}), nil)
		}
		items = append(items, item{seq, *m, slices.Clone(m.flags)})
	})
	st.mu.Unlock()
	if err != nil {
		return err
	}
	for _, it := range items {
		if err := s.fetchOne(w.CreateMessage(it.seq), &it.m, it.flags, options); err != nil {
			return err
		}
	}
	return nil
}

func (s *imapSession) fetchOne(w *imapserver.FetchResponseWriter, m *msg, flags []imap.Flag, options *imap.FetchOptions) error {
	w.WriteUID(imap.UID(m.uid))
	if options.Flags {
		w.WriteFlags(flags)
	}
	if options.InternalDate {
		w.WriteInternalDate(m.t)
	}
	if options.RFC822Size {
		w.WriteRFC822Size(m.fullSize())
	}
	if options.Envelope || options.BodyStructure != nil || len(options.BodySection) > 0 || len(options.BinarySection) > 0 || len(options.BinarySectionSize) > 0 {
		raw, err := s.hub.store.read(m)
		if err != nil {
			s.hub.log.Warn("mail hub fetch failed", "user", s.user, "uid", m.uid, "err", err)
			return err
		}
		if options.Envelope {
			w.WriteEnvelope(envelope(raw))
		}
		if options.BodyStructure != nil {
			w.WriteBodyStructure(imapserver.ExtractBodyStructure(bytes.NewReader(raw)))
		}
		for _, bs := range options.BodySection {
			b := imapserver.ExtractBodySection(bytes.NewReader(raw), bs)
			if err := writeLiteral(w.WriteBodySection(bs, int64(len(b))), b); err != nil {
				return err
			}
		}
		for _, bs := range options.BinarySection {
			b := imapserver.ExtractBinarySection(bytes.NewReader(raw), bs)
			if err := writeLiteral(w.WriteBinarySection(bs, int64(len(b))), b); err != nil {
				return err
			}
		}
		for _, bss := range options.BinarySectionSize {
			w.WriteBinarySectionSize(bss, imapserver.ExtractBinarySectionSize(bytes.NewReader(raw), bss))
		}
	}
	return w.Close()
}

func writeLiteral(wc io.WriteCloser, b []byte) error {
	_, err := wc.Write(b)
	return errors.Join(err, wc.Close())
}

// setFlags records a message's new flags and tells the mailbox's other
// sessions (source excepted, when not nil). The store's lock is held.
func (s *imapSession) setFlags(i int, m *msg, flags []imap.Flag, source *imapserver.SessionTracker) error {
	if err := s.logSelected(logRec{Op: "f", UID: m.uid, Flags: flags}); err != nil {
		return err
	}
	m.flags = flags
	s.sel.b.tracker.QueueMessageFlags(uint32(i)+1, imap.UID(m.uid), slices.Clone(flags), source)
	return nil
}

// logSelected appends a line to the selected mailbox's log. The store's
// lock is held.
func (s *imapSession) logSelected(r logRec) error {
	if l := s.sel.b.log; l != nil {
		return writeLog(l, r)
	}
	return appendLog(s.hub.store.boxPath(s.user, s.sel.b.name), r)
}

func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.hub.store
	st.mu.Lock()
	var err error
	s.each(numSet, func(i int, seq uint32, m *msg) {
		if err != nil {
			return
		}
		var nf []imap.Flag
		switch flags.Op {
		case imap.StoreFlagsSet:
			nf = addFlags(nil, flags.Flags)
		case imap.StoreFlagsAdd:
			nf = addFlags(slices.Clone(m.flags), flags.Flags)
		case imap.StoreFlagsDel:
			nf = slices.DeleteFunc(slices.Clone(m.flags), func(f imap.Flag) bool { return hasFlag(flags.Flags, f) })
		}
		err = s.setFlags(i, m, nf, s.sel.t)
	})
	st.mu.Unlock()
	s.hub.changed(s.user)
	if err != nil || flags.Silent {
		return err
	}
	return s.Fetch(w, numSet, &imap.FetchOptions{Flags: true})
}

func (s *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.hub.store
	st.mu.Lock()
	err := s.expunge(func(m *msg) bool {
		return hasFlag(m.flags, imap.FlagDeleted) && (uids == nil || uids.Contains(imap.UID(m.uid)))
	})
	st.mu.Unlock()
	s.hub.changed(s.user)
	return err
}

// expunge removes the messages of the selected mailbox that drop says,
// last first so that the sequence numbers queued stay right; every
// session, this one included, hears of it at its next poll. The store's
// lock is held.
func (s *imapSession) expunge(drop func(*msg) bool) error {
	b := s.sel.b
	for i := len(b.msgs) - 1; i >= 0; i-- {
		m := b.msgs[i]
		if !drop(m) {
			continue
		}
		if err := s.logSelected(logRec{Op: "x", UID: m.uid}); err != nil {
			return err
		}
		b.msgs = slices.Delete(b.msgs, i, i+1)
		b.tracker.QueueExpunge(uint32(i) + 1)
	}
	return nil
}

func (s *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	st := s.hub.store
	st.mu.Lock()
	d, _, err := s.copy(numSet, boxName(dest))
	st.mu.Unlock()
	s.hub.changed(s.user)
	return d, err
}

// copy appends the messages in numSet to dest under new UIDs; the files
// are shared. The store's lock is held.
func (s *imapSession) copy(numSet imap.NumSet, dest string) (*imap.CopyData, map[*msg]bool, error) {
	if dest == s.sel.b.name {
		return nil, nil, errSameBox
	}
	st := s.hub.store
	db, err := st.peek(s.user, dest)
	if err != nil {
		return nil, nil, errNoMailbox(imap.ResponseCodeTryCreate)
	}
	d := &imap.CopyData{UIDValidity: db.uidValidity}
	done := map[*msg]bool{}
	s.each(numSet, func(_ int, _ uint32, m *msg) {
		if err != nil {
			return
		}
		var uid uint32
		if uid, err = st.nextUID(); err != nil {
			return
		}
		c := *m
		c.uid, c.flags = uid, slices.Clone(m.flags)
		if err = st.add(s.user, dest, &c); err != nil {
			return
		}
		d.SourceUIDs.AddNum(imap.UID(m.uid))
		d.DestUIDs.AddNum(imap.UID(uid))
		done[m] = true
	})
	return d, done, err
}

// Move copies, then expunges what it copied (RFC 6851); the EXPUNGE
// responses come with the poll that follows the command.
func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	if s.sel.readOnly {
		return errReadOnly
	}
	st := s.hub.store
	st.mu.Lock()
	d, done, err := s.copy(numSet, boxName(dest))
	if len(done) > 0 {
		err = errors.Join(err, s.expunge(func(m *msg) bool { return done[m] }))
	}
	st.mu.Unlock()
	s.hub.changed(s.user)
	if err != nil {
		return err
	}
	return w.WriteCopyData(d)
}

func (s *imapSession) Namespace() (*imap.NamespaceData, error) {
	return &imap.NamespaceData{Personal: []imap.NamespaceDescriptor{{Delim: mailboxDelim}}}, nil
}

func hasFlag(flags []imap.Flag, f imap.Flag) bool {
	return slices.ContainsFunc(flags, func(g imap.Flag) bool { return strings.EqualFold(string(g), string(f)) })
}

// addFlags adds the flags not yet in to (compared without case).
func addFlags(to, flags []imap.Flag) []imap.Flag {
	for _, f := range flags {
		if !hasFlag(to, f) {
			to = append(to, f)
		}
	}
	return to
}
