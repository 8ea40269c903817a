//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// receiptTimeout bounds every wait for a receipt: the referee's IDLE (~0.5 s
// on Dovecot), its work, and the player's poll; far above the ~1 s measured.
const receiptTimeout = 60 * time.Second

// checkReceipt checks that rep is the referee's private receipt for a mail
// with the given subject from player, saying the action was done.
func checkReceipt(t testing.TB, rep *inMail, subject, player string) {
	t.Helper()
	if want := "Re: " + subject; !strings.HasPrefix(rep.subject, "Re: ") || !strings.Contains(rep.subject, subject) {
		t.Errorf("receipt subject %q, want %q", rep.subject, want)
	}
	if !slices.Contains(rep.to, player) {
		t.Errorf("receipt To %v, want %s", rep.to, player)
	}
	for _, l := range []string{ms.businessList, ms.officialList, ms.discussList} {
		if slices.Contains(rep.to, l) || slices.Contains(rep.cc, l) {
			t.Errorf("receipt To %v Cc %v names the list %s; a receipt is private", rep.to, rep.cc, l)
		}
	}
	if !saysDone(rep.body) {
		t.Errorf("receipt body does not say the action was done:\n%s", rep.body)
	}
}

// tallyRE matches a receipt's closing tally, "2 done, 0 not done.".
var tallyRE = regexp.MustCompile(`(?m)^(\d+) done, (\d+) not done\.`)

// saysDone reports whether a receipt's body says every action it read was
// done: each action line is followed by "Done" or "Not done: why", and the
// receipt ends with the tally.
func saysDone(body string) bool {
	m := tallyRE.FindStringSubmatch(body)
	return m != nil && m[1] != "0" && m[2] == "0" && strings.Contains(body, "Done") && !strings.Contains(body, "Not done")
}

// applied returns the journal lines that applied an action of the mail id.
func applied(lines []journalLine, id string) []journalLine {
	var out []journalLine
	for _, l := range lines {
		if l.Outcome == "applied" && trimID(l.MsgID) == id {
			out = append(out, l)
		}
	}
	return out
}

func trimID(id string) string { return strings.Trim(id, "<>") }

// joinLife makes each player join Life through the business list and waits
// for the receipts.
func joinLife(t testing.TB, players ...string) {
	t.Helper()
	ids := make([]string, len(players))
	for i, p := range players {
		ids[i] = sendOne(t, p, &outMail{to: []string{ms.businessList}, subject: "Joining Life", body: "I join the Life contest.\n"})
	}
	for i, p := range players {
		mb := openMailbox(t, p)
		checkReceipt(t, mb.waitReply(receiptTimeout, ids[i]), "Joining Life", p)
		mb.close()
	}
}

// Scenario 1: a player joins Life and claims a cell through the business
// list; each action gets a private receipt and is journaled as applied.
func TestLifeJoinAndClaim(t *testing.T) {
	r := newReferee(t)
	d := r.run()
	p1 := ms.players[0]
	mb := openMailbox(t, p1)

	steps := []struct{ subject, body string }{
		{"Joining Life", "I join the Life contest.\n"},
		{"Claim", "Hello all,\n\nI claim cell (10, 10) in Life.\n\n-- \nplayer1\n"},
	}
	var ids []string
	for _, s := range steps {
		start := time.Now()
		id := sendOne(t, p1, &outMail{to: []string{ms.businessList}, subject: s.subject, body: s.body})
		ids = append(ids, id)
		rep := mb.waitReply(receiptTimeout, id)
		checkReceipt(t, rep, s.subject, p1)
		t.Logf("receipt after %v for %q: subject %q\n%s", time.Since(start).Round(time.Millisecond), s.body, rep.subject, rep.body)
	}
	d.mustBeRunning()
	d.stop()

	j := r.journal()
	for i, id := range ids {
		got := applied(j, id)
		if len(got) != 1 {
			t.Errorf("journal: %d applied lines for %q (<%s>), want 1; journal: %+v", len(got), steps[i].body, id, j)
			continue
		}
		if got[0].Game != "life" || got[0].Player == "" {
			t.Errorf("journal line for %q: game %q player %q, want life and the player", steps[i].body, got[0].Game, got[0].Player)
		}
	}
	rep := r.report("life")
	if got, want := lifeGrid(t, rep), map[[2]int]string{{10, 10}: "player1"}; !maps.Equal(got, want) {
		t.Errorf("report life: living Cells %v, want %v; report:\n%s", got, want, rep)
	}
}

