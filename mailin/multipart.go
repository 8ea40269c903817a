package mailin

// A multipart held in memory, split without go-message's MultipartReader
// (its 4 KiB buffer and a textproto.Header for each part) where the split
// is certain to be the one that reader makes.

import (
	"bytes"
	"strings"
)

// rawBody is an entity's body read from memory: the walker splits a
// multipart of one itself (splitMultipart).
type rawBody struct {
	bytes.Reader
	raw []byte
}

func newRawBody(b []byte) *rawBody {
	r := &rawBody{raw: b}
	r.Reset(b)
	return r
}

// rawPart is a part splitMultipart found: its header, as readUsedHeader
// reads one, and its body.
type rawPart struct {
	header *usedHeader
	body   []byte
}

// maxSplitLine bounds the lines splitMultipart reads outside the parts'
// headers and bodies (the preamble, the delimiter lines): go-message's
// reader fails on a line longer than its 4 KiB buffer.
const maxSplitLine = 1024

// splitMultipart splits a multipart body b (RFC 2046 §5.1.1) into its
// parts as go-message's textproto.MultipartReader would, for a multipart
// as mail writes it: lines ending in LF alone, a preamble of short lines
// none of which starts with "--" and the boundary before the first
// delimiter line, each part's header one readUsedFields reads, each
// delimiter "--" and the boundary, spaces and tabs, and a line end, after
// a part's last line, and the close delimiter ("--" after the boundary,
// then spaces and tabs) at the end of b or of a line. A part's body is
// what comes before the first line break that is followed by "--", the
// boundary, and a space, tab, CR, LF, "-" or the end of b, as the reader's
// scanUntilBoundary finds it. ok is false for any other multipart (CRLF
// line ends, a part not closed, an odd line), which the reader splits.
func splitMultipart(b []byte, boundary string) (parts []rawPart, ok bool) {
	if boundary == "" || len(boundary) > 200 || strings.ContainsAny(boundary, "\r\n") || bytes.IndexByte(b, '\r') >= 0 {
		return nil, false
	}
	dash := "--" + boundary
	i := 0
	for { // the preamble, and the first delimiter line
		line, ok := splitLine(b, i)
		if !ok || len(line) == 0 || line[len(line)-1] != '\n' {
			return nil, false
		}
		i += len(line)
		if bytes.HasPrefix(line, []byte(dash)) {
			if string(skipLWSP(line[len(dash):])) != "\n" {
				return nil, false
			}
			break
		}
	}
	nlDash := []byte("\n" + dash)
	for {
		h, body, ok := readUsedFields(b[i:])
		if !ok || bytes.HasPrefix(body, nlDash[1:]) {
			return nil, false
		}
		start := len(b) - len(body)
		end := -1
		for k := start; end < 0; {
			x := bytes.Index(b[k:], nlDash)
			if x < 0 {
				return nil, false // not closed
			}
			x += k
			if after := x + len(nlDash); after == len(b) || strings.IndexByte(" \t\r\n-", b[after]) >= 0 {
				end = x
			} else {
				k = after
			}
		}
		parts = append(parts, rawPart{header: h, body: b[start:end]})
		line, ok := splitLine(b, end+1)
		if !ok {
			return nil, false
		}
		rest := line[len(dash):]
		switch {
		case string(skipLWSP(rest)) == "\n":
			i = end + 1 + len(line) // a delimiter line: the next part
		case bytes.HasPrefix(rest, []byte("--")) && (len(skipLWSP(rest[2:])) == 0 || string(skipLWSP(rest[2:])) == "\n"):
			return parts, true // the close delimiter
		default:
			return nil, false
		}
	}
}

// splitLine is the line of b at i, with its LF, or the rest of b if no
// LF ends it; ok is false if it is longer than maxSplitLine.
func splitLine(b []byte, i int) (line []byte, ok bool) {
	j := bytes.IndexByte(b[i:], '\n')
	if j < 0 {
		j = len(b) - i - 1
	}
	if j >= maxSplitLine {
		return nil, false
	}
	return b[i : i+j+1], true
}

// skipLWSP is b without its leading spaces and tabs.
func skipLWSP(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}
