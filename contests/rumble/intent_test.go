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
// (Bob left, Alice won: Rumble 11), and game 2 began.
func twoGames(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	start := "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, start))
	mustDone(t, h.Public("2026-12-01T12:00:00Z", erin, "I intend, without objection, to end the current game of Rumble."))
	mustDone(t, h.Public("2026-12-01T13:00:00Z", bob, "I leave Rumble."))
	if st := data2(h); st.Phase != PhaseNone {
		t.Fatalf("game 1 did not end when Bob left: phase %q", st.Phase)
	}
	mustDone(t, h.Public("2026-12-01T14:00:00Z", bob, "I join Rumble."))
	mustDone(t, h.Public("2026-12-01T15:00:00Z", mars, start))
	if st := data2(h); st.Game != 2 || st.Phase == PhaseNone {
		t.Fatalf("game 2 did not begin: game %d, phase %q", st.Game, st.Phase)
	}
	return h
}

// TestIntentToEndAnEndedGame: an intent to end the current game is an
// intent to end the game going on when it was announced (Rumble 12, G7).
// When that game has ended by its own course and another has begun, "I
// do so" does not end the new game, which nobody announced an intent to
// end and whose contestants could not object: it is not done, the receipt
// says why, and the intent is closed. Where it ended the new game.
func TestIntentToEndAnEndedGame(t *testing.T) {
	h := twoGames(t)
	r := h.Public("2026-12-05T12:00:00Z", erin, "I do so.")
	want := "> I do so. Not done: game 1 of Rumble, the current game when the intent was announced, has ended; game 2, going on now, is not the game the intent was to end; intent #1 is closed (Rumble 12, G7)"
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	if st := data2(h); st.Game != 2 || st.Phase == PhaseNone {
		t.Errorf("game 2 ended: game %d, phase %q, %s", st.Game, st.Phase, st.Last)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("the intent is still open: %+v", h.S.Intents)
	}
	r = h.Public("2026-12-05T12:01:00Z", erin, "I end the current game of Rumble.")
	if want := "Not done: this is a dependent action: first announce"; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the action after its intent closed: the receipt lacks %q:\n%s", want, r.Body)
	}

	// Before the 4 days, too: the intent can never be done, so it is
	// closed then, rather than told when it could be.
	h = twoGames(t)
	r = h.Public("2026-12-02T12:00:00Z", erin, "I end the current game of Rumble.")
	if !failed(r) || !strings.Contains(norm(r.Body), "has ended; game 2, going on now, is not the game the intent was to end; intent #1 is closed (Rumble 12, G7)") {
		t.Errorf("the action itself before the intent is ripe:\n%s", r.Body)
	}
	if len(h.S.Intents) != 0 || data2(h).Phase == PhaseNone {
		t.Errorf("intents %+v, phase %q", h.S.Intents, data2(h).Phase)
	}
}

// TestIntentToEndEachGame: an intent announced in game 1 and another in
// game 2, both "to end the current game of Rumble", are intents to end two
// games, not the same action twice (G7): the second's receipt does not
// call it a second intent; the action ends game 2 through the intent
// announced in it, and leaves the first, which closes when tried, saying
// game 1 ended and no game is going on. Where the first, tabled earlier,
// ended game 2 and took the second with it.
func TestIntentToEndEachGame(t *testing.T) {
	h := twoGames(t)
	r := h.Public("2026-12-01T16:00:00Z", erin, "I intend, without objection, to end the current game of Rumble.")
	if mustDone(t, r); strings.Contains(r.Body, "already intend") {
		t.Errorf("an intent to end game 2 is called a second intent to end game 1:\n%s", r.Body)
	}
	r = h.Public("2026-12-05T16:00:00Z", erin, "I end the current game of Rumble.")
	mustDone(t, r)
	if want := "intent #2 resolved"; !strings.Contains(norm(r.Body), want) || strings.Contains(r.Body, "closed with it") {
		t.Errorf("the receipt lacks %q or closes another:\n%s", want, r.Body)
	}
	if st := data2(h); st.Phase != PhaseNone || !strings.Contains(st.Last, "Game 2") || !strings.Contains(st.Last, "no winner") {
		t.Errorf("game 2 did not end with no winner: phase %q, %q", st.Phase, st.Last)
	}
	r = h.Public("2026-12-05T16:01:00Z", erin, "I do so.")
	want := "Not done: game 1 of Rumble, the current game when the intent was announced, has ended, and no game is going on; intent #1 is closed (Rumble 12, G7)"
	if !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("intents still open: %+v", h.S.Intents)
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
