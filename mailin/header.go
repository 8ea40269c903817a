package mailin

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
	"golang.org/x/text/encoding/charmap"

	"referee/internal/lazyre"
)

// header is a message's header: Get gives the value of a field's topmost
// occurrence, Values those of all its occurrences topmost first (which
// matters for Authentication-Results: only the topmost one from our own
// server counts), Has whether it occurs, Len how many fields it holds
// (a usedHeader holds only the fields mailin reads; Len is only ever
// compared with 0, and a usedHeader is never empty);
// keys are matched as go-message's textproto matches them
// (textproto.CanonicalMIMEHeaderKey). readHeader's is go-message's own
// (*gomail.Header), a part's too (*message.Header); readUsedHeader's is
// usedHeader, which gives the same values.
type header interface {
	Get(key string) string
	Values(key string) []string
	Has(key string) bool
	Len() int
}

func init() {
	// The WHATWG Encoding Standard (§4.2, labels) decodes these as
	// windows-1252, which is what Outlook and others really send when they
	// declare Latin-1 (corpus: outlook-original-message).
	for _, l := range []string{"iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "ibm819"} {
		charset.RegisterEncoding(l, charmap.Windows1252)
	}
}

// readHeader splits a message into its header, read by go-message's
// textproto, and its body. It never fails; when textproto refuses the
// header, malformedHeaderLine reads what it can and says so in the notes.
func readHeader(raw []byte) (h header, body []byte, notes []string) {
	r := bytes.NewReader(raw)
	br := headerReaders.Get().(*bufio.Reader)
	br.Reset(r)
	th, err := textproto.ReadHeader(br)
	rest := r.Len() + br.Buffered()
	br.Reset(nil)
	headerReaders.Put(br)
	if err != nil {
		return malformedHeaderLine(raw)
	}
	return &gomail.Header{Header: message.Header{Header: th}}, raw[len(raw)-rest:], nil
}

// unreadFields are header fields Parse never reads, and that are most of a
// list message's header by size: the relays' trace and signatures (DKIM is
// checked on the raw message, not through the header read here), the list's
// links, the mailer's name, MIME-Version (go-message reads no part by it).
// TestUnreadFields holds them to that.
var unreadFields = []string{"Received", "X-Received", "DKIM-Signature", "X-Google-DKIM-Signature", "ARC-Seal", "ARC-Message-Signature",
	"ARC-Authentication-Results", "Delivered-To", "List-Archive", "List-Help", "List-Post", "List-Subscribe", "List-Unsubscribe", "List-Owner",
	"User-Agent", "X-Mailer", "MIME-Version", "Thread-Index", "Thread-Topic", "X-Spam-Status", "X-Virus-Scanned", "X-Gm-Message-State", "X-Google-Smtp-Source"}

// unreadField reports whether key is one of unreadFields, in any case
// (bytes.EqualFold: of keys as long as a name, which is ASCII, only those
// in ASCII can be equal to it, as a letter that is not folds to an ASCII
// one of fewer bytes).
func unreadField(key []byte) bool {
	if len(key) >= len(unreadByLength) {
		return false
	}
	for _, f := range unreadByLength[len(key)] {
		if asciiFold(f, key) {
			return true
		}
	}
	return false
}

// unreadByLength are unreadFields by their length.
var unreadByLength = func() (t [32][]string) {
	for _, f := range unreadFields {
		t[len(f)] = append(t[len(f)], f)
	}
	return t
}()

// asciiFold reports whether f and k, of the same length, are equal but for
// the case of ASCII letters.
func asciiFold[K string | []byte](f string, k K) bool {
	for i := 0; i < len(f); i++ {
		if c, d := f[i], k[i]; c != d {
			if l := c | 0x20; l != d|0x20 || l < 'a' || l > 'z' {
				return false
			}
		}
	}
	return true
}

// readUsedHeader is readHeader for Parse: the header without its
// unreadFields, read into a usedHeader rather than go-message's
// textproto.Header, which would copy, split, canonicalise and index every
// field. The fields kept are those textproto would read, with the values
// it would give (see usedHeader). A header textproto would refuse, or read
// otherwise than field by field (a first line that is a continuation, a
// line without a colon, a key with a character it does not allow, no blank
// line after it), or one with nothing left once the unread fields are taken
// out, is read whole by readHeader, as are its notes.
func readUsedHeader(raw []byte) (h header, body []byte, notes []string) {
	if u, body, ok := readUsedFields(raw); ok {
		return u, body, nil
	}
	return readHeader(raw)
}

