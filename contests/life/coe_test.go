package life

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// Three weeks of Life with Claims of Error, mbox in, mails out, golden: two
// previews answered without changing anything, a public claim made by a reply
// to the weekly report, a private claim on a Randomness notice naming the
// game, a claim by a reply to a receipt, bad forms answered with the syntax, a
// denial by someone else refused, the contestmaster's denial published and the
// report's clock restarted, the open claims listed in the next reports, and
// the report ratifying a period after the denial.
func TestScenarioClaimsOfError(t *testing.T) {
	h := newHarness(t, "2026-11-16T12:00:00Z")
	h.Mbox("testdata/coe.mbox")
	h.Advance("2026-12-07T01:00:00Z")
	h.Golden("testdata/coe.golden")

	by := func(id string) *contract.Outgoing {
		t.Helper()
		for _, o := range h.Sent {
			if o.ID == id {
				return o
			}
		}
		t.Fatalf("no notice %s", id)
		return nil
	}
	// The previews: answered privately with the receipt they would get,
	// and the state as it was (the two previews come first in the archive).
	p := by("preview/coe3.alice@example.test")
	if p.Channel != contract.ChanPrivate || !strings.Contains(p.Body, "nothing was performed") || !strings.Contains(p.Body, "Not done") {
		t.Errorf("preview reply:\n%s", p.Body)
	}
	if q := by("preview/coe4.bob@example.test"); !strings.Contains(q.Body, "Done") {
		t.Errorf("the preview of a public action, sent privately, is not read as if posted:\n%s", q.Body)
	}
	for _, o := range h.Sent {
		if o.ID == "receipt/coe3.alice@example.test" || o.ID == "receipt/coe4.bob@example.test" {
			t.Errorf("a preview was also performed: %s", o.ID)
		}
	}
	for _, en := range h.Entries {
		if en.MsgID == "coe3.alice@example.test" || en.MsgID == "coe4.bob@example.test" {
			t.Errorf("a preview left a journal line: %+v", en)
		}
	}

	// The claims, acknowledged with their numbers.
	for id, want := range map[string]string{
		"receipt/coe5.bob@example.test":   "Claim of Error #1 recorded on life/report/2026-W48; its self-ratification is stopped",
		"receipt/coe6.alice@example.test": "Claim of Error #2 recorded on randomness/2026-W48/20261123T000000",
		"receipt/coe11.bob@example.test":  "Claim of Error #3 recorded on receipt/coe2.bob@example.test",
		"receipt/coe7.alice@example.test": "the form is: I CoE on <report>: <what is wrong>",
		"receipt/coe8.carol@example.test": "there is no report or notice \"life/report/2026-W99\"",
		"receipt/coe9.bob@example.test":   "only the contestmaster of Life can answer Claim of Error #2",
		"receipt/coe10.cm@example.test":   "the form is: I deny CoE #N: <reason>",
	} {
		if got := by(id).Body; !strings.Contains(flat(got), flat(want)) {
			t.Errorf("%s lacks %q:\n%s", id, want, got)
		}
	}
	// Each claim is put to the contestmaster (G8).
	for _, id := range []string{"life/ruling/1", "life/ruling/2", "life/ruling/3"} {
		if o := by(id); o.Channel != contract.ChanPrivate || o.To[0] != contracttest.Contestmaster || !strings.Contains(o.Body, "I deny CoE #") {
			t.Errorf("%s: %v %v\n%s", id, o.Channel, o.To, o.Body)
		}
	}
	// The denial is published and the clock restarts.
	d := by("life/coe/1/denied")
	if d.Channel != contract.ChanOfficial || !strings.Contains(flat(d.Body), "died in the Round of 23 November") ||
		!strings.Contains(flat(d.Body), "life/report/2026-W48 now self-ratifies on 2026-12-02 09:00 UTC") {
		t.Errorf("denial:\n%s", d.Body)
	}
	// The next report lists the open claims, a private one without its words.
	w49 := by("life/report/2026-W49").Body
	for _, want := range []string{"Open Claims of Error:", "#2 by Alice on randomness/2026-W48/20261123T000000", "made privately", "#3 by Bob on receipt/coe2.bob@example.test"} {
		if !strings.Contains(flat(w49), want) {
			t.Errorf("the W49 report lacks %q:\n%s", want, w49)
		}
	}
	for _, o := range h.Sent {
		if o.Channel.IsPublic() && strings.Contains(o.Body, "cell (12, 12)") {
			t.Errorf("the words of a private claim reached the list in %s", o.ID)
		}
	}
	// The claimed report ratified a period after the denial; the one under
	// an open claim did not.
	if x := cited(h, "life/report/2026-W48"); x == nil || x.Status != "ratified" || !x.Ratified.Equal(contracttest.At(t, "2026-12-02T09:00:00Z")) {
		t.Errorf("life/report/2026-W48: %+v", x)
	}
	if x := cited(h, "randomness/2026-W48/20261123T000000"); x == nil || x.Status != "claimed" {
		t.Errorf("the notice under open claim #2: %+v", x)
	}
	// The next notice of the game (the Notice of Award) says so.
	if !strings.Contains(flat(by("life/award/2026-12").Body), "Self-ratified since the last: life/report/2026-W48 (on 2026-12-02 09:00)") {
		t.Errorf("the next Life notice does not say that W48 ratified:\n%s", by("life/award/2026-12").Body)
	}
	if len(h.S.Claims) != 2 {
		t.Errorf("open claims: %d, want 2 (#2 and #3)", len(h.S.Claims))
	}

	// The same mail on a fresh state gives the same hashes.
	h2 := newHarness(t, "2026-11-16T12:00:00Z")
	h2.Mbox("testdata/coe.mbox")
	h2.Advance("2026-12-07T01:00:00Z")
	hashes := func(h *contracttest.Harness) []string {
		var out []string
		re := regexp.MustCompile(`(?m)^  ([0-9a-f]{64})$`)
		for _, o := range h.Sent {
			for _, m := range re.FindAllStringSubmatch(o.Body, -1) {
				out = append(out, o.ID+" "+m[1])
			}
		}
		return out
	}
	a, b := hashes(h), hashes(h2)
	if len(a) < 10 || strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("the replay's hashes differ or are too few (%d, %d)", len(a), len(b))
	}
	for _, x := range h.S.Cites() {
		got, err := contract.StateHash(h.S, x.Game, 0, time.Time{})
		if err != nil || got == x.Hash {
			t.Errorf("the hash of %s does not depend on the journal line and time: %v", x.ID, err)
		}
	}
}

