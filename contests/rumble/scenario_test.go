package rumble

import (
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
	"referee/internal/bridge"
	"referee/internal/web"
	"referee/mailin"
)

// scenario replays testdata/scenario.mbox: game 1 with four contestants (a
// tied bid, a replaced bid list, a bid list over the limit, bids sent to the
// list by mistake, a missing discard, a missing action list, a contestmaster
// ruling, an amendment, kill awards and a winner), then game 2, which ends
// with no winner.
func scenario(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	h.Mbox("testdata/scenario.mbox")
	h.Advance("2026-12-22T00:00:00Z")
	return h
}

func TestScenario(t *testing.T) {
	h := scenario(t)
	h.Golden("testdata/scenario.golden")
	t.Run("verify", func(t *testing.T) { checkVerify(t, h) })
	t.Run("secrecy", func(t *testing.T) { checkSecrecy(t, h) })
	t.Run("pages", checkPageSecrecy)
	// Rumble 10, 11, U6: kills and the winner; game 2 has no winner.
	wantPoints(t, h, map[string]int{"Alice": 2, "Bob": 4, "Carol": 16, "Dave": 2})
	st := h.Data("rumble").(*State)
	if st.Phase != PhaseNone || st.Game != 2 {
		t.Errorf("after the scenario: game %d phase %q, want game 2 over", st.Game, st.Phase)
	}
	if !strings.Contains(st.Last, "no winner") {
		t.Errorf("game 2 summary %q, want no winner", st.Last)
	}
	// G9: the amendment set the deadline.
	if v := h.S.Games["rumble"].Params["Deadline"]; v != "48h0m0s" {
		t.Errorf("Deadline = %q after the amendment, want 48h0m0s", v)
	}
}

// reveals gathers the "reveals" journal details in order.
func journalReveals(t *testing.T, h *contracttest.Harness) []map[string]string {
	t.Helper()
	var out []map[string]string
	for _, e := range h.Entries {
		rs, ok := e.Detail["reveals"].([]map[string]string)
		if !ok {
			continue
		}
		out = append(out, rs...)
	}
	return out
}

// checkVerify recomputes every revealed commitment, and checks that the last
// commitment published for each contestant and phase is the one revealed:
// nothing was changed or dropped.
func checkVerify(t *testing.T, h *contracttest.Harness) {
	rs := journalReveals(t, h)
	if len(rs) < 20 {
		t.Fatalf("only %d reveals in the journal", len(rs))
	}
	published := map[string]string{} // game/contestant/phase -> last commitment
	commitRE := regexp.MustCompile(`(?m)^\s+([0-9a-f]{64})$`)
	rowRE := regexp.MustCompile(`(?m)^(\S+)\s+(\S+)\s+\d{4}-\d\d-\d\d \d\d:\d\d$`)
	gameRE := regexp.MustCompile(`Rumble game (\d+):`)
	for _, o := range h.Sent {
		if o.Channel != contract.ChanPublic || !strings.Contains(o.Subject, ": sealed ") {
			continue
		}
		c, row, g := commitRE.FindStringSubmatch(o.Body), rowRE.FindStringSubmatch(o.Body), gameRE.FindStringSubmatch(o.Subject)
		if c == nil || row == nil || g == nil {
			t.Fatalf("cannot read the commitment notice:\n%s", o.Body)
		}
		published[g[1]+"/"+row[1]+"/"+row[2]] = c[1]
	}
	seen := 0
	for _, r := range rs {
		if !VerifyCommitment(r["canonical"], r["nonce"], r["commitment"]) {
			t.Errorf("the commitment of %s %s does not verify", r["contestant"], r["phase"])
		}
		if VerifyCommitment(r["canonical"]+"x", r["nonce"], r["commitment"]) {
			t.Errorf("a changed submission of %s %s verifies", r["contestant"], r["phase"])
		}
		g := regexp.MustCompile(`^rumble game (\d+) `).FindStringSubmatch(r["canonical"])
		key := g[1] + "/" + r["contestant"] + "/" + r["phase"]
		if published[key] != r["commitment"] {
			t.Errorf("%s: revealed commitment %s, last published %s", key, r["commitment"], published[key])
		}
		seen++
	}
	if seen != len(published) {
		t.Errorf("%d commitments published, %d revealed", len(published), seen)
	}
}

// checkSecrecy scans every public and official mail of the scenario for each
// sealed bid and allocation before its reveal, and finds none. The package
// logs nothing, so the mails are all there is to scan.
func checkSecrecy(t *testing.T, h *contracttest.Harness) {
	for _, s := range sealedValues(t, h) {
		for i := s.from; i < s.until; i++ {
			o := h.Sent[i]
			if o.Channel == contract.ChanPrivate {
				continue
			}
			for _, l := range strings.Split(o.Body, "\n") {
				if strings.Contains(l, s.name) && hasToken(l, s.amount) {
					t.Errorf("%s (%s) shows %s %s before the reveal: %q", o.ID, o.Subject, s.name, s.amount, l)
				}
			}
		}
	}
}

// sealed is a sealed value (a power's bid or allocation, a defence) and its
// window in h.Sent: from its commitment notice to its reveal.
type sealed struct {
	name, amount string
	from, until  int
}

