package mailin

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	"github.com/emersion/go-message/textproto"

	"referee/internal/lazyre"
)

const maxDepth = 30 // nesting limit for multiparts

// textKind ranks what a part yielded: plain text is preferred to text
// converted from HTML (requirement: text/plain preferred, HTML-only converted).
type textKind int

const (
	kindNone textKind = iota
	kindHTML
	kindPlain
)

// bodyWalker collects the readable text of a MIME tree (RFC 2045/2046).
// go-message (or splitMultipart, as it would) splits the multiparts and
// undoes transfer encodings and charsets; the walker chooses which count.
type bodyWalker struct {
	notes  []string
	limit  int  // stop decoding once this much text is collected
	digest bool // a multipart/digest was seen
	report string
	// The message's own Content-Type as contentType reads it, once the
	// walker has read it (typed).
	typed     bool
	topType   string
	topParams map[string]string
}

func (w *bodyWalker) note(format string, args ...any) {
	if len(w.notes) < 20 {
		w.notes = append(w.notes, fmt.Sprintf(format, args...))
	}
}

// contentType reads h's Content-Type with go-message; ok is false when it
// does not parse and brokenContentType had to read it.
func contentType(h header) (typ string, params map[string]string, ok bool) {
	typ, params, err := headerContentType(h)
	if err != nil {
		typ, params = brokenContentType(h.Get("Content-Type"))
		return typ, params, false
	}
	return typ, params, true
}

var paramRE = lazyre.MustCompile(`(?i);\s*(charset|boundary|format|delsp|report-type)\s*=\s*("[^;]*|[^;\s]+)`)

// brokenContentType reads a Content-Type that mime.ParseMediaType refuses,
// such as an unterminated quote (corpus: malformed-headers): the type is the
// part before ';', and the parameters the walker needs are picked out one by
// one, so that the part is still decoded in its charset.
func brokenContentType(v string) (string, map[string]string) {
	t, _, _ := strings.Cut(v, ";")
	p := map[string]string{}
	for _, m := range paramRE().FindAllStringSubmatch(v, -1) {
		val, _, _ := strings.Cut(strings.TrimPrefix(m[2], `"`), `"`)
		p[strings.ToLower(m[1])] = strings.TrimSpace(val)
	}
	return strings.ToLower(strings.TrimSpace(t)), p
}

// entity returns the text of one entity (a message or a body part) and its
// kind. defType is the type implied when Content-Type is absent (text/plain,
// or message/rfc822 inside a digest: RFC 2046 §5.1.5).
func (w *bodyWalker) entity(h header, body io.Reader, depth int, path string, defType string) (string, textKind) {
	if depth > maxDepth {
		w.note("%s nested too deep; skipped", partName(path))
		return "", kindNone
	}
	typ, params, ok := contentType(h)
	if depth == 0 {
		w.typed, w.topType, w.topParams = true, typ, params
	}
	switch {
	case !h.Has("Content-Type"):
		typ = defType
	case !ok:
		w.note("malformed Content-Type in %s", partName(path))
		g := goHeader(h)
		c := g.Copy()
		c.SetContentType(typ, params) // so that go-message decodes it
		h = &c
	}
	if !strings.Contains(typ, "/") {
		w.note("invalid media type %q in %s; %s assumed", cleanLine(typ), partName(path), defType)
		typ, params = defType, nil
	}
	// RFC 2183 §2.2: an attachment is not part of the message's text.
	disp, dparams, _ := contentDisposition(h)
	if disp == "attachment" {
		return "", kindNone
	}
	main, sub, _ := strings.Cut(typ, "/")
	switch main {
	case "multipart":
		return w.multipart(sub, params, body, depth, path)
	case "text":
		if sub != "plain" && sub != "html" && sub != "enriched" && sub != "markdown" {
			return "", kindNone // text/calendar, text/x-vcard, ...
		}
		if dparams["filename"] != "" && depth > 0 && path != "1" {
			return "", kindNone // a named text file sent inline (Apple Mail)
		}
		s := w.text(h, params, ok || !h.Has("Content-Type"), body, path)
		if sub == "html" {
			return htmlToText(s), kindHTML
		}
		if strings.EqualFold(params["format"], "flowed") {
			s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
		}
		return s, kindPlain
	case "message":
		return "", kindNone // a forwarded or bounced message is not the sender's text
	}
	return "", kindNone
}

