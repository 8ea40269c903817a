package wackyworld

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestAmendWithoutObjections: a party amends the contract without three
// objections (Wacky 1, G7); a SET change applies to the parameter and the
// amended text is published (G9).
func TestAmendWithoutObjections(t *testing.T) {
	h := world(t)
	if r := h.public("2026-12-01T12:00:00Z", alice, "I intend, without 3 objections, to amend the Wacky World contract: SET DonorYPoints = 3"); !done(r) {
		t.Fatalf("intent: %s", r.Body)
	}
	// Too early (4 days, G7).
	if r := h.public("2026-12-03T12:00:00Z", alice, "I do so."); done(r) {
		t.Fatalf("resolved before 4 days:\n%s", r.Body)
	}
	ns := h.send("2026-12-05T12:00:00Z", alice, "I do so.", contract.ChanPublic)
	if r := contracttest.Receipt(ns); !done(r) {
		t.Fatalf("do so: %s", r.Body)
	}
	if got := h.s.Games[ID].Params[ParamDonor]; got != "3" {
		t.Errorf("DonorYPoints = %q, want 3", got)
	}
	var pub *contract.Notice
	for _, n := range ns {
		if n.Channel == contract.ChanPublic {
			pub = n
		}
	}
	if pub == nil || !strings.Contains(pub.Body, "7. CHANGES") || !strings.Contains(pub.Body, "SET DonorYPoints = 3") || !strings.Contains(pub.Body, "1. BOILERPLATE") {
		t.Fatalf("no published amended text: %+v", pub)
	}
	for _, l := range strings.Split(pub.Body, "\n") {
		if len([]rune(l)) > 72 {
			t.Errorf("line over 72 columns: %q", l)
		}
	}
	// The new value applies: a pick-up now earns the donor 3 y-points.
	h.public("2026-12-05T12:01:00Z", bob, "I drop a boot in Wacky World.")
	h.place(aAddr, 9, 9)
	h.advance("2026-12-07T00:00:00Z")
	h.public("2026-12-07T00:01:00Z", alice, "I pick up the boot in Wacky World.")
	if got := h.s.Score("Bob", ID); got != 3 {
		t.Errorf("donor score %d, want 3", got)
	}
}

// TestAmendIntentNoChangeCanMake: an intent to amend with a change no
// amendment could make (a SELECT, a parameter Wacky World does not have, a
// value its parameter cannot take) is refused when it is announced, naming
// why (G9, G7), and tables nothing, where it was tabled and refused 4 days
// later; a non-party's intent is still tabled, since e may join before
// doing it (guide, decision 9).
func TestAmendIntentNoChangeCanMake(t *testing.T) {
	h := world(t)
	for _, c := range []struct{ change, want string }{
		{"SELECT original", "Not done: Wacky World has no variants to SELECT"},
		{"SET Colour = blue", `Not done: Wacky World has no parameter "Colour"`},
		{"SET Width = wide", `Not done: Width must be a whole number, not "wide"`},
	} {
		r := h.public("2026-12-01T12:00:00Z", alice, "I intend, without 3 objections, to amend the Wacky World contract: "+c.change)
		if done(r) || !strings.Contains(strings.Join(strings.Fields(r.Body), " "), c.want) {
			t.Errorf("an intent to amend with %q: the receipt lacks %q:\n%s", c.change, c.want, r.Body)
		}
	}
	if len(h.s.Intents) != 0 {
		t.Errorf("intents tabled: %+v", h.s.Intents)
	}
	if r := h.public("2026-12-01T12:01:00Z", carol, "I intend, without 3 objections, to amend the Wacky World contract: SET Width = 20"); !done(r) {
		t.Errorf("a non-party's intent was refused:\n%s", r.Body)
	}
}

// TestAmendStricterIntent: an amendment announced "without objection", a
// stronger requirement than the contract's three (guide decision 9, G7), is
// judged as announced: the receipt says so and one objection stops it.
func TestAmendStricterIntent(t *testing.T) {
	h := world(t)
	r := h.public("2026-12-01T12:00:00Z", alice, "I intend, without objection, to amend the Wacky World contract: SET DonorYPoints = 3")
	if !done(r) || !strings.Contains(strings.Join(strings.Fields(r.Body), " "), "SET DonorYPoints = 3, without objection;") {
		t.Fatalf("intent receipt:\n%s", r.Body)
	}
	h.public("2026-12-02T12:00:00Z", bob, "I object to intent #1.")
	if r := h.public("2026-12-05T12:00:00Z", alice, "I do so."); done(r) || !strings.Contains(r.Body, "1 objection: Bob") {
		t.Fatalf("one objection did not stop it:\n%s", r.Body)
	}
	if got := h.s.Games[ID].Params[ParamDonor]; got != "2" {
		t.Errorf("DonorYPoints = %q, want 2", got)
	}
}