// sealedValues finds every sealed submission of the scenario (also replaced
// ones) and its window.
func sealedValues(t *testing.T, h *contracttest.Harness) []sealed {
	rs := journalReveals(t, h)
	// Every sealed submission ever made (also replaced ones), from the journal
	// of the actions: the receipts' "read as" lines.
	type secret struct {
		name, amount, canon string
	}
	var secrets []secret
	item := regexp.MustCompile(`^(bid|attack|spend|burn): (.+): (\d+)$`)
	def := regexp.MustCompile(`^defend: (\d+)$`)
	for _, r := range rs {
		for _, l := range strings.Split(r["canonical"], "\n") {
			if m := item.FindStringSubmatch(l); m != nil {
				secrets = append(secrets, secret{m[2], m[3], r["canonical"]})
			} else if m := def.FindStringSubmatch(l); m != nil {
				secrets = append(secrets, secret{r["contestant"], m[1], r["canonical"]})
			}
		}
	}
	// The replaced bid list of Alice (Iron Skin: 50) is never revealed.
	secrets = append(secrets, secret{"Iron Skin", "50", "never"})
	if len(secrets) < 15 {
		t.Fatalf("only %d sealed values found", len(secrets))
	}
	// The window of a secret: from its commitment notice (when it was sealed)
	// to its reveal.
	sealedAt := func(canon string) int {
		head := strings.SplitN(canon, "\n", 2)[0]
		g := regexp.MustCompile(`^rumble game (\d+) phase (\S+) contestant (\S+)$`).FindStringSubmatch(head)
		for i, o := range h.Sent {
			if g != nil && o.Channel == contract.ChanPublic && strings.Contains(o.Subject, "Rumble game "+g[1]+": sealed") &&
				strings.Contains(o.Body, "\n"+g[3]+" ") && strings.Contains(o.Body, " "+g[2]+" ") {
				return i
			}
		}
		return 0
	}
	revealedAt := func(canon string) int {
		for i, o := range h.Sent {
			if o.Channel != contract.ChanPrivate && strings.Contains(o.Body, "| "+strings.SplitN(canon, "\n", 2)[0]) {
				return i
			}
		}
		return len(h.Sent)
	}
	var out []sealed
	for _, s := range secrets {
		until := revealedAt(s.canon)
		if until == len(h.Sent) && s.canon != "never" {
			t.Errorf("%s %s: never revealed", s.name, s.amount)
		}
		out = append(out, sealed{s.name, s.amount, sealedAt(s.canon), until})
	}
	return out
}

// checkPageSecrecy replays the scenario message by message with the status
// page up, as `referee run` serves it: after each message and at the end it
// reads every page and feed (the index, each game, the archive and each
// archived mail, the journal, the feeds), and finds no sealed value on any
// before its reveal.
func checkPageSecrecy(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	dir := t.TempDir()
	archive := web.OpenArchive(filepath.Join(dir, "sent.jsonl"))
	journal := filepath.Join(dir, "journal.jsonl")
	srv := httptest.NewServer(web.New(web.Options{Engine: h.E, View: func(f func(*contract.State)) { f(h.S) },
		Archive: archive, Journal: journal, Now: func() time.Time { return h.S.Clock }, Referee: contracttest.Referee}))
	defer srv.Close()
	type snapshot struct {
		sent  int // len(h.Sent) when read
		path  string
		lines []string
	}
	var snaps []snapshot
	tag := regexp.MustCompile(`<[^>]*>`)
	archived, journaled := 0, 0
	read := func() {
		var newIDs []string
		for ; archived < len(h.Sent); archived++ {
			o := h.Sent[archived]
			if err := archive.Append(&o.Notice, contract.MessageID(o.ID, "example.test"), h.S.Clock); err != nil {
				t.Fatal(err)
			}
			if o.Channel != contract.ChanPrivate {
				newIDs = append(newIDs, o.ID)
			}
		}
		f, err := os.OpenFile(journal, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		for ; journaled < len(h.Entries); journaled++ {
			b, _ := json.Marshal(h.Entries[journaled])
			f.Write(append(b, '\n'))
		}
		f.Close()
		paths := []string{"/", "/game/rumble", "/archive", "/journal", "/journal?game=rumble", "/feed.atom", "/game/rumble/feed.atom", "/healthz"}
		for _, id := range newIDs {
			paths = append(paths, "/archive/"+id)
		}
		for _, p := range paths {
			resp, err := http.Get(srv.URL + p)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %s", p, resp.Status)
			}
			text := html.UnescapeString(tag.ReplaceAllString(string(b), " "))
			snaps = append(snaps, snapshot{len(h.Sent), p, strings.Split(text, "\n")})
		}
	}
	a, err := mailin.OpenArchive("testdata/scenario.mbox")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for {
		raw, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		m, err := mailin.Parse(raw.Data, raw.Arrived, contracttest.Config())
		if err != nil {
			t.Fatal(err)
		}
		cm := bridge.Message(m)
		if cm.Channel == contract.ChanPrivate {
			cm.Authenticated = true
		}
		h.Send(cm)
		read()
	}
	h.Advance("2026-12-22T00:00:00Z")
	read()
	secrets := sealedValues(t, h)
	checked := 0
	for _, s := range secrets {
		// A line already on a page before the value was sealed cannot show
		// it (an older mail in the archive, a row number that happens to be
		// equal).
		before := map[string]bool{}
		for _, sn := range snaps {
			if sn.sent <= s.from {
				for _, l := range sn.lines {
					before[l] = true
				}
			}
		}
		for _, sn := range snaps {
			if sn.sent <= s.from || sn.sent > s.until {
				continue // before the seal or after the reveal
			}
			checked++
			for _, l := range sn.lines {
				if !before[l] && strings.Contains(l, s.name) && hasToken(l, s.amount) {
					t.Errorf("%s, read with %d notices sent, shows %s %s before the reveal: %q", sn.path, sn.sent, s.name, s.amount, strings.TrimSpace(l))
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d page reads fell between a seal and its reveal", checked)
	}
}

func hasToken(line, tok string) bool {
	for _, f := range strings.Fields(line) {
		if strings.Trim(f, ",;:.()") == tok {
			return true
		}
	}
	return false
}
