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
	if cfg == nil {
		cfg = &Config{}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, ErrEmpty
	}
	m := &Message{Size: len(raw), Arrived: arrived.UTC()}
	h, body, notes := readHeader(raw)
	if len(h) == 0 && len(bytes.TrimSpace(body)) == 0 {
		return nil, ErrEmpty
	}
	m.Notes = append(m.Notes, notes...)

	m.MessageID = messageID(h, raw)
	m.Subject = cleanLine(decodeText(h.get("Subject")))
	if d, err := parseDate(h.get("Date")); err == nil {
		m.Date = d
	} else if h.get("Date") != "" {
		m.Notes = append(m.Notes, "unreadable Date header")
	}
	m.InReplyTo = parseMsgIDs(h.get("In-Reply-To"))
	m.References = parseMsgIDs(h.get("References"))
	m.To = addrs(parseAddressList(strings.Join(h.values("To"), ", ")))
	m.Cc = addrs(parseAddressList(strings.Join(h.values("Cc"), ", ")))
	s := sender(h, cfg, m.To, m.Cc)
	m.From, m.FromName = s.addr, s.name
	if m.From == "" {
		m.Notes = append(m.Notes, "no sender address")
	}

	limit := cfg.MaxTextBytes
	if limit <= 0 {
		limit = DefaultMaxTextBytes
	}
	w := &bodyWalker{limit: limit}
	text, kind := w.entity(h, body, 0, "", "text/plain")
	m.Notes = append(m.Notes, w.notes...)
	if kind == kindNone && len(bytes.TrimSpace(body)) > 0 && !w.digest && w.report == "" {
		m.Notes = append(m.Notes, "no readable text part")
	}
	text, n := inlinePGP(text)
	if n != "" {
		m.Notes = append(m.Notes, n)
	}

	classify(h, m, cfg, w)
	m.Authenticated, m.AuthNote = authenticate(raw, h, cfg)

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
	if ids := parseMsgIDs(h.get("Message-ID")); len(ids) > 0 && ids[0] != "" {
		return ids[0]
	}
	if v := cleanID(h.get("Message-ID")); v != "" && !strings.ContainsAny(v, " ") {
		return v
	}
	sum := sha256.Sum256(raw)
	return "sha256-" + hex.EncodeToString(sum[:]) + "@referee.invalid"
}

// parseDate reads a Date header (RFC 5322 §3.3) with net/mail, then a few
// layouts seen from broken clients.
func parseDate(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, errors.New("no date")
	}
	if t, err := mail.ParseDate(v); err == nil {
		return t, nil
	}
	if i := strings.IndexByte(v, '('); i > 0 { // trailing comment with odd content
		if t, err := mail.ParseDate(strings.TrimSpace(v[:i])); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05 -0700", "Mon Jan _2 15:04:05 2006", "Mon Jan _2 15:04:05 MST 2006", "Mon, 2 Jan 2006 15:04:05 -0700 MST", "2 Jan 2006 15:04 -0700"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unreadable date %q", v)
}