// text reads a text part through go-message, which undoes the transfer
// encoding and converts the declared charset to UTF-8; what it cannot
// decode is used as it is, with a note. params are the part's Content-Type
// parameters; own: they are those go-message reads from h (h's Content-Type
// parsed, or absent).
func (w *bodyWalker) text(h header, params map[string]string, own bool, body io.Reader, path string) string {
	label := params["charset"]
	var err error
	if !own || !asIs(h, params) {
		var e *message.Entity
		e, err = message.New(goHeader(h), body)
		switch {
		case message.IsUnknownCharset(err):
			w.note("unknown charset %s; raw bytes used in %s", cleanLine(strings.ToLower(label)), partName(path))
		case message.IsUnknownEncoding(err):
			w.note("unknown transfer encoding %q; raw bytes used in %s", cleanLine(h.Get("Content-Transfer-Encoding")), partName(path))
		}
		body = e.Body
	}
	max := int64(w.limit) * 4
	var data []byte
	if rb, ok := body.(*rawBody); ok {
		// A body in memory, handed over as it is, is read where it is,
		// not copied into a buffer first (and a reader made to limit
		// it): it is copied once, into the text. Its bytes are not
		// changed: undeclared8bit and cleanText make new ones.
		rest := rb.raw[len(rb.raw)-rb.Len():]
		data = rest[:min(int64(len(rest)), max+1)]
		rb.Seek(int64(len(data)), io.SeekCurrent)
		err = nil // as a read of it would leave it
	} else {
		buf := textBuffers.Get().(*bytes.Buffer)
		defer putTextBuffer(buf)
		_, err = buf.ReadFrom(io.LimitReader(body, max+1))
		data = buf.Bytes()
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) { // an unclosed multipart is noted by its walker
		w.note("%s undecodable in %s; decoded what could be read", strings.ToLower(h.Get("Content-Transfer-Encoding")), partName(path))
	}
	if int64(len(data)) > max {
		data = data[:max]
		w.note("%s cut at %d bytes", partName(path), len(data))
	}
	if !utf8.Valid(data) {
		switch strings.ToLower(label) {
		case "", "us-ascii":
			data = undeclared8bit(data)
			w.note("undeclared 8-bit charset; read as windows-1252 in %s", partName(path))
		case "utf-8":
			w.note("invalid UTF-8 replaced in %s", partName(path))
		}
	} else if !needsCleaning(data) {
		return string(data) // cleanText would change nothing
	}
	return cleanText(string(data))
}

// dirtyBytes are the bytes cleanText looks for in valid UTF-8: a CR, a
// control character other than tab and newline, DEL, and the first bytes
// of U+0080 to U+00BF (C1 controls, the no-break space), of U+2000 to
// U+2FFF (bidi controls), of U+0600 to U+063F (the Arabic letter mark) and
// of U+F000 to U+FFFF (the byte order mark).
var dirtyBytes = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	for _, c := range []byte{0x7f, 0xc2, 0xe2, 0xd8, 0xef} {
		t[c] = true
	}
	t['\n'], t['\t'] = false, false
	return t
}()

// needsCleaning reports whether cleanText may change valid UTF-8 data:
// whether it holds one of dirtyBytes.
func needsCleaning(data []byte) bool {
	for _, c := range data {
		if dirtyBytes[c] {
			return true
		}
	}
	return false
}

// asIs reports whether go-message would hand a part's body over as it is
// (message.New): no transfer encoding (RFC 2045 §6.2: 7bit, 8bit, binary)
// and no charset, or UTF-8 or US-ASCII. Its Content-Type is not read again.
func asIs(h header, params map[string]string) bool {
	switch cte := h.Get("Content-Transfer-Encoding"); {
	case cte == "", lowerIs(cte, "7bit"), lowerIs(cte, "8bit"), lowerIs(cte, "binary"):
	default:
		return false
	}
	ch, ok := params["charset"]
	return !ok || lowerIs(ch, "utf-8") || lowerIs(ch, "us-ascii") // as go-message compares it
}

// lowerIs reports whether strings.ToLower(s) == lower, lower being ASCII
// in lower case, without making the lower-case string where s is as long
// as lower: then it is, only if s is ASCII (a letter that is not lowers to
// one that is not, or, as İ and K do, to an ASCII one of fewer bytes) and
// equal to lower but for the case of its letters.
func lowerIs(s, lower string) bool {
	if len(s) == len(lower) {
		return asciiFold(lower, s)
	}
	return strings.ToLower(s) == lower
}

// textBuffers hold a part's decoded bytes until they are made a string.
var textBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putTextBuffer gives buf back to textBuffers, unless it grew larger than
// most text parts are.
func putTextBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		buf.Reset()
		textBuffers.Put(buf)
	}
}

