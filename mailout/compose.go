package mailout

import (
	"errors"
	"fmt"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Mail is one finished outgoing message. Every field is plain data chosen by
// the caller; Compose reads no clock and no randomness.
type Mail struct {
	From          string   // "The Referee <referee@example.test>" or an address
	To, Cc        []string // addresses, with or without display names
	Subject       string   // plain text; RFC 2047-encoded when not ASCII
	Body          string   // plain text, "\n" line endings, already wrapped
	MessageID     string   // without <>, required
	InReplyTo     string   // without <>
	References    []string // without <>, oldest first
	Date          time.Time
	AutoSubmitted string // "auto-generated" or "auto-replied"; "" = auto-generated
	Kind          string // goes to X-Referee-Notice: receipt, report, notice, randomness; "" = notice
	ListID        string // optional "Life reports <life.referee.example.test>"
	ListPost      string // optional list address, written as List-Post: <mailto:...>
}

// Header names written by Compose beside RFC 5322's own.
const (
	HeaderAutoSubmitted = "Auto-Submitted"   // RFC 3834 5
	HeaderNotice        = "X-Referee-Notice" // marks the referee's own mail
	HeaderListID        = "List-Id"          // RFC 2919
	HeaderListPost      = "List-Post"        // RFC 2369 3.4
)

// Limits applied to caller text before it reaches a header.
const (
	maxSubjectRunes = 250 // keeps every header line far below 998 octets (RFC 5322 2.1.1)
	maxReferences   = 20  // RFC 5322 3.6.4 lets a long References chain be trimmed
	maxLineOctets   = 998 // RFC 5322 2.1.1, without the CRLF
)

// ErrInvalid is wrapped by every Compose error caused by the Mail itself.
var ErrInvalid = errors.New("invalid mail")

// Compose renders m as an RFC 5322 message with CRLF line endings. The same
// Mail always gives the same bytes.
//
// The body is text/plain; charset=UTF-8, sent as 7bit when it is ASCII,
// 8bit otherwise, and quoted-printable only when a line is longer than 998
// octets or the text holds control characters that 8bit forbids
// (RFC 2045 2.8, 6.7). Caller text never breaks out of its header: CR, LF and
// other control characters become a single space.
func Compose(m *Mail) ([]byte, error) {
	f, err := prepare(m)
	if err != nil {
		return nil, err
	}
	return f.write(), nil
}

// fields are a Mail's header values and body, checked and made safe: what
// the message is written from.
type fields struct {
	from          addr
	to, cc        []addr
	subject       string // plain text, at most maxSubjectRunes
	msgID         string // without <>
	date          time.Time
	inReplyTo     string   // without <>; "" for none
	references    []string // without <>
	autoSubmitted string
	kind          string
	listID        string // "" for none
	listPost      string // the list's address; "" for none
	body          string // LF line endings (prepareBody)
	enc           transferEncoding
	lines         int // the body's lines (up to the first that needs encQP)
}

// prepare checks m and makes its text safe for the message.
func prepare(m *Mail) (*fields, error) {
	if m == nil {
		return nil, fmt.Errorf("compose: nil mail: %w", ErrInvalid)
	}
	msgID := trimAngles(m.MessageID)
	if !validMsgID(msgID) {
		return nil, fmt.Errorf("compose: message-id %q: %w", m.MessageID, ErrInvalid)
	}
	if m.Date.IsZero() {
		return nil, fmt.Errorf("compose %s: no date: %w", msgID, ErrInvalid)
	}
	if len(m.To)+len(m.Cc) == 0 {
		return nil, fmt.Errorf("compose %s: no recipients: %w", msgID, ErrInvalid)
	}
	f := &fields{msgID: msgID, autoSubmitted: m.AutoSubmitted, kind: kindToken(m.Kind)}
	switch f.autoSubmitted {
	case "":
		f.autoSubmitted = "auto-generated"
	case "auto-generated", "auto-replied": // RFC 3834 5.1
	default:
		return nil, fmt.Errorf("compose %s: auto-submitted %q: %w", msgID, f.autoSubmitted, ErrInvalid)
	}
	f.body, f.enc, f.lines = prepareBody(m.Body)

	var err error
	if f.from, err = address(m.From); err != nil {
		return nil, fmt.Errorf("compose %s: from: %w", msgID, err)
	}
	if f.to, err = addresses(m.To); err != nil {
		return nil, fmt.Errorf("compose %s: to: %w", msgID, err)
	}
	if f.cc, err = addresses(m.Cc); err != nil {
		return nil, fmt.Errorf("compose %s: cc: %w", msgID, err)
	}
	f.subject = limitRunes(headerText(m.Subject), maxSubjectRunes)
	// Deterministic for replay: the caller's instant, always written in UTC.
	f.date = m.Date.UTC()
	f.references = references(m.InReplyTo, m.References)
	if parent := trimAngles(m.InReplyTo); validMsgID(parent) {
		f.inReplyTo = parent
	}
	f.listID = limitRunes(headerText(m.ListID), maxSubjectRunes)
	if m.ListPost != "" {
		a, err := address(m.ListPost)
		if err != nil {
			return nil, fmt.Errorf("compose %s: list-post: %w", msgID, err)
		}
		f.listPost = a.parsed.Address
	}
	return f, nil
}

// transferEncoding is the body's Content-Transfer-Encoding (RFC 2045 6).
type transferEncoding int

const (
	enc7bit transferEncoding = iota
	enc8bit
	encQP
)

func (e transferEncoding) String() string {
	switch e {
	case enc7bit:
		return "7bit"
	case enc8bit:
		return "8bit"
	}
	return "quoted-printable"
}

// prepareBody normalises line endings to LF and picks the transfer
// encoding; it also counts the lines, so that writeBody can size the
// message before it writes the body with CRLF line endings (or
// quoted-printable, which writes CRLF itself), ending a non-empty body with
// a line break. Invalid UTF-8 is replaced (each run of bad bytes by one
// U+FFFD) and CR or CRLF become LF first, which a body the referee writes
// rarely needs: the body is otherwise read once here, a line at a time,
// for its encoding, and copied once, into the message.
func prepareBody(s string) (string, transferEncoding, int) {
	if strings.IndexByte(s, '\r') >= 0 || !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	enc, lines := enc7bit, 0
	for rest := s; rest != "" && enc != encQP; lines++ {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if len(line) > maxLineOctets {
			enc = encQP
		} else {
			enc = max(enc, lineEncoding(line))
		}
	}
	return s, enc, lines
}

// writeBody appends the body of f to b: each of its lines with CRLF, the
// last one too, or quoted-printable (mime/quotedprintable, which turns
// LF into CRLF itself) with a line break added when it has none.
func (f *fields) writeBody(b []byte) []byte {
	s := f.body
	if s == "" {
		return b
	}
	if f.enc == encQP {
		if s[len(s)-1] != '\n' {
			s += "\n"
		}
		out := &appender{b}
		qp := quotedprintable.NewWriter(out)
		// Writes to an appender do not fail.
		_, _ = qp.Write([]byte(s))
		_ = qp.Close()
		return out.b
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			i = len(s)
		}
		b = append(b, s[:i]...)
		b = append(b, "\r\n"...)
		s = s[min(i+1, len(s)):]
	}
	return b
}