// readUsedFields is readUsedHeader's own reading of raw's header; ok is
// false for a header it leaves to readHeader.
func readUsedFields(raw []byte) (u *usedHeader, body []byte, ok bool) {
	if len(raw) == 0 || raw[0] == ' ' || raw[0] == '\t' {
		return nil, nil, false
	}
	var spans [48]usedSpan // the fields kept
	used := spans[:0]
	var field usedSpan          // the field being read
	skip, named := false, false // it is unread; it has a name (textproto skips one without)
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '\n')
		if j < 0 {
			return nil, nil, false // no blank line
		}
		line := raw[i : i+j+1]
		if line[0] == ' ' || line[0] == '\t' { // a continuation
			i += j + 1
			continue
		}
		// A field ends here: keep it, or not.
		if named && !skip {
			field.end = i
			used = append(used, field)
		}
		if j == 0 || j == 1 && line[0] == '\r' { // the blank line
			body = raw[i+j+1:]
			break
		}
		// The key: the line up to its first colon, less the spaces and
		// tabs around it, each of its bytes printable ASCII. One pass
		// finds the colon and the key's ends and tests the bytes (a key
		// is a few bytes, found sooner so than by IndexByte and a second
		// loop); a line with no colon ends at its '\n', which fails it.
		colon, start, end := -1, -1, 0 // the key is line[start:end]
		for k := 0; k < len(line); k++ {
			c := line[k]
			if c == ':' {
				colon = k
				break
			}
			switch {
			case c == ' ' || c == '\t':
				continue
			case c < 33 || c > 126 || start >= 0 && end < k: // or past a space or tab after the key
				return nil, nil, false
			}
			if start < 0 {
				start = k
			}
			end = k + 1
		}
		if colon < 0 {
			return nil, nil, false
		}
		if start < 0 {
			start, end = colon, colon // a key of spaces and tabs, or none
		}
		key := line[start:end]
		field = usedSpan{key: i + start, keyEnd: i + end, value: i + colon + 1}
		skip, named = unreadField(key), len(key) > 0
		i += j + 1
	}
	if len(used) == 0 {
		return nil, nil, false
	}
	u = &usedHeader{fields: make([]usedField, len(used))}
	for k, sp := range used {
		u.fields[k] = usedField{key: raw[sp.key:sp.keyEnd:sp.keyEnd], value: unfold(raw[sp.value:sp.end])}
	}
	return u, body, true
}

// headerReaders saves a 4 KiB buffer per message (textproto copies what it
// reads).
var headerReaders = sync.Pool{New: func() any { return bufio.NewReader(nil) }}

