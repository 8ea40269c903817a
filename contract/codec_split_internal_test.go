package contract

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

type splitTestItem struct {
	Name string    `yaml:"name"`
	N    int       `yaml:"n"`
	Tags []string  `yaml:"tags,omitempty"`
	At   time.Time `yaml:"at,omitempty"`
}

type splitTestData struct {
	Round  int              `yaml:"round"`
	Items  []*splitTestItem `yaml:"items,omitempty"`
	Others []*splitTestItem `yaml:"others,omitempty"`
	Note   string           `yaml:"note"`
}

// TestSplitSectionIsTheWhole: a game's section whose data has lists written
// item by item, encoded by an Encoder from its kept parts (directly, and
// taken then changed before it is encoded, as a snapshot is), is the
// section as encodeSection writes it whole, at every step of random
// changes: items changed in place (texts a YAML writer must quote, times
// in another zone, a slice's element rewritten), added, dropped, moved, replaced by a copy, a list
// emptied, the data's other fields, the game's parameters and its recent
// events.
func TestSplitSectionIsTheWhole(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	cet := time.FixedZone("CET", 3600)
	texts := []string{"Alice", "Bob: the second", `"Quoted" 'single'`, "ünïcödé ✓", "- dash", "null", "12", "yes",
		strings.Repeat("long text ", 30), "#hash", "tab\there", "two\nlines", "trailing newline\n", " leading space", "",
		"a: b\n  c: d", "\u2028sep", "bom\ufeff", "\nbegins with a break", "\tbegins with a tab", "    - looks like an item"}
	r := rand.New(rand.NewPCG(1, 2))
	text := func() string { return texts[r.IntN(len(texts))] }
	newItem := func() *splitTestItem {
		it := &splitTestItem{Name: text(), N: r.IntN(100)}
		if r.IntN(2) == 0 {
			it.Tags = []string{text(), text()}
		}
		if r.IntN(3) == 0 {
			it.At = at.Add(time.Duration(r.IntN(1000)) * time.Minute)
		}
		return it
	}
	d := &splitTestData{Note: "n"}
	for range 150 {
		d.Items = append(d.Items, newItem())
	}
	for range 3 {
		d.Others = append(d.Others, newItem())
	}
	g := &GameState{Contestmaster: "cm@example.test", Params: map[string]string{"P": "1"}, Data: d}
	list := func() *[]*splitTestItem {
		if r.IntN(4) == 0 {
			return &d.Others
		}
		return &d.Items
	}
	changes := []func(){
		func() {
			if l := list(); len(*l) > 0 {
				it := (*l)[r.IntN(len(*l))]
				switch r.IntN(6) {
				case 0:
					it.Name = text()
				case 1:
					it.N++
				case 2:
					it.Tags = append(slices.Clone(it.Tags), text())
				case 3:
					it.At = at.In(cet)
				case 4:
					// In place, into the slice's room.
					it.Tags = append(it.Tags[:len(it.Tags):cap(it.Tags)], text())
				case 5:
					// Behind the rules' back: an element rewritten.
					if len(it.Tags) > 0 {
						it.Tags[0] += " changed"
					}
				}
			}
		},
		func() { l := list(); *l = append(slices.Clone(*l), newItem()) },
		func() {
			if l := list(); len(*l) > 0 {
				i := r.IntN(len(*l))
				*l = slices.Delete(slices.Clone(*l), i, i+1)
			}
		},
		func() {
			if l := list(); len(*l) > 1 {
				cp := slices.Clone(*l)
				i, j := r.IntN(len(cp)), r.IntN(len(cp))
				cp[i], cp[j] = cp[j], cp[i]
				*l = cp
			}
		},
		func() {
			if l := list(); len(*l) > 0 {
				cp := slices.Clone(*l)
				i := r.IntN(len(cp))
				it := *cp[i]
				cp[i] = &it
				*l = cp
			}
		},
		func() {
			if r.IntN(5) == 0 {
				*list() = nil
			}
		},
		func() { d.Round++ },
		func() { d.Note = text() },
		func() { g.Params = map[string]string{"P": text()} },
		func() {
			g.Recent = append(slices.Clone(g.Recent), Happening{Time: at.Add(time.Duration(r.IntN(100)) * time.Second), Who: text(), What: text()})
		},
		func() {
			if len(g.Recent) > 0 {
				g.Recent = g.Recent[1:]
			}
		},
	}
	whole := func() string {
		b, err := encodeSection(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		return "games:\n  g:\n" + string(indent(b.text, "    "))
	}
	gamesOf := func(b []byte) string {
		i := bytes.Index(b, []byte("\ngames:\n"))
		if i < 0 {
			t.Fatalf("no games in\n%s", b)
		}
		return string(b[i+1:])
	}
	var enc, taker Encoder
	split := 0
	for step := range 600 {
		changes[r.IntN(len(changes))]()
		s := &State{Version: Version, Games: map[string]*GameState{"g": g}}
		want := whole()
		tk := taker.Take(s)
		if sec := taker.sections["g"]; sec != nil && sec.split != nil || tk.games[0].split != nil {
			split++
		}
		got, err := enc.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if gamesOf(got) != want {
			t.Fatalf("step %d: the section written from its parts is\n%s\nwritten whole\n%s", step, gamesOf(got), want)
		}
		// The state changes after it was taken, as the live state does
		// while its snapshot is written.
		changes[r.IntN(len(changes))]()
		changes[0]()
		b, err := tk.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if gamesOf(b) != want {
			t.Fatalf("step %d: the section taken, written from its parts, is\n%s\nwritten whole when taken\n%s", step, gamesOf(b), want)
		}
	}
	if split < 300 {
		t.Errorf("the section was taken by its parts at %d steps of 600", split)
	}
}

// TestIndentLineByLine: indent prefixes every line of more than its line
// break, as a split of the text at each line break does, on random texts of
// lines, empty lines and no final line break.
func TestIndentLineByLine(t *testing.T) {
	byLines := func(text []byte, prefix string) []byte {
		var out []byte
		for _, line := range bytes.SplitAfter(text, []byte("\n")) {
			if len(line) > 1 {
				out = append(out, prefix...)
			}
			out = append(out, line...)
		}
		return out
	}
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"\n", "a", "ab", " ", "- x\n", "\n\n", "key: value\n"}
	for range 2000 {
		var b []byte
		for range r.IntN(12) {
			b = append(b, parts[r.IntN(len(parts))]...)
		}
		if got, want := indent(b, "    "), byLines(b, "    "); !bytes.Equal(got, want) {
			t.Fatalf("indent(%q) = %q, want %q", b, got, want)
		}
		// The same text cut anywhere into pieces, some empty, indented
		// by indentPieces: the same lines, after the same head.
		var pieces [][]byte
		for rest := b; ; {
			n := r.IntN(len(rest) + 1)
			if r.IntN(3) == 0 {
				n = 0
			}
			pieces = append(pieces, rest[:n])
			if rest = rest[n:]; len(rest) == 0 {
				break
			}
		}
		if got, want := indentPieces([]byte("  g:\n"), pieces, "    "), append([]byte("  g:\n"), byLines(b, "    ")...); !bytes.Equal(got, want) {
			t.Fatalf("indentPieces(%q) = %q, want %q", pieces, got, want)
		}
	}
}

