package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestCitationBlock: the Citation block a notice or report ends with says
// what it covers (the mail through the last message, when there is one),
// and has a line for the parts that do not self-ratify, the open claims and
// the records self-ratified since the last only when there are some.
func TestCitationBlock(t *testing.T) {
	h := newToy(t)
	var cites []string
	for i, o := range h.Advance("2026-12-07T00:00:00Z") {
		cites = append(cites, flat(o.Body))
		// The block stands before the signature, after a blank line.
		if i == 0 && (!strings.Contains(o.Body, "\n\nCitation\n--------\nCite as: ") || !strings.Contains(o.Body, "Error is made before then.\n\n-- \nThe referee")) {
			t.Errorf("the citation is not set between the text and the signature:\n%s", o.Body)
		}
	}
	if len(cites) == 0 || !strings.Contains(cites[0], "Cite as: randomness/2026-W50/20261207T000000 Covers: journal lines 2-2 (the record through line 2). State hash") {
		t.Fatalf("the first notice's citation, before any mail: %q", cites)
	}
	h.Public("2026-12-07T10:05:00Z", alice, "I join the Toy game.")
	for _, o := range h.Advance("2026-12-14T00:00:00Z") {
		cites = append(cites, flat(o.Body))
	}
	last := cites[len(cites)-1]
	seen := false
	for _, c := range cites[1:] {
		if strings.Contains(c, "Cite as: randomness/2026-W51/") {
			seen = true
			if !strings.Contains(c, "the mail through <m1@example.test>.") ||
				!strings.Contains(c, "Self-ratified since the last: randomness/2026-W49/20261201T100000 (on 2026-12-08 10:00).") {
				t.Errorf("a notice after mail and a ratification: %s", c)
			}
		}
	}
	if !seen {
		t.Fatalf("no randomness notice for 2026-W51: %q", last)
	}
	// A claim open on the game's report: the game's next report and the
	// referee's own next notice (which covers every game) list it.
	if r := h.Public("2026-12-14T10:00:00Z", alice, "I CoE on toy/report/2026-W51: my coins."); r == nil || !strings.Contains(flat(r.Body), "Claim of Error #1 recorded") {
		t.Fatalf("the claim: %v", r)
	}
	var report, notice string
	for _, o := range h.Advance("2026-12-21T00:00:00Z") {
		switch b := flat(o.Body); {
		case strings.Contains(b, "Cite as: toy/report/2026-W52"):
			report = b
		case strings.Contains(b, "Cite as: randomness/2026-W52/"):
			notice = b
		}
	}
	for _, c := range []string{report, notice} {
		if !strings.Contains(c, "Open Claims of Error: #1 by Alice on toy/report/2026-W51") {
			t.Errorf("a citation does not list the open claim: %s", c)
		}
	}
	for _, c := range cites {
		for _, empty := range []string{"These parts do not self-ratify: .", "Open Claims of Error: --", "Self-ratified since the last: .", "the mail through <>"} {
			if strings.Contains(c, empty) {
				t.Errorf("a citation with an empty %q: %s", empty, c)
			}
		}
		if strings.Contains(c, "Open Claims of Error") {
			t.Errorf("a citation lists open claims with none made: %s", c)
		}
	}
}

// terse is the toy game with a verb whose public notice does not end its
// last line.
type terse struct{ toy }

func (g *terse) Verbs() []*contract.Verb {
	return append(g.toy.Verbs(), &contract.Verb{Name: "herald", Pattern: `herald (?P<news>.+)`, Syntax: "I herald <news> in Toy", Rule: "T1",
		Do: func(c *contract.Ctx, a *contract.Action) error {
			c.Notify(&contract.Notice{ID: "toy/herald", Channel: contract.ChanOfficial, Subject: "[Toy] Hear ye", Body: "Hear ye: " + a.Arg("news")})
			c.Did("heralded")
			return nil
		}})
}

// aliceNotice is the body of the notice id that Alice's public, authenticated
// message of text made at 10:06, as sent.
func aliceNotice(t *testing.T, h *contracttest.Harness, text, id string) string {
	t.Helper()
	at := contracttest.At(t, "2026-12-01T10:06:00Z")
	for _, n := range h.Send(&contract.Message{From: "alice@example.test", Name: "Alice", Date: at, Arrived: at, Channel: contract.ChanPublic, Authenticated: true, Text: text}) {
		if n.ID == id {
			return n.Body
		}
	}
	t.Fatalf("%q made no notice %s", text, id)
	return ""
}

// TestCitationAfterAnUnendedNotice: a game's public notice whose last line
// has no newline (and no signature) keeps that line whole, and its Citation
// block follows after a blank line, as after any other notice.
func TestCitationAfterAnUnendedNotice(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &terse{})
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	body := aliceNotice(t, h, "I herald the spring in Toy.", "toy/herald")
	if !strings.HasPrefix(body, "Hear ye: the spring\n\nCitation\n--------\nCite as: toy/herald\n") {
		t.Errorf("the notice's last line and its citation:\n%s", body)
	}
}
