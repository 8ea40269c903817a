package text_test

import (
	"strings"
	"testing"
	"time"

	"referee/contract/contracttest"
	"referee/contract/text"
)

func TestReport(t *testing.T) {
	var b strings.Builder
	b.WriteString(text.ReportHead("Life Contest: Weekly Report", time.Date(2002, 7, 29, 0, 0, 0, 0, time.UTC), time.Date(2002, 8, 5, 0, 0, 0, 0, time.UTC)))
	b.WriteString(text.Heading("Contestants"))
	var fn text.Footnotes
	tb := &text.Table{Header: []string{"Contestant", "Vials", "Cells"}}
	tb.Add("Goethe", "12", "125")
	tb.Add("root", "3", "7"+fn.Mark("joined this week"))
	tb.Add("The Goddess Eris", "0", "0")
	b.WriteString(tb.String())
	b.WriteString(fn.String())
	b.WriteString("\n")
	b.WriteString(text.Heading("Recent events"))
	b.WriteString(text.Recent([]text.Event{
		{Time: time.Date(2002, 8, 1, 14, 3, 0, 0, time.UTC), Who: "Goethe", What: "claims Cell (12, 34)"},
		{Time: time.Date(2002, 8, 4, 9, 0, 0, 0, time.UTC), Who: "root", What: "joins the contest and receives 10 Vials of Primordial Ooze, which is a long line that has to wrap under the text column"},
	}, time.Date(2002, 8, 2, 0, 0, 0, 0, time.UTC)))
	b.WriteString("\n")
	g := &text.Grid{X0: 0, X1: 11, Y0: 0, Y1: 3, TopY: 3, Cell: func(x, y int) rune {
		if x == y {
			return 'G'
		}
		if x == 10 {
			return 'R'
		}
		return '.'
	}, Legend: map[rune]string{'G': "Goethe", 'R': "root"}}
	b.WriteString(g.String())
	b.WriteString("\n")
	b.WriteString(text.Signature("The Life Contestmaster (referee)"))
	got := b.String()
	contracttest.Golden(t, "testdata/report.golden", got)
	for _, l := range strings.Split(got, "\n") {
		if len([]rune(l)) > text.Width {
			t.Errorf("line over %d columns: %q", text.Width, l)
		}
	}
}

func TestTableAlignment(t *testing.T) {
	tb := &text.Table{Header: []string{"Name", "N"}}
	tb.Add("a", "5")
	tb.Add("bbb", "125")
	want := "Name    N\n----  ---\na       5\nbbb   125\n"
	if got := tb.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGridDownwardY(t *testing.T) {
	g := &text.Grid{X0: 0, X1: 2, Y0: 0, Y1: 1, TopY: 0, Cell: func(x, y int) rune {
		if x == 0 && y == 0 {
			return '#'
		}
		return 0
	}}
	want := "  012\n0 #.. 0\n1 ... 1\n  012\n"
	if got := g.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestWrap(t *testing.T) {
	got := text.WrapIndent(strings.Repeat("word ", 30), 30, "> ", "  ")
	for i, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if len(l) > 30 || (i == 0 && !strings.HasPrefix(l, "> ")) || (i > 0 && !strings.HasPrefix(l, "  w")) {
			t.Errorf("line %d: %q", i, l)
		}
	}
}

// TestAnd: a list as a sentence writes it.
func TestAnd(t *testing.T) {
	for _, c := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"(1, 1)"}, "(1, 1)"},
		{[]string{"(1, 1)", "(2, 2)"}, "(1, 1) and (2, 2)"},
		{[]string{"(1, 1)", "(2, 2)", "(5, 5)"}, "(1, 1), (2, 2) and (5, 5)"},
	} {
		if got := text.And(c.items); got != c.want {
			t.Errorf("text.And(%q) = %q, want %q", c.items, got, c.want)
		}
	}
}
