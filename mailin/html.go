package mailin

import (
	"html"
	"strings"
)

// htmlToText is a small, tolerant tag stripper for HTML-only mail: block
// elements become line breaks, <br> a line break, entities are decoded,
// whitespace collapsed outside <pre>, script/style/head content dropped, and
// text inside <blockquote> comes out as "> " quoted lines (one "> " per
// level) so that quote stripping treats it as the quote it is. Unclosed tags,
// stray "<" and unknown elements are text or ignored, never errors.
func htmlToText(s string) string {
	t := &htmlText{}
	unclosed := map[string]bool{} // elements known to have no close tag further on
	i := 0
	for i < len(s) {
		lt := strings.IndexByte(s[i:], '<')
		if lt < 0 {
			t.text(s[i:])
			break
		}
		t.text(s[i : i+lt])
		i += lt
		if strings.HasPrefix(s[i:], "<!--") {
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				break
			}
			i += 4 + end + 3
			continue
		}
		end := tagEnd(s, i+1)
		if end < 0 || i+1 >= len(s) || !(isLetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!' || s[i+1] == '?') {
			t.text("<")
			i++
			continue
		}
		name, closing := tagName(s[i+1 : end])
		i = end + 1
		if !closing && !unclosed[name] && (name == "script" || name == "style" || name == "head" || name == "title" || name == "template") {
			// Skip to the matching close tag (case-insensitive).
			j := indexFold(s[i:], "</"+name)
			if j < 0 {
				unclosed[name] = true
				continue // never closed: ignore the tag, keep the text
			}
			i += j
			if e := strings.IndexByte(s[i:], '>'); e >= 0 {
				i += e + 1
			} else {
				break
			}
			continue
		}
		t.tag(name, closing)
	}
	return t.result()
}

// maxTagLen bounds the search for a tag's end, so that many unterminated
// tags cost linear, not quadratic, time; a longer "tag" is taken as text.
const maxTagLen = 16 << 10

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tagEnd finds the '>' closing a tag that starts at s[i], skipping quoted
// attribute values.
func tagEnd(s string, i int) int {
	var quote byte
	limit := min(len(s), i+maxTagLen)
	for ; i < limit; i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		case c == '<' && quote == 0:
			return -1 // "a < b" followed by a real tag: the first '<' was text
		}
	}
	return -1
}

func tagName(s string) (string, bool) {
	closing := strings.HasPrefix(s, "/")
	s = strings.TrimPrefix(s, "/")
	end := 0
	for end < len(s) && (isLetter(s[end]) || s[end] >= '0' && s[end] <= '9' || s[end] == ':' || s[end] == '-') {
		end++
	}
	return strings.ToLower(s[:end]), closing
}

func indexFold(s, sub string) int {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

type htmlText struct {
	lines        []string
	cur          strings.Builder
	curDepth     int
	depth        int
	pre          int
	pendingSpace bool
}

func (t *htmlText) text(s string) {
	if s == "" {
		return
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	for _, r := range s {
		if t.pre > 0 {
			if r == '\n' {
				t.lineBreak(true)
				continue
			}
			if r == '\r' {
				continue
			}
		} else if r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == 0xa0 {
			if t.cur.Len() > 0 {
				t.pendingSpace = true
			}
			continue
		}
		if r == 0xa0 {
			r = ' '
		}
		if t.cur.Len() == 0 {
			t.curDepth = t.depth
		} else if t.pendingSpace {
			t.cur.WriteByte(' ')
		}
		t.pendingSpace = false
		t.cur.WriteRune(r)
	}
}

// lineBreak ends the current line; an empty line is kept only when forced
// (an explicit <br> or a newline inside <pre>).
func (t *htmlText) lineBreak(force bool) {
	if t.cur.Len() > 0 || force {
		d := t.curDepth
		if t.cur.Len() == 0 {
			d = t.depth
		}
		t.lines = append(t.lines, quotePrefix(d)+t.cur.String())
	}
	t.cur.Reset()
	t.pendingSpace = false
}

// blank ends the current line and leaves one empty line after it.
func (t *htmlText) blank() {
	t.lineBreak(false)
	if n := len(t.lines); n > 0 && strings.TrimRight(t.lines[n-1], "> ") != "" {
		t.lines = append(t.lines, strings.TrimRight(quotePrefix(t.depth), " "))
	}
}

func quotePrefix(d int) string {
	if d <= 0 {
		return ""
	}
	return strings.Repeat("> ", d)
}

func (t *htmlText) tag(name string, closing bool) {
	switch name {
	case "br":
		t.lineBreak(true)
	case "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "dl", "hr":
		t.blank()
	case "div", "li", "tr", "dt", "dd", "section", "article", "header", "footer",
		"address", "center", "form", "fieldset", "nav", "aside", "main", "caption", "figure":
		t.lineBreak(false)
	case "pre":
		t.blank()
		if closing {
			if t.pre > 0 {
				t.pre--
			}
		} else {
			t.pre++
		}
	case "blockquote":
		t.blank()
		if closing {
			if t.depth > 0 {
				t.depth--
			}
		} else if t.depth < 20 {
			t.depth++
		}
	case "td", "th":
		if t.cur.Len() > 0 {
			t.pendingSpace = true
		}
	}
}

func (t *htmlText) result() string {
	t.lineBreak(false)
	out := make([]string, 0, len(t.lines))
	blankRun := 0
	for _, l := range t.lines {
		l = strings.TrimRight(l, " ")
		if strings.TrimRight(l, ">") == "" && l == "" {
			blankRun++
			if blankRun > 1 {
				continue
			}
		} else {
			blankRun = 0
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}
