package rumble

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// twoGames returns a harness where Erin's intent #1 to end the current
// game was announced during game 1, which then ended by its own course
// (Bob left, Alice won: Rumble 11), and game 2 began; and the receipt of
// Bob's leaving.
func twoGames(t *testing.T) (*contracttest.Harness, *contract.Notice) {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	start := "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, start))
	mustDone(t, h.Public("2026-12-01T12:00:00Z", erin, "I intend, without objection, to end the current game of Rumble."))
	left := h.Public("2026-12-01T13:00:00Z", bob, "I leave Rumble.")
	mustDone(t, left)
	if st := data2(h); st.Phase != PhaseNone {
		t.Fatalf("game 1 did not end when Bob left: phase %q", st.Phase)
	}
	mustDone(t, h.Public("2026-12-01T14:00:00Z", bob, "I join Rumble."))
	mustDone(t, h.Public("2026-12-01T15:00:00Z", mars, start))
	if st := data2(h); st.Game != 2 || st.Phase == PhaseNone {
		t.Fatalf("game 2 did not begin: game %d, phase %q", st.Game, st.Phase)
	}
	return h, left
}

// TestIntentToEndAnEndedGame: an intent to end the current game is an
// intent to end the game going on when it was announced (Rumble 12, G7).
// When that game ends by its own course (Bob leaves), the intent can never
// be resolved, and it is closed then: the receipt of the action that
// ended the game says so, the game's recent events (its report) too, and
// it is open no more, where it stayed open, listed by the status page and
// `referee status`, until tried or expired. In game 2, "I do so" and the
// action itself find no intent, and game 2 goes on.
func TestIntentToEndAnEndedGame(t *testing.T) {
	h, left := twoGames(t)
	why := "game 1 of Rumble, the current game when the intent was announced, has ended, and no game is going on (Rumble 12, G7)"
	if want := "intent #1 of Erin, to end the current game of Rumble, is closed: " + why; !strings.Contains(norm(left.Body), want) {
		t.Errorf("the receipt of Bob's leaving lacks %q:\n%s", want, left.Body)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("the intent is still open: %+v", h.S.Intents)
	}
	rep, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-01T16:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "referee closes intent #1 of Erin, to end the current game of Rumble: " + why; !strings.Contains(norm(rep.Body), want) {
		t.Errorf("the report's recent events lack %q:\n%s", want, rep.Body)
	}
	r := h.Public("2026-12-05T12:00:00Z", erin, "I do so.")
	if want := "> I do so. Not done: there is no open intent this could refer to (G7)"; !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	r = h.Public("2026-12-05T12:01:00Z", erin, "I end the current game of Rumble.")
	if want := "Not done: this is a dependent action: first announce"; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the action after its intent closed: the receipt lacks %q:\n%s", want, r.Body)
	}
	if st := data2(h); st.Game != 2 || st.Phase == PhaseNone {
		t.Errorf("game 2 ended: game %d, phase %q, %s", st.Game, st.Phase, st.Last)
	}
}

// TestIntentClosedWhenTheGameEndsByAnEvent: an intent to end the current
// game closes when the game ends in a scheduled event too: Alice's bid of
// 100 leaves her no stamina, Bob bids nothing, and at the bids' deadline
// the reveal ends game 1 with Bob alone standing (Rumble 4, 11); Erin's
// intent to end it is closed then, and the game's recent events say so.
func TestIntentClosedWhenTheGameEndsByAnEvent(t *testing.T) {
	h := atPowers(t)
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, "Iron Skin: my skin turns to iron (ward)",
		bob, "Flight: I fly above the fray")
	mustDone(t, h.Public("2026-12-01T13:00:00Z", erin, "I intend, without objection, to end the current game of Rumble."))
	h.Private("2026-12-01T14:00:00Z", alice, "Flight: 100")
	h.Advance("2026-12-06T00:00:00Z")
	if st := data2(h); st.Phase != PhaseNone {
		t.Fatalf("game 1 did not end at the bids' deadline: phase %q", st.Phase)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("the intent to end the ended game is still open: %+v", h.S.Intents)
	}
	want := "closes intent #1 of Erin, to end the current game of Rumble: game 1 of Rumble, the current game when the intent was announced, has ended, and no game is going on (Rumble 12, G7)"
	found := false
	for _, x := range h.S.Games["rumble"].Recent {
		found = found || x.Who == "referee" && x.What == want
	}
	if !found {
		t.Errorf("the recent events lack %q: %+v", want, h.S.Games["rumble"].Recent)
	}
}

