package contract_test

import (
	"strings"
	"testing"
	"time"

	"referee/contract"
)

// TestNameChangeFollowsIntents: a player who changes name keeps each part
// they have in an intent (G7): Alice, renamed, still resolves the intent she
// tabled; Bob and Carol, renamed, withdraw the support and the objection
// they gave under their old names; a name another player holds is refused.
func TestNameChangeFollowsIntents(t *testing.T) {
	h := joined(t)
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, with Agoran consent, to reset the Toy rounds.")
	h.Public("2026-12-01T10:11:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T10:12:00Z", carol, "I object to intent #1.")
	h.Public("2026-12-01T10:13:00Z", dan, "I support intent #1.")
	for _, c := range []struct{ from, text, want string }{
		{alice, "I change my name to Alicia.", "you are now known as Alicia (before: Alice)"},
		{bob, "I change my name to Dan.", `the name "Dan" is taken (guide: Naming players)`},
		{bob, "I change my name to Robert.", "you are now known as Robert (before: Bob)"},
		{carol, "I change my name to Caroline.", "you are now known as Caroline (before: Carol)"},
		{bob, "I withdraw my support to intent #1.", "Done: your support of intent #1 is withdrawn"},
		{carol, "I withdraw my objection to intent #1.", "Done: your objection to intent #1 is withdrawn"},
		{alice, "I do so.", "Done: the Toy rounds are reset"},
	} {
		at := "2026-12-05T11:00:00Z"
		if r := h.Public(at, c.from, c.text); r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%s: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
	}
}

// TestNameEpochMovesWithARename: contract.NameEpoch is another number once
// a player changed name, so that a game keeping names follows the change
// (Steemfield's members, cells and votes).
func TestNameEpochMovesWithARename(t *testing.T) {
	h := joined(t)
	before := contract.NameEpoch()
	if r := h.Public("2026-12-01T10:10:00Z", alice, "I change my name to Alicia."); r == nil || !strings.Contains(flat(r.Body), "you are now known as Alicia") {
		t.Fatalf("the rename was not done: %v", r)
	}
	if after := contract.NameEpoch(); after == before {
		t.Errorf("the name epoch was %d before the rename and %d after", before, after)
	}
}

// TestNameRefusedNotCut: a name the referee would have to alter to keep it
// (longer than 40 bytes, or holding a quotation mark, angle bracket, comma
// or semicolon) is refused, naming the limit, and the name stays; it was cut
// or stripped without a word ("Bartholomew Fitzgerald-Montgomery III Es",
// "iZoë/i & Co" for "<i>Zoë</i> & "Co""), and the page and reports then
// showed a name the player never chose. Inner spaces are still made one.
func TestNameRefusedNotCut(t *testing.T) {
	h := joined(t)
	for _, c := range []struct{ text, want string }{
		{"I change my name to Bartholomew Fitzgerald-Montgomery III Esq.", `a name is at most 40 bytes long; "Bartholomew Fitzgerald-Montgomery III Esq" has 41 (guide: Naming players)`},
		{`I change my name to <i>Zoë</i> & "Co"`, `a name may not hold quotation marks, angle brackets, commas or semicolons (guide: Naming players)`},
		{"I change my name to Lee, Alice", `a name may not hold quotation marks, angle brackets, commas or semicolons (guide: Naming players)`},
	} {
		r := h.Public("2026-12-01T11:00:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), "Not done: "+c.want) {
			t.Errorf("%s: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
		if p := h.S.PlayerByAddress("alice@example.test"); p == nil || p.Name != "Alice" {
			t.Errorf("%s: Alice is now %v", c.text, p)
		}
	}
	if r := h.Public("2026-12-01T11:00:00Z", alice, "I change my name to Alys   of  Wonderland & Co's"); r == nil || !strings.Contains(flat(r.Body), "you are now known as Alys of Wonderland & Co's (before: Alice)") {
		t.Errorf("a name with an ampersand and an apostrophe: %v", r)
	}
}

// TestNameRefusalsCiteTheGuide: a refusal of a name cites the section of the
// players' guide that says how players are named, by a heading the HELP reply
// shows, not "(players)", which names nothing a player can look up.
func TestNameRefusalsCiteTheGuide(t *testing.T) {
	h := joined(t)
	const cite = "(guide: Naming players)"
	for _, c := range []struct{ text, want string }{
		{"I transfer 1 coin to Frank.", `no player is known as "Frank" ` + cite},
		{"I change my name to Bob.", `the name "Bob" is taken ` + cite},
	} {
		r := h.Public("2026-12-05T11:00:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%s: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
	}
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: h.S.Clock.Add(time.Minute), Channel: contract.ChanPrivate, Text: "help"})
	if len(ns) != 1 {
		t.Fatalf("help: %d replies, want 1", len(ns))
	}
	section, ok := strings.CutPrefix(contract.NamingRule, "guide: ")
	if !ok || !strings.Contains(ns[0].Body, "\n"+section+"\n"+strings.Repeat("-", len(section))+"\n") {
		t.Errorf("the HELP reply has no heading %q for the citation %q:\n%s", section, contract.NamingRule, ns[0].Body)
	}
}
