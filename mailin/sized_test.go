package mailin

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// joinLinesOf is joinLines as first written, of the lines already taken.
func joinLinesOf(lines []string) string {
	var b strings.Builder
	blank := 0
	started := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			if started {
				blank++
			}
			continue
		}
		if started {
			b.WriteByte('\n')
			if blank > 0 {
				b.WriteByte('\n')
			}
		}
		blank = 0
		started = true
		b.WriteString(l)
	}
	return b.String()
}

// TestJoinLinesSized: joinLines of the lines it is told to take gives what
// joining those lines alone gave, on a table and on 20,000 draws of lines
// and choices, and makes its string in one allocation.
func TestJoinLinesSized(t *testing.T) {
	cases := [][]string{nil, {""}, {"a"}, {"", "a", ""}, {"a", "", "", "b"}, {" ", "\t", "a", "\v", "b", " "}, {"a", "b", "c"}}
	pieces := []string{"", " ", "\t", "\v", "a", "bb", "> q", "-- ", "é"}
	r := rand.New(rand.NewPCG(14, 4))
	for range 20000 {
		lines := make([]string, r.IntN(8))
		for i := range lines {
			lines[i] = joinPieces(r, pieces, r.IntN(3))
		}
		cases = append(cases, lines)
	}
	for _, lines := range cases {
		take := make([]bool, len(lines))
		var taken []string
		for i := range take {
			if take[i] = r.IntN(3) > 0; take[i] {
				taken = append(taken, lines[i])
			}
		}
		want := func(i int) bool { return take[i] }
		if got, w := joinLines(lines, want), joinLinesOf(taken); got != w {
			t.Errorf("joinLines(%q, %v) = %q, want %q", lines, take, got, w)
		}
	}
	for _, text := range []string{"a\n\nbb\n  \ncc\n> quoted\ndd", strings.Repeat("a", 16) + "\n" + strings.Repeat("b", 16)} {
		lines := strings.Split(text, "\n")
		if n := testing.AllocsPerRun(100, func() { joinLines(lines, func(int) bool { return true }) }); n > 1 {
			t.Errorf("joinLines(%q) made %v allocations, want 1", lines, n)
		}
	}
}

// TestTextPartOverBufferRoom: a text part longer than the room a part's
// buffer is given first (a message of 200 kB) is read whole, and one of a
// few bytes in a large message too.
func TestTextPartOverBufferRoom(t *testing.T) {
	long := strings.Repeat("I join Life.\n", 200<<10/13)
	for _, c := range []struct{ raw, want string }{
		{"From: a@example.org\nSubject: x\n\n" + long, strings.TrimSpace(long)},
		{"From: a@example.org\nSubject: x\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nI join Life.\n--b\nContent-Type: application/octet-stream\nContent-Disposition: attachment\n\n" + long + "--b--\n", "I join Life."},
	} {
		m, err := Parse([]byte(c.raw), time.Time{}, &Config{MaxTextBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != c.want {
			t.Errorf("text of %d bytes, want %d", len(m.Text), len(c.want))
		}
	}
}
