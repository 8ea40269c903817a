package web

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/mailout"
)

// scenario plays the scenario archives of Life, Steemfield and Wacky World
// into one state, one after the other, as `referee replay` would. Rumble's,
// whose dates overlap theirs, is played alone (rumbleScenario).
func scenario(t testing.TB) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-11-16T12:00:00Z", life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	for _, f := range []string{"life/testdata/month.mbox", "steemfield/testdata/scenario.mbox",
		"wackyworld/testdata/scenario/joins.mbox", "wackyworld/testdata/scenario/play.mbox"} {
		h.Mbox(filepath.Join("../../contests", f))
	}
	return h
}

// Serve starts the server over a harness: its state, its journal written to
// a file (each entry after an input line, which holds a private message's
// text, inputSecret), and its public notices in a sent-mail store, as the
// daemon keeps them.
func serve(t testing.TB, h *contracttest.Harness, m *Metrics) *httptest.Server {
	t.Helper()
	dir := t.TempDir()
	jpath := filepath.Join(dir, "journal.jsonl")
	var jb strings.Builder
	for i, e := range h.Entries {
		in, err := json.Marshal(map[string]any{"in": i + 1, "base": e.Seq - 1, "entries": 1, "input": contract.Input{Kind: contract.InMessage,
			At: e.Time, Msg: &contract.Message{ID: e.MsgID, From: "alice@example.test", Channel: contract.ChanPrivate, Text: inputSecret}}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		jb.Write(append(in, '\n'))
		jb.Write(append(b, '\n'))
	}
	if err := os.WriteFile(jpath, []byte(jb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	a := OpenArchive(SentPath(filepath.Join(dir, "state.yaml")))
	for _, o := range h.Sent {
		if err := a.Append(&o.Notice, contract.MessageID(o.ID, "example.test"), o.Time); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(New(Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: a,
		Journal: jpath, Now: func() time.Time { return h.S.Clock }, Metrics: m, Referee: contracttest.Referee}))
	t.Cleanup(srv.Close)
	return srv
}

// inputSecret is the text of the private messages in the journal's input
// lines: never on a page.
const inputSecret = "I bid 17 Vials (sealed)"

func get(t testing.TB, srv *httptest.Server, path string, want int) string {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != want {
		t.Fatalf("GET %s: %d, want %d\n%s", path, resp.StatusCode, want, b)
	}
	return string(b)
}

var cellRE = regexp.MustCompile(`<rect class="cell" data-x="(-?\d+)" data-y="(-?\d+)" data-owner="([^"]*)"`)

// cells reads the living cells (LAND) of a page's SVG: "x,y owner".
func cells(page string) []string {
	var out []string
	for _, m := range cellRE.FindAllStringSubmatch(page, -1) {
		out = append(out, m[1]+","+m[2]+" "+unescape(m[3]))
	}
	sort.Strings(out)
	return out
}

func unescape(s string) string { return html.UnescapeString(s) }

func TestPages(t *testing.T) {
	h := scenario(t)
	srv := serve(t, h, nil)

	t.Run("index", func(t *testing.T) {
		p := get(t, srv, "/", 200)
		for _, g := range h.E.Games() {
			if !strings.Contains(p, `<a href="/game/`+g.Spec().ID+`">`+g.Spec().Title+`</a>`) {
				t.Errorf("the index does not link %s", g.Spec().Title)
			}
			ev, ok, err := h.E.GameNext(h.S, g.Spec().ID)
			if err != nil || !ok {
				continue
			}
			if !strings.Contains(p, ev.At.UTC().Format(stamp)) {
				t.Errorf("the index does not show %s's next event at %s", g.Spec().ID, ev.At)
			}
		}
		if !strings.Contains(p, h.S.Clock.UTC().Format(stamp)) {
			t.Errorf("the index does not show the clock %s", h.S.Clock)
		}
	})

	t.Run("life", func(t *testing.T) {
		p := get(t, srv, "/game/life", 200)
		var want []string
		st := h.Data("life").(*life.State)
		owners := map[string]bool{}
		for who, list := range st.Cells {
			for _, f := range strings.Fields(list) {
				want = append(want, f+" "+h.S.NameOf(who))
				owners[h.S.NameOf(who)] = true
			}
		}
		sort.Strings(want)
		if len(want) == 0 {
			t.Fatal("the scenario leaves no living cell")
		}
		if got := cells(p); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the SVG's cells:\n%v\nwant the state's:\n%v", got, want)
		}
		for o := range owners {
			if !strings.Contains(p, `<li data-name="`+o+`">`) {
				t.Errorf("the legend lacks %s", o)
			}
		}
		checkReport(t, h, p, "life")
	})

	t.Run("steemfield", func(t *testing.T) {
		p := get(t, srv, "/game/steemfield", 200)
		st := h.Data("steemfield").(*steemfield.State)
		snap := steemfield.NewSnapshot(10, st.Cells)
		var want []string
		for pt, o := range snap.Owner {
			want = append(want, fmt.Sprintf("%d,%d %s", pt.X, pt.Y, o))
		}
		sort.Strings(want)
		if len(want) == 0 {
			t.Fatal("the scenario leaves no LAND on the map")
		}
		if got := cells(p); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("the LAND map:\n%v\nwant:\n%v", got, want)
		}
		checkReport(t, h, p, "steemfield")
	})

	t.Run("wackyworld", func(t *testing.T) {
		p := get(t, srv, "/game/wackyworld", 200)
		st := h.Data("wackyworld").(*wackyworld.State)
		if n := strings.Count(p, `<rect class="terrain"`); n != 16*16 {
			t.Errorf("%d terrain tiles, want 256", n)
		}
		for _, pa := range st.Parties {
			if pa.At == nil {
				continue
			}
			if !strings.Contains(p, fmt.Sprintf(`<g class="party" data-x="%d" data-y="%d"><title>%s at %s</title>`, pa.At.X, pa.At.Y, h.S.NameOf(pa.Addr), pa.At)) {
				t.Errorf("the map does not show %s at %s", h.S.NameOf(pa.Addr), pa.At)
			}
		}
		public := 0
		for _, a := range st.Assets {
			if a.Public {
				public++
			}
		}
		if n := strings.Count(p, `<g class="asset"`); n != public {
			t.Errorf("%d assets on the map, want the %d public ones", n, public)
		}
		checkReport(t, h, p, "wackyworld")
	})

	t.Run("rumble", func(t *testing.T) {
		h := contracttest.New(t, "2026-12-01T09:00:00Z", rumble.New())
		h.Mbox("../../contests/rumble/testdata/scenario.mbox")
		h.Advance("2026-12-22T00:00:00Z")
		p := get(t, serve(t, h, nil), "/game/rumble", 200)
		checkReport(t, h, p, "rumble")
		if !strings.Contains(p, "<td>Carol</td><td>16</td>") {
			t.Errorf("the standings lack Carol's 16 points (Rumble 10, 11)")
		}
	})

	t.Run("archive", func(t *testing.T) {
		p := get(t, srv, "/archive", 200)
		n := 0
		for _, o := range h.Sent {
			id := contract.MessageID(o.ID, "example.test")
			if o.Channel == contract.ChanPrivate {
				if strings.Contains(p, id) {
					t.Errorf("the archive lists the private %s", o.ID)
				}
				continue
			}
			n++
			if !strings.Contains(p, "&lt;"+id+"&gt;") {
				t.Errorf("the archive does not list %s", o.ID)
			}
		}
		if n < 10 {
			t.Fatalf("only %d public notices in the scenario", n)
		}
		last := lastReport(t, h, "life")
		m := get(t, srv, "/archive/"+escapeID(last.ID), 200)
		if !strings.Contains(m, `<code id="message-id">&lt;`+contract.MessageID(last.ID, "example.test")+`&gt;</code>`) {
			t.Errorf("the page of %s does not show its Message-ID", last.ID)
		}
		if !strings.Contains(m, strings.SplitN(last.Body, "\n", 3)[1]) {
			t.Errorf("the page of %s does not show its body", last.ID)
		}
		get(t, srv, "/archive/no/such", 404)
		for _, o := range h.Sent {
			if o.Channel == contract.ChanPrivate {
				get(t, srv, "/archive/"+escapeID(o.ID), 404)
				break
			}
		}
	})

	t.Run("journal", func(t *testing.T) {
		p := get(t, srv, "/journal?game=life&outcome=rejected", 200)
		want := 0
		for _, e := range h.Entries {
			if e.Game == "life" && e.Outcome == "rejected" {
				want++
			}
		}
		if want == 0 {
			t.Fatal("no rejected Life action in the scenario")
		}
		if !strings.Contains(p, `<span id="total">`+fmt.Sprint(want)+`</span>`) {
			t.Errorf("the filtered journal does not count %d entries", want)
		}
		if n := strings.Count(p, "<td>rejected</td>"); n != want {
			t.Errorf("%d rejected rows, want %d", n, want)
		}
		if strings.Contains(p, "<td>applied</td>") {
			t.Error("the filter by outcome shows applied entries")
		}
		all := get(t, srv, "/journal", 200)
		if strings.Contains(all, inputSecret) || strings.Contains(all, "Vials (sealed)") {
			t.Error("the journal page shows an input line's private text")
		}
		if !strings.Contains(all, `<span id="total">`+fmt.Sprint(len(h.Entries))+`</span>`) {
			t.Errorf("the journal does not count its %d entries alone (input lines counted?)", len(h.Entries))
		}
		p = get(t, srv, "/journal?player=Alice", 200)
		for _, row := range regexp.MustCompile(`<tr><td>#\d+</td><td>[^<]*</td><td>[^<]*</td><td>([^<]*)</td>`).FindAllStringSubmatch(p, -1) {
			if row[1] != "Alice" {
				t.Errorf("the filter by player shows %q", row[1])
			}
		}
	})

	t.Run("feeds", func(t *testing.T) {
		for _, path := range []string{"/feed.atom", "/game/life/feed.atom"} {
			f := parseAtom(t, get(t, srv, path, 200))
			if len(f.Entries) == 0 {
				t.Fatalf("%s has no entry", path)
			}
			if path == "/game/life/feed.atom" {
				last := lastReport(t, h, "life")
				if f.Entries[0].Title != last.Subject || f.Entries[0].ID != midURI(contract.MessageID(last.ID, "example.test")) {
					t.Errorf("the Life feed starts with %q (%s), want the last report %q", f.Entries[0].Title, f.Entries[0].ID, last.Subject)
				}
			}
		}
		get(t, srv, "/game/nope/feed.atom", 404)
	})

	t.Run("rulings", func(t *testing.T) {
		// G8: a question awaiting the contestmaster is listed, its text
		// (asked privately) is not.
		h.S.Rulings = append(h.S.Rulings, &contract.Ruling{ID: 77, Game: "life", Key: "k", Question: "Is Alice's sealed 4242 fair?",
			Asked: h.S.Clock, Deadline: h.S.Clock.Add(48 * time.Hour)})
		defer func() { h.S.Rulings = h.S.Rulings[:len(h.S.Rulings)-1] }()
		p := get(t, srv, "/game/life", 200)
		if !strings.Contains(p, "<tr><td>77</td><td>"+h.S.Clock.UTC().Format(stamp)+"</td><td>"+h.S.Clock.Add(48*time.Hour).UTC().Format(stamp)+"</td></tr>") {
			t.Error("the Life page does not list the open ruling #77")
		}
		if strings.Contains(p, "4242") {
			t.Error("the Life page shows the ruling's private question")
		}
		if p := get(t, srv, "/game/steemfield", 200); strings.Contains(p, "<tr><td>77</td>") {
			t.Error("Steemfield's page lists Life's ruling")
		}
	})

	t.Run("claim past its ruling's deadline", func(t *testing.T) {
		// G8: at the ruling's deadline the question leaves the rulings, but
		// the claim stays open, and the page still lists it as awaiting the
		// contestmaster (as the report does), its words (made privately) not.
		filed := h.S.Clock.Add(-72 * time.Hour)
		h.S.Claims = append(h.S.Claims, &contract.Claim{ID: 9, Game: "life", Report: "life/report/2026-W50", Claimant: "Alice",
			What: "my sealed 4343 was lost", Filed: filed, Ruling: 78, Status: "open"})
		defer func() { h.S.Claims = h.S.Claims[:len(h.S.Claims)-1] }()
		p := get(t, srv, "/game/life", 200)
		if !strings.Contains(p, "<tr><td>78</td><td>"+filed.UTC().Format(stamp)+"</td><td>passed: the claim stays open</td></tr>") {
			t.Error("the Life page does not list the open claim whose ruling #78 is past its deadline")
		}
		if strings.Contains(p, "4343") {
			t.Error("the Life page shows a private claim's words")
		}
		if p := get(t, srv, "/game/steemfield", 200); strings.Contains(p, "<tr><td>78</td>") {
			t.Error("Steemfield's page lists Life's claim")
		}
	})

	t.Run("read-only", func(t *testing.T) {
		// Reading every page and feed leaves the state as it was, byte for byte.
		before, err := contract.Encode(h.S)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"/", "/game/life", "/game/rumble", "/game/steemfield", "/game/wackyworld", "/archive",
			"/journal", "/feed.atom", "/game/life/feed.atom", "/healthz"} {
			get(t, srv, p, 200)
		}
		after, err := contract.Encode(h.S)
		if err != nil {
			t.Fatal(err)
		}
		if string(before) != string(after) {
			t.Error("reading the pages changed the state")
		}
	})

	t.Run("others", func(t *testing.T) {
		get(t, srv, "/game/nope", 404)
		if p := get(t, srv, "/healthz", 200); !strings.HasPrefix(p, "ok\n") {
			t.Errorf("/healthz: %q", p)
		}
		get(t, srv, "/metrics", 404) // no metrics given
		for _, path := range []string{"/", "/game/life", "/archive", "/journal"} {
			if p := get(t, srv, path, 200); strings.Contains(p, "<script") {
				t.Errorf("%s has a script", path)
			}
		}
	})
}

// checkReport: the page's report is `referee report`'s body.
func checkReport(t *testing.T, h *contracttest.Harness, page, game string) {
	t.Helper()
	n, err := h.E.Report(h.S, game, h.S.Clock)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<pre id="report">(.*?)</pre>`).FindStringSubmatch(page)
	if m == nil || unescape(m[1]) != n.Body {
		t.Errorf("the %s page's report differs from the report", game)
	}
}

func lastReport(t *testing.T, h *contracttest.Harness, game string) *contract.Outgoing {
	t.Helper()
	for i := len(h.Sent) - 1; i >= 0; i-- {
		if o := h.Sent[i]; o.Game == game && o.Kind == "report" {
			return o
		}
	}
	t.Fatalf("no %s report sent", game)
	return nil
}

// atom is RFC 4287's feed, as a reader parses it.
type atom struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string   `xml:"http://www.w3.org/2005/Atom id"`
	Title   string   `xml:"http://www.w3.org/2005/Atom title"`
	Updated string   `xml:"http://www.w3.org/2005/Atom updated"`
	Author  []struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
	} `xml:"http://www.w3.org/2005/Atom author"`
	Links []struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	} `xml:"http://www.w3.org/2005/Atom link"`
	Entries []struct {
		ID      string `xml:"http://www.w3.org/2005/Atom id"`
		Title   string `xml:"http://www.w3.org/2005/Atom title"`
		Updated string `xml:"http://www.w3.org/2005/Atom updated"`
		Content struct {
			Type string `xml:"type,attr"`
			Body string `xml:",chardata"`
		} `xml:"http://www.w3.org/2005/Atom content"`
	} `xml:"http://www.w3.org/2005/Atom entry"`
}

// parseAtom parses a feed strictly and checks RFC 4287's requirements: the
// feed and each entry have an absolute IRI id, a title and an RFC 3339
// updated (4.1.1, 4.1.2, 4.2.6, 4.2.14, 4.2.15); the feed an author and a
// self link; entry ids are unique.
func parseAtom(t *testing.T, body string) *atom {
	t.Helper()
	var f atom
	d := xml.NewDecoder(strings.NewReader(body))
	d.Strict = true
	if err := d.Decode(&f); err != nil {
		t.Fatalf("the feed is not XML of the Atom namespace: %v\n%s", err, body)
	}
	iri := func(what, s string) {
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			t.Errorf("%s %q is not an absolute IRI", what, s)
		}
	}
	date := func(what, s string) {
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			t.Errorf("%s updated %q: %v", what, s, err)
		}
	}
	iri("feed id", f.ID)
	date("feed", f.Updated)
	if f.Title == "" || len(f.Author) == 0 || f.Author[0].Name == "" {
		t.Error("the feed lacks a title or an author")
	}
	self := false
	for _, l := range f.Links {
		self = self || (l.Rel == "self" && l.Href != "")
	}
	if !self {
		t.Error("the feed has no self link")
	}
	ids := map[string]bool{}
	for _, e := range f.Entries {
		iri("entry id", e.ID)
		date("entry "+e.ID, e.Updated)
		if ids[e.ID] {
			t.Errorf("entry id %s twice", e.ID)
		}
		ids[e.ID] = true
		if e.Title == "" || e.Content.Type != "text" || e.Content.Body == "" {
			t.Errorf("entry %s lacks a title or a text content", e.ID)
		}
	}
	return &f
}

func TestMetrics(t *testing.T) {
	h := scenario(t)
	m := NewMetrics(func() int { return len(h.S.Outbox) })
	m.Entries(h.Entries)
	m.Read()
	m.Read()
	m.Sent(nil, false)
	m.Sent(&mailout.SendError{Op: "auth", Err: &smtp.SMTPError{Code: 535, Message: "bad credentials"}}, false)
	m.Sent(io.EOF, true)
	m.Reconnect()
	m.Applied(time.Millisecond)
	m.Saved(time.Millisecond)
	srv := serve(t, h, m)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(get(t, srv, "/metrics", 200)))
	if err != nil {
		t.Fatalf("/metrics is not the Prometheus text format: %v", err)
	}
	value := func(name string, labels map[string]string) float64 {
		f := fams[name]
		if f == nil {
			t.Fatalf("no metric %s", name)
		}
	next:
		for _, mm := range f.Metric {
			for _, l := range mm.Label {
				if labels[l.GetName()] != l.GetValue() {
					continue next
				}
			}
			switch {
			case mm.Counter != nil:
				return mm.Counter.GetValue()
			case mm.Gauge != nil:
				return mm.Gauge.GetValue()
			case mm.Histogram != nil:
				return float64(mm.Histogram.GetSampleCount())
			}
		}
		t.Fatalf("no %s%v", name, labels)
		return 0
	}
	applied := 0
	for _, e := range h.Entries {
		if e.Game == "life" && e.Outcome == "applied" {
			applied++
		}
	}
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"referee_actions_total", map[string]string{"game": "life", "outcome": "applied"}, float64(applied)},
		{"referee_messages_read_total", nil, 2},
		{"referee_mail_sent_total", nil, 1},
		{"referee_send_failures_total", map[string]string{"kind": "temporary"}, 1},
		{"referee_send_failures_total", map[string]string{"kind": "permanent"}, 1},
		{"referee_imap_reconnects_total", nil, 1},
		{"referee_apply_seconds", nil, 1},
		{"referee_save_seconds", nil, 1},
		{"referee_outbox_depth", nil, float64(len(h.S.Outbox))},
		{"referee_smtp_login_refused", nil, 1},
	} {
		if got := value(c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}

// FuzzStores: any sent-mail store or journal file is read or refused with an
// error, never a panic, and the store never yields a private notice.
func FuzzStores(f *testing.F) {
	f.Add([]byte(`{"id":"life/report/2026-W50","kind":"report","channel":"official","subject":"s","body":"b","message_id":"m@x","sent_at":"2026-12-07T00:00:00Z"}` + "\n"))
	f.Add([]byte(`{"id":"receipt/x","channel":"private"}` + "\n" + `{"seq":1,"time":"2026-12-07T00:00:00Z","game":"life"}` + "\n{"))
	f.Add([]byte("\n\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "sent.jsonl")
		os.WriteFile(p, data, 0o600)
		all, _ := OpenArchive(p).All()
		for _, m := range all {
			if !public(m.Channel) {
				t.Errorf("the store yields %s on the %q channel", m.ID, m.Channel)
			}
		}
		newJournalCache(p).view()
	})
}
