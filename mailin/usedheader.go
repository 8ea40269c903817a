package mailin

// usedHeader: the fields of a message's header that mailin reads, kept by
// readUsedHeader (header.go) without go-message's textproto.Header, and
// go-message's readings of them made by the same steps.

import (
	"bytes"
	"mime"
	"strings"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// usedSpan is where a field kept is in raw: its key, less the spaces and
// tabs around it, [key, keyEnd), and its text after the colon, [value, end).
type usedSpan struct{ key, keyEnd, value, end int }

// usedHeader is the header readUsedHeader reads: its fields, topmost
// first. A field's key is a slice of the message, as written less the
// spaces and tabs around it; it matches a key asked for as textproto's
// canonical keys match (sameKey). Its value is what textproto gives
// (unfold), a string of its own, as textproto's are: what Parse keeps of
// one (an id, an address, the subject) holds no more memory than it.
type usedHeader struct{ fields []usedField }

type usedField struct {
	key   []byte
	value string
}

// Get, Values and Has compare a field's key with the key asked for only
// when both are as long: Parse asks some thirty keys of a header of a
// dozen fields, and the length alone, tested here, turns most away
// without a call of sameKey.
func (h *usedHeader) Get(key string) string {
	for _, f := range h.fields {
		if len(f.key) == len(key) && sameKey(f.key, key) {
			return f.value
		}
	}
	return ""
}

func (h *usedHeader) Values(key string) []string {
	var out []string
	for _, f := range h.fields {
		if len(f.key) == len(key) && sameKey(f.key, key) {
			out = append(out, f.value)
		}
	}
	return out
}

func (h *usedHeader) Has(key string) bool {
	for _, f := range h.fields {
		if len(f.key) == len(key) && sameKey(f.key, key) {
			return true
		}
	}
	return false
}

func (h *usedHeader) Len() int { return len(h.fields) }

// sameKey reports whether textproto.CanonicalMIMEHeaderKey makes the same
// key of a and b. It leaves a key with a byte that is not a token's (RFC
// 7230 §3.2.6) as it is, and makes any other one upper case at its start
// and after each "-" and lower case elsewhere: two keys are the same if
// they are equal, or differ only in the case of ASCII letters and are
// made of a token's bytes.
func sameKey(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	folded := false
	for i := 0; i < len(a); i++ {
		if c, d := a[i], b[i]; c != d {
			if l := c | 0x20; l != d|0x20 || l < 'a' || l > 'z' {
				return false
			}
			folded = true
		}
	}
	return !folded || tokenKey(a)
}

// tokenKey reports whether every byte of k is a token's (RFC 7230 §3.2.6),
// as net/textproto's validHeaderFieldByte reads it.
func tokenKey(k []byte) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// unfold is the value textproto gives a field whose text after the colon
// is v (its trimAroundNewlines): each line without its line end and the
// spaces and tabs around it, the lines left empty dropped, the others
// joined by one space.
func unfold(v []byte) string {
	var first []byte
	var b strings.Builder
	n := 0
	for {
		i := bytes.IndexByte(v, '\n')
		line := v
		if i >= 0 {
			line = v[:i]
		}
		if line = trimWSP(bytes.TrimSuffix(line, []byte("\r"))); len(line) > 0 {
			switch n {
			case 0:
				first = line
			case 1:
				b.Grow(len(v) + len(first) + 1)
				b.Write(first)
				fallthrough
			default:
				b.WriteByte(' ')
				b.Write(line)
			}
			n++
		}
		if i < 0 {
			break
		}
		v = v[i+1:]
	}
	if n <= 1 {
		return string(first)
	}
	return b.String()
}

// trimWSP is bytes.Trim(b, " \t").
func trimWSP(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

// The readings of a header go-message's Header gives, for any header: by
// go-message's own methods for its headers, and for a usedHeader by the
// same steps on the values it gives.

// subject is the Subject with its encoded words decoded (RFC 2047), as
// go-message's Subject gives it.
func subject(h header) string {
	if g, ok := h.(*gomail.Header); ok {
		s, _ := g.Subject()
		return s
	}
	return decodeHeader(h.Get("Subject"))
}

// decodeHeader is go-message's reading of a field's encoded words (its
// decodeHeader, errors dropped): s itself when one does not decode. Its
// word decoder reads UTF-8, ISO-8859-1 and US-ASCII itself, as mime's
// does, and hands other charsets, in lower case, to go-message/charset's
// Reader (go-message's CharsetReader), which wordDecoder has too.
func decodeHeader(s string) string {
	d, err := wordDecoder.DecodeHeader(s)
	if err != nil {
		return s
	}
	return d
}

// headerWithParams is go-message's reading of a field with parameters
// (Content-Type, Content-Disposition): mime.ParseMediaType, each
// parameter's encoded words decoded.
func headerWithParams(v string) (string, map[string]string, error) {
	if f, params, ok := plainMediaType(v); ok {
		return f, params, nil
	}
	f, params, err := mime.ParseMediaType(v)
	if err != nil {
		return v, nil, err
	}
	for k, p := range params {
		params[k] = decodeHeader(p)
	}
	return f, params, nil
}

// plainMediaType is mime.ParseMediaType's reading of v, each parameter's
// encoded words decoded, for a field as nearly all mail writes it: in
// ASCII, a type and subtype, and parameters each a token, "=" and a token
// or a quoted string without a backslash, each named once and not in RFC
// 2231's pieces ("*"), spaces and tabs around them, perhaps one ";" at the
// end. ok is false for any other field, which ParseMediaType reads.
func plainMediaType(v string) (typ string, params map[string]string, ok bool) {
	i := skipWSP(v, 0)
	start := i
	if i = mediaToken(v, i); i == start || i == len(v) || v[i] != '/' {
		return "", nil, false
	}
	if j := mediaToken(v, i+1); j > i+1 {
		typ, i = strings.ToLower(v[start:j]), skipWSP(v, j)
	} else {
		return "", nil, false
	}
	params = map[string]string{}
	for i < len(v) {
		if v[i] != ';' {
			return "", nil, false
		}
		if i = skipWSP(v, i+1); i == len(v) {
			break // one ";" at the end
		}
		start = i
		if i = mediaToken(v, i); i == start || strings.IndexByte(v[start:i], '*') >= 0 {
			return "", nil, false
		}
		key := strings.ToLower(v[start:i])
		if i = skipWSP(v, i); i == len(v) || v[i] != '=' {
			return "", nil, false
		}
		i = skipWSP(v, i+1)
		start = i
		var val string
		if i < len(v) && v[i] == '"' {
			q, _, closed := strings.Cut(v[i+1:], `"`)
			if !closed || strings.ContainsAny(q, "\\\r\n") {
				return "", nil, false
			}
			val, i = q, i+len(q)+2
		} else if i = mediaToken(v, i); i > start {
			val = v[start:i]
		} else {
			return "", nil, false
		}
		if _, twice := params[key]; twice {
			return "", nil, false
		}
		params[key] = decodeHeader(val)
		i = skipWSP(v, i)
	}
	return typ, params, true
}

// mediaToken is the end of the run of token bytes at v[i:] (RFC 2045
// §5.1, as mime reads them: printable ASCII but tspecials).
func mediaToken(v string, i int) int {
	for i < len(v) && tokenBytes[v[i]] {
		i++
	}
	return i
}

// tokenBytes are the bytes of a token (mediaToken).
var tokenBytes = func() (t [256]bool) {
	for c := '!'; c <= '~'; c++ {
		t[c] = !strings.ContainsRune(`()<>@,;:\"/[]?=`, c)
	}
	return t
}()

// headerContentType is go-message's ContentType: text/plain when there is
// no Content-Type (a part's header, *message.Header, is read by the same
// steps as its ContentType takes).
func headerContentType(h header) (string, map[string]string, error) {
	if g, ok := h.(*gomail.Header); ok {
		return g.ContentType()
	}
	v := h.Get("Content-Type")
	if v == "" {
		return "text/plain", nil, nil
	}
	return headerWithParams(v)
}

// contentDisposition is go-message's ContentDisposition (RFC 2183).
func contentDisposition(h header) (string, map[string]string, error) {
	if g, ok := h.(*gomail.Header); ok {
		return g.ContentDisposition()
	}
	return headerWithParams(h.Get("Content-Disposition"))
}

// headerMessageID is go-message's MessageID: the Message-ID without its
// angle brackets, "" when there is none.
func headerMessageID(h header) (string, error) {
	if g, ok := h.(*gomail.Header); ok {
		return g.MessageID()
	}
	v := h.Get("Message-Id")
	if v == "" {
		return "", nil
	}
	if id, rest, ok := plainMsgID(v); ok && (rest == "" || rest[0] != '(') {
		return id, nil
	}
	return oneField("Message-Id", v).MessageID()
}

// msgIDList is go-message's MsgIDList: the key field's message ids, nil
// when there is no such field.
func msgIDList(h header, key string) ([]string, error) {
	if g, ok := h.(*gomail.Header); ok {
		return g.MsgIDList(key)
	}
	v := h.Get(key)
	if v == "" {
		return nil, nil
	}
	var ids []string
	for rest := v; rest != ""; {
		id, next, ok := plainMsgID(rest)
		if !ok {
			return oneField(key, v).MsgIDList(key)
		}
		ids, rest = append(ids, id), next
	}
	return ids, nil
}

// plainMsgID reads at the start of v, after spaces and tabs, a message id
// (RFC 5322 §3.6.4) as nearly all mail writes it: "<", printable ASCII
// atext and dots, "@", the same, ">". It returns the id without its
// brackets and what follows it, less the spaces and tabs; ok is false for
// any other text (comments, a domain literal, text that is not ASCII, a
// malformed id), which go-message's parser reads.
func plainMsgID(v string) (id, rest string, ok bool) {
	i := skipWSP(v, 0)
	if i == len(v) || v[i] != '<' {
		return "", "", false
	}
	start := i + 1
	left := msgIDAtext(v, start)
	if left == start || left == len(v) || v[left] != '@' {
		return "", "", false
	}
	right := msgIDAtext(v, left+1)
	if right == left+1 || right == len(v) || v[right] != '>' {
		return "", "", false
	}
	return v[start:right], v[skipWSP(v, right+1):], true
}

// msgIDAtext is the end of the run of printable ASCII atext and dots at
// v[i:] (RFC 5322 §3.2.3), as go-message's parseAtomText reads them.
func msgIDAtext(v string, i int) int {
	for ; i < len(v); i++ {
		c := v[i]
		if c < '!' || c > '~' || strings.IndexByte(`()[];@\,<>":`, c) >= 0 {
			break
		}
	}
	return i
}

// oneField is a go-message header holding only key: v, for go-message's
// readings of a value the shortcuts above leave to it.
func oneField(key, v string) *gomail.Header {
	g := new(gomail.Header)
	g.Add(key, v)
	return g
}

// goHeader is h as go-message's header, for message.New and for
// SetContentType.
func goHeader(h header) message.Header {
	switch g := h.(type) {
	case *message.Header:
		return *g
	case *gomail.Header:
		return g.Header
	}
	u := h.(*usedHeader)
	var th textproto.Header
	for k := len(u.fields) - 1; k >= 0; k-- { // textproto.Header.Add puts a field on top
		th.Add(string(u.fields[k].key), u.fields[k].value)
	}
	return message.Header{Header: th}
}