func TestAmendBlockedAndTextOnly(t *testing.T) {
	h := world(t)
	h.public("2026-12-01T10:30:00Z", carol, "I join Wacky World.")
	h.public("2026-12-01T10:31:00Z", "Dave <dave@example.test>", "I join Wacky World.")
	h.public("2026-12-01T12:00:00Z", alice, "I intend, without 3 objections, to amend the Wacky World contract: SET Width = 20")
	for i, who := range []string{bob, carol, "Dave <dave@example.test>"} {
		if r := h.public("2026-12-02T12:0"+string(rune('0'+i))+":00Z", who, "I object to intent #1."); !done(r) {
			t.Fatalf("object: %s", r.Body)
		}
	}
	if r := h.public("2026-12-05T12:00:00Z", alice, "I do so."); done(r) || !strings.Contains(r.Body, "objection") {
		t.Errorf("amendment with 3 objections was performed:\n%s", r.Body)
	}
	if h.data().width() != 16 {
		t.Errorf("width changed")
	}
	// A non-party cannot amend (Wacky 1).
	h2 := world(t)
	h2.public("2026-12-01T12:00:00Z", carol, "I intend, without objection, to amend the Wacky World contract: SET Width = 20")
	if r := h2.public("2026-12-05T12:00:00Z", carol, "I do so."); done(r) || !strings.Contains(r.Body, "Wacky 1") {
		t.Errorf("a non-party amended:\n%s", r.Body)
	}
	// A text-only amendment is recorded and the contestmaster is asked (G9).
	h3 := world(t)
	h3.public("2026-12-01T12:00:00Z", alice, "I intend, without objection, to amend the Wacky World contract by appending: parties SHOULD greet each other")
	ns := h3.send("2026-12-05T12:00:00Z", alice, "I do so.", contract.ChanPublic)
	var ask *contract.Notice
	for _, n := range ns {
		if n.Kind == "ruling" {
			ask = n
		}
	}
	if ask == nil || ask.To[0] != cm {
		t.Fatalf("no ruling request to the contestmaster: %+v", ns)
	}
	h3.send("2026-12-05T13:00:00Z", "Atlas <"+cm+">", "I rule on #1: it is advice only.", contract.ChanPrivate)
	if got := h3.data().Changes[0].Ruling; got != "it is advice only" {
		t.Errorf("ruling %q", got)
	}
}

// TestModification: Atlas modifies the contract in its first two weeks; a party
// opposes within 24 hours and the change is undone (Wacky 1).
func TestModification(t *testing.T) {
	h := world(t)
	atlas := "Atlas <" + cm + ">"
	if r := h.public("2026-12-01T12:00:00Z", bob, "I modify the Wacky World contract: SET Width = 20"); done(r) || !strings.Contains(r.Body, "Wacky 1") {
		t.Errorf("a party modified the contract:\n%s", r.Body)
	}
	if r := h.public("2026-12-01T12:00:00Z", atlas, "I modify the Wacky World contract: SET Width = 20"); !done(r) {
		t.Fatalf("modify: %s", r.Body)
	}
	if h.data().width() != 20 {
		t.Fatalf("width %d, want 20", h.data().width())
	}
	ns := h.send("2026-12-02T11:00:00Z", bob, "I oppose modification #1 in Wacky World.", contract.ChanPublic)
	if r := contracttest.Receipt(ns); !done(r) {
		t.Fatalf("oppose: %s", r.Body)
	}
	for _, n := range ns {
		if n.Channel == contract.ChanPublic && (!strings.Contains(n.Body, "Undone: Width is 16 again (Wacky 1).") || strings.Contains(n.Body, "Applied:")) {
			t.Errorf("the notice of the opposition does not say the change is undone:\n%s", n.Body)
		}
	}
	if h.data().width() != 16 || h.s.Games[ID].Params[ParamWidth] != "16" {
		t.Errorf("opposed modification not undone: width %d", h.data().width())
	}
	// An unopposed modification stands after 24 hours; opposing later fails.
	h.public("2026-12-02T12:00:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 2")
	h.advance("2026-12-03T12:00:00Z")
	if ch := h.data().Changes[1]; ch.Status != statusInForce {
		t.Errorf("modification #2 status %q, want in force", ch.Status)
	}
	if r := h.public("2026-12-03T13:00:00Z", bob, "I oppose modification #2 in Wacky World."); done(r) {
		t.Errorf("opposed after 24 hours")
	}
	// After two weeks the paragraph has repealed itself.
	if r := h.public("2026-12-15T10:00:00Z", atlas, "I modify the Wacky World contract: SET Width = 30"); done(r) || !strings.Contains(r.Body, "repealed") {
		t.Errorf("modified after two weeks:\n%s", r.Body)
	}
}

