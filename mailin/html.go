package mailin

import (
	"strings"

	"golang.org/x/net/html"
)

// htmlToText renders HTML-only mail as text. golang.org/x/net/html tokenizes
// it the way browsers do (unclosed tags, stray "<", unquoted attributes,
// entities); htmlText lays the text out: block elements become line breaks,
// <br> a line break, whitespace is collapsed outside <pre>, the content of
// script, style, title and template is dropped, and text inside <blockquote>
// comes out as "> " quoted lines (one "> " per level) so that quote
// stripping treats it as the quote it is.
func htmlToText(s string) string {
	t := &htmlText{}
	z := html.NewTokenizer(strings.NewReader(s))
	skip := 0 // depth inside elements whose text is not shown
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return t.result()
		case html.TextToken:
			if skip == 0 {
				t.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			closing := tt == html.EndTagToken
			switch string(name) {
			case "script", "style", "title", "template":
				if tt == html.StartTagToken {
					skip++
				} else if closing && skip > 0 {
					skip--
				}
				continue
			}
			t.tag(string(name), closing)
		}
	}
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