// TestSplitSectionTakenEncodedLater: a section taken unchanged (its kept
// text) and encoded after the Encoder encoded the section changed keeps
// the text it wrote with the parts that text was made of, not with the
// parts of the later encoding: the next encoding of the changed section,
// unchanged since, is the section as it is, not as it was taken.
func TestSplitSectionTakenEncodedLater(t *testing.T) {
	d := &splitTestData{Round: 1, Items: []*splitTestItem{{Name: "a", N: 1}, {Name: "b", N: 2}}}
	g := &GameState{Contestmaster: "cm@example.test", Params: map[string]string{"P": "1"}, Data: d}
	s := &State{Version: Version, Games: map[string]*GameState{"g": g}}
	var enc Encoder
	if _, err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	tk := enc.Take(s) // the section as encoded: its kept text
	d.Items[0].N = 10
	if _, err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	if _, err := tk.Encode(); err != nil {
		t.Fatal(err)
	}
	encodesWhole(t, &enc, s, "after a snapshot taken before its change")
}

// encodesWhole fails the test unless enc encodes s as Encode does.
func encodesWhole(t *testing.T, enc *Encoder, s *State, when string) {
	t.Helper()
	want, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := enc.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the Encoder wrote, %s,\n%s\nwant\n%s", when, got, want)
	}
}