// TestRulingTimeout: without the contestmaster's answer, a text-only change
// is recorded with the default that silence means (G8, G9).
func TestRulingTimeout(t *testing.T) {
	h := world(t)
	h.public("2026-12-01T12:00:00Z", alice, "I intend, without objection, to amend Wacky World: parties SHOULD greet each other")
	if r := h.public("2026-12-05T12:00:00Z", alice, "I do so."); !done(r) {
		t.Fatalf("do so: %s", r.Body)
	}
	if got := h.data().Changes[0].Ruling; got != "" {
		t.Fatalf("ruling %q before any answer", got)
	}
	h.advance("2026-12-07T12:00:01Z")
	if got := h.data().Changes[0].Ruling; !strings.Contains(got, "changes nothing the referee enforces") || !strings.Contains(got, "G8") {
		t.Errorf("ruling after the deadline %q, want the default", got)
	}
}

// TestResize: a changed Height resizes the World as a changed Width does,
// and neither shrinks it past a party (Wacky 3, guide decision 11): Bob
// stands on (9, 9), so 9 rows or columns are refused and 10 are not.
func TestResize(t *testing.T) {
	h := world(t)
	atlas := "Atlas <" + cm + ">"
	for _, p := range []string{ParamWidth, ParamHeight} {
		r := h.public("2026-12-01T12:00:00Z", atlas, "I modify the Wacky World contract: SET "+p+" = 9")
		if got := strings.Join(strings.Fields(r.Body), " "); done(r) || !strings.Contains(got, "Bob stands on (9, 9), outside a") || !strings.Contains(got, "(G9, Wacky 3)") {
			t.Errorf("%s = 9 with Bob on (9, 9):\n%s", p, r.Body)
		}
	}
	if r := h.public("2026-12-01T12:01:00Z", atlas, "I modify the Wacky World contract: SET Height = 10"); !done(r) {
		t.Fatalf("Height = 10: %s", r.Body)
	}
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Body, "The World is 16 by 10") {
		t.Errorf("the report after Height = 10:\n%s", rep.Body)
	}
	// Growing adds Fallow rows below and keeps the terrain above.
	h.terrain("3,9=#")
	if r := h.public("2026-12-01T12:02:00Z", atlas, "I modify the Wacky World contract: SET Height = 12"); !done(r) {
		t.Fatalf("Height = 12: %s", r.Body)
	}
	rep, err = h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The World is 16 by 12", "\n 9 ...#....", "\n10 ..........", "\n11 .........."} {
		if !strings.Contains(rep.Body, want) {
			t.Errorf("the report after Height = 12 lacks %q:\n%s", want, rep.Body)
		}
	}
}

