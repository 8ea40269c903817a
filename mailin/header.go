package mailin

import (
	"bytes"
	"mime"
	"net/mail"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
)

// field is one header field: the name as written and the unfolded value.
type field struct{ key, value string }

// header keeps fields in the order they appear, topmost first, which matters
// for Authentication-Results (only the topmost one from our own server counts).
type header []field

func (h header) get(key string) string {
	for _, f := range h {
		if strings.EqualFold(f.key, key) {
			return f.value
		}
	}
	return ""
}

func (h header) has(key string) bool {
	for _, f := range h {
		if strings.EqualFold(f.key, key) {
			return true
		}
	}
	return false
}

func (h header) values(key string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.key, key) {
			vs = append(vs, f.value)
		}
	}
	return vs
}

// nextLine returns the line starting at b[i:] without its line ending, and
// the index just past the line ending.
func nextLine(b []byte, i int) (line []byte, next int) {
	j := bytes.IndexByte(b[i:], '\n')
	if j < 0 {
		line, next = b[i:], len(b)
	} else {
		line, next = b[i:i+j], i+j+1
	}
	return bytes.TrimSuffix(line, []byte("\r")), next
}

func isHeaderLine(line []byte) bool {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return false
	}
	name := bytes.TrimRight(line[:colon], " \t") // tolerate "Subject :"
	if len(name) == 0 {
		return false
	}
	for _, c := range name {
		if c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return true
}

// readHeader splits a message or body part into its header and body,
// tolerating what strict parsers refuse (RFC 5322 §2.2, §3.2.2 unfolding):
// LF-only line endings, a leading mbox "From " line, a header line without a
// colon (skipped when more header lines follow, else taken as the start of the
// body) and a missing blank line. It never fails; problems are returned as notes.
func readHeader(raw []byte) (h header, body []byte, notes []string) {
	i := 0
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(raw, []byte("From ")) {
		_, i = nextLine(raw, 0)
	}
	// The current field's value is built in cur: appending continuation
	// lines to a string would be quadratic in a long folded header.
	var cur bytes.Buffer
	open := false
	finish := func() {
		if open {
			h[len(h)-1].value = strings.TrimSpace(cur.String())
			cur.Reset()
			open = false
		}
	}
	for i < len(raw) {
		line, next := nextLine(raw, i)
		if len(bytes.TrimSpace(line)) == 0 {
			finish()
			return h, raw[next:], notes
		}
		switch {
		case line[0] == ' ' || line[0] == '\t':
			if !open {
				notes = append(notes, "header starts with a continuation line; whole message taken as body")
				return h, raw[i:], notes
			}
			cur.Write(line)
		case isHeaderLine(line):
			finish()
			colon := bytes.IndexByte(line, ':')
			h = append(h, field{key: string(bytes.TrimRight(line[:colon], " \t"))})
			cur.Write(line[colon+1:])
			open = true
		default:
			if len(h) == 0 {
				notes = append(notes, "no header found; whole message taken as body")
				return h, raw[i:], notes
			}
			if next < len(raw) {
				if nl, _ := nextLine(raw, next); isHeaderLine(nl) {
					notes = append(notes, "malformed header line skipped")
					i = next
					continue
				}
			}
			finish()
			notes = append(notes, "malformed header line; body assumed to start there")
			return h, raw[i:], notes
		}
		i = next
	}
	finish()
	return h, nil, notes
}

var wordDecoder = &mime.WordDecoder{CharsetReader: charset.Reader}

// decodeText decodes RFC 2047 encoded words; undecodable words stay as written.
func decodeText(s string) string {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "=?") {
		return s
	}
	if d, err := wordDecoder.DecodeHeader(s); err == nil {
		return d
	}
	return s
}

var addressParser = &mail.AddressParser{WordDecoder: wordDecoder}

var addrSpecRE = regexp.MustCompile(`[A-Za-z0-9.!#$%&'*+/=?^_` + "`" + `{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?`)