// TestEncoderTakesInAnyOrder: one Encoder writes the state directly and
// through snapshots taken and encoded in any order (a snapshot encoded
// after later ones, after the state was written directly since), each
// encoding the state as Encode writes it whole at its time, through random
// changes to a section whose data has lists written item by item, to the
// citable records and to the memory of Message-IDs; and the pieces a
// snapshot is encoded in (EncodePieces, which the state file is written
// from) stay as they were while the next are taken and encoded.
func TestEncoderTakesInAnyOrder(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(5, 6))
	d := &splitTestData{Note: "n"}
	for i := range 20 {
		d.Items = append(d.Items, &splitTestItem{Name: fmt.Sprintf("item %d", i), N: i})
	}
	g := &GameState{Contestmaster: "cm@example.test", Params: map[string]string{"P": "1"}, Data: d}
	s := &State{Version: Version, Games: map[string]*GameState{"g": g}}
	changes := []func(){
		func() { d.Items[r.IntN(len(d.Items))].N++ },
		func() {
			cp := slices.Clone(d.Items)
			i := r.IntN(len(cp))
			it := *cp[i]
			it.Name += " again"
			cp[i] = &it
			d.Items = cp
		},
		func() { d.Round++ },
		func() {
			g.Recent = append(slices.Clone(g.Recent), Happening{Time: at.Add(time.Duration(r.IntN(100)) * time.Second), Who: "w", What: "x"})
		},
		func() {
			s.Cited = append(slices.Clone(s.Cited), &Cited{ID: fmt.Sprintf("g/%d", r.IntN(1000)), Game: "g", Status: "pending", Ratifies: at})
		},
		func() {
			if len(s.Cited) > 0 {
				x := s.Cited[r.IntN(len(s.Cited))]
				x.Status, x.Ratified = "ratified", at.Add(time.Hour)
			}
		},
		func() {
			if len(s.Cited) > 0 {
				s.Cited = s.Cited[1:]
			}
		},
		func() {
			s.Seen.IDs[fmt.Sprintf("m%d@example.test", r.IntN(300))] = at.Add(time.Duration(r.IntN(100)) * time.Minute)
		},
	}
	s.Seen.IDs = map[string]time.Time{}
	type pending struct {
		tk   *Taken
		want []byte
	}
	var enc Encoder
	var snaps []pending
	// The pieces of the last snapshots encoded, as a snapshot's writer
	// holds them while later ones are taken and encoded: none changes.
	type written struct {
		step   int
		pieces [][]byte
		want   []byte
	}
	var writing []written
	for step := range 1500 {
		for _, w := range writing {
			if got := bytes.Join(w.pieces, nil); !bytes.Equal(got, w.want) {
				t.Fatalf("step %d: the pieces of the snapshot encoded at step %d were written over:\n%s\nwant\n%s", step, w.step, got, w.want)
			}
		}
		switch k := r.IntN(4); {
		case k == 0:
			changes[r.IntN(len(changes))]()
		case k == 1:
			want, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			snaps = append(snaps, pending{enc.Take(s), want})
		case k == 2 && len(snaps) > 0:
			i := r.IntN(len(snaps))
			p := snaps[i]
			snaps = slices.Delete(snaps, i, i+1)
			pieces, err := p.tk.EncodePieces()
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Join(pieces, nil); !bytes.Equal(got, p.want) {
				t.Fatalf("step %d: a snapshot encoded\n%s\nwant, as the state was taken,\n%s", step, got, p.want)
			}
			writing = append(writing, written{step, pieces, p.want})
			if len(writing) > 8 {
				writing = writing[1:]
			}
		default:
			encodesWhole(t, &enc, s, fmt.Sprintf("at step %d", step))
		}
	}
}
