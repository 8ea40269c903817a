//go:build browser

package main

// The real-browser test: Debian's chromium, driven over the DevTools protocol
// by chromedp, reads the status page of `referee run` as a player would.
// Run by scripts/test.sh:
//
//	go test -tags browser -run TestBrowser -artifacts -outputdir DIR ./cmd/referee/
//
// The screenshots are saved in the test's artifact directory.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/store"
	"referee/internal/testdeadline"
	"referee/internal/web"
)

func TestBrowser(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("Debian's chromium is needed (apt-get install chromium): ", err)
	}
	bin := refereeBinary(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "data", "state.yaml")
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("contestmaster: cm@example.test\nhub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\nweb:\n  addr: 127.0.0.1:0\n"), 0o600)
	// The scenario state: a month of Life, a Steemfield game, Wacky World.
	var archives []string
	for _, f := range []string{"life/testdata/month.mbox", "steemfield/testdata/scenario.mbox",
		"wackyworld/testdata/scenario/joins.mbox", "wackyworld/testdata/scenario/play.mbox"} {
		archives = append(archives, filepath.Join("..", "..", "contests", f))
	}
	replay := exec.Command(bin, append([]string{"replay", "--state", state}, absAll(t, archives)...)...)
	replay.Dir = dir
	if out, err := replay.CombinedOutput(); err != nil {
		t.Fatalf("referee replay: %v\n%s", err, out)
	}
	e, err := newEngine(&Config{Contestmaster: "cm@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	s0, err := store.Load(e, state)
	if err != nil {
		t.Fatal(err)
	}
	// Start the referee's clock just before the next Monday, so that the
	// weekly reports are sent while the page is up.
	monday := s0.Clock.Truncate(24 * time.Hour)
	for monday.Weekday() != time.Monday || !monday.After(s0.Clock) {
		monday = monday.Add(24 * time.Hour)
	}
	run := startReferee(t, dir, "--state", state, "--clock-start", monday.Add(-2*time.Second).Format(time.RFC3339))
	var base string
	timeout := time.After(testdeadline.Left(t))
	for base == "" {
		select {
		case l, ok := <-run.lines:
			if !ok {
				t.Fatalf("referee run ended its output without a web address:\n%s", run.stderr.String())
			}
			if m := regexp.MustCompile(`^web page: (http://\S+)`).FindStringSubmatch(l); m != nil {
				base = strings.TrimSuffix(m[1], "/")
			}
		case <-timeout:
			t.Fatalf("referee run printed no web address:\n%s", run.stderr.String())
		}
	}

	// Wait for the Life report to be sent and the outbox to drain.
	var lastLife *web.Sent
	var s *contract.State
	deadline := time.Now().Add(testdeadline.Left(t))
	for {
		all, _ := web.OpenArchive(web.SentPath(state)).All()
		for _, m := range all {
			if m.Game == "life" && m.Kind == "report" {
				lastLife = m
			}
		}
		s, err = store.Load(e, state)
		if err == nil && lastLife != nil && len(s.Outbox) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no Life report sent, or the outbox never drained, by the test's deadline (outbox %d)", len(s.Outbox))
		}
		select {
		case err := <-run.exited:
			t.Fatalf("referee run exited: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1600),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-sync", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	shots := t.ArtifactDir()
	shot := func(name string) {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The index lists the games.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/")); err != nil {
		t.Fatal(err)
	}
	games, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#games tr[data-game]')).map(r => r.dataset.game)`))
	if err != nil {
		t.Fatal(err)
	}
	if want := gameIDs(); !slices.Equal(games, want) {
		t.Errorf("the index lists %v, want %v", games, want)
	}
	shot("index")

	type cell struct {
		X, Y  string
		Owner string
		W     float64
	}
	for _, g := range gameIDs() {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/game/"+g)); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]cell](`Array.from(document.querySelectorAll('#board rect.cell')).map(r => ({X: r.dataset.x, Y: r.dataset.y, Owner: r.dataset.owner, W: r.getBoundingClientRect().width}))`))
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		legendJSON, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(Array.from(document.querySelectorAll('#legend li')).map(l => l.dataset.name))`))
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		report, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#report`)))
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		shot(g)
		var cells []string
		for _, c := range got {
			if c.W <= 0 {
				t.Errorf("%s: the cell (%s, %s) is not drawn", g, c.X, c.Y)
			}
			cells = append(cells, c.X+","+c.Y+" "+c.Owner)
		}
		sort.Strings(cells)
		var legend []string
		json.Unmarshal([]byte(legendJSON), &legend)
		want, owners := stateCells(s, g)
		if strings.Join(cells, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the board shows\n%v\nthe state has\n%v", g, cells, want)
		}
		for _, o := range owners {
			if !slices.Contains(legend, o) {
				t.Errorf("%s: the legend %v lacks the Controller %s", g, legend, o)
			}
		}
		if g == "life" && len(want) == 0 {
			t.Error("the scenario leaves no living Life cell")
		}
		if g == "life" {
			// The standings: each contestant's Vials and Cells, what a
			// player needs to choose a Cell, as the state holds them.
			rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#standings #holdings tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent).join(' '))`))
			if err != nil {
				t.Fatalf("%s: %v", g, err)
			}
			var held []string
			for _, m := range s.Members(g) {
				held = append(held, fmt.Sprintf("%s %d %d", m.Name, s.Ledger.Balance(life.Vial, m.Name), len(strings.Fields(s.Games[g].Data.(*life.State).Cells[m.Address()]))))
			}
			if len(held) == 0 || !slices.Equal(rows, held) {
				t.Errorf("%s: the standings show (name, Vials, Cells) %q, the state has %q", g, rows, held)
			}
		}
		// The standings and the rest of the report: as `referee report` prints
		// them, but for the citation block only a mailed report carries.
		out, err := exec.Command(bin, "report", "--state", state, g).Output()
		if err != nil {
			t.Fatalf("referee report %s: %v", g, err)
		}
		_, body, _ := strings.Cut(string(out), "\n\n")
		body = contract.WithoutCitation(body)
		if strings.TrimSpace(report) != strings.TrimSpace(body) {
			t.Errorf("%s: the page's report differs from `referee report`:\npage:\n%s\nreport:\n%s", g, report, body)
		}
	}

	// The feed lists the last report first.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/game/life/feed.atom")); err != nil {
		t.Fatal(err)
	}
	feed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		t.Fatal(err)
	}
	mid := contract.MessageID(lastLife.ID, "example.test")
	if i := strings.Index(feed, "mid:"); i < 0 || !strings.Contains(feed[i:i+len(mid)+10], mid) || !strings.Contains(feed, lastLife.Subject) {
		t.Errorf("the Life feed does not list the last report %s (%s) first:\n%.2000s", lastLife.ID, mid, feed)
	}
	// The report's own page, reached from the archive.
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/archive?game=life"),
		chromedp.Click(chromedp.CSS(`#mails a`)), chromedp.WaitVisible(chromedp.CSS(`#message-id`))); err != nil {
		t.Fatal(err)
	}
	msgid, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#message-id`)))
	if err != nil {
		t.Fatal(err)
	}
	if msgid != "<"+mid+">" {
		t.Errorf("the archive's newest Life mail has Message-ID %s, want %s", msgid, "<"+mid+">")
	}
	shot("archive-report")
	// The journal page counts the rejected Life actions the journal holds,
	// the newest first (its input lines, which hold the messages' text,
	// passed over).
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/journal?game=life&outcome=rejected")); err != nil {
		t.Fatal(err)
	}
	entries, err := store.ReadJournal(store.JournalPath(state))
	if err != nil {
		t.Fatal(err)
	}
	rejected, newest := 0, int64(0)
	for _, en := range entries {
		if en.Game == "life" && en.Outcome == "rejected" {
			rejected, newest = rejected+1, en.Seq
		}
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('#total').textContent, (document.querySelector('#entries tbody td') || {}).textContent || 'none']`))
	if err != nil {
		t.Fatal(err)
	}
	if total, first := shown[0], shown[1]; rejected == 0 || total != fmt.Sprint(rejected) || first != fmt.Sprintf("#%d", newest) {
		t.Errorf("the journal page counts %s rejected Life actions, the newest %s; the journal has %d, the newest #%d", total, first, rejected, newest)
	}
	shot("journal")
	t.Logf("screenshots in %s", shots)
}

// stateCells are the cells (LAND) a game's board must show, "x,y owner",
// and the Controllers.
func stateCells(s *contract.State, g string) (cells, owners []string) {
	switch d := s.Games[g].Data.(type) {
	case *life.State:
		for who, list := range d.Cells {
			if strings.TrimSpace(list) != "" {
				owners = append(owners, s.NameOf(who))
			}
			for _, f := range strings.Fields(list) {
				cells = append(cells, f+" "+s.NameOf(who))
			}
		}
	case *steemfield.State:
		snap := steemfield.NewSnapshot(10, d.Cells)
		seen := map[string]bool{}
		for p, o := range snap.Owner {
			cells = append(cells, fmt.Sprintf("%d,%d %s", p.X, p.Y, o))
			if !seen[o] {
				seen[o] = true
				owners = append(owners, o)
			}
		}
	}
	sort.Strings(cells)
	return cells, owners
}

func absAll(t *testing.T, paths []string) []string {
	var out []string
	for _, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// TestBrowserPhone: on a phone's screen (375 CSS pixels wide) every page of
// the status page fits its width, so that nothing is cut off or needs the
// whole page scrolled sideways: the boards (Life's 51 x 51 grid, Wacky World's
// 16 x 16 World) are drawn smaller, a wide table or report scrolls inside its
// own box. The pages are served over the scenarios' state, as referee run
// serves them.
func TestBrowserPhone(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("Debian's chromium is needed (apt-get install chromium): ", err)
	}
	h := contracttest.New(t, "2026-11-16T12:00:00Z", life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	for _, f := range []string{"life/testdata/month.mbox", "steemfield/testdata/scenario.mbox",
		"wackyworld/testdata/scenario/joins.mbox", "wackyworld/testdata/scenario/play.mbox"} {
		h.Mbox(filepath.Join("..", "..", "contests", f))
	}
	dir := t.TempDir()
	archive := web.OpenArchive(web.SentPath(filepath.Join(dir, "state.yaml")))
	for _, o := range h.Sent {
		if err := archive.Append(&o.Notice, contract.MessageID(o.ID, "example.test"), o.Time); err != nil {
			t.Fatal(err)
		}
	}
	journal := filepath.Join(dir, "journal.jsonl")
	if err := os.WriteFile(journal, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(web.Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) }, Archive: archive,
		Journal: journal, Now: func() time.Time { return h.S.Clock }, Referee: contracttest.Referee}))
	defer srv.Close()
	last := ""
	for _, o := range h.Sent {
		if o.Kind == "report" && o.Channel != contract.ChanPrivate {
			last = o.ID
		}
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-sync", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 812, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	paths := []string{"/", "/game/life", "/game/rumble", "/game/steemfield", "/game/wackyworld", "/archive", "/journal"}
	if last != "" {
		paths = append(paths, "/archive/"+last)
	}
	shots := t.ArtifactDir()
	for _, path := range paths {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// The page's width, and the elements that reach past the screen's
		// right edge, the outermost of each, but for what a box that scrolls
		// inside itself holds.
		w, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
			const edge = document.documentElement.clientWidth + 1;
			const past = e => e.getBoundingClientRect().right > edge;
			const inScroller = e => { for (let a = e.parentElement; a; a = a.parentElement) { if (getComputedStyle(a).overflowX !== 'visible') return true; } return false; };
			return [String(document.documentElement.scrollWidth), String(document.documentElement.clientWidth)].concat(
				Array.from(document.body.querySelectorAll('*')).filter(e => past(e) && !inScroller(e) && !(e.parentElement && past(e.parentElement)))
					.map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().right) + 'px'));
		})()`))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", path, err)
		}
		name := strings.Trim(strings.NewReplacer("/", "-").Replace(path), "-")
		if name == "" {
			name = "index"
		}
		if err := os.WriteFile(filepath.Join(shots, "phone-"+name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		if w[0] != w[1] || len(w) > 2 {
			t.Errorf("%s on a phone: the page is %s pixels wide on a screen of %s; past its edge: %v", path, w[0], w[1], w[2:])
		}
	}
	t.Logf("screenshots in %s", shots)
}