// Scenario 2: the Life weekly report reaches the official list at the
// scheduled time, reached with the test clock: after a join on the real
// clock, the daemon restarts at Sunday 23:59:30 running 60 times faster, so
// Monday 2026-12-07 00:00 UTC comes half a second later.
func TestLifeWeeklyReport(t *testing.T) {
	r := newReferee(t)
	d := r.run()
	joinLife(t, ms.players[0])
	d.stop()

	boxes := map[string]*mailbox{}
	for _, u := range append([]string{ms.cm}, ms.players...) {
		boxes[u] = openMailbox(t, u)
	}
	d = r.run("--clock-start", "2026-12-06T23:59:30Z", "--clock-rate", "60")
	const week = "2026-12-07"
	isReport := func(m *inMail) bool {
		return m.from == ms.referee && strings.Contains(m.subject, "[Life] Weekly Report") &&
			strings.Contains(m.body, week)
	}
	for u, mb := range boxes {
		got := mb.waitFor(receiptTimeout, fmt.Sprintf("Life weekly report of %s", week), func(mails []*inMail) bool {
			return slices.ContainsFunc(mails, isReport)
		})
		i := slices.IndexFunc(got, isReport)
		m := got[i]
		if !slices.Contains(m.to, ms.officialList) && !slices.Contains(m.cc, ms.officialList) {
			t.Errorf("%s: weekly report To %v Cc %v, want the official list %s", u, m.to, m.cc, ms.officialList)
		}
		if m.listID != "<agora-official.example.test>" {
			t.Errorf("%s: weekly report List-Id %q, want it through the official list", u, m.listID)
		}
		if u == ms.players[0] {
			t.Logf("%s received %q (%d lines)", u, m.subject, strings.Count(m.body, "\n"))
		}
	}
	d.mustBeRunning()
}

// gridRowRE matches a row of the report's Life Grid: Y ruler, one character
// per Cell, Y ruler (DESIGN "Grids in reports").
var gridRowRE = regexp.MustCompile(`^\s*(\d+) ([^ ]+) (\d+)$`)

// legendRE matches a legend line of the report: "  A  player1".
var legendRE = regexp.MustCompile(`^\s+([A-Za-z])\s+(\S+)$`)

// lifeGrid reads the living Cells of `referee report life`, each with its
// Controller's player name, from the grid and its legend.
func lifeGrid(t testing.TB, report string) map[[2]int]string {
	t.Helper()
	marks := map[byte]string{}
	cells := map[[2]int]byte{}
	inLegend := false
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "Legend") {
			inLegend = true
			continue
		}
		if inLegend {
			if m := legendRE.FindStringSubmatch(line); m != nil {
				marks[m[1][0]] = m[2]
				continue
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			inLegend = false
		}
		m := gridRowRE.FindStringSubmatch(line)
		if m == nil || m[1] != m[3] {
			continue
		}
		var y int
		fmt.Sscan(m[1], &y)
		for x := range len(m[2]) {
			if c := m[2][x]; c != '.' {
				cells[[2]int{x, y}] = c
			}
		}
	}
	out := map[[2]int]string{}
	for xy, c := range cells {
		name, ok := marks[c]
		if !ok {
			t.Errorf("report: Cell %v has mark %q, which the legend does not name", xy, c)
		}
		out[xy] = name
	}
	return out
}

// TestListRouting checks ruling G4 over the real lists: an action sent only to
// the discussion list performs nothing, and one sent to the business list with
// the discussion list in Cc (so the copy carries both List-Ids) counts.
func TestListRouting(t *testing.T) {
	r := newReferee(t)
	d := r.run()
	p2 := ms.players[1]
	mb := openMailbox(t, p2)
	talk := sendOne(t, p2, &outMail{to: []string{ms.discussList}, subject: "Life?", body: "I join the Life contest.\n"})
	both := sendOne(t, p2, &outMail{to: []string{ms.businessList}, cc: []string{ms.discussList}, subject: "Life!", body: "I join the Life contest.\n"})
	checkReceipt(t, mb.waitReply(receiptTimeout, both), "Life!", p2)
	d.mustBeRunning()
	d.stop()

	j := r.journal()
	if got := applied(j, talk); len(got) != 0 {
		t.Errorf("the join sent to the discussion list only was applied: %+v", got)
	}
	if got := applied(j, both); len(got) != 1 {
		t.Errorf("the join sent to business with discussion in Cc: applied %d times, want once; journal: %+v", len(got), j)
	}
	if rep := findReply(mb.mails, talk); rep != nil {
		if saysDone(rep.body) {
			t.Errorf("the reply to the discussion-only join says it was done:\n%s", rep.body)
		}
		t.Logf("reply to the discussion-only join: %q\n%s", rep.subject, rep.body)
	}
}