func cited(h *contracttest.Harness, id string) *contract.Cited {
	for _, x := range h.S.Cites() {
		if x.ID == id {
			return &x
		}
	}
	return nil
}

// TestCorrectionAdjustsCells: the contestmaster's correction by mail "at
// <time>, Cell (x, y) is Controlled by <player>" or "is Dead" (where no
// message is at fault) changes the map from that time; the revision shows
// the adjustment with what the Cell was, and the Cell's Controller before
// and after. A Cell off the map (R7), a player who is not a contestant
// (R16), an unknown player and a change Life does not read are refused to
// the contestmaster, and change nothing.
func TestCorrectionAdjustsCells(t *testing.T) {
	h := recordedJoins(t, alice, bob, carol)
	done(t, h.Public("2026-11-16T13:03:00Z", carol, "I leave the Life contest."), "Done")
	done(t, h.Public("2026-11-16T13:04:00Z", alice, "I claim cell (10, 10) in Life."), "Done")
	for i, c := range []struct {
		change string
		want   []string // in the revision, or in the refusal to the contestmaster
		cells  string   // Alice's, Bob's after
	}{
		{"Cell (10, 10) is Controlled by Bob", []string{"now: applied: Cell (10, 10) is Controlled by Bob (was Controlled by Alice)", "Life: Cell (10, 10) Alice Bob"}, "|10,10"},
		{"Cell (10, 10) is Dead", []string{"now: applied: Cell (10, 10) is Dead (was Controlled by Bob)", "Life: Cell (10, 10) Bob (none)"}, "|"},
		{"cell (11, 10) is controlled by Alice", []string{"now: applied: Cell (11, 10) is Controlled by Alice (was Dead)", "Life: Cell (11, 10) (none) Alice"}, "11,10|"},
		{"Cell (51, 10) is Dead", []string{"Cell (51, 10) does not exist: X runs 0..50 and Y 0..50 (Life R7)"}, "11,10|"},
		{"Cell (12, 10) is Controlled by Carol", []string{"Carol is not a contestant, so cannot Control a Cell (Life R16)"}, "11,10|"},
		{"Cell (12, 10) is Controlled by Zed", []string{`no player is known as "Zed"`}, "11,10|"},
		{"Cells (12, 10) and (13, 10) are Dead", []string{`Life does not read the adjustment "Cells (12, 10) and (13, 10) are Dead"`}, "11,10|"},
	} {
		at := contracttest.At(t, "2026-11-16T14:00:00Z").Add(time.Duration(i) * time.Minute)
		msg := func(from, text string, after time.Duration) *contract.Message {
			return &contract.Message{From: from, Date: at.Add(after), Arrived: at.Add(after), Subject: "CoE",
				Channel: contract.ChanPrivate, Authenticated: true, Text: text}
		}
		done(t, contracttest.Receipt(h.Send(msg("bob@example.test", "I CoE on randomness/2026-W47/20261116T120000: the map is wrong.", 0))),
			fmt.Sprintf("Claim of Error #%d recorded", i+1))
		n := len(h.Entries)
		done(t, contracttest.Receipt(h.Send(msg(contracttest.Contestmaster, fmt.Sprintf("I correct CoE #%d: at 2026-11-16 13:30, %s (Life R15).", i+1, c.change), time.Second))),
			fmt.Sprintf("correction of CoE #%d accepted: at 2026-11-16 13:30 UTC, %s (Life R15)", i+1, c.change))
		fixes := contract.Corrections(h.Entries[n:])
		if len(fixes) != 1 {
			t.Fatalf("%s: %d corrections journaled", c.change, len(fixes))
		}
		_, out, err := h.Correct(at.Add(2*time.Second).Format(time.RFC3339), fixes[0], func(string) bool { return false })
		body := ""
		for _, o := range out {
			if o.ID == fmt.Sprintf("revision/%d", i+1) || strings.HasPrefix(o.ID, fmt.Sprintf("correction/%d/refused/", i+1)) {
				body = o.Body
			}
		}
		if len(c.want) == 1 && err == nil {
			t.Errorf("%s: not refused", c.change)
		}
		for _, w := range c.want {
			if !strings.Contains(flat(body), w) {
				t.Errorf("%s: the revision or refusal lacks %q:\n%s", c.change, w, body)
			}
		}
		if got := cellsOf(h, "alice@example.test") + "|" + cellsOf(h, "bob@example.test"); got != c.cells {
			t.Errorf("%s: Alice's and Bob's Cells %q, want %q", c.change, got, c.cells)
		}
	}
}
