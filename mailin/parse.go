package mailin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"
)

// ErrEmpty is returned by Parse when there is nothing to read.
var ErrEmpty = errors.New("mailin: empty message")

// Parse parses, classifies and strips one raw message. It never returns an
// error for malformed mail (it degrades, with notes); it errors only when
// nothing at all can be read (empty input). arrived is the arrival time
// (INTERNALDATE, the mbox From_ line, ...); it is stored in UTC.
func Parse(raw []byte, arrived time.Time, cfg *Config) (*Message, error) {
	return parse(raw, arrived, cfg, readUsedHeader)
}

// parse is Parse with the header read by read.
func parse(raw []byte, arrived time.Time, cfg *Config, read func([]byte) (header, []byte, []string)) (*Message, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, ErrEmpty
	}
	m := &Message{Size: len(raw), Arrived: arrived.UTC()}
	h, body, notes := read(raw)
	if h.Len() == 0 && len(bytes.TrimSpace(body)) == 0 {
		return nil, ErrEmpty
	}
	m.Notes = append(m.Notes, notes...)

	m.MessageID = messageID(h, raw)
	m.Subject = cleanLine(subject(h))
	if d, err := parseDate(h.Get("Date")); err == nil {
		m.Date = d
	} else if h.Get("Date") != "" {
		m.Notes = append(m.Notes, "unreadable Date header")
	}
	m.InReplyTo = msgIDs(h, "In-Reply-To")
	m.References = msgIDs(h, "References")
	m.To = addrs(addressList(h, "To"))
	m.Cc = addrs(addressList(h, "Cc"))
	from := addressList(h, "From")
	s := sender(h, from, cfg, m.To, m.Cc)
	m.From, m.FromName = s.addr, s.name
	if m.From == "" {
		m.Notes = append(m.Notes, "no sender address")
	}

	limit := cfg.MaxTextBytes
	if limit <= 0 {
		limit = DefaultMaxTextBytes
	}
	w := &bodyWalker{limit: limit}
	text, kind := w.entity(h, newRawBody(body), 0, "", "text/plain")
	m.Notes = append(m.Notes, w.notes...)
	if kind == kindNone && len(bytes.TrimSpace(body)) > 0 && !w.digest && w.report == "" {
		m.Notes = append(m.Notes, "no readable text part")
	}
	text, n := inlinePGP(text)
	if n != "" {
		m.Notes = append(m.Notes, n)
	}

	classify(raw, h, from, m, cfg, w)
	m.Authenticated, m.AuthNote = authenticate(raw, h, from, cfg)

	if len(text) > limit {
		m.TooLarge = true
		m.Notes = append(m.Notes, fmt.Sprintf("text of %d bytes is over the %d-byte limit", len(text), limit))
		return m, nil
	}
	m.Text, m.Quoted = stripQuoted(text)
	return m, nil
}

// messageID returns the Message-ID without <> (RFC 5322 §3.6.4), or a
// stable synthetic one made from a hash of the raw bytes.
func messageID(h header, raw []byte) string {
	if id, err := headerMessageID(h); err == nil && cleanID(id) != "" {
		return cleanID(id)
	}
	sum := sha256.Sum256(raw)
	return "sha256-" + hex.EncodeToString(sum[:]) + "@referee.invalid"
}

// parseDate reads a Date header (RFC 5322 §3.3) with net/mail.
func parseDate(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, errors.New("no date")
	}
	// Nearly every client writes this form; net/mail tries its many
	// layouts in turn, each failure allocating an error.
	if t, err := time.Parse(time.RFC1123Z, v); err == nil {
		return t, nil
	}
	return mail.ParseDate(v)
}
