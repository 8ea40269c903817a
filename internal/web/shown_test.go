package web

import (
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contract"
	"referee/contract/contracttest"
)

// TestRecentNewestFirst: the page lists the recent events newest first, also
// those of one second, which a player reads top down as the later first. A
// join, then a claim and a transfer in one message: the transfer is the
// newest, the join the oldest.
func TestRecentNewestFirst(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", life.New())
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join the Life contest.")
	h.Public("2026-12-01T10:00:00Z", "Bob <bob@example.test>", "I join the Life contest.")
	h.Public("2026-12-01T10:00:00Z", "Bob <bob@example.test>", "I claim cell (20, 20) in Life.\nI transfer 2 Vials to Alice.")
	p := get(t, serve(t, h, nil), "/game/life", 200)
	sec := p[strings.Index(p, `<section id="recent">`):]
	sec = sec[:strings.Index(sec, "</section>")]
	var got []string
	for _, m := range regexp.MustCompile(`<li><time>[^<]*</time> ([^<]*)</li>`).FindAllStringSubmatch(sec, -1) {
		got = append(got, unescape(m[1]))
	}
	want := []string{
		"Bob: transfers 2 Vials to Alice",
		"Bob: takes control of Cell (20, 20) (R16)",
		"Bob: joins; 10 Vials minted to em (R15)",
		"Alice: joins; 10 Vials minted to em (R15)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the recent events, top down:\n%s\nwant the newest first:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestContestmasterByName: the page names the contestmaster as the reports
// do, by name, and shows no player's address.
func TestContestmasterByName(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", life.New())
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join the Life contest.")
	h.Public("2026-12-01T10:01:00Z", contracttest.Contestmaster, "I consent to Alice becoming the contestmaster of Life.")
	h.Public("2026-12-01T10:02:00Z", "Alice <alice@example.test>", "I consent to become the contestmaster of Life.")
	if cm := h.S.Games["life"].Contestmaster; cm != "alice@example.test" {
		t.Fatalf("the contestmaster is %q, want Alice's address", cm)
	}
	p := get(t, serve(t, h, nil), "/game/life", 200)
	if !strings.Contains(p, "<p>Contestmaster: Alice.") {
		t.Errorf("the page does not name the contestmaster Alice:\n%.600s", p[strings.Index(p, "<h1>"):])
	}
	if strings.Contains(p, "alice@example.test") {
		t.Error("the page shows Alice's address")
	}
}

// TestJournalCountsOne: the journal page counts one entry as "1 entry", as it
// stands right after referee init (the first Randomness notice alone).
func TestJournalCountsOne(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", life.New())
	if len(h.Entries) != 1 {
		t.Fatalf("a new state has %d journal entries, want 1", len(h.Entries))
	}
	srv := serve(t, h, nil)
	if p := get(t, srv, "/journal", 200); !strings.Contains(p, `<p><span id="total">1</span> entry.</p>`) {
		t.Errorf("the journal page does not count \"1 entry.\":\n%s", p[strings.Index(p, "</form>"):strings.Index(p, `<table id="entries">`)])
	}
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join the Life contest.")
	if p := get(t, serve(t, h, nil), "/journal", 200); !strings.Contains(p, `<p><span id="total">2</span> entries.</p>`) {
		t.Errorf("the journal page does not count \"2 entries.\"")
	}
}

// TestIntentMayBeDoneFrom: the page says from when an open intent may be
// done, as referee status does: 4 days after it was announced for one
// without objection (G7).
func TestIntentMayBeDoneFrom(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", rumble.New())
	r := h.Public("2026-12-01T10:00:00Z", contracttest.Contestmaster, "I intend, without 2 objections, to amend the Rumble contract: SET Deadline = 48h")
	if len(h.S.Intents) != 1 {
		t.Fatalf("no intent tabled:\n%s", r.Body)
	}
	p := get(t, serve(t, h, nil), "/game/rumble", 200)
	if !strings.Contains(p, "<th>May be done</th>") || !strings.Contains(p, "<td>from Sat 2026-12-05 10:00 UTC</td>") {
		t.Errorf("the open intent does not say it may be done from Sat 2026-12-05 10:00 UTC:\n%s", p[strings.Index(p, `<section id="intents">`):strings.Index(p, `<section id="rulings">`)])
	}
}

// TestIntentOfAnEndedGameNotOpen: an intent to end the current game of
// Rumble is listed as open while the game goes on, and no longer once the
// game has ended by its own course (Bob left, Alice won), when it can
// never be done: "None." under the open intents, and the recent events
// say it was closed (G7), where it stayed listed until tried or expired.
func TestIntentOfAnEndedGameNotOpen(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", rumble.New())
	for _, p := range []string{"Alice <alice@example.test>", "Bob <bob@example.test>"} {
		h.Public("2026-12-01T10:00:00Z", p, "I join Rumble.")
	}
	h.Public("2026-12-01T11:00:00Z", contracttest.Contestmaster, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers.")
	h.Public("2026-12-01T12:00:00Z", "Erin <erin@example.test>", "I intend, without objection, to end the current game of Rumble.")
	intents := func() string {
		p := get(t, serve(t, h, nil), "/game/rumble", 200)
		return p[strings.Index(p, `<section id="intents">`):strings.Index(p, `<section id="rulings">`)]
	}
	if sec := intents(); !strings.Contains(sec, "<td>end the current game of Rumble</td>") {
		t.Fatalf("the intent is not listed while the game goes on:\n%s", sec)
	}
	h.Public("2026-12-01T13:00:00Z", "Bob <bob@example.test>", "I leave Rumble.")
	if sec := intents(); !strings.Contains(sec, "None.") || strings.Contains(sec, "end the current game") {
		t.Errorf("the intent to end the ended game is still listed as open:\n%s", sec)
	}
	if p := unescape(get(t, serve(t, h, nil), "/game/rumble", 200)); !strings.Contains(p, "closes intent #1 of Erin, to end the current game of Rumble") {
		t.Error("the recent events do not say the intent was closed")
	}
}

// TestFilterNamesNoGame: the archive and the journal filtered by a game that
// does not exist (a mistyped or stale link) say so and name the games, as
// /game/ does, where they showed "Nothing sent yet." or "0 entries." with a
// link to that game's feed, which does not exist either; an outcome the
// journal does not know is refused naming the outcomes.
func TestFilterNamesNoGame(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", life.New(), rumble.New())
	srv := serve(t, h, nil)
	for _, path := range []string{"/archive?game=lfie", "/journal?game=lfie"} {
		if p := get(t, srv, path, 404); !strings.Contains(p, `no game "lfie" (the games are life, rumble)`) {
			t.Errorf("%s: %q", path, p)
		}
	}
	if p := get(t, srv, "/journal?outcome=done", 400); !strings.Contains(p, `no outcome "done" (the outcomes are applied, rejected, event, held)`) {
		t.Errorf("/journal?outcome=done: %q", p)
	}
	get(t, srv, "/archive?game=life", 200)
	get(t, srv, "/journal?game=rumble&outcome=event", 200)
}

// TestRumbleParamsOfTheGame: during a Rumble game announced with its own
// numbers of powers, the page shows them as the report does, "1 in game 1
// (default 2)", where it showed the parameter's 2, which applies to games
// that name none.
func TestRumbleParamsOfTheGame(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", rumble.New())
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join Rumble.")
	h.Public("2026-12-01T10:00:00Z", "Bob <bob@example.test>", "I join Rumble.")
	r := h.Public("2026-12-01T10:01:00Z", contracttest.Contestmaster, "I announce a new game of Rumble with 1 power per contestant and 3 contestmaster powers.")
	if !strings.Contains(r.Body, "Done") {
		t.Fatalf("no game announced:\n%s", r.Body)
	}
	p := get(t, serve(t, h, nil), "/game/rumble", 200)
	for _, want := range []string{"<tr><td>Powers</td><td>1 in game 1 (default 2)</td><td>2</td>", "<tr><td>ContestmasterPowers</td><td>3 in game 1 (default 2)</td><td>2</td>"} {
		if !strings.Contains(p, want) {
			t.Errorf("the page lacks %s:\n%s", want, p[strings.Index(p, `<section id="params">`):strings.Index(p, `<section id="intents">`)])
		}
	}
	checkReport(t, h, p, "rumble")
}

// TestTimeLeftFromNow: the time left to a game's next event counts from the
// referee's clock now, not from the last change the state holds: a referee
// quiet for ten hours since Life's players joined on Tuesday at 10:00 shows
// Monday's Round 5d 4h away at 20:00, where the page still said 5d 14h.
func TestTimeLeftFromNow(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", life.New())
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join the Life contest.")
	dir := t.TempDir()
	now := contracttest.At(t, "2026-12-01T20:00:00Z")
	srv := httptest.NewServer(New(Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: OpenArchive(SentPath(filepath.Join(dir, "state.yaml"))),
		Journal: filepath.Join(dir, "journal.jsonl"), Now: func() time.Time { return now }}))
	defer srv.Close()
	if p := get(t, srv, "/", 200); !strings.Contains(p, "<td>week (2026-W50) at Mon 2026-12-07 00:00 UTC</td><td>5d 4h</td>") {
		t.Errorf("the index does not count 5d 4h to Life's round:\n%s", p[strings.Index(p, `<table id="games">`):])
	}
	if p := get(t, srv, "/game/life", 200); !strings.Contains(p, "Next: week (2026-W50) at Mon 2026-12-07 00:00 UTC, in 5d 4h.") {
		t.Errorf("the Life page does not count 5d 4h to its round:\n%.400s", p[strings.Index(p, "<h1>"):])
	}
}

// TestIndexNamesItsClocks: the index gives the referee's clock as now, and
// the state's clock as its last change, where it called the state's clock
// "the referee's clock", ten hours behind the "now" after it on a quiet day.
func TestIndexNamesItsClocks(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", life.New())
	h.Public("2026-12-01T10:00:00Z", "Alice <alice@example.test>", "I join the Life contest.")
	dir := t.TempDir()
	now := contracttest.At(t, "2026-12-01T20:00:00Z")
	srv := httptest.NewServer(New(Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: OpenArchive(SentPath(filepath.Join(dir, "state.yaml"))),
		Journal: filepath.Join(dir, "journal.jsonl"), Now: func() time.Time { return now }}))
	defer srv.Close()
	want := `<p>The referee's clock: <time id="now">Tue 2026-12-01 20:00 UTC</time>; the games last changed at <time id="clock">Tue 2026-12-01 10:00 UTC</time>.`
	if p := get(t, srv, "/", 200); !strings.Contains(p, want) {
		t.Errorf("the index does not say\n%s\n%s", want, p[strings.Index(p, "<h1>"):strings.Index(p, `<table id="games">`)])
	}
}