// TestOpposeByNumber: with two modifications open, a party opposes the one
// named and the other stands; without a number, the opposition is refused,
// and once only one is open it opposes that one (Wacky 1). Each
// modification's receipt names its 24 hours.
func TestOpposeByNumber(t *testing.T) {
	h := world(t)
	atlas := "Atlas <" + cm + ">"
	before := h.gameSnap()
	if r := h.public("2026-12-01T11:00:00Z", bob, "I oppose the modification in Wacky World."); done(r) || !strings.Contains(r.Body, "no modification can be opposed now") {
		t.Errorf("an opposition with no modification open:\n%s", r.Body)
	}
	// G9: Wacky World has parameters and no variants.
	if r := h.public("2026-12-01T11:01:00Z", atlas, "I modify the Wacky World contract: SELECT Hard"); done(r) || !strings.Contains(r.Body, "no variants to SELECT") {
		t.Errorf("a SELECT modification:\n%s", r.Body)
	}
	if h.gameSnap() != before {
		t.Errorf("the refused actions changed the state")
	}
	r := h.public("2026-12-01T12:00:00Z", atlas, "I modify the Wacky World contract: SET Width = 20")
	if got := strings.Join(strings.Fields(r.Body), " "); !done(r) || !strings.Contains(got, "parties can oppose it until 2026-12-02 12:00 UTC") {
		t.Fatalf("modification #1's receipt does not give 24 hours:\n%s", r.Body)
	}
	if r := h.public("2026-12-01T12:30:00Z", atlas, "I modify the Wacky World contract: SET BuildXCost = 2"); !done(r) {
		t.Fatalf("modification #2: %s", r.Body)
	}
	before = h.gameSnap()
	if r := h.public("2026-12-01T13:00:00Z", bob, "I oppose the modification in Wacky World."); done(r) || !strings.Contains(strings.Join(strings.Fields(r.Body), " "), "several modifications are open") {
		t.Errorf("an opposition naming no modification, with two open:\n%s", r.Body)
	}
	if h.gameSnap() != before {
		t.Errorf("the refused opposition changed the state")
	}
	ns := h.send("2026-12-01T13:01:00Z", bob, "I oppose modification #1 in Wacky World.", contract.ChanPublic)
	if r := contracttest.Receipt(ns); !done(r) {
		t.Fatalf("oppose #1: %s", r.Body)
	}
	told := false
	for _, n := range ns {
		told = told || n.Channel == contract.ChanPublic && strings.Contains(strings.Join(strings.Fields(n.Body), " "), "Bob opposed Atlas's modification #1")
	}
	if !told {
		t.Errorf("no public notice that Bob opposed modification #1")
	}
	if r := h.public("2026-12-01T13:02:00Z", alice, "I oppose modification #1 in Wacky World."); done(r) || !strings.Contains(r.Body, "modification #1 was already opposed") {
		t.Errorf("modification #1 opposed twice:\n%s", r.Body)
	}
	if w, c := h.s.Games[ID].Params[ParamWidth], h.s.Games[ID].Params[ParamBuild]; w != "16" || c != "2" {
		t.Errorf("after opposing #1: Width %s, BuildXCost %s; want 16 and 2", w, c)
	}
	// Only #2 is open now: an opposition naming no modification opposes it.
	ns = h.send("2026-12-01T13:03:00Z", alice, "I oppose the modification in Wacky World.", contract.ChanPublic)
	if r := contracttest.Receipt(ns); !done(r) {
		t.Fatalf("an opposition naming no modification, with only #2 open:\n%s", r.Body)
	}
	told = false
	for _, n := range ns {
		told = told || n.Channel == contract.ChanPublic && strings.Contains(strings.Join(strings.Fields(n.Body), " "), "Alice opposed Atlas's modification #2")
	}
	if !told {
		t.Errorf("no public notice that Alice opposed modification #2")
	}
	if c := h.s.Games[ID].Params[ParamBuild]; c != "1" {
		t.Errorf("after opposing #2: BuildXCost %s, want 1 again", c)
	}
}

