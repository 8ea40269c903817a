package mailin

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message/charset"
)

// mediaType parses a Content-Type value (RFC 2045 §5.1). When the strict
// parser refuses it (unterminated quote, stray characters), the type is the
// part before ';' and charset, boundary, format and delsp are picked out one
// by one, so a broken header still yields a decodable part.
func mediaType(v string) (string, map[string]string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", map[string]string{}, true
	}
	if t, p, err := mime.ParseMediaType(v); err == nil {
		return t, p, true
	}
	t := strings.ToLower(strings.TrimSpace(strings.SplitN(v, ";", 2)[0]))
	p := map[string]string{}
	for _, m := range paramRE.FindAllStringSubmatch(v, -1) {
		val := m[2]
		if strings.HasPrefix(val, `"`) {
			val = strings.TrimPrefix(val, `"`)
			if j := strings.IndexByte(val, '"'); j >= 0 {
				val = val[:j]
			}
		}
		p[strings.ToLower(m[1])] = strings.TrimSpace(val)
	}
	return t, p, false
}

var paramRE = regexp.MustCompile(`(?i);\s*(charset|boundary|format|delsp|name|report-type|protocol)\s*=\s*("[^;]*|[^;\s]+)`)

// decodeTransfer undoes a Content-Transfer-Encoding (RFC 2045 §6) leniently:
// base64 ignores characters outside its alphabet and a missing pad,
// quoted-printable passes invalid escapes through. An unknown encoding leaves
// the bytes as they are and says so.
func decodeTransfer(enc string, b []byte) ([]byte, string) {
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "", "7bit", "8bit", "binary", "8-bit", "7-bit":
		return b, ""
	case "base64":
		return decodeBase64(b)
	case "quoted-printable":
		return decodeQP(b), ""
	default:
		return b, fmt.Sprintf("unknown transfer encoding %q; raw bytes used", cleanLine(enc))
	}
}

// decodeBase64 ignores characters outside the base64 alphabet (RFC 2045
// §6.8 says to), reads base64url's '-' and '_' as '+' and '/', and decodes
// what it can of truncated or unpadded data.
func decodeBase64(b []byte) ([]byte, string) {
	clean := make([]byte, 0, len(b))
	for _, c := range b {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+') // base64url from broken encoders
		case c == '_':
			clean = append(clean, '/')
		}
	}
	note := ""
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
		note = "truncated base64 data"
	}
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
	n, err := base64.RawStdEncoding.Decode(out, clean)
	if err != nil {
		note = "invalid base64 data; decoded what could be read"
	}
	return out[:n], note
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// decodeQP decodes quoted-printable (RFC 2045 §6.7): "=XX" escapes, soft line
// breaks ("=" at the end of a line, trailing whitespace allowed), trailing
// whitespace on hard lines removed; an "=" not followed by two hex digits is
// kept literally (rule 1 says to, for robustness).
func decodeQP(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for len(b) > 0 {
		line := b
		nl := bytes.IndexByte(b, '\n')
		if nl >= 0 {
			line, b = b[:nl], b[nl+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		line = bytes.TrimRight(line, " \t")
		soft := false
		if len(line) > 0 && line[len(line)-1] == '=' {
			soft, line = true, line[:len(line)-1]
		}
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c == '=' && i+2 < len(line) {
				if h, ok := unhex(line[i+1]); ok {
					if l, ok := unhex(line[i+2]); ok {
						out = append(out, h<<4|l)
						i += 2
						continue
					}
				}
			}
			out = append(out, c)
		}
		if !soft && nl >= 0 {
			out = append(out, '\n')
		}
	}
	return out
}

// toUTF8 converts text in the named charset to UTF-8 with go-message/charset,
// which knows the ISO-8859 family, windows-125x, KOI8, the CJK encodings and
// more. An unknown charset leaves the bytes as they are (invalid UTF-8
// sequences replaced) and says so.
func toUTF8(label string, b []byte) (string, string) {
	l := strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	switch l {
	case "", "utf-8", "utf8", "us-ascii", "ascii", "unicode-1-1-utf-8":
		if utf8.Valid(b) {
			return string(b), ""
		}
		if l == "utf-8" || l == "utf8" {
			return strings.ToValidUTF8(string(b), "\uFFFD"), "invalid UTF-8 replaced"
		}
		// Undeclared 8-bit text: the commonest is Windows-1252.
		if s, err := convert("windows-1252", b); err == nil {
			return s, "undeclared 8-bit charset; read as windows-1252"
		}
		return strings.ToValidUTF8(string(b), "\uFFFD"), ""
	}
	switch l {
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "ibm819":
		// The WHATWG Encoding Standard (§4.2, labels) decodes these as
		// windows-1252, which is what Outlook and others really send.
		l = "windows-1252"
	}
	s, err := convert(l, b)
	if err != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD"), fmt.Sprintf("unknown charset %s; raw bytes used", cleanLine(l))
	}
	return s, ""
}

func convert(label string, b []byte) (string, error) {
	r, err := charset.Reader(label, bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(r)
	if err != nil && len(out) == 0 {
		return "", err
	}
	return strings.ToValidUTF8(string(out), "\uFFFD"), nil
}

// splitMultipart cuts a multipart body (RFC 2046 §5.1.1) into its parts. A
// delimiter is "--boundary" at the start of a line, optionally followed by
// whitespace; "--boundary--" closes. A missing close delimiter is tolerated
// (closed reports whether it was seen).
func splitMultipart(body []byte, boundary string) (parts [][]byte, closed bool) {
	delim := []byte("--" + boundary)
	start := -1 // start of the current part's content
	i := 0
	for i <= len(body) {
		j := bytes.Index(body[i:], delim)
		if j < 0 {
			break
		}
		pos := i + j
		if pos > 0 && body[pos-1] != '\n' {
			i = pos + len(delim)
			continue
		}
		rest := body[pos+len(delim):]
		final := bytes.HasPrefix(rest, []byte("--"))
		if final {
			rest = rest[2:]
		}
		line, next := nextLine(rest, 0)
		if len(bytes.TrimSpace(line)) != 0 {
			i = pos + len(delim) // a longer boundary that starts with ours
			continue
		}
		if start >= 0 {
			end := pos
			if end > 0 && body[end-1] == '\n' {
				end--
				if end > start && body[end-1] == '\r' {
					end--
				}
			}
			if end < start {
				end = start
			}
			parts = append(parts, body[start:end])
		}
		if final {
			return parts, true
		}
		start = pos + len(delim) + next
		i = start
	}
	if start >= 0 && start <= len(body) {
		parts = append(parts, body[start:])
	}
	return parts, false
}