// lineEncoding is the transfer encoding a line (without its line break)
// needs: 7bit for ASCII, 8bit with a byte past it, quoted-printable with a
// control character other than tab and form feed, or DEL (RFC 2045 2.7,
// 2.8: no NUL, and CR and LF only as CRLF; the other controls are safest
// encoded). Eight bytes are tested at once, and looked at one by one only
// when one of them may be a control character.
func lineEncoding(line string) transferEncoding {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	enc := enc7bit
	i := 0
	for ; i+8 <= len(line); i += 8 {
		w := uint64(line[i]) | uint64(line[i+1])<<8 | uint64(line[i+2])<<16 | uint64(line[i+3])<<24 |
			uint64(line[i+4])<<32 | uint64(line[i+5])<<40 | uint64(line[i+6])<<48 | uint64(line[i+7])<<56
		if w&highs != 0 {
			enc = enc8bit
		}
		// A byte under 0x20 or a DEL sets its high bit in ctl (and
		// perhaps the bytes after it, which the loop below sorts out).
		del := w ^ 0x7f*ones
		if ctl := ((w-0x20*ones)&^w | (del-ones)&^del) & highs; ctl != 0 {
			for _, c := range []byte(line[i : i+8]) {
				if isBodyControl(c) {
					return encQP
				}
			}
		}
	}
	for ; i < len(line); i++ {
		c := line[i]
		if c > 0x7f {
			enc = enc8bit
		} else if isBodyControl(c) {
			return encQP
		}
	}
	return enc
}

// isBodyControl reports whether c, not a line break, is a control
// character a body is sent quoted-printable for: any but tab and form
// feed, and DEL.
func isBodyControl(c byte) bool {
	return c < 0x20 && c != '\t' && c != '\f' || c == 0x7f
}

// headerText makes caller text safe for one header line: invalid UTF-8 is
// replaced, every run of control characters or line separators becomes one
// space (so "\r\nBcc: x" cannot start a header), and the ends are trimmed.
func headerText(s string) string {
	// Printable ASCII (most text, every address the referee writes) has
	// nothing to replace.
	i := 0
	for i < len(s) && ' ' <= s[i] && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return strings.TrimSpace(s)
	}
	return headerTextByRune(s)
}

