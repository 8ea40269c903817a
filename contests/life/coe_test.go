package life

import (
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
