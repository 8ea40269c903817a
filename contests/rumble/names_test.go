package rumble

import (
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestRenameDuringGame: a contestant of the game going on cannot change eir
// name (guide, decisions: names), since the sealed submissions and their
// commitments name em; the receipt says why and until when, and e stays the
// contestant e was: eir discard is sealed, e may object to an intent. Once
// the game is over e may change it. Where the name changed, Carol was "not
// a contestant in game 1" for her discard and could not object, and the
// game waited for its deadline.
func TestRenameDuringGame(t *testing.T) {
	h := atBids(t)
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Iron Skin: 30",
		bob, "Flight: 20",
		carol, "Fire Breath: 10",
		dave, "no bids")
	if st := data2(h); st.Phase != PhaseDiscard {
		t.Fatalf("phase %q, want discard", st.Phase)
	}
	before := snapshot(t, h)
	r := h.Public("2026-12-02T10:30:00Z", carol, "I change my name to Carolyn.")
	want := "Not done: you are a contestant in game 1 of Rumble, whose sealed submissions and commitments name you Carol; you can change your name once game 1 is over (Rumble guide, decisions: names)"
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Fatalf("the receipt lacks %q:\n%v", want, r)
	}
	if p := h.S.PlayerByAddress("carol@example.test"); p.Name != "Carol" {
		t.Errorf("Carol is now called %q", p.Name)
	}
	if after := snapshot(t, h); after != before {
		t.Errorf("Rumble's state changed:\n%s\n---\n%s", before, after)
	}
	mustDone(t, h.Public("2026-12-02T10:40:00Z", erin, "I intend, without objection, to end the current game of Rumble."))
	mustDone(t, h.Public("2026-12-02T10:50:00Z", carol, "I object to intent #1."))
	if in := h.S.Intents; len(in) != 1 || len(in[0].Objectors) != 1 || in[0].Objectors[0] != "Carol" {
		t.Errorf("Carol's objection is not recorded: %+v", in)
	}
	for _, p := range []string{alice, bob, carol} {
		mustDone(t, h.Private("2026-12-02T11:00:00Z", p, "No discard."))
	}
	if st := data2(h); st.Phase != PhaseRound || st.Round != 1 {
		t.Fatalf("the discards did not close the phase: phase %q round %d", st.Phase, st.Round)
	}
	for _, p := range []string{alice, bob, dave} {
		mustDone(t, h.Public("2026-12-02T12:00:00Z", p, "I leave Rumble."))
	}
	if st := data2(h); st.Phase != PhaseNone {
		t.Fatalf("game 1 is still going on: phase %q", st.Phase)
	}
	mustDone(t, h.Public("2026-12-02T13:00:00Z", carol, "I change my name to Carolyn."))
	if p := h.S.PlayerByAddress("carol@example.test"); p.Name != "Carolyn" {
		t.Errorf("after the game, Carol is called %q, want Carolyn", p.Name)
	}
}

// TestRenameOfOthersNamedByRumble: the contestmaster who has sealed powers
// keeps eir name until the game ends, as a contestant does; the player the
// contestmaster consented to keeps it until e replaces em, so that nobody
// else can take the name the consent names and become the contestmaster.
// A player the game does not name changes eir name at any time.
func TestRenameOfOthersNamedByRumble(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 1 contestmaster power."))
	mustDone(t, h.Public("2026-12-01T11:10:00Z", mars, "I change my name to Marsha."))
	mustDone(t, h.Private("2026-12-01T11:20:00Z", mars, "Thunder: a clap of thunder"))
	r := h.Public("2026-12-01T11:30:00Z", mars, "I change my name to Mars.")
	want := "Not done: your sealed submission for game 1 of Rumble, and its commitment, name you Marsha; you can change your name once game 1 is over (Rumble guide, decisions: names)"
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Fatalf("the contestmaster's change of name: the receipt lacks %q:\n%v", want, r)
	}
	mustDone(t, h.Public("2026-12-01T11:40:00Z", erin, "I change my name to Erin the Bold."))
	mustDone(t, h.Public("2026-12-01T11:50:00Z", mars, "I consent to Erin the Bold becoming the Rumble contestmaster."))
	r = h.Public("2026-12-01T12:00:00Z", erin, "I change my name to Erin.")
	want = "Not done: the Rumble contestmaster consented to Erin the Bold becoming the contestmaster (Rumble 16), and the consent names you so; you can change your name once you have replaced em, or once the consent lapses"
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Fatalf("the consented player's change of name: the receipt lacks %q:\n%v", want, r)
	}
	mustDone(t, h.Public("2026-12-01T12:10:00Z", erin, "I replace the Rumble contestmaster with Erin the Bold."))
	mustDone(t, h.Public("2026-12-01T12:20:00Z", erin, "I change my name to Erin."))
}