// TestReportChanges: the report's table of changes says which text-only
// change waits for the contestmaster's ruling and which was ruled; an
// opposed one is only "opposed" (G8, G9, Wacky 1).
func TestReportChanges(t *testing.T) {
	h := world(t)
	atlas := "Atlas <" + cm + ">"
	for i, text := range []string{"parties SHOULD greet each other", "parties SHOULD wave", "parties SHOULD bow"} {
		if r := h.public(fmt.Sprintf("2026-12-01T12:0%d:00Z", i), atlas, "I modify the Wacky World contract: "+text); !done(r) {
			t.Fatalf("modification #%d: %s", i+1, r.Body)
		}
	}
	if r := h.public("2026-12-01T13:00:00Z", bob, "I oppose modification #3 in Wacky World."); !done(r) {
		t.Fatalf("oppose #3: %s", r.Body)
	}
	h.send("2026-12-01T14:00:00Z", atlas, "I rule on #2: it is advice only.", contract.ChanPrivate)
	rep, err := h.e.Report(h.s, ID, mustTime(t, "2026-12-02T00:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"1": "open, needs the contestmaster's ruling", "2": "open, ruled", "3": "opposed"}
	got := map[string]string{}
	for _, l := range strings.Split(rep.Body, "\n") {
		if f := strings.Fields(l); len(f) > 5 && want[f[0]] != "" && f[1] == "modification" {
			got[f[0]] = strings.Join(f[5:], " ")
		}
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("change #%s's status in the report %q, want %q:\n%s", id, got[id], w, rep.Body)
		}
	}
}

// TestOpposeTwice: a second opposition to a modification within its 24
// hours is refused for what it is, a modification already opposed and
// undone, not for a time that has not run out; it changes nothing
// (Wacky 1).
func TestOpposeTwice(t *testing.T) {
	h := world(t)
	if r := h.public("2026-12-01T12:00:00Z", "Atlas <"+cm+">", "I modify the Wacky World contract: SET Width = 20"); !done(r) {
		t.Fatalf("modify: %s", r.Body)
	}
	if r := h.public("2026-12-01T12:05:00Z", bob, "I oppose modification #1 in Wacky World."); !done(r) {
		t.Fatalf("oppose: %s", r.Body)
	}
	before := h.gameSnap()
	for _, who := range []string{bob, alice} {
		r := h.public("2026-12-01T12:10:00Z", who, "I oppose modification #1 in Wacky World.")
		if done(r) || !strings.Contains(r.Body, "modification #1 was already opposed") || strings.Contains(r.Body, "no longer") {
			t.Errorf("second opposition by %s:\n%v", who, r)
		}
	}
	if after := h.gameSnap(); after != before {
		t.Errorf("the refused opposition changed the game:\nbefore %s\nafter %s", before, after)
	}
}

// TestModificationNoticesNameTheModification: the public notices of a
// modification and of its opposition say that the modification, not the
// contract, is treated as if it had never been made (Wacky 1).
func TestModificationNoticesNameTheModification(t *testing.T) {
	h := world(t)
	made := h.send("2026-12-01T12:00:00Z", "Atlas <"+cm+">", "I modify the Wacky World contract: SET Width = 20", contract.ChanPublic)
	opposed := h.send("2026-12-01T12:05:00Z", bob, "I oppose modification #1 in Wacky World.", contract.ChanPublic)
	for _, c := range []struct {
		ns   []*contract.Notice
		want string
	}{
		{made, "if opposed, the contract is treated as if the modification had never been made."},
		{opposed, "so the contract is treated as if the modification had never been made (Wacky 1)."},
	} {
		found := false
		for _, n := range c.ns {
			if n.Channel == contract.ChanPublic {
				body := strings.Join(strings.Fields(n.Body), " ")
				found = found || strings.Contains(body, c.want)
				if strings.Contains(body, "as if it had never been made") {
					t.Errorf("the notice reads as if the contract had never been made:\n%s", n.Body)
				}
			}
		}
		if !found {
			t.Errorf("no public notice says %q", c.want)
		}
	}
}

// "I modify the contract of Wacky World: SET Width = 20" (and "I amend the
// contract of Wacky World: ...") was done with the text "of Wacky World:
// SET Width = 20": the change's title and the record quoted those words,
// and a correction of the message wrote as the contract reads it (without
// them) did not keep its number. The game's name after "contract of" is
// read as part of the verb, as "the Wacky World contract" is (for
// "amend" too, which reads the same words).
func TestChangeOfTheContractOfWackyWorld(t *testing.T) {
	h := world(t)
	atlas := "Atlas <" + cm + ">"
	if r := h.public("2026-12-01T12:00:00Z", atlas, "I modify the contract of Wacky World: SET Width = 20"); !done(r) {
		t.Fatalf("modify: %s", r.Body)
	}
	if h.data().width() != 20 {
		t.Fatalf("width %d, want 20", h.data().width())
	}
	ch := h.data().Changes
	if len(ch) != 1 || ch[0].Text != "SET Width = 20" {
		t.Fatalf("the changes: %+v, want one of the text %q", ch, "SET Width = 20")
	}
	if r := h.public("2026-12-01T12:30:00Z", atlas, "I modify the contract of the Wacky World contest: SET BuildXCost = 2"); !done(r) || !strings.Contains(r.Body, "modification #2") {
		t.Fatalf("modify: %s", r.Body)
	}
	if ch := h.data().Changes; len(ch) != 2 || ch[1].Text != "SET BuildXCost = 2" {
		t.Fatalf("the changes: %+v, want a second of the text %q", ch, "SET BuildXCost = 2")
	}
}