// headerTextByRune is headerText taken a rune at a time: invalid UTF-8
// replaced, each run of controls and line separators made one space.
func headerTextByRune(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	inCtl := false
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			if !inCtl {
				b.WriteByte(' ')
			}
			inCtl = true
			continue
		}
		inCtl = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

func limitRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return strings.TrimSpace(s[:j])
		}
		i++
	}
	return s
}

// addr is an address of the mail, as net/mail parses it (not to be
// changed: it may be shared with other mails) and as net/mail writes it in
// a header.
type addr struct {
	parsed *mail.Address
	text   string // parsed.String()
}

// address is one address, parsed after neutralising control characters:
// as parseAddress makes it, taken from addrCache when it was made lately.
func address(s string) (addr, error) {
	addrCache.Lock()
	a, ok := addrCache.m[s]
	addrCache.Unlock()
	if ok {
		return a, nil
	}
	a, err := parseAddress(s)
	if err != nil || len(s) > maxCachedAddrLen {
		return a, err
	}
	addrCache.Lock()
	if len(addrCache.m) >= maxCachedAddrs {
		clear(addrCache.m)
	}
	addrCache.m[s] = a
	addrCache.Unlock()
	return a, nil
}

// addrCache holds the addresses parsed lately, by the text given: the
// referee mails the same few hundred addresses again and again (the
// players', the lists', its own), and net/mail's parse and writing of one
// allocate more than the rest of a receipt's composing. It is emptied
// when it holds maxCachedAddrs; an address given in more than
// maxCachedAddrLen bytes (a path is at most 256, RFC 5321 §4.5.3.1.3; a
// longer one is parsed each time) is not kept, so that the cache holds a
// few megabytes at most whatever senders write.
var addrCache = struct {
	sync.Mutex
	m map[string]addr
}{m: map[string]addr{}}

const (
	maxCachedAddrs   = 4096
	maxCachedAddrLen = 512
)

// parseAddress parses one address after neutralising control characters.
func parseAddress(s string) (addr, error) {
	clean := headerText(s)
	if clean == "" {
		return addr{}, fmt.Errorf("empty address: %w", ErrInvalid)
	}
	a, err := mail.ParseAddress(clean)
	if err != nil {
		return addr{}, fmt.Errorf("address %q: %w: %w", clean, ErrInvalid, err)
	}
	a.Name = headerText(a.Name)
	return addr{a, a.String()}, nil
}

func addresses(list []string) ([]addr, error) {
	out := make([]addr, 0, len(list))
	for _, s := range list {
		a, err := address(s)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// references builds the References list: the caller's valid ids, then the
// parent when it is not already last (RFC 5322 3.6.4), trimmed to the most
// recent maxReferences. Ids from other people's mail that are not valid
// msg-ids are dropped rather than failing the reply.
func references(inReplyTo string, refs []string) []string {
	out := make([]string, 0, len(refs)+1)
	for _, r := range refs {
		if r = trimAngles(r); validMsgID(r) {
			out = append(out, r)
		}
	}
	if p := trimAngles(inReplyTo); validMsgID(p) && (len(out) == 0 || out[len(out)-1] != p) {
		out = append(out, p)
	}
	if len(out) > maxReferences {
		// Keep the thread's root and the most recent ones.
		out = append(out[:1], out[len(out)-maxReferences+1:]...)
	}
	return out
}

func trimAngles(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<")
	return strings.TrimSuffix(s, ">")
}

// validMsgID accepts id-left "@" id-right made of dot-atom text
// (RFC 5322 3.6.4), at most 250 octets.
func validMsgID(s string) bool {
	if len(s) == 0 || len(s) > 250 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '@' && i != at {
			return false
		}
		if c != '@' && c != '.' && !isAtext(c) {
			return false
		}
	}
	return true
}

// isAtext reports whether c is an RFC 5322 3.2.3 atext character.
func isAtext(c byte) bool { return atext[c] }

// atext marks the RFC 5322 3.2.3 atext characters.
var atext = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("!#$%&'*+-/=?^_`{|}~", byte(c)) >= 0
	}
	return t
}()

// kindToken makes Kind a header token: lower case letters, digits and
// '-', at most 40 of them; anything else becomes '-'. A mail is never
// refused for its kind, and an empty one is "notice". A kind that is a
// token already (the referee's own) is returned as it is.
func kindToken(s string) string {
	if isToken(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if b.Len() == 40 {
			break
		}
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	if b.Len() == 0 {
		return "notice"
	}
	return b.String()
}

// isToken: s is 1 to 40 lower case letters, digits and '-'.
func isToken(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
