package wackyworld

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"referee/contract"
)

// TestMedalSecrecy: a medal created by the contestmaster lies on a secret
// random tile (Wacky 2, W4, W6) that appears in no public mail, no report and
// no log line at Info until it is found; a search next to it reveals it to the
// searcher alone (Wacky 6g, W5).
func TestMedalSecrecy(t *testing.T) {
	h := world(t)
	var all []*contract.Notice
	all = append(all, h.send("2026-12-01T12:00:00Z", "Atlas <"+cm+">", "I create a medal in Wacky World.", contract.ChanPublic)...)
	st := h.data()
	if len(st.Assets) != 1 || !st.Assets[0].Medal || st.Assets[0].Public {
		t.Fatalf("assets %+v", st.Assets)
	}
	m := st.Assets[0]
	if st.at(m.At) == Wall {
		t.Fatalf("medal on a Wall tile (W4)")
	}
	// Keep the parties away from the medal, on tiles whose coordinates do not
	// share its text.
	secret := m.At.String()
	far := func(p Pos) bool { return p.String() != secret && !adjacent(p, m.At) && p != m.At }
	spots := []Pos{{0, 15}, {15, 0}, {15, 15}, {0, 0}}
	var use []Pos
	for _, p := range spots {
		if far(p) {
			use = append(use, p)
		}
	}
	h.place(aAddr, use[0].X, use[0].Y)
	h.place(bAddr, use[1].X, use[1].Y)

	// The contestmaster's receipt does not name the tile either.
	for _, n := range all {
		if strings.Contains(n.Body, secret) {
			t.Errorf("notice %s (%s) reveals the medal's tile %s", n.ID, n.Channel, secret)
		}
	}
	// Turns, the weekly report and recent events.
	all = append(all, h.advance("2026-12-07T00:00:00Z")...)
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-07T01:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	all = append(all, rep)
	sawReport := false
	for _, n := range all {
		if n.Kind == "report" {
			sawReport = true
		}
		if n.Channel != contract.ChanPrivate && strings.Contains(n.Body, secret) {
			t.Errorf("public notice %s reveals the medal's tile %s:\n%s", n.ID, secret, n.Body)
		}
	}
	if !sawReport {
		t.Errorf("no weekly report among %d notices", len(all))
	}
	for _, ev := range h.s.Games[ID].Recent {
		if strings.Contains(ev.What, secret) {
			t.Errorf("recent event %q reveals the medal's tile", ev.What)
		}
	}
	// Log lines at Info: what the daemon logs of each journal entry so far
	// (cmd/referee logs the reason at Debug only; it is logged here too).
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	medalEntry := false
	for _, e := range h.H.Entries {
		medalEntry = medalEntry || e.Verb == "medal" && e.Outcome == "applied"
		log.LogAttrs(context.Background(), slog.LevelInfo, "journal", slog.Int64("seq", e.Seq), slog.String("game", e.Game),
			slog.String("verb", e.Verb), slog.String("outcome", e.Outcome), slog.String("msgid", e.MsgID),
			slog.String("player", e.Player), slog.String("reason", e.Reason))
	}
	if !medalEntry {
		t.Fatalf("no journal entry of the medal's creation among %d entries", len(h.H.Entries))
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("Info log reveals the medal's tile")
	}

	// Alice moves next to the medal (test setup) and searches.
	nb := st.neighbours(m.At)
	var next Pos
	for _, p := range nb {
		if st.at(p) != Wall {
			next = p
			break
		}
	}
	h.place(aAddr, next.X, next.Y)
	ns := h.send("2026-12-07T03:00:00Z", alice, "I search in Wacky World.", contract.ChanPublic)
	var result *contract.Notice
	for _, n := range ns {
		if strings.HasPrefix(n.ID, ID+"/search/") {
			result = n
		} else if strings.Contains(n.Body, secret) || strings.Contains(n.Body, "medal (#1)") {
			t.Errorf("notice %s (%s) reveals the medal", n.ID, n.Channel)
		}
	}
	if result == nil {
		t.Fatalf("no search result among %+v", ns)
	}
	if result.Channel != contract.ChanPrivate || len(result.To) != 1 || result.To[0] != aAddr {
		t.Errorf("search result goes to %v on %s, want Alice privately", result.To, result.Channel)
	}
	if !strings.Contains(result.Body, "medal (#1)") || !strings.Contains(result.Body, secret) {
		t.Errorf("search result does not list the medal at %s:\n%s", secret, result.Body)
	}
	if st.Assets[0].Public {
		t.Errorf("a search made the medal's location public")
	}
	rep, _ = h.e.Report(h.s, ID, mustTime(t, "2026-12-07T04:00:00Z"))
	if strings.Contains(rep.Body, secret) {
		t.Errorf("report after the search reveals the medal")
	}
}