// TestIntentToEndEachGame: an intent announced in game 1 and another in
// game 2, both "to end the current game of Rumble", are intents to end two
// games, not the same action twice (G7): the second's receipt does not
// call it a second intent (the first closed with game 1); the action ends
// game 2 through the intent announced in it.
func TestIntentToEndEachGame(t *testing.T) {
	h, _ := twoGames(t)
	r := h.Public("2026-12-01T16:00:00Z", erin, "I intend, without objection, to end the current game of Rumble.")
	if mustDone(t, r); strings.Contains(r.Body, "already intend") {
		t.Errorf("an intent to end game 2 is called a second intent to end game 1:\n%s", r.Body)
	}
	r = h.Public("2026-12-05T16:00:00Z", erin, "I end the current game of Rumble.")
	mustDone(t, r)
	if want := "intent #2 resolved"; !strings.Contains(norm(r.Body), want) || strings.Contains(r.Body, "closed") {
		t.Errorf("the receipt lacks %q or closes another:\n%s", want, r.Body)
	}
	if st := data2(h); st.Phase != PhaseNone || !strings.Contains(st.Last, "Game 2") || !strings.Contains(st.Last, "no winner") {
		t.Errorf("game 2 did not end with no winner: phase %q, %q", st.Phase, st.Last)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("intents still open: %+v", h.S.Intents)
	}
}

// TestIntentOfAnEndedGameFromAnEarlierState: a state written by the build
// before intents closed with their game (testdata/
// intent-of-an-ended-game.yaml, saved by 7ed8793 through twoGames: game 2
// going on, Erin's intent #1 to end game 1 still open) loads; the intent
// is closed when tried, and game 2 goes on: "I do so", before the 4 days
// and before any event of the game (which would close it), is not done,
// and the receipt says why rather than when it could be done.
func TestIntentOfAnEndedGameFromAnEarlierState(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "intent-of-an-ended-game.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	if h.S, err = h.E.Decode(b); err != nil {
		t.Fatalf("the earlier state does not load: %v", err)
	}
	if len(h.S.Intents) != 1 || h.S.Intents[0].Object != "game 1" || data2(h).Game != 2 || data2(h).Phase == PhaseNone {
		t.Fatalf("the earlier state: intents %+v, game %d, phase %q", h.S.Intents, data2(h).Game, data2(h).Phase)
	}
	// The state has seen m1 to m8 of the harness that wrote it.
	at := contracttest.At(t, "2026-12-01T16:00:00Z")
	r := contracttest.Receipt(h.Send(&contract.Message{ID: "m9@example.test", From: "erin@example.test", Name: "Erin",
		Date: at, Arrived: at, Subject: "actions", Channel: contract.ChanPublic, Authenticated: true, Text: "I do so."}))
	want := "> I do so. Not done: game 1 of Rumble, the current game when the intent was announced, has ended; game 2, going on now, is not the game the intent was to end; intent #1 is closed (Rumble 12, G7)"
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%v", want, r)
	}
	if st := data2(h); st.Game != 2 || st.Phase == PhaseNone {
		t.Errorf("game 2 ended: game %d, phase %q, %s", st.Game, st.Phase, st.Last)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("the intent is still open: %+v", h.S.Intents)
	}
}

// TestIntentFromAnEarlierState: a state written before intents kept the
// game they were about (testdata/intent-before-object.yaml, saved by the
// build before, 373dac1, through this harness: game 1 going on, Erin's
// intent #1 to end the current game tabled on 2026-12-01 12:00, without
// its game) loads, and the intent is resolved as it was then: "I do so"
// ends the game going on.
func TestIntentFromAnEarlierState(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "intent-before-object.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "object:") {
		t.Fatal("the state written before intents kept their game has an intent's object")
	}
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	if h.S, err = h.E.Decode(b); err != nil {
		t.Fatalf("the earlier state does not load: %v", err)
	}
	if len(h.S.Intents) != 1 || h.S.Intents[0].Object != "" || data2(h).Game != 1 || data2(h).Phase == PhaseNone {
		t.Fatalf("the earlier state: intents %+v, game %d, phase %q", h.S.Intents, data2(h).Game, data2(h).Phase)
	}
	// The state has seen m1 to m4 of the harness that wrote it: this one
	// is numbered after them, not taken for a duplicate.
	at := contracttest.At(t, "2026-12-05T12:00:00Z")
	r := contracttest.Receipt(h.Send(&contract.Message{ID: "m5@example.test", From: "erin@example.test", Name: "Erin",
		Date: at, Arrived: at, Subject: "actions", Channel: contract.ChanPublic, Authenticated: true, Text: "I do so."}))
	if r == nil {
		t.Fatal("no receipt")
	}
	if want := "Done: intent #1 resolved"; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	if st := data2(h); st.Phase != PhaseNone || !strings.Contains(st.Last, "Game 1") || !strings.Contains(st.Last, "no winner") {
		t.Errorf("game 1 did not end with no winner: phase %q, %q", st.Phase, st.Last)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("intents still open: %+v", h.S.Intents)
	}
}

// TestAmendThousands: an amendment setting a parameter to a number with
// commas between thousands ("SET BidLimit = 1,000") is read as that number
// (G9), when announced and when done, where the intent was refused as no
// whole number.
func TestAmendThousands(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	mustDone(t, h.Public("2026-12-01T10:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: SET BidLimit = 1,000"))
	r := h.Public("2026-12-05T10:00:00Z", mars, "I do so.")
	if want := "applied: BidLimit = 1000"; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	if got := h.S.Games["rumble"].Params["BidLimit"]; got != "1000" {
		t.Errorf("BidLimit = %q, want 1000", got)
	}
}