// undeclared8bit reads 8-bit text sent without a charset as windows-1252,
// the commonest such charset (corpus: mailx-8bit-undeclared).
func undeclared8bit(b []byte) []byte {
	r, err := charset.Reader("windows-1252", bytes.NewReader(b))
	if err != nil {
		return b
	}
	out, _ := io.ReadAll(r)
	return out
}

func (w *bodyWalker) multipart(sub string, params map[string]string, body io.Reader, depth int, path string) (string, textKind) {
	boundary := params["boundary"]
	if boundary == "" {
		w.note("multipart without boundary in %s; skipped", partName(path))
		return "", kindNone
	}
	switch sub {
	case "encrypted":
		w.note("encrypted %s cannot be read", partName(path))
		return "", kindNone
	case "digest":
		w.digest = true
		return "", kindNone
	case "report":
		// RFC 6522: the first part is the human-readable explanation.
		w.report = strings.ToLower(params["report-type"])
		if w.report == "" {
			w.report = "unknown"
		}
	}
	next := nextPart(body, boundary)
	var (
		texts          []string
		kind           = kindNone
		html, empty    string
		hasHTML, empPl bool
		done           bool
		n              int
		err            error
		ph             header
		pbody          io.Reader
	)
	for ; ; n++ {
		if ph, pbody, err = next(); err != nil {
			break
		}
		if done {
			continue // read on only to see whether the multipart is closed
		}
		s, k := w.entity(ph, pbody, depth+1, subPath(path, n), "text/plain")
		switch sub {
		case "alternative":
			// RFC 2046 §5.1.4: the parts are the same content; take the
			// first that yields plain text, else the first HTML-derived
			// one. An empty text/plain beside a real HTML part (some
			// webmails) loses to the HTML.
			switch {
			case k == kindPlain && strings.TrimSpace(s) != "":
				texts, kind, done = []string{s}, kindPlain, true
			case k == kindPlain && !empPl:
				empty, empPl = s, true
			case k == kindHTML && !hasHTML && strings.TrimSpace(s) != "":
				html, hasHTML = s, true
			}
		case "signed", "report":
			// RFC 1847 §2.1 / RFC 3156 §5: the first part is the signed
			// content, the second the signature; RFC 6522: the first
			// part of a report is its human-readable explanation.
			texts, kind, done = []string{s}, k, true
		default:
			// mixed, related, parallel and unknown subtypes (RFC 2046
			// §5.1.7): the inline text of the parts, in order.
			if k != kindNone && strings.TrimSpace(s) != "" {
				texts = append(texts, strings.TrimRight(s, "\n"))
			}
			kind = max(kind, k)
		}
	}
	switch {
	case n == 0:
		w.note("multipart in %s has no parts", partName(path))
	case err != io.EOF: // textproto returns io.EOF itself only at the close delimiter
		w.note("multipart in %s not closed; kept what could be read", partName(path))
	}
	switch {
	case sub == "alternative" && !done && hasHTML:
		return html, kindHTML
	case sub == "alternative" && !done && empPl:
		return empty, kindPlain
	}
	return strings.Join(texts, "\n\n"), kind // a single text but for mixed and the like
}

// nextPart returns the parts of a multipart one by one, then io.EOF if
// it is closed, or another error: those splitMultipart splits it into, for
// a body held in memory that it splits, else those go-message's
// MultipartReader reads.
func nextPart(body io.Reader, boundary string) func() (header, io.Reader, error) {
	if r, ok := body.(*rawBody); ok {
		if parts, ok := splitMultipart(r.raw, boundary); ok {
			return func() (header, io.Reader, error) {
				if len(parts) == 0 {
					return nil, nil, io.EOF
				}
				p := parts[0]
				parts = parts[1:]
				return p.header, newRawBody(p.body), nil
			}
		}
	}
	mr := textproto.NewMultipartReader(body, boundary)
	return func() (header, io.Reader, error) {
		p, err := mr.NextPart()
		if err != nil {
			return nil, nil, err
		}
		return &message.Header{Header: p.Header}, p, nil
	}
}

func subPath(path string, i int) string {
	if path == "" {
		return fmt.Sprint(i + 1)
	}
	return fmt.Sprintf("%s.%d", path, i+1)
}

// partName names a part for notes: the IMAP part number (RFC 3501 §6.4.5),
// or "the body" for the top level.
func partName(path string) string {
	if path == "" {
		return "the body"
	}
	return "part " + path
}
