package contract_test

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
)

// corpusEngine is the interpreter with the four games, as the referee runs.
func corpusEngine(t testing.TB) *contract.Engine {
	t.Helper()
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test", Contestmaster: "cm@example.test"},
		life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// corpusLine is one sentence of testdata/phrasing/sentences.tsv: its style,
// the text, and its expected reading: "-" for not an action, or readings
// joined by " + ", each "game/verb" followed by the arguments to check
// ("life/claim cells=(1, 2)"; "core" for the interpreter's own verbs; a
// space in a verb's name is written "_": "core/do_so").
type corpusLine struct {
	style, text, want string
	line              int
}

func readCorpus(t *testing.T) []corpusLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "phrasing", "sentences.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		parts := strings.Split(l, "\t")
		if len(parts) != 3 {
			t.Fatalf("sentences.tsv:%d: want style<TAB>sentence<TAB>reading, got %d fields", n, len(parts))
		}
		out = append(out, corpusLine{style: parts[0], text: strings.ReplaceAll(parts[1], `\n`, "\n"), want: parts[2], line: n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// reading writes what the referee read in the corpus's notation, keeping
// only the arguments the expectation names.
func reading(rs []contract.Reading, want string) string {
	wants := strings.Split(want, " + ")
	var out []string
	for i, r := range rs {
		if r.Verb == "not understood" || r.Verb == "not now" {
			continue
		}
		g := r.Game
		if g == "" {
			g = "core"
		}
		s := g + "/" + strings.ReplaceAll(r.Verb, " ", "_")
		var keys []string
		if i < len(wants) {
			for _, f := range strings.Fields(wants[i])[1:] {
				if k, _, ok := strings.Cut(f, "="); ok {
					keys = append(keys, k)
				}
			}
		}
		for _, k := range keys {
			s += " " + k + "=" + strings.ReplaceAll(r.Args[k], " ", "")
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, " + ")
}

// normWant removes the spaces inside argument values, as reading does.
func normWant(want string) string {
	if want == "-" {
		return want
	}
	var out []string
	for _, w := range strings.Split(want, " + ") {
		head, args, _ := strings.Cut(w, " ")
		if args == "" {
			out = append(out, head)
			continue
		}
		var kv []string
		for _, a := range strings.Split(args, " ") {
			if strings.Contains(a, "=") {
				kv = append(kv, a)
			} else if len(kv) > 0 {
				kv[len(kv)-1] += a
			}
		}
		out = append(out, head+" "+strings.Join(kv, " "))
	}
	return strings.Join(out, " + ")
}

// TestPhrasingCorpus reads every sentence of the corpus and prints precision
// and recall: recall on actions must be at least 97%, and no sentence that is
// not an action may be read as one.
func TestPhrasingCorpus(t *testing.T) {
	e := corpusEngine(t)
	lines := readCorpus(t)
	if len(lines) < 200 {
		t.Errorf("the corpus has %d sentences, want at least 200", len(lines))
	}
	var actions, nonActions, right, readAsAction, falseActions int
	perStyle := map[string][2]int{}
	for _, c := range lines {
		want := normWant(c.want)
		got := reading(e.Read(c.text), c.want)
		st := perStyle[c.style]
		st[1]++
		if want == "-" {
			nonActions++
			if got != "-" {
				falseActions++
				readAsAction++
				t.Errorf("sentences.tsv:%d: %q is not an action but was read as %s", c.line, c.text, got)
			} else {
				st[0]++
			}
			perStyle[c.style] = st
			continue
		}
		actions++
		if got != "-" {
			readAsAction++
		}
		if got == want {
			right++
			st[0]++
		} else {
			t.Logf("sentences.tsv:%d: %q read as %s, want %s", c.line, c.text, got, want)
		}
		perStyle[c.style] = st
	}
	recall := float64(right) / float64(actions)
	precision := 1.0
	if readAsAction > 0 {
		precision = float64(right) / float64(readAsAction)
	}
	t.Logf("phrasing corpus: %d sentences, %d actions, %d not actions", len(lines), actions, nonActions)
	t.Logf("recall %.1f%% (%d of %d actions read right), precision %.1f%% (%d of %d readings right), %d non-actions read as actions",
		100*recall, right, actions, 100*precision, right, readAsAction, falseActions)
	var styles []string
	for s := range perStyle {
		styles = append(styles, s)
	}
	sort.Strings(styles)
	for _, s := range styles {
		t.Logf("  %-22s %3d of %3d as expected", s, perStyle[s][0], perStyle[s][1])
	}
	if recall < 0.97 {
		t.Errorf("recall %.1f%% on actions, want at least 97%%", 100*recall)
	}
}

// TestDiscussionActsOnNothing: list discussion in players' styles, sent to
// the public list, changes nothing and gets no reply, a sentence that
// names a game ("Tonight we celebrate in Life.") as any other.
func TestDiscussionActsOnNothing(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "phrasing", "discussion.txt"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := strings.Split(string(b), "\n%%\n")
	if len(msgs) < 50 {
		t.Errorf("%d discussion messages, want at least 50", len(msgs))
	}
	h := contracttest.New(t, "2026-12-01T09:00:00Z", life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	for _, p := range []string{alice, bob} {
		h.Public("2026-12-01T09:30:00Z", p, "I join the Life contest.")
	}
	at := contracttest.At(t, "2026-12-01T10:00:00Z")
	for i, m := range msgs {
		if strings.HasPrefix(m, "#") {
			_, m, _ = strings.Cut(m, "\n")
		}
		before := len(h.Entries)
		ns := h.Send(&contract.Message{ID: "dis" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + "@example.test",
			From: "alice@example.test", Arrived: at.Add(time.Duration(i) * time.Minute), Channel: contract.ChanPublic,
			Subject: "Re: BUS: Life", Text: m})
		for _, en := range h.Entries[before:] {
			if en.Outcome == "applied" {
				t.Errorf("discussion message %d acted (%s %s):\n%s", i+1, en.Game, en.Verb, m)
			}
		}
		if r := contracttest.Receipt(ns); r != nil {
			t.Errorf("discussion message %d got a reply, as if it were an action:\n%s\n---\n%s", i+1, m, r.Body)
		}
	}
}

// FuzzRead feeds arbitrary text to the sentence reader with the four games:
// it never panics, and what it reads names a verb of a known game.
func FuzzRead(f *testing.F) {
	e := corpusEngine(f)
	for _, s := range []string{"For the record, I join the Life contest and claim (1, 2).", "- I give two Vials to Bob, please.",
		"1. I, Quux, hereby support intent #3 too.", "Last year I joined Life.", "So: I claim cell (5,5,5) in Life.",
		"When Bob joins, I join Rumble.", "I join Wacky World and move north and reap north and search my location and push (1, 2).",
		"I perform the following actions, in order:\n1. Transfer 3 Vials to Bob, then claim cell (1, 2) in Life.\n(b) join Rumble",
		"I object to intents #1, 2 and #1, as discussed.", "I withdraw my objections to all of Alice's intents."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range e.Read(text) {
			if r.Verb == "" || r.Game != "" && e.Game(r.Game) == nil {
				t.Fatalf("%q read as %+v", text, r)
			}
		}
		for _, s := range contract.Sentences(text) {
			if p, ok := contract.ReadPerformative(s.Text); ok && p.Kind == "" {
				t.Fatalf("%q read with no kind", s.Text)
			}
		}
	})
}