// malformedHeaderLine reads a header that textproto refuses, as real mail
// has it (corpus: malformed-headers, thunderbird-mbox-from-line): a leading
// mbox "From " separator is dropped; a line that is not a field is skipped
// when a field follows it, else the body is taken to start there (a missing
// blank line); a header that is no header at all makes the whole message the
// body. The fields kept are then read by textproto.
func malformedHeaderLine(raw []byte) (h header, body []byte, notes []string) {
	var kept []byte
	i := 0
	if bytes.HasPrefix(raw, []byte("From ")) {
		_, i = nextLine(raw, 0)
	}
	body = raw[len(raw):]
scan:
	for i < len(raw) {
		line, next := nextLine(raw, i)
		switch {
		case len(bytes.TrimSpace(line)) == 0:
			body = raw[next:]
			break scan
		case line[0] == ' ' || line[0] == '\t':
			if len(kept) == 0 {
				return &gomail.Header{}, raw[i:], []string{"header starts with a continuation line; whole message taken as body"}
			}
		case isHeaderLine(line):
		case len(kept) == 0:
			return &gomail.Header{}, raw[i:], append(notes, "no header found; whole message taken as body")
		default:
			if nl, _ := nextLine(raw, next); next < len(raw) && isHeaderLine(nl) {
				notes = append(notes, "malformed header line skipped")
				i = next
				continue
			}
			notes = append(notes, "malformed header line; body assumed to start there")
			body = raw[i:]
			break scan
		}
		kept = append(append(kept, line...), '\r', '\n')
		i = next
	}
	th, _ := textproto.ReadHeader(bufio.NewReader(io.MultiReader(bytes.NewReader(kept), strings.NewReader("\r\n"))))
	return &gomail.Header{Header: message.Header{Header: th}}, body, notes
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

// isHeaderLine reports whether textproto would take line as a field.
func isHeaderLine(line []byte) bool {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return false
	}
	name := bytes.TrimRight(line[:colon], " \t") // "Subject :" is read
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

// address is a parsed mailbox: lower-case address, decoded and cleaned name.
type address struct{ addr, name string }

// addressList parses every key field of h as an address list (RFC 5322
// §3.4) with go-message's parser.
// The list read from a field is the list of the field, not a copy, when
// it is the first one not empty (nearly always the only one): a list is
// made new for each field read, and an address list is in nearly every
// message's From and To.
func addressList(h header, key string) []address {
	var out []address
	add := func(v string) {
		if l := parseAddressList(v); out == nil && len(l) > 0 {
			out = l
		} else {
			out = append(out, l...)
		}
	}
	if u, ok := h.(*usedHeader); ok { // its fields, without Values' slice of them
		for _, f := range u.fields {
			if len(f.key) == len(key) && sameKey(f.key, key) {
				add(f.value)
			}
		}
		return out
	}
	for _, v := range h.Values(key) {
		add(v)
	}
	return out
}

func parseAddressList(v string) []address {
	if l, ok := plainAddressList(v); ok {
		return l
	}
	return parsedAddressList(v)
}

// parsedAddressList is parseAddressList through go-message's parser.
func parsedAddressList(v string) []address {
	l, err := gomail.ParseAddressList(v)
	if err != nil {
		return unparsableAddressList(v)
	}
	out := make([]address, 0, len(l))
	for _, a := range l {
		out = append(out, address{strings.ToLower(a.Address), encodedWordsInName(a.Name)})
	}
	return out
}

// plainAddressList reads, without net/mail's parser, the address lists
// nearly all mail has: comma-separated addresses, each a bare addr-spec
// (a@b.example) or one in angle brackets after a display name of plain
// ASCII words (Walter <w@b.example>, <w@b.example>). ok is false for any
// other list (quoted strings, comments, encoded words, groups, text that
// is not ASCII, spaces inside the brackets, empty entries), which
// parsedAddressList reads; where ok, the addresses are what it would give
// (TestPlainAddressList, FuzzPlainAddressList).
func plainAddressList(v string) (out []address, ok bool) {
	i := 0
	for {
		i = skipWSP(v, i)
		// A first word: the local part of an addr-spec, or of a
		// display name.
		j := atextRun(v, i)
		var spec, name string
		if j < len(v) && v[j] == '@' {
			if spec, i, ok = plainAddrSpec(v, i); !ok {
				return nil, false
			}
		} else {
			// A display name: words of phrase characters between
			// spaces and tabs, then "<addr-spec>".
			start, end := i, i
			for i < len(v) && v[i] != '<' {
				j := i
				for j < len(v) && isPhraseByte(v[j]) {
					j++
				}
				if j == i {
					return nil, false
				}
				end = j
				i = skipWSP(v, j)
				if i < len(v) && i == j && v[i] != '<' {
					return nil, false
				}
			}
			if i == len(v) {
				return nil, false
			}
			if spec, i, ok = plainAddrSpec(v, i+1); !ok || i == len(v) || v[i] != '>' {
				return nil, false
			}
			i++
			name = joinWords(v[start:end])
		}
		out = append(out, address{strings.ToLower(spec), name})
		i = skipWSP(v, i)
		if i == len(v) {
			return out, true
		}
		if v[i] != ',' {
			return nil, false
		}
		// One comma between addresses, and none at the end.
		if i = skipWSP(v, i+1); i == len(v) || v[i] == ',' {
			return nil, false
		}
	}
}

// plainAddrSpec reads the addr-spec at v[i:] made of two dot-atoms (RFC
// 5322 §3.4.1: no leading, trailing or double dot) joined by "@", and
// returns it and the index after it; ok is false when there is none.
func plainAddrSpec(v string, i int) (spec string, next int, ok bool) {
	at := atextRun(v, i)
	if at == len(v) || v[at] != '@' || !dotAtom(v[i:at]) {
		return "", 0, false
	}
	end := atextRun(v, at+1)
	if !dotAtom(v[at+1 : end]) {
		return "", 0, false
	}
	return v[i:end], end, true
}

// atextRun is the end of the run of ASCII atext and dots at v[i:] (RFC
// 5322 §3.2.3).
func atextRun(v string, i int) int {
	for i < len(v) && (isPhraseByte(v[i]) || v[i] == '=' || v[i] == '?') {
		i++
	}
	return i
}

func dotAtom(s string) bool {
	return s != "" && s[0] != '.' && s[len(s)-1] != '.' && !strings.Contains(s, "..")
}

// isPhraseByte reports whether c is ASCII atext or a dot, less "=" and "?",
// so that no word of a display name is an encoded word (RFC 2047 §2).
func isPhraseByte(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return false
	}
	switch c {
	case '(', ')', '<', '>', '[', ']', ':', ';', '@', '\\', ',', '"', '=', '?':
		return false
	}
	return true
}

