package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/store"
)

// journalFixture is a server over a journal of lines that the store
// writes, as the daemon does: each message an input line holding its
// private text (inputSecret), then its entries, whose reasons quote it
// too. The store writes them to a journal of its own (j, at scratch),
// and they are appended from there to the page's (path), which the tests
// also cut, replace and append to themselves.
type journalFixture struct {
	t       *testing.T
	path    string
	srv     *Server
	j       *store.Journal
	scratch string
	written int64 // the bytes of scratch appended to path
	s       *contract.State
	seq     int64
	at      time.Time
}

func newJournalFixture(t *testing.T) *journalFixture {
	t.Helper()
	h := contracttest.New(t, "2026-11-16T12:00:00Z", life.New())
	dir := t.TempDir()
	path, scratch := filepath.Join(dir, "journal.jsonl"), filepath.Join(dir, "scratch", "journal.jsonl")
	if err := os.Mkdir(filepath.Dir(scratch), 0o700); err != nil {
		t.Fatal(err)
	}
	j, err := store.OpenJournal(scratch, store.Position{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	srv := New(Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: OpenArchive(SentPath(path)),
		Journal: path, Now: func() time.Time { return h.S.Clock }, Referee: contracttest.Referee})
	return &journalFixture{t: t, path: path, srv: srv, j: j, scratch: scratch, s: &contract.State{}, at: h.S.Clock}
}

// message journals a private message from player, with text, and one
// entry for each outcome, appended in one write.
func (f *journalFixture) message(player, text string, outcomes ...string) {
	f.t.Helper()
	f.at = f.at.Add(time.Minute)
	id := fmt.Sprintf("m%d@example.test", len(outcomes)+int(f.seq)*7)
	in := &contract.Input{Kind: contract.InMessage, At: f.at, Msg: &contract.Message{ID: id, From: strings.ToLower(player) + "@example.test",
		Name: player, Channel: contract.ChanPrivate, Text: text, Date: f.at, Arrived: f.at}}
	var entries []contract.Entry
	for _, o := range outcomes {
		f.seq++
		entries = append(entries, contract.Entry{Seq: f.seq, Time: f.at, MsgID: id, Game: "life", Player: player, Verb: "bid",
			Outcome: o, Reason: "you said: " + inputSecret, Detail: map[string]any{"line": inputSecret}})
	}
	f.s.JournalSeq = f.seq
	if err := f.j.Log(f.s, []store.Step{{Input: in, Entries: entries}}, false); err != nil {
		f.t.Fatal(err)
	}
	b, err := os.ReadFile(f.scratch)
	if err != nil {
		f.t.Fatal(err)
	}
	f.append(string(b[f.written:]))
	f.written = int64(len(b))
}

// view gets the journal page (query: "" or "?player=..."), checks that no
// private text is on it, and returns it.
func (f *journalFixture) view(query string) string {
	f.t.Helper()
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/journal"+query, nil))
	if rec.Code != 200 {
		f.t.Fatalf("GET /journal%s: %d\n%s", query, rec.Code, rec.Body)
	}
	p := rec.Body.String()
	if strings.Contains(p, inputSecret) || strings.Contains(p, "sealed") {
		f.t.Fatalf("the journal page shows private text:\n%s", p)
	}
	return p
}

var (
	rowRE   = regexp.MustCompile(`<tr><td>#(\d+)</td><td>[^<]*</td><td>[^<]*</td><td>([^<]*)</td>`)
	totalRE = regexp.MustCompile(`<span id="total">(\d+)</span>`)
)

// rows are a page's rows, "seq player", top to bottom.
func rows(p string) []string {
	var out []string
	for _, m := range rowRE.FindAllStringSubmatch(p, -1) {
		out = append(out, m[1]+" "+unescape(m[2]))
	}
	return out
}

func total(t *testing.T, p string) int {
	t.Helper()
	m := totalRE.FindStringSubmatch(p)
	if m == nil {
		t.Fatalf("no total on the page:\n%s", p)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func wantRows(t *testing.T, p string, want ...string) {
	t.Helper()
	if got := rows(p); strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("the journal shows %q, want %q", got, want)
	}
	if total(t, p) != len(want) {
		t.Errorf("the journal counts %d entries, want %d", total(t, p), len(want))
	}
	if strings.Contains(p, "could not be read whole") {
		t.Errorf("the journal page says it could not read the journal:\n%s", p)
	}
}

// readOnce checks that the views so far read each byte of the journal
// once: each read only what was appended since the last.
func (f *journalFixture) readOnce() {
	f.t.Helper()
	if got, want := f.srv.journal.read.Load(), int64(len(f.bytes())); got != want {
		f.t.Errorf("the views read %d bytes of lines, the journal has %d", got, want)
	}
}

func (f *journalFixture) append(b string) {
	f.t.Helper()
	fh, err := os.OpenFile(f.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		f.t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteString(b); err != nil {
		f.t.Fatal(err)
	}
}

func (f *journalFixture) bytes() []byte {
	f.t.Helper()
	b, err := os.ReadFile(f.path)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// TestJournalShowsWhatWasAppended: the entries journaled between two
// views of the page are on the second, each once, newest first, with the
// page's filters.
func TestJournalShowsWhatWasAppended(t *testing.T) {
	f := newJournalFixture(t)
	wantRows(t, f.view(""))
	f.message("Alice", inputSecret, "applied")
	f.message("Bob", inputSecret, "rejected", "applied")
	wantRows(t, f.view(""), "3 Bob", "2 Bob", "1 Alice")
	wantRows(t, f.view(""), "3 Bob", "2 Bob", "1 Alice")
	f.message("Carol", inputSecret, "applied")
	f.message("Alice", inputSecret) // an input that made no entry
	f.message("Alice", inputSecret, "held")
	wantRows(t, f.view(""), "5 Alice", "4 Carol", "3 Bob", "2 Bob", "1 Alice")
	wantRows(t, f.view("?player=alice"), "5 Alice", "1 Alice")
	wantRows(t, f.view("?outcome=applied"), "4 Carol", "3 Bob", "1 Alice")
	f.readOnce()
}

// TestJournalTornLine: a line being written (or torn by a crash) is not
// read until it is whole, then read once; an input line's too, however
// long.
func TestJournalTornLine(t *testing.T) {
	f := newJournalFixture(t)
	f.message("Alice", inputSecret, "applied")
	f.message("Bob", strings.Repeat(inputSecret+" ", 20000), "applied") // an input line longer than the reader's buffer
	f.message("Carol", inputSecret, "applied")
	b := f.bytes()
	lines := bytes.SplitAfter(b, []byte("\n"))
	// Cut the file after the first message, then give back its lines a
	// piece at a time, each cut in the middle.
	if err := os.Truncate(f.path, int64(len(lines[0])+len(lines[1]))); err != nil {
		t.Fatal(err)
	}
	wantRows(t, f.view(""), "1 Alice")
	// After each line: the entries shown.
	after := [][]string{{"1 Alice"}, {"2 Bob", "1 Alice"}, {"2 Bob", "1 Alice"}, {"3 Carol", "2 Bob", "1 Alice"}}
	for i, l := range lines[2:6] {
		half := len(l) / 2
		f.append(string(l[:half]))
		if i > 0 {
			wantRows(t, f.view(""), after[i-1]...)
		} else {
			wantRows(t, f.view(""), "1 Alice")
		}
		f.append(string(l[half:]))
		wantRows(t, f.view(""), after[i]...)
	}
	f.readOnce()
	wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alice")
}

// TestJournalReadAfresh: a journal that is not the one read last time is
// read from its start: renamed over (by referee check --repair, or init
// --force), cut (by OpenJournal, or by a failed save) and written again
// as long or longer, cut shorter, removed, or mended.
func TestJournalReadAfresh(t *testing.T) {
	three := func(t *testing.T) *journalFixture {
		f := newJournalFixture(t)
		f.message("Alice", inputSecret, "applied")
		f.message("Bob", inputSecret, "applied")
		f.message("Carol", inputSecret, "applied")
		wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alice")
		return f
	}
	replace := func(t *testing.T, f *journalFixture, b []byte) {
		tmp := f.path + ".tmp"
		if err := os.WriteFile(tmp, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, f.path); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("renamed over", func(t *testing.T) {
		f := three(t)
		// The same length, the same last bytes: another file all the same.
		b := bytes.Replace(f.bytes(), []byte(`"player":"Alice"`), []byte(`"player":"Alina"`), 1)
		replace(t, f, b)
		wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alina")
	})
	t.Run("cut and written again", func(t *testing.T) {
		f := three(t)
		b := f.bytes()
		at := bytes.LastIndex(b, []byte(`{"seq":3,`))
		if err := os.Truncate(f.path, int64(at)); err != nil {
			t.Fatal(err)
		}
		// The same file, as long as before.
		f.append(strings.Replace(string(b[at:]), `"player":"Carol"`, `"player":"Carla"`, 1))
		wantRows(t, f.view(""), "3 Carla", "2 Bob", "1 Alice")
	})
	t.Run("cut shorter", func(t *testing.T) {
		f := three(t)
		b := f.bytes()
		at := bytes.Index(b, []byte(`{"seq":2,`))
		if err := os.Truncate(f.path, int64(at)); err != nil {
			t.Fatal(err)
		}
		wantRows(t, f.view(""), "1 Alice")
		f.append(`{"seq":2,"time":"2026-11-16T13:00:00Z","msgid":"","game":"life","player":"Dave","verb":"bid","outcome":"held","base":1}` + "\n")
		wantRows(t, f.view(""), "2 Dave", "1 Alice")
	})
	t.Run("removed", func(t *testing.T) {
		f := three(t)
		b := f.bytes()
		if err := os.Remove(f.path); err != nil {
			t.Fatal(err)
		}
		wantRows(t, f.view(""))
		replace(t, f, b)
		wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alice")
	})
	t.Run("unreadable", func(t *testing.T) {
		f := three(t)
		b := f.bytes()
		if err := os.Remove(f.path); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(f.path, 0o700); err != nil {
			t.Fatal(err)
		}
		if p := f.view(""); len(rows(p)) > 0 || !strings.Contains(p, "The journal could not be read whole: read ") {
			t.Errorf("a journal that is a directory shows %q, and no error:\n%s", rows(p), p)
		}
		if err := os.Remove(f.path); err != nil {
			t.Fatal(err)
		}
		replace(t, f, b)
		wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alice")
	})
	t.Run("mended", func(t *testing.T) {
		f := three(t)
		good := f.bytes()
		lines := bytes.Count(good, []byte("\n"))
		f.append("{\"seq\":4,\"time\":\"" + strings.Repeat("x", 100<<10) + "\n") // longer than the reader's buffer
		f.append(`{"seq":5,"time":"2026-11-16T13:00:00Z","msgid":"","game":"life","player":"Erin","verb":"bid","outcome":"held","base":4}` + "\n")
		// As the whole journal read: the entries before the line that
		// does not decode, and the line named.
		for range 2 {
			p := f.view("")
			if got := rows(p); strings.Join(got, ", ") != "3 Carol, 2 Bob, 1 Alice" {
				t.Errorf("the journal shows %q past a line that does not decode", got)
			}
			if want := fmt.Sprintf("The journal could not be read whole: journal line %d: ", lines+1); !strings.Contains(p, want) {
				t.Errorf("the page does not say %q:\n%s", want, p)
			}
		}
		if got, want := f.srv.journal.read.Load(), int64(len(good)); got != want {
			t.Errorf("the views read %d bytes of lines, the journal has %d before the line that does not decode", got, want)
		}
		replace(t, f, append(good, `{"seq":4,"time":"2026-11-16T13:00:00Z","msgid":"","game":"life","player":"Erin","verb":"bid","outcome":"held","base":3}`+"\n"...))
		wantRows(t, f.view(""), "4 Erin", "3 Carol", "2 Bob", "1 Alice")
	})
}

// TestJournalInputLinesNeverShow: an input line, in the store's shape or
// any other (decoded then: it has no seq), is never an entry of the page,
// and no private text is on it (view checks every page).
func TestJournalInputLinesNeverShow(t *testing.T) {
	f := newJournalFixture(t)
	f.message("Alice", inputSecret, "applied")
	f.append(`{"base":1,"in":2,"entries":0,"input":{"kind":"message","msg":{"Text":"` + inputSecret + `"}}}` + "\n")
	f.append(`{"in":3,"base":1,"entries":0,"input":{"kind":"message","msg":{"Text":"` + strings.Repeat(inputSecret+" ", 10000) + `"}}}` + "\n")
	f.message("Bob", inputSecret, "rejected")
	wantRows(t, f.view(""), "2 Bob", "1 Alice")
	p := f.view("")
	for _, private := range []string{"you said", "Vials", `"line"`} {
		if strings.Contains(p, private) {
			t.Errorf("the journal page shows %q", private)
		}
	}
}

// TestJournalConcurrentViews: views while messages are journaled each show
// every entry journaled before they began, each once, newest first (go
// test -race: the entries kept are shared by the views).
func TestJournalConcurrentViews(t *testing.T) {
	f := newJournalFixture(t)
	const n = 120
	var written atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				before := written.Load()
				rec := httptest.NewRecorder()
				f.srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/journal", nil))
				p := rec.Body.String()
				m := totalRE.FindStringSubmatch(p)
				if rec.Code != 200 || m == nil {
					t.Errorf("GET /journal: %d\n%s", rec.Code, p)
					return
				}
				got, _ := strconv.Atoi(m[1])
				if int64(got) < before {
					t.Errorf("a view counts %d entries, %d journaled before it", got, before)
				}
				for i, r := range rows(p) {
					if want := fmt.Sprintf("%d P%d", got-i, got-i); r != want {
						t.Errorf("row %d of %d is %q, want %q", i, got, r, want)
						return
					}
				}
			}
		}()
	}
	for i := 1; i <= n; i++ {
		f.message(fmt.Sprintf("P%d", i), inputSecret, "applied")
		written.Store(int64(i))
	}
	close(stop)
	wg.Wait()
	p := f.view("")
	if total(t, p) != n || len(rows(p)) != n {
		t.Errorf("the last view counts %d entries and shows %d, want %d", total(t, p), len(rows(p)), n)
	}
}

// TestJournalViewsMeanwhile: a view that read the journal while another
// read further and kept its read shows what it read itself, newest first,
// and leaves the further read kept.
func TestJournalViewsMeanwhile(t *testing.T) {
	f := newJournalFixture(t)
	f.message("Alice", inputSecret, "applied")
	wantRows(t, f.view(""), "1 Alice")
	f.message("Bob", inputSecret, "applied")
	read, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	f.srv.journal.readDone = func() {
		if first.CompareAndSwap(false, true) {
			close(read)
			<-release
		}
	}
	held := make(chan string)
	go func() {
		rec := httptest.NewRecorder()
		f.srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/journal", nil))
		held <- rec.Body.String()
	}()
	<-read
	f.message("Carol", inputSecret, "applied")
	wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alice")
	close(release)
	wantRows(t, <-held, "2 Bob", "1 Alice")
	if got, want := f.srv.journal.last.off, int64(len(f.bytes())); got != want {
		t.Errorf("the read kept ends at %d, the journal at %d", got, want)
	}
	wantRows(t, f.view(""), "3 Carol", "2 Bob", "1 Alice")
}

// TestJournalPassesOverInputLines: an input line is known by its first
// bytes and passed over, not decoded: a view of a journal of a thousand
// inputs allocates as one of a few.
func TestJournalPassesOverInputLines(t *testing.T) {
	f := newJournalFixture(t)
	for range 1000 {
		f.message("Alice", inputSecret)
	}
	f.message("Alice", inputSecret, "applied")
	allocs := testing.AllocsPerRun(5, func() {
		v := newJournalCache(f.path).view()
		if len(v.head)+len(v.tail) != 1 || v.err != nil {
			t.Fatalf("the view reads %d entries (%v), want 1", len(v.head)+len(v.tail), v.err)
		}
	})
	if allocs > 100 {
		t.Errorf("a view of 1,000 input lines and an entry allocates %.0f times", allocs)
	}
}

// FuzzJournalViews: a journal written piece by piece, a view after each
// piece, ends with the entries, and the error, of one view of the whole;
// and, but for the input lines passed over unread, with those the whole
// journal decoded line by line gives (as the page read it before).
func FuzzJournalViews(f *testing.F) {
	entry := `{"seq":1,"time":"2026-12-07T00:00:00Z","msgid":"a@x","game":"life","player":"Alice","verb":"bid","outcome":"applied","reason":"r","base":0}` + "\n"
	input := `{"in":1,"base":0,"entries":1,"input":{"kind":"message","msg":{"Text":"secret"}}}` + "\n"
	f.Add([]byte(input+entry+strings.Replace(entry, `"seq":1`, `"seq":2`, 1)), []byte{10, 200, 90})
	f.Add([]byte(entry+"{\n"+entry), []byte{50})
	f.Add([]byte(`{"base":1,"in":2}`+"\n"+entry+"\n"), []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		fh, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		c := newJournalCache(path)
		at := 0
		for _, k := range cuts {
			next := at + int(k)*len(data)/256
			if next <= at || next > len(data) {
				continue
			}
			fh.Write(data[at:next])
			at = next
			c.view()
		}
		fh.Write(data[at:])
		got := c.view()
		one := newJournalCache(path).view()
		all := append(slices.Clone(got.head), got.tail...)
		if !slices.Equal(all, append(slices.Clone(one.head), one.tail...)) || fmt.Sprint(got.err) != fmt.Sprint(one.err) {
			t.Fatalf("pieces: %v (%v); whole: %v (%v)", all, got.err, append(one.head, one.tail...), one.err)
		}
		if bytes.Contains(data, []byte(`{"in":`)) || len(data) > 0 && data[len(data)-1] != '\n' {
			return
		}
		before, err := readWholeJournal(path)
		if !slices.Equal(all, before) || fmt.Sprint(got.err) != fmt.Sprint(err) {
			t.Fatalf("read: %v (%v); decoded line by line: %v (%v)", all, got.err, before, err)
		}
	})
}
