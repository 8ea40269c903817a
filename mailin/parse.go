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
	if id, err := headerMessageID(h); err == nil {
		if c := cleanID(id); c != "" {
			return c
		}
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
	if t, ok := rfc1123Z(v); ok {
		return t, nil
	}
	if t, err := time.Parse(time.RFC1123Z, v); err == nil {
		return t, nil
	}
	return mail.ParseDate(v)
}

// rfc1123Z reads v as time.Parse(time.RFC1123Z, v) does when v is written
// as nearly every client writes a Date, "Mon, 02 Nov 2026 08:03:39
// +0000", by its fixed places: names as the layout spells them, two
// digits for each number but the year's four, a zone offset of less than
// a day. ok is false for any other v (and for a date time.Parse refuses),
// which parseDate gives to time.Parse.
func rfc1123Z(v string) (time.Time, bool) {
	if len(v) != 31 || v[3] != ',' || v[4] != ' ' || v[7] != ' ' || v[11] != ' ' || v[16] != ' ' ||
		v[19] != ':' || v[22] != ':' || v[25] != ' ' || v[26] != '+' && v[26] != '-' {
		return time.Time{}, false
	}
	t, ok := fixedDate(v[0:3], v[8:11], v[5:7], false, v[12:16], v[17:19], v[20:22], v[23:25])
	zh, ok1 := digits(v[27:29], false)
	zm, ok2 := digits(v[29:31], false)
	if !ok || !ok1 || !ok2 || zh > 23 || zm > 59 {
		return time.Time{}, false
	}
	offset := (zh*60 + zm) * 60
	if v[26] == '-' {
		offset = -offset
	}
	// The zone time.Parse gives: Local if its offset is Local's then,
	// else an unnamed fixed zone.
	t = t.Add(-time.Duration(offset) * time.Second)
	if _, off := t.In(time.Local).Zone(); off == offset {
		return t.In(time.Local), true
	}
	return t.In(time.FixedZone("", offset)), true
}