func skipWSP(v string, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t') {
		i++
	}
	return i
}

// joinWords is s, words between spaces and tabs, with one space between
// each two.
func joinWords(s string) string {
	if !strings.Contains(s, "  ") && !strings.ContainsRune(s, '\t') {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

var wordDecoder = &mime.WordDecoder{CharsetReader: charset.Reader}

// encodedWordsInName decodes the RFC 2047 encoded words that net/mail leaves
// in a display name: RFC 2047 §5 forbids them inside a quoted string, but
// mailers put them there ("=?utf-8?q?Jos=C3=A9?=" <jose@example.org>; corpus:
// quoted-encoded-name).
func encodedWordsInName(n string) string {
	if strings.Contains(n, "=?") {
		if d, err := wordDecoder.DecodeHeader(n); err == nil {
			n = d
		}
	}
	return cleanLine(n)
}

var addrSpecRE = lazyre.MustCompile(`[A-Za-z0-9.!#$%&'*+/=?^_` + "`" + `{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?`)

// unparsableAddressList reads an address list that net/mail refuses, such as
// an unquoted address used as display name (corpus: unquoted-address-as-name):
// each comma-separated piece is tried on its own, and a piece that still
// fails is searched for an addr-spec, preferring the one in <>.
func unparsableAddressList(v string) []address {
	var out []address
	for _, piece := range strings.Split(v, ",") {
		piece = strings.TrimSpace(piece)
		if a, err := gomail.ParseAddress(piece); err == nil {
			out = append(out, address{strings.ToLower(a.Address), encodedWordsInName(a.Name)})
			continue
		}
		name, addr := "", ""
		if lt := strings.IndexByte(piece, '<'); lt >= 0 {
			name, addr = strings.Trim(strings.TrimSpace(piece[:lt]), `"`), addrSpecRE().FindString(piece[lt:])
		}
		if addr == "" {
			name, addr = "", addrSpecRE().FindString(piece)
		}
		if addr != "" {
			out = append(out, address{strings.ToLower(addr), encodedWordsInName(name)})
		}
	}
	return out
}

func addrs(l []address) []string {
	var out []string
	for _, a := range l {
		out = append(out, a.addr)
	}
	return out
}

// msgIDs reads a list of message ids (RFC 5322 §3.6.4) with go-message.
func msgIDs(h header, key string) []string {
	ids, err := msgIDList(h, key)
	if err != nil {
		return commaSeparatedMsgIDs(h.Get(key))
	}
	return ids
}

var msgIDRE = lazyre.MustCompile(`<([^<>\s]+)>`)

// commaSeparatedMsgIDs reads a list of message ids that go-message refuses,
// such as the comma-separated References that go-mail writes (corpus:
// gomail-references-commas): every <...>, or failing that the words that
// contain an "@".
func commaSeparatedMsgIDs(v string) []string {
	var ids []string
	for _, m := range msgIDRE().FindAllStringSubmatch(v, -1) {
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
	if plainLine(s) {
		return s
	}
	return cleanedLine(s)
}

// plainLine reports whether cleanLine would give s back as it is: printable
// ASCII and single spaces between words, as most subjects, names and
// message ids are (TestPlainLine, FuzzPlainLine).
func plainLine(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}

// cleanedLine is cleanLine for any s.
func cleanedLine(s string) string {
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
