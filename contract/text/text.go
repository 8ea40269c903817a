// Package text writes Agora-style plain text: banners, the report date block,
// aligned tables with right-aligned numbers, footnotes, "Recent events" lists,
// grids with coordinate rulers and a legend, wrapped paragraphs and signatures
// (AGORA "Reports and notices — the look"). It is pure and knows nothing of games
// or mail; the games build their notices and reports with it.
package text

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Width is the column limit of Agora-style text, except tables and grids.
const Width = 72

// Banner is a title centred between two rules of '=' (or the given rune).
func Banner(title string, rule rune) string {
	if rule == 0 {
		rule = '='
	}
	line := strings.Repeat(string(rule), Width)
	pad := (Width - utf8.RuneCountInString(title)) / 2
	if pad < 0 {
		pad = 0
	}
	return line + "\n" + strings.Repeat(" ", pad) + title + "\n" + line + "\n"
}

// Heading is a section heading underlined with dashes.
func Heading(h string) string {
	return h + "\n" + strings.Repeat("-", utf8.RuneCountInString(h)) + "\n"
}

// DateBlock is the report's date block (AGORA): the last report's date, this
// report's date, and "(all times UTC)".
func DateBlock(last, this time.Time) string {
	l := "never"
	if !last.IsZero() {
		l = last.UTC().Format("2006-01-02 (Mon)")
	}
	return fmt.Sprintf("Date of last report: %s\nDate of this report: %s\n(all times UTC)\n", l, this.UTC().Format("2006-01-02 (Mon)"))
}

// Wrap fills a paragraph to width columns (Width when 0), keeping words whole.
// Lines of the input are joined; use it per paragraph.
func Wrap(s string, width int) string {
	return WrapIndent(s, width, "", "")
}

// WrapIndent wraps with a first-line prefix and a prefix for the lines after.
// Words are what strings.Fields finds (runs of Unicode space between them),
// written whole with one space between them; a line takes the next word while
// its runes, prefix included, stay within width, and a line's first word is
// written whatever its length. Nothing is written for a text without words.
func WrapIndent(s string, width int, first, rest string) string {
	if width == 0 {
		width = Width
	}
	var b strings.Builder
	restRunes := -1 // counted at the first line break
	lineRunes := 0  // runes of the line so far, prefix included
	empty := true   // no word written yet
	for i := 0; i < len(s); {
		// Skip the space before a word, as strings.Fields does.
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				i++
				continue
			}
		} else if r, n := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) {
			i += n
			continue
		}
		// The word runs to the next space; its runes are counted on the way.
		start, runes := i, 0
		for i < len(s) {
			c := s[i]
			if c < utf8.RuneSelf {
				if asciiSpace[c] {
					break
				}
				i++
			} else {
				r, n := utf8.DecodeRuneInString(s[i:])
				if unicode.IsSpace(r) {
					break
				}
				i += n
			}
			runes++
		}
		w := s[start:i]
		switch {
		case empty:
			// The words and their spaces, a prefix per line of about 32 bytes.
			b.Grow(len(first) + len(s) + (len(s)/32+1)*(len(rest)+1))
			b.WriteString(first)
			lineRunes = utf8.RuneCountInString(first) + runes
			empty = false
		case lineRunes+1+runes > width:
			if restRunes < 0 {
				restRunes = utf8.RuneCountInString(rest)
			}
			b.WriteByte('\n')
			b.WriteString(rest)
			lineRunes = restRunes + runes
		default:
			b.WriteByte(' ')
			lineRunes += 1 + runes
		}
		b.WriteString(w)
	}
	if !empty {
		b.WriteByte('\n')
	}
	return b.String()
}

// Quote is a text quoted as its writer wrote it: each line of it "> " and
// its words, wrapped to Width within the quote, a blank line between
// paragraphs ">" alone; blank lines before and after the text are left
// out. Nothing is written for a text without words.
func Quote(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	blank := func(l string) bool { return strings.TrimSpace(l) == "" }
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for _, l := range lines {
		if blank(l) {
			b.WriteString(">\n")
			continue
		}
		b.WriteString(WrapIndent(l, 0, "> ", "> "))
	}
	return b.String()
}

// asciiSpace marks the ASCII bytes unicode.IsSpace holds for.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// Signature is the short signature naming the office: "-- \nThe Life
// Contestmaster (referee)\n".
func Signature(office string) string {
	return "-- \n" + office + "\n"
}

// Event is one line of a "Recent events" list.
type Event struct {
	Time time.Time
	Who  string
	What string
}

// Recent writes "YYYY-MM-DD HH:MM  who  what" lines, oldest first, with the
// "----- time of last report -----" marker before the first event after last
// (AGORA). Long lines wrap under the text column.
func Recent(events []Event, last time.Time) string {
	var b strings.Builder
	who := 0
	for _, e := range events {
		if n := utf8.RuneCountInString(e.Who); n > who {
			who = n
		}
	}
	marked := last.IsZero()
	for _, e := range events {
		if !marked && e.Time.After(last) {
			b.WriteString("----- time of last report -----\n")
			marked = true
		}
		head := fmt.Sprintf("%s  %s  ", e.Time.UTC().Format("2006-01-02 15:04"), pad(e.Who, who))
		b.WriteString(WrapIndent(e.What, Width, head, strings.Repeat(" ", utf8.RuneCountInString(head))))
	}
	if !marked {
		b.WriteString("----- time of last report -----\n")
	}
	if len(events) == 0 {
		b.WriteString("(nothing happened)\n")
	}
	return b.String()
}

func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// ReportHead opens a report: the banner with its title, a blank line, the date
// block, a blank line.
func ReportHead(title string, last, this time.Time) string {
	return Banner(title, '=') + "\n" + DateBlock(last, this) + "\n"
}

// Count writes a number with its noun: "1 Vial", "2 Vials", "0 Vials".
func Count(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, plural)
}

// And joins items as a sentence: "a", "a and b", "a, b and c".
func And(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