// address is a parsed mailbox: lower-case address, decoded and cleaned name.
type address struct{ addr, name string }

// parseAddressList parses an address-list header value (RFC 5322 §3.4). When
// the strict parser refuses the whole list, each comma-separated piece is
// tried on its own, and a piece that still fails is searched for an addr-spec.
func parseAddressList(v string) []address {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	if l, err := addressParser.ParseList(v); err == nil {
		out := make([]address, 0, len(l))
		for _, a := range l {
			out = append(out, address{strings.ToLower(a.Address), displayName(a.Name)})
		}
		return out
	}
	var out []address
	for _, piece := range splitOutsideQuotes(v, ',') {
		piece = strings.TrimSpace(piece)
		if piece == "" {
			continue
		}
		if a, err := addressParser.Parse(piece); err == nil {
			out = append(out, address{strings.ToLower(a.Address), displayName(a.Name)})
			continue
		}
		// Prefer the angle-addr: an addr-spec-like text may also sit
		// inside the display name.
		lt := strings.LastIndexByte(piece, '<')
		addr := ""
		if lt >= 0 {
			addr = addrSpecRE.FindString(piece[lt:])
		}
		if addr == "" {
			lt = -1
			addr = addrSpecRE.FindString(piece)
		}
		if addr == "" {
			continue
		}
		name := ""
		if lt > 0 {
			first := strings.IndexByte(piece, '<')
			name = displayName(strings.Trim(strings.TrimSpace(piece[:first]), `"`))
		}
		out = append(out, address{strings.ToLower(addr), name})
	}
	return out
}

// displayName cleans a parsed display name. Encoded words inside a quoted
// string are not decoded by net/mail (RFC 2047 §5 forbids them there) but
// clients send them ("=?utf-8?q?Jos=C3=A9?=" <j@example.org>), so decode.
func displayName(n string) string {
	if strings.Contains(n, "=?") {
		n = decodeText(n)
	}
	return cleanLine(n)
}

func splitOutsideQuotes(s string, sep byte) []string {
	var parts []string
	inQuote, depth, start := false, 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
		case c == '(' && !inQuote:
			depth++
		case c == ')' && !inQuote && depth > 0:
			depth--
		case c == sep && !inQuote && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

func addrs(l []address) []string {
	var out []string
	for _, a := range l {
		out = append(out, a.addr)
	}
	return out
}

var msgIDRE = regexp.MustCompile(`<([^<>\s]+)>`)

// parseMsgIDs extracts message ids (RFC 5322 §3.6.4) tolerantly: every
// <...>, or failing that the whitespace- or comma-separated words.
func parseMsgIDs(v string) []string {
	var ids []string
	for _, m := range msgIDRE.FindAllStringSubmatch(v, -1) {
		ids = append(ids, cleanID(m[1]))
	}
	if ids == nil {
		for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			if strings.Contains(w, "@") {
				ids = append(ids, cleanID(w))
			}
		}
	}
	return ids
}

func cleanID(s string) string {
	return strings.Trim(cleanLine(s), "<> ")
}

// cleanLine makes a header value safe to echo: valid UTF-8, CR, LF and tabs
// turned into spaces, other control characters and bidirectional overrides
// removed, runs of spaces collapsed.
func cleanLine(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\r' || r == '\n' || r == '\t' || unicode.IsSpace(r):
			r = ' '
		case unicode.IsControl(r) || isBidiControl(r):
			continue
		}
		if r == ' ' {
			if space || b.Len() == 0 {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// cleanText makes body text safe: valid UTF-8, "\n" line endings, control
// characters other than tab and newline removed.
func cleanText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if strings.Contains(s, "\ufeff") {
		s = strings.ReplaceAll(s, "\ufeff", "") // byte order marks inside text
	}
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || c == 0xc2 || c == 0xe2 || c == 0xd8 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case r == 0xa0:
			return ' '
		case unicode.IsControl(r) || isBidiControl(r):
			return -1
		}
		return r
	}, s)
}