// TestMedalDrawCommitted: a medal's tile is drawn from the medal's own seed,
// not the week's that G5 reveals (guide decision 18): the seed's SHA-256 is
// published when it is made, the seed when it is picked up, and the tile is
// the draw the guide describes.
func TestMedalDrawCommitted(t *testing.T) {
	h := world(t)
	tiles := h.data().nonWall()
	made := h.send("2026-12-01T12:00:00Z", "Atlas <"+cm+">", "I create a medal in Wacky World.", contract.ChanPublic)
	m := h.data().Assets[0]
	var commit string
	for _, n := range made {
		if n.ID == ID+"/medal/1/made" && n.Channel == contract.ChanPublic {
			commit = hexLine(n.Body)
			if strings.Contains(n.Body, m.At.String()) {
				t.Errorf("the notice of the medal names its tile %s:\n%s", m.At, n.Body)
			}
		}
	}
	if commit == "" {
		t.Fatalf("no public notice with the seed's SHA-256 among %d notices", len(made))
	}
	for _, e := range h.H.Entries {
		if strings.Contains(fmt.Sprint(e.Detail["draws"]), "medal") {
			t.Errorf("the medal was drawn from the week's seed: %v", e.Detail["draws"])
		}
	}
	h.place(aAddr, m.At.X, m.At.Y)
	found := h.send("2026-12-07T03:00:00Z", alice, "I pick up the medal in Wacky World.", contract.ChanPublic)
	var seed string
	for _, n := range found {
		if n.ID == ID+"/medal/1/found" && n.Channel == contract.ChanPublic {
			seed = hexLine(n.Body)
		}
	}
	raw, err := hex.DecodeString(seed)
	if err != nil || seed == "" {
		t.Fatalf("no published seed among %d notices (%v)", len(found), err)
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != commit {
		t.Errorf("the published seed does not hash to the commitment %s", commit)
	}
	if got := tiles[contract.Intn(raw, "wackyworld/medal/1/tile", len(tiles))]; got != m.At {
		t.Errorf("the draw from the published seed gives %s; the medal lay at %s", got, m.At)
	}
}

// hexLine is the line of 64 hexadecimal digits in a notice.
func hexLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); len(l) == 64 && strings.Trim(l, "0123456789abcdef") == "" {
			return l
		}
	}
	return ""
}

func TestMedalOnlyContestmaster(t *testing.T) {
	h := world(t)
	r := h.public("2026-12-01T12:00:00Z", alice, "I create a medal in Wacky World.")
	if done(r) || !strings.Contains(r.Body, "Wacky 2, W6") {
		t.Errorf("a party created a medal:\n%s", r.Body)
	}
	// Found: picking it up transfers it and makes it public.
	h.send("2026-12-01T12:01:00Z", "Atlas <"+cm+">", "I create a medal named Gold Star in Wacky World.", contract.ChanPublic)
	m := h.data().Assets[0]
	h.place(aAddr, m.At.X, m.At.Y)
	if r := h.public("2026-12-01T12:02:00Z", alice, "I pick up the gold star in Wacky World."); !done(r) {
		t.Fatalf("pick up the medal: %s", r.Body)
	}
	if len(h.data().Assets) != 0 {
		t.Errorf("the medal is still in the World")
	}
}
