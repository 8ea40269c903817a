package web

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/store"
)

// BenchmarkJournalPage is a view of the journal page over the journal of
// a long replay: 200,000 messages, each an input line holding its text
// (about 700 bytes), one in five with an entry, as the list archives'
// replays journal them (REFEREE_BENCH_JOURNAL names another journal file,
// a replay's). "whole" is the view as it was, the whole journal read and
// decoded each time; "first" the first view of a server, "again" a view
// with nothing appended since the last, "appended" one after a message
// and its entry were journaled. MB-kept is the heap the server keeps for
// the journal's entries after the first view.
//
//	go test -run '^$' -bench JournalPage -count 3 ./internal/web/
func BenchmarkJournalPage(b *testing.B) {
	h := contracttest.New(b, "2026-11-16T12:00:00Z", life.New())
	path := os.Getenv("REFEREE_BENCH_JOURNAL")
	if path == "" {
		path = benchJournal(b, h.S.Clock, 200000)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d MB", path, fi.Size()>>20)
	o := Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: OpenArchive(SentPath(path)), Journal: path,
		Now: func() time.Time { return h.S.Clock }, Referee: contracttest.Referee}
	get := func(b *testing.B, h http.Handler) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/journal?game=life&outcome=rejected", nil))
		if rec.Code != 200 || strings.Contains(rec.Body.String(), "could not be read whole") {
			b.Fatalf("GET /journal: %d\n%.2000s", rec.Code, rec.Body)
		}
	}
	b.Run("whole", func(b *testing.B) {
		srv := New(o)
		whole := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { srv.wholeJournalPage(w, r) })
		cpu0 := cpuTime()
		for b.Loop() {
			get(b, whole)
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	})
	b.Run("first", func(b *testing.B) {
		cpu0 := cpuTime()
		for b.Loop() {
			get(b, New(o))
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		srv := New(o)
		get(b, srv)
		runtime.GC()
		runtime.ReadMemStats(&m1)
		b.ReportMetric(float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc))/(1<<20), "MB-kept")
		runtime.KeepAlive(srv)
	})
	b.Run("again", func(b *testing.B) {
		srv := New(o)
		get(b, srv)
		cpu0 := cpuTime()
		for b.Loop() {
			get(b, srv)
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	})
	b.Run("appended", func(b *testing.B) {
		// A copy of the journal, appended to.
		cp := filepath.Join(b.TempDir(), "journal.jsonl")
		copyFile(b, path, cp)
		o := o
		o.Journal = cp
		srv := New(o)
		get(b, srv)
		f, err := os.OpenFile(cp, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		msg := benchMessage(h.S.Clock, 1)
		in, _ := json.Marshal(map[string]any{"in": 1, "base": 1, "entries": 1, "input": &contract.Input{Kind: contract.InMessage, At: h.S.Clock, Msg: msg}})
		cpu0 := cpuTime()
		seq := 1 << 30
		for b.Loop() {
			seq++
			e, _ := json.Marshal(contract.Entry{Seq: int64(seq), Time: h.S.Clock, MsgID: msg.ID, Game: "life", Player: msg.Name, Verb: "claim", Outcome: "rejected",
				Reason: "Cell (28, 11) is Alive", Detail: map[string]any{"line": "I claim cell (28, 11) in Life."}})
			if _, err := f.Write(append(append(append(in, '\n'), e...), '\n')); err != nil {
				b.Fatal(err)
			}
			get(b, srv)
		}
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	})
}

// BenchmarkJournalRead is the reading of BenchmarkJournalPage's views
// alone, without the page: the whole journal decoded, as a view did
// before, against the read of a view after a message and its entry were
// journaled.
//
//	go test -run '^$' -bench JournalRead -count 3 ./internal/web/
func BenchmarkJournalRead(b *testing.B) {
	path := os.Getenv("REFEREE_BENCH_JOURNAL")
	if path == "" {
		path = benchJournal(b, time.Date(2026, 11, 16, 12, 0, 0, 0, time.UTC), 200000)
	}
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			if _, err := readWholeJournal(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appended", func(b *testing.B) {
		cp := filepath.Join(b.TempDir(), "journal.jsonl")
		copyFile(b, path, cp)
		c := newJournalCache(cp)
		n := len(c.view().head)
		f, err := os.OpenFile(cp, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		at := time.Date(2027, 11, 16, 12, 0, 0, 0, time.UTC)
		msg := benchMessage(at, 1)
		in, _ := json.Marshal(map[string]any{"in": 1, "base": 1, "entries": 1, "input": &contract.Input{Kind: contract.InMessage, At: at, Msg: msg}})
		for b.Loop() {
			n++
			e, _ := json.Marshal(contract.Entry{Seq: int64(n), Time: at, MsgID: msg.ID, Game: "life", Player: msg.Name, Verb: "claim", Outcome: "rejected",
				Reason: "Cell (28, 11) is Alive", Detail: map[string]any{"line": "I claim cell (28, 11) in Life."}})
			if _, err := f.Write(append(append(append(in, '\n'), e...), '\n')); err != nil {
				b.Fatal(err)
			}
			if v := c.view(); len(v.head)+len(v.tail) != n || v.err != nil {
				b.Fatalf("%d entries read (%v), want %d", len(v.head)+len(v.tail), v.err, n)
			}
		}
	})
}

// wholeJournalPage is the journal page as it was before the server kept
// what it read: the whole journal read and decoded at each view.
func (s *Server) wholeJournalPage(w http.ResponseWriter, r *http.Request) {
	p := journalPage{page: s.page("Journal", ""), Game: r.FormValue("game"), Player: strings.TrimSpace(r.FormValue("player")),
		Outcome: r.FormValue("outcome"), Games: s.gameIDs(), Outcomes: []string{"applied", "rejected", "event", "held"}}
	entries, err := readWholeJournal(s.o.Journal)
	if err != nil {
		p.Error = err.Error()
	}
	p.add(entries)
	p.Shown = len(p.Entries)
	s.render(w, "journal", p)
}

// readWholeJournal is how the page read the journal before: every line
// decoded, the input lines too.
func readWholeJournal(path string) ([]publicEntry, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []publicEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var e publicEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("journal line %d: %w", n, err)
		}
		if e.Seq == 0 {
			continue
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// benchMessage is the i-th message of a replay of a list archive, as long
// as theirs.
func benchMessage(at time.Time, i int) *contract.Message {
	name := fmt.Sprintf("Player%03d", i%150)
	return &contract.Message{ID: fmt.Sprintf("%d.5950f65d@agora.example.org", i), From: strings.ToLower(name) + "@agora.example.org", Name: name,
		Date: at, Arrived: at, Subject: "DIS: Re: a question about rounds", Channel: contract.ChanDiscussion, Authenticated: true,
		AuthNote: "not checked (policy none)",
		Text: "The report says the contest holds most of the Vials now. Is that intended? If you claim cells in a line they die at once, so do not do that.\n\n" +
			"Could the referee's receipts be shorter? Mine are three screens long. Has anyone worked out whether a blinker near the edge wraps around the torus?"}
}

// benchJournal writes, by the store, the journal of n messages, one in
// five with an entry, in saves of 8,192 inputs as a replay's checkpoints.
func benchJournal(b *testing.B, at time.Time, n int) string {
	path := filepath.Join(b.TempDir(), "journal.jsonl")
	j, err := store.OpenJournal(path, store.Position{})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	s := &contract.State{}
	var steps []store.Step
	outcomes := []string{"applied", "rejected", "applied", "held"}
	for i := 1; i <= n; i++ {
		at = at.Add(2 * time.Minute)
		m := benchMessage(at, i)
		st := store.Step{Input: &contract.Input{Kind: contract.InMessage, At: at, Msg: m}}
		if i%5 == 0 {
			s.JournalSeq++
			st.Entries = []contract.Entry{{Seq: s.JournalSeq, Time: at, MsgID: m.ID, Game: "life", Player: m.Name, Verb: "claim",
				Outcome: outcomes[i/5%len(outcomes)], Reason: "Cell (28, 11) is Alive, Controlled by Heidi067", Detail: map[string]any{"line": "I claim cell (28, 11) in Life."}}}
		}
		steps = append(steps, st)
		if len(steps) == 8192 || i == n {
			if err := j.Log(s, steps, false); err != nil {
				b.Fatal(err)
			}
			steps = steps[:0]
		}
	}
	if err := j.Sync(); err != nil {
		b.Fatal(err)
	}
	return path
}

func copyFile(b *testing.B, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		b.Fatal(err)
	}
}
