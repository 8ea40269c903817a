package mailhub

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	gomessage "github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// Search runs SEARCH and UID SEARCH (RFC 9051 6.4.4) over the selected
// mailbox. A message's file is read only when a criterion needs its
// content.
func (s *imapSession) Search(kind imapserver.NumKind, criteria *imap.SearchCriteria, options *imap.SearchOptions) (*imap.SearchData, error) {
	st := s.hub.store
	st.mu.Lock()
	defer st.mu.Unlock()
	v := s.sel
	v.staticCriteria(criteria)
	var (
		data   imap.SearchData
		seqSet imap.SeqSet
		uidSet imap.UIDSet
	)
	for i, m := range v.b.msgs {
		seq := v.t.EncodeSeqNum(uint32(i) + 1)
		if seq == 0 {
			continue // not announced to this session yet
		}
		c := &candidate{m: m, seq: seq, st: st}
		ok := c.match(criteria)
		if c.err != nil {
			return nil, c.err
		}
		if !ok {
			continue
		}
		uidSet.AddNum(imap.UID(m.uid))
		num := m.uid
		if kind == imapserver.NumKindSeq {
			seqSet.AddNum(seq)
			num = seq
		}
		if data.Min == 0 || num < data.Min {
			data.Min = num
		}
		data.Max = max(data.Max, num)
		data.Count++
	}
	data.All = uidSet
	if kind == imapserver.NumKindSeq {
		data.All = seqSet
	}
	if options.ReturnSave {
		v.searchRes = uidSet
	}
	return &data, nil
}

// staticCriteria resolves "*" and "$" in the criteria's sets.
func (v *view) staticCriteria(c *imap.SearchCriteria) {
	seqs := make([]imap.SeqSet, 0, len(c.SeqNum))
	for _, set := range c.SeqNum {
		switch set := v.static(set).(type) {
		case imap.SeqSet:
			seqs = append(seqs, set)
		case imap.UIDSet: // "$"
			c.UID = append(c.UID, set)
		}
	}
	c.SeqNum = seqs
	for i, set := range c.UID {
		c.UID[i] = v.static(set).(imap.UIDSet)
	}
	for i := range c.Not {
		v.staticCriteria(&c.Not[i])
	}
	for i := range c.Or {
		v.staticCriteria(&c.Or[i][0])
		v.staticCriteria(&c.Or[i][1])
	}
}

// candidate is a message under test, its content read at most once.
type candidate struct {
	m   *msg
	seq uint32
	st  *store
	raw []byte
	err error
}

func (c *candidate) content() []byte {
	if c.raw == nil && c.err == nil {
		c.raw, c.err = c.st.read(c.m)
	}
	return c.raw
}

func (c *candidate) entity() *gomessage.Entity {
	e, _ := gomessage.Read(bytes.NewReader(c.content()))
	if e == nil {
		e, _ = gomessage.New(gomessage.Header{}, bytes.NewReader(nil))
	}
	return e
}

func (c *candidate) match(cr *imap.SearchCriteria) bool {
	m := c.m
	for _, set := range cr.SeqNum {
		if c.seq == 0 || !set.Contains(c.seq) {
			return false
		}
	}
	for _, set := range cr.UID {
		if !set.Contains(imap.UID(m.uid)) {
			return false
		}
	}
	if !inDates(m.t, cr.Since, cr.Before) {
		return false
	}
	for _, f := range cr.Flag {
		if !hasFlag(m.flags, f) {
			return false
		}
	}
	for _, f := range cr.NotFlag {
		if hasFlag(m.flags, f) {
			return false
		}
	}
	if cr.Larger != 0 && m.fullSize() <= cr.Larger {
		return false
	}
	if cr.Smaller != 0 && m.fullSize() >= cr.Smaller {
		return false
	}
	if len(cr.Header) > 0 || !cr.SentSince.IsZero() || !cr.SentBefore.IsZero() {
		h := mail.Header{Header: c.entity().Header}
		for _, f := range cr.Header {
			if !matchFields(h.FieldsByKey(f.Key), f.Value) {
				return false
			}
		}
		if !cr.SentSince.IsZero() || !cr.SentBefore.IsZero() {
			t, err := h.Date()
			if err != nil || !inDates(t, cr.SentSince, cr.SentBefore) {
				return false
			}
		}
	}
	for _, text := range cr.Text {
		if !matchEntity(c.entity(), text, true) {
			return false
		}
	}
	for _, text := range cr.Body {
		if !matchEntity(c.entity(), text, false) {
			return false
		}
	}
	for i := range cr.Not {
		if c.match(&cr.Not[i]) {
			return false
		}
	}
	for i := range cr.Or {
		if !c.match(&cr.Or[i][0]) && !c.match(&cr.Or[i][1]) {
			return false
		}
	}
	return true
}

// inDates compares dates only, without the time zone (RFC 9051 6.4.4).
func inDates(t, since, before time.Time) bool {
	t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return (since.IsZero() || !t.Before(since)) && (before.IsZero() || t.Before(before))
}

func matchFields(fields gomessage.HeaderFields, pattern string) bool {
	if pattern == "" {
		return fields.Len() > 0
	}
	pattern = strings.ToLower(pattern)
	for fields.Next() {
		if v, _ := fields.Text(); strings.Contains(strings.ToLower(v), pattern) {
			return true
		}
	}
	return false
}

// matchEntity looks for pattern, without case, in the text parts of e (and
// in its header fields when header is set).
func matchEntity(e *gomessage.Entity, pattern string, header bool) bool {
	if pattern == "" {
		return true
	}
	if header && matchFields(e.Header.Fields(), pattern) {
		return true
	}
	if mr := e.MultipartReader(); mr != nil {
		for {
			part, err := mr.NextPart()
			if err != nil {
				return false
			}
			if matchEntity(part, pattern, header) {
				return true
			}
		}
	}
	// No Content-Type means text/plain (RFC 2045 5.2).
	if t, _, err := e.Header.ContentType(); e.Header.Get("Content-Type") != "" && (err != nil || !(strings.HasPrefix(t, "text/") || strings.HasPrefix(t, "message/"))) {
		return false
	}
	b, err := io.ReadAll(e.Body)
	return err == nil && bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(pattern)))
}

// envelope is the ENVELOPE of a raw message; nil if its header is unreadable.
func envelope(raw []byte) *imap.Envelope {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return nil
	}
	return imapserver.ExtractEnvelope(h)
}
