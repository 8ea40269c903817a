package text

import (
	"strings"
	"unicode/utf8"
)

// Table is an aligned table: a header row, a rule of dashes under each heading,
// then the rows. Columns whose cells are all numbers (or empty) are
// right-aligned. Footnote markers ("12*") count as numbers.
type Table struct {
	Header []string
	Rows   [][]string
	// Right forces right alignment of a column (by index); numbers are detected
	// without it.
	Right map[int]bool
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

func numeric(s string) bool {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		s = s[:i] // a footnote marker: "7[1]"
	}
	s = strings.TrimRight(s, "*+†‡")
	if s == "" {
		return true
	}
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	dot := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return true
}

// String renders the table, two spaces between columns, no trailing spaces.
func (t *Table) String() string {
	cols := len(t.Header)
	for _, r := range t.Rows {
		if len(r) > cols {
			cols = len(r)
		}
	}
	width := make([]int, cols)
	right := make([]bool, cols)
	for i := 0; i < cols; i++ {
		right[i] = t.Right[i]
		allNum, any := true, false
		for _, r := range t.Rows {
			if i < len(r) {
				if !numeric(r[i]) {
					allNum = false
				}
				if strings.TrimSpace(r[i]) != "" {
					any = true
				}
			}
		}
		if allNum && any {
			right[i] = true
		}
	}
	cell := func(r []string, i int) string {
		if i < len(r) {
			return r[i]
		}
		return ""
	}
	for i := 0; i < cols; i++ {
		width[i] = utf8.RuneCountInString(cell(t.Header, i))
		for _, r := range t.Rows {
			if n := utf8.RuneCountInString(cell(r, i)); n > width[i] {
				width[i] = n
			}
		}
	}
	var b strings.Builder
	line := func(r []string) {
		var parts []string
		for i := 0; i < cols; i++ {
			c := cell(r, i)
			p := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right[i] {
				parts = append(parts, p+c)
			} else {
				parts = append(parts, c+p)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " "))
		b.WriteByte('\n')
	}
	if len(t.Header) > 0 {
		line(t.Header)
		var rules []string
		for i := 0; i < cols; i++ {
			rules = append(rules, strings.Repeat("-", width[i]))
		}
		line(rules)
	}
	for _, r := range t.Rows {
		line(r)
	}
	return b.String()
}
