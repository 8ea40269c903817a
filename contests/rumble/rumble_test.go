package rumble

import (
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"referee/contract"
	"referee/contract/contracttest"
)

const (
	alice = "Alice <alice@example.test>"
	bob   = "Bob <bob@example.test>"
	carol = "Carol <carol@example.test>"
	dave  = "Dave <dave@example.test>"
	erin  = "Erin <erin@example.test>"
	mars  = "Mars <cm@example.test>"
)

// atPowers is a game of Alice and Bob, one power each, its powers due.
func atPowers(t *testing.T) *contracttest.Harness {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	return h
}

// atBids returns a harness whose game 1 is in its bidding phase: four
// contestants, one power each, none for the contestmaster.
func atBids(t *testing.T, others ...contract.Game) *contracttest.Harness {
	t.Helper()
	if len(others) == 0 {
		return fork(t, &bases.bids, func() *contracttest.Harness { return buildBids(t) })
	}
	return buildBids(t, others...)
}

// atRound continues atBids to round 1: Alice holds Iron Skin (30), Bob
// Flight (20), Carol Fire Breath (10); Dave holds nothing.
func atRound(t *testing.T, others ...contract.Game) *contracttest.Harness {
	t.Helper()
	if len(others) == 0 {
		return fork(t, &bases.round, func() *contracttest.Harness { return buildRound(t) })
	}
	return buildRound(t, others...)
}

// bases are the games atBids and atRound build, made once and copied for each
// test (fork): every test starts from the same state, and the package's tests
// stay affordable for mutation testing (scripts/mutate.sh), which runs them
// once for each mutant.
var bases struct{ bids, round *contracttest.Harness }

// fork returns a copy of the harness *base (built by build the first time) for
// t: the state through its encoding (which every step of the harness checks
// is faithful), and the notices and entries so far. The copy goes on
// numbering messages after the base's, so none is taken for a duplicate.
func fork(t *testing.T, base **contracttest.Harness, build func() *contracttest.Harness) *contracttest.Harness {
	t.Helper()
	if *base == nil {
		*base = build()
	}
	b, err := contract.Encode((*base).S)
	if err != nil {
		t.Fatal(err)
	}
	s, err := (*base).E.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	h := **base
	h.T, h.S = t, s
	h.Sent = slices.Clone(h.Sent)
	h.Entries = slices.Clone(h.Entries)
	return &h
}

func buildBids(t *testing.T, others ...contract.Game) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", append([]contract.Game{New()}, others...)...)
	for _, p := range []string{alice, bob, carol, dave} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, "Iron Skin: my skin turns to iron (ward)",
		bob, "Flight: I fly above the fray",
		carol, "Fire Breath: fire [fury]",
		dave, "Lucky Star: luck")
	if st := data2(h); st.Phase != PhaseBids {
		t.Fatalf("phase %q after all powers, want bids", st.Phase)
	}
	return h
}

func buildRound(t *testing.T, others ...contract.Game) *contracttest.Harness {
	t.Helper()
	h := atBids(t, others...)
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Iron Skin: 30",
		bob, "Flight: 20",
		carol, "Fire Breath: 10",
		dave, "no bids")
	for _, p := range []string{alice, bob, carol} {
		mustDone(t, h.Private("2026-12-02T11:00:00Z", p, "No discard."))
	}
	if st := data2(h); st.Phase != PhaseRound || st.Round != 1 {
		t.Fatalf("phase %q round %d, want round 1", st.Phase, st.Round)
	}
	return h
}

func data2(h *contracttest.Harness) *State { return h.Data("rumble").(*State) }

// privately sends private lists at one time, given as sender, text pairs, and
// fails unless each is accepted.
func privately(t *testing.T, h *contracttest.Harness, at string, lists ...string) {
	t.Helper()
	if len(lists)%2 != 0 {
		t.Fatalf("privately: %d strings, want sender, text pairs", len(lists))
	}
	for i := 0; i < len(lists); i += 2 {
		mustDone(t, h.Private(at, lists[i], lists[i+1]))
	}
}

// wantPoints checks players' points from Rumble in the points ledger (G6).
func wantPoints(t *testing.T, h *contracttest.Harness, want map[string]int) {
	t.Helper()
	got := map[string]int{}
	for n := range want {
		got[n] = h.S.Score(n, "rumble")
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("points from Rumble (-want +got):\n%s", d)
	}
}

// sent is the body of the notice sent with the given ID, or fails.
func sent(t *testing.T, h *contracttest.Harness, id string) string {
	t.Helper()
	for _, o := range h.Sent {
		if o.ID == id {
			return o.Body
		}
	}
	t.Fatalf("no notice %s was sent", id)
	return ""
}

func mustDone(t *testing.T, r *contract.Notice) {
	t.Helper()
	if r == nil {
		t.Fatal("no receipt")
	}
	if strings.Contains(r.Body, "Not done") {
		t.Fatalf("an action failed:\n%s", r.Body)
	}
}

// norm folds a receipt's wrapped lines so a phrase can be found in it.
func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// failed reports whether a receipt says every action failed.
func failed(r *contract.Notice) bool { return r != nil && strings.Contains(r.Body, "\n0 done, ") }

func snapshot(t *testing.T, h *contracttest.Harness) string {
	t.Helper()
	b, err := yaml.Marshal(h.Data("rumble"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + h.S.Games["rumble"].Params["Deadline"]
}

// TestBadInput: each mistake is rejected naming its paragraph, and changes
// nothing.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name    string
		round   bool // in round 1 rather than bidding
		public  bool
		from    string
		text    string
		wantIn  string
		wantCit string
		prep    func(*testing.T, *contracttest.Harness)
	}{
		{"bids over the limit", false, false, alice, "Iron Skin: 60\nFlight: 41", "total 101, more than 100", "(Rumble 5)", nil},
		{"a bid in thousands", false, false, alice, "Iron Skin: 1,000", "total 1000, more than 100", "(Rumble 5)", nil},
		{"bid on an unknown power", false, false, alice, "Invisibility: 10", "not a power on the list", "(Rumble 5)", nil},
		{"negative bid", false, false, alice, "Iron Skin: -5", "negative", "(Rumble 5)", nil},
		{"fractional bid", false, false, alice, "Iron Skin: 12.5", "not a whole number", "(Rumble 5)", nil},
		{"zero bid", false, false, alice, "Iron Skin: 0", "1 or more", "(U4)", nil},
		{"bids in a round", true, false, alice, "I bid 10 on Flight.", "looks like bids", "(Rumble 8)", nil},
		{"actions while bidding", false, false, alice, "Attack: 30 to Bob", "looks like actions", "(Rumble 5)", nil},
		{"attack on an unknown player", true, false, alice, "Attack: 10 to Zed", `no player is known as "Zed" (Rumble 9)`, "(Rumble 9)", nil},
		{"attack on a non-contestant", true, false, alice, "Attack: 10 to Mars", "not a contestant", "(Rumble 9)", nil},
		{"attack on oneself", true, false, alice, "Attack: 10 to Alice", "yourself", "(Rumble 8)", nil},
		{"over energy", true, false, alice, "Attack: 50 to Bob / Defense: 21", "allocate 71 energy but have 70", "(Rumble 8)", nil},
		{"negative allocation", true, false, alice, "Defense: -4", "negative", "(Rumble 8)", nil},
		{"power not held", true, false, alice, "Flight: 5", "do not hold Flight", "(Rumble 8)", nil},
		{"a bare allocation to no power", true, false, alice, "Dance: 10", `"Dance: 10" is not understood: "Dance" is not a power on the list`, "(Rumble 8)", nil},
		{"spending on no power", true, false, alice, "Spend 10 on Dance", `Not done: "Dance" is not a power on the list`, "(Rumble 8)", nil},
		{"burn on a spend-only", true, false, alice, "Burn 5 on Iron Skin", "requires you to Spend", "(Rumble 8)", nil},
		{"actions through the list", true, true, alice, "Attack: 30 to Bob\nDefense: 40", "the list has now seen it", "(G4)", nil},
		{"sentence through the list", true, true, alice, "I attack Bob with 30.", "the list has now seen it", "(G4)", nil},
		{"bids through the list", false, true, alice, "Iron Skin: 30", "the list has now seen it", "(G4)", nil},
		{"a discard through the list", false, true, alice, "Discard: Iron Skin", "the list has now seen it", "(G4)", nil},
		{"not a contestant", true, false, erin, "Attack: 10 to Bob", "not a contestant", "(Rumble 2)", func(t *testing.T, h *contracttest.Harness) {
			mustDone(t, h.Public("2026-12-02T11:30:00Z", erin, "I change my name to Erin."))
		}},
		{"attack on a dead contestant", true, false, alice, "Attack: 10 to Dave", "Dave is dead", "(Rumble 4)", func(t *testing.T, h *contracttest.Harness) {
			mustDone(t, h.Public("2026-12-02T11:30:00Z", dave, "I leave Rumble."))
		}},
		{"a dead contestant's list", true, false, dave, "Defense: 10", "you are dead", "(Rumble 4)", func(t *testing.T, h *contracttest.Harness) {
			mustDone(t, h.Public("2026-12-02T11:30:00Z", dave, "I leave Rumble."))
		}},
		{"discard while bidding", false, false, alice, "Discard: Iron Skin", "looks like discard", "(Rumble 5)", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var h *contracttest.Harness
			if tc.round {
				h = atRound(t)
			} else {
				h = atBids(t)
			}
			if tc.prep != nil {
				tc.prep(t, h)
			}
			before := snapshot(t, h)
			var r *contract.Notice
			if tc.public {
				r = h.Public("2026-12-02T12:00:00Z", tc.from, tc.text)
			} else {
				r = h.Private("2026-12-02T12:00:00Z", tc.from, tc.text)
			}
			if r == nil {
				t.Fatal("no receipt")
			}
			if !failed(r) || !strings.Contains(norm(r.Body), tc.wantIn) || !strings.Contains(norm(r.Body), tc.wantCit) {
				t.Errorf("receipt does not reject with %q %s:\n%s", tc.wantIn, tc.wantCit, r.Body)
			}
			if after := snapshot(t, h); after != before {
				t.Errorf("the state changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// TestNothingFound: a contestant's private message in which the open phase
// finds nothing of its list is refused, naming the rule and the form the
// phase expects, and seals nothing (an empty list is not "no bids", "no
// discard" or "none").
func TestNothingFound(t *testing.T) {
	atDiscard := func(t *testing.T) *contracttest.Harness {
		h := atBids(t)
		privately(t, h, "2026-12-02T10:00:00Z",
			alice, "Iron Skin: 30",
			bob, "Flight: 20",
			carol, "no bids",
			dave, "no bids")
		return h
	}
	for _, tc := range []struct {
		phase string
		at    func(*testing.T) *contracttest.Harness
		want  string
	}{
		{PhasePowers, atPowers, `no power found; write one power per line as "Name: what it does" (Rumble 2)`},
		{PhaseBids, func(t *testing.T) *contracttest.Harness { return atBids(t) }, `no bid found; write "Power: amount" per line, or "no bids" (Rumble 5)`},
		{PhaseDiscard, atDiscard, `no discard found; write "Discard: <power>" or "no discard" (Rumble 6)`},
		{PhaseRound, func(t *testing.T) *contracttest.Harness { return atRound(t) }, `no action found; write "Attack: 30 to Alice", "Defense: 40", "Spend 10 on <power>" or "none" (Rumble 8)`},
	} {
		t.Run(tc.phase, func(t *testing.T) {
			h := tc.at(t)
			if st := data2(h); st.Phase != tc.phase {
				t.Fatalf("phase %q, want %q", st.Phase, tc.phase)
			}
			before := snapshot(t, h)
			r := h.Private("2026-12-02T12:00:00Z", alice, "Thanks, see you soon")
			if !failed(r) || !strings.Contains(norm(r.Body), tc.want) {
				t.Errorf("the receipt does not refuse with %q:\n%v", tc.want, r)
			}
			if after := snapshot(t, h); after != before {
				t.Errorf("the state changed:\n%s\n---\n%s", before, after)
			}
		})
	}
}

// Public talk about attacks or bids, without a list, performs nothing and
// draws no warning; nor does a line ending in a number whose words name no
// listed power ("Flight: 10" would be an allocation), nor a discard of
// something that is not a listed power ("Discard: Flight" would be one).
func TestPublicTalk(t *testing.T) {
	h := atRound(t)
	if r := h.Public("2026-12-02T12:00:00Z", alice, "Attacks on me would be unwise.\nBids were high this game.\nSee you in round 2\nDiscard that plan, Bob."); r != nil {
		t.Errorf("a receipt for talk:\n%s", r.Body)
	}
}

// A list on a public list from a player who is not a contestant is talk:
// e has no sealed list to leak, so it draws no warning (G4) and no receipt.
func TestPublicListFromNonContestant(t *testing.T) {
	h := atRound(t)
	mustDone(t, h.Public("2026-12-02T11:30:00Z", erin, "I change my name to Erin."))
	if r := h.Public("2026-12-02T12:00:00Z", erin, "Attack: 30 to Bob\nDefense: 40"); r != nil {
		t.Errorf("a receipt for a non-contestant's public list:\n%s", r.Body)
	}
}

func TestJoinDuringGame(t *testing.T) {
	h := atBids(t)
	r := h.Public("2026-12-02T12:00:00Z", erin, "I join Rumble.")
	if !failed(r) || !strings.Contains(norm(r.Body), "(Rumble 13)") {
		t.Fatalf("joining during a game: %v", r)
	}
	if r := h.Public("2026-12-02T12:00:00Z", alice, "I announce a new game of Rumble."); !failed(r) || !strings.Contains(norm(r.Body), "only the contestmaster") {
		t.Errorf("a player starting a game: %v", r)
	}
}

func TestLatestSubmissionCounts(t *testing.T) {
	h := atBids(t)
	mustDone(t, h.Private("2026-12-02T10:00:00Z", alice, "Iron Skin: 60"))
	r := h.Private("2026-12-02T10:05:00Z", alice, "Iron Skin: 25 / Flight: 5")
	mustDone(t, r)
	if !strings.Contains(norm(r.Body), "replacing your earlier submission") {
		t.Errorf("receipt does not say it replaces:\n%s", r.Body)
	}
	st := data2(h)
	if x := st.sub("Alice"); x == nil || len(x.Bids) != 2 || x.Bids[0].N != 25 {
		t.Errorf("Alice's bids = %+v, want the later list", x)
	}
	if len(st.Subs) != 1 {
		t.Errorf("%d submissions, want 1", len(st.Subs))
	}
}

// TestReceiptQuotesSubmission: a sealed submission's receipt quotes its lines
// whole up to 200 characters, and a longer one cut there with "...".
func TestReceiptQuotesSubmission(t *testing.T) {
	h := atBids(t)
	words := "Thanks" + strings.Repeat(" and thanks", 16)
	for i, c := range []struct{ tail, want string }{
		{" k", " k"},     // 200 characters
		{" ok", " o..."}, // 201
	} {
		r := h.Private(fmt.Sprintf("2026-12-02T10:0%d:00Z", i), alice, "Iron Skin: 30\n"+words+c.tail)
		mustDone(t, r)
		if got, want := strings.Join(quoted(r.Body), " "), "Iron Skin: 30 / "+words+c.want; got != want {
			t.Errorf("the receipt quotes\n%s\nwant\n%s", got, want)
		}
	}
}

// U3: reminders 24 h before the deadline to those missing; silence defaults.
func TestDeadlineDefaults(t *testing.T) {
	h := atBids(t)
	mustDone(t, h.Private("2026-12-02T10:00:00Z", alice, "Iron Skin: 30"))
	ns := h.Advance("2026-12-03T12:00:00Z") // phase opened 12-01 12:00, deadline 12-04 12:00
	var to []string
	for _, n := range ns {
		if n.Kind == "reminder" {
			to = append(to, n.To...)
		}
	}
	if strings.Join(to, " ") != "bob@example.test carol@example.test dave@example.test" {
		t.Errorf("reminders to %v", to)
	}
	h.Advance("2026-12-04T12:00:00Z")
	st := data2(h)
	if st.Phase != PhaseDiscard {
		t.Fatalf("phase %q after the bid deadline", st.Phase)
	}
	if f := st.fighter("Bob"); f.Stamina != 100 || len(f.Powers) != 0 {
		t.Errorf("Bob without bids: %+v", f)
	}
	// Only Alice holds a power, so only she is waited for.
	h.Advance("2026-12-07T12:00:00Z")
	st = data2(h)
	if st.Phase != PhaseRound {
		t.Fatalf("phase %q after the discard deadline", st.Phase)
	}
	h.Advance("2026-12-10T12:00:00Z")
	st = data2(h)
	if st.Round != 2 {
		t.Fatalf("round %d after round 1's deadline", st.Round)
	}
	// Nobody sent a list: everyone defended with half eir energy; no damage.
	for _, f := range st.Fighters {
		if f.Stamina != map[string]int{"Alice": 70, "Bob": 100, "Carol": 100, "Dave": 100}[f.Name] {
			t.Errorf("%s stamina %d", f.Name, f.Stamina)
		}
	}
	// The discard phase (Alice silent) and round 1 closed with nothing
	// sealed: their journal lines reveal nothing, not an empty list.
	closes := 0
	for _, e := range h.Entries {
		if e.Game != "rumble" || e.Outcome != "event" || !e.Time.After(contracttest.At(t, "2026-12-05T00:00:00Z")) {
			continue
		}
		closes++
		if r, ok := e.Detail["reveals"]; ok {
			t.Errorf("the journal line of %q reveals %v with nothing sealed", e.Verb, r)
		}
	}
	if closes == 0 {
		t.Error("no journal line of the phases' close")
	}
}

// Rumble 12, U7: ending without objection from a contestant.
func TestEndWithoutObjection(t *testing.T) {
	h := atRound(t)
	mustDone(t, h.Public("2026-12-03T10:00:00Z", erin, "I intend, without objection, to end the current game of Rumble."))
	r := h.Public("2026-12-03T11:00:00Z", mars, "I object to intent #1.")
	if !failed(r) || !strings.Contains(norm(r.Body), "only contestants") {
		t.Errorf("a non-contestant's objection: %v", r)
	}
	r = h.Public("2026-12-08T10:00:00Z", erin, "I do so (intent #1).")
	mustDone(t, r)
	st := data2(h)
	if st.Phase != PhaseNone || !strings.Contains(st.Last, "no winner") {
		t.Errorf("after ending: phase %q, %q", st.Phase, st.Last)
	}

	h = atRound(t)
	mustDone(t, h.Public("2026-12-03T10:00:00Z", erin, "I intend, without objection, to end the current game of Rumble."))
	mustDone(t, h.Public("2026-12-03T11:00:00Z", bob, "I object to intent #1."))
	r = h.Public("2026-12-08T10:00:00Z", erin, "I do so (intent #1).")
	if !failed(r) || !strings.Contains(norm(r.Body), "objection") {
		t.Errorf("ending despite an objection:\n%v", r)
	}

	// A weaker method than the rule's is refused: ending takes "without
	// objection" (N = 1), amending "without 2 objections" (G7).
	h = atRound(t)
	if r := h.Public("2026-12-03T10:00:00Z", erin, "I intend, without 2 objections, to end the current game of Rumble."); !failed(r) {
		t.Errorf("an intent to end without 2 objections was tabled:\n%v", r)
	}
	if r := h.Public("2026-12-03T10:01:00Z", mars, "I intend, without 3 objections, to amend the Rumble contract: SET Deadline = 48h"); !failed(r) {
		t.Errorf("an intent to amend without 3 objections was tabled:\n%v", r)
	}
	// Leaving is for contestants (Rumble 14).
	if r := h.Public("2026-12-03T10:02:00Z", "Zed <zed@example.test>", "I leave Rumble."); !failed(r) || !strings.Contains(norm(r.Body), "Rumble 14") {
		t.Errorf("a non-contestant left:\n%v", r)
	}
}

// TestIntentWithNoGame: an intent to end the current game of Rumble when
// no game is going on is refused at once, naming why (Rumble 12: "the
// current game" names none), and tables nothing; so is an intent to amend
// the contract with a change no amendment could make (SET of a parameter
// the game does not have, or a value it cannot take: G9), where both were
// tabled and refused only when done, 4 days later. An intent to amend
// from a player who is not the contestmaster is still tabled: e may
// become the contestmaster before it is done (Rumble 16), and that is
// checked then (TestAmendmentRuling).
func TestIntentWithNoGame(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	r := h.Public("2026-12-01T11:00:00Z", alice, "I intend, without objection, to end the current game of Rumble.")
	if want := "> I intend, without objection, to end the current game of Rumble. Not done: no game of Rumble is going on, so there is no current game to end (Rumble 12)"; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	r = h.Public("2026-12-01T11:01:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: SET Colour = blue")
	if want := `Not done: Rumble has no parameter "Colour" (G9)`; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	r = h.Public("2026-12-01T11:02:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: SET Deadline = soon")
	if want := `Not done: Deadline must be a duration such as 72h, not "soon"`; !strings.Contains(norm(r.Body), want) {
		t.Errorf("the receipt lacks %q:\n%s", want, r.Body)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("intents tabled: %+v", h.S.Intents)
	}
	mustDone(t, h.Public("2026-12-01T11:03:00Z", alice, "I intend, without 2 objections, to amend the Rumble contract: SET Deadline = 48h"))
	if len(h.S.Intents) != 1 {
		t.Errorf("a player's intent to amend was not tabled: %+v", h.S.Intents)
	}
}

// TestObjectionsBetweenGames: between games the contest's members are the
// ones who may object to an amendment (Rumble 15, U7), and two objections
// stop it.
func TestObjectionsBetweenGames(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: SET BidLimit = 120"))
	mustDone(t, h.Public("2026-12-01T12:00:00Z", alice, "I object to intent #1."))
	mustDone(t, h.Public("2026-12-01T12:05:00Z", bob, "I object to intent #1."))
	r := h.Public("2026-12-06T11:00:00Z", mars, "I do so (intent #1).")
	if !failed(r) || !strings.Contains(norm(r.Body), "objection") {
		t.Errorf("amending despite two members' objections:\n%v", r)
	}
	if v := h.S.Games["rumble"].Params["BidLimit"]; v == "120" {
		t.Errorf("BidLimit set to %q despite the objections", v)
	}
}

// Rumble 16: replacing the contestmaster needs eir consent.
func TestReplaceContestmaster(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	mustDone(t, h.Public("2026-12-01T10:00:00Z", erin, "I change my name to Erin."))
	r := h.Public("2026-12-01T10:05:00Z", alice, "I replace the Rumble contestmaster with Erin.")
	if !failed(r) || !strings.Contains(norm(r.Body), "(Rumble 16)") {
		t.Fatalf("replacing without consent:\n%v", r)
	}
	mustDone(t, h.Public("2026-12-01T10:10:00Z", mars, "I consent to Erin becoming the Rumble contestmaster."))
	mustDone(t, h.Public("2026-12-01T10:15:00Z", alice, "I replace the Rumble contestmaster with Erin."))
	if cm := h.S.Games["rumble"].Contestmaster; cm != "erin@example.test" {
		t.Errorf("contestmaster %q, want erin", cm)
	}
}

// U7: a contestant who leaves mid-game is dead at once, with no points; the
// last one standing wins (Rumble 11).
func TestLeaveMidGame(t *testing.T) {
	h := atRound(t)
	mustDone(t, h.Public("2026-12-03T10:00:00Z", dave, "I leave Rumble."))
	mustDone(t, h.Public("2026-12-03T10:01:00Z", carol, "I leave Rumble."))
	st := data2(h)
	if f := st.fighter("Dave"); f.Alive || f.Out != "left" {
		t.Errorf("Dave after leaving: %+v", f)
	}
	mustDone(t, h.Public("2026-12-03T10:02:00Z", bob, "I leave Rumble."))
	st = data2(h)
	if st.Phase != PhaseNone {
		t.Fatalf("the game goes on with one contestant")
	}
	// Alice, last standing of 4, gains 2 x 4; Bob, who left, nothing.
	wantPoints(t, h, map[string]int{"Alice": 8, "Bob": 0})
}

// U5: an adjudicated power waits for the ruling; silence means no effect; a
// ruling the referee cannot read is refused.
func TestRulings(t *testing.T) {
	h := atRound(t)
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "Defense: 70",
		bob, "Flight: 10\nAttack Carol 70",
		carol, "Defense: 90",
		dave, "Attack: 1 to Alice")
	st := data2(h)
	if st.Phase != PhaseRulings || len(st.Pending) != 1 {
		t.Fatalf("phase %q pending %v", st.Phase, st.Pending)
	}
	r := h.Private("2026-12-03T12:00:00Z", mars, "I rule on #1: it makes Bob fly")
	if !failed(r) || !strings.Contains(norm(r.Body), "(U5)") {
		t.Errorf("an unreadable ruling:\n%v", r)
	}
	h.Advance("2026-12-05T10:00:00Z") // the ruling's 48 h pass
	st = data2(h)
	if st.Round != 2 {
		t.Fatalf("round %d after the ruling deadline", st.Round)
	}
	if f := st.fighter("Carol"); f.Stamina != 90 {
		t.Errorf("Carol %d, want 90 (70 - 90 Defense: no damage)", f.Stamina)
	}
	if body := sent(t, h, "rumble/1/round/2/begin"); !strings.Contains(body, "Bob's Flight: no effect") {
		t.Errorf("the results do not say the unruled power had no effect:\n%s", body)
	}

	h = atRound(t)
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "Defense: 70",
		bob, "Flight: 10\nAttack Carol 70",
		carol, "none",
		dave, "none")
	mustDone(t, h.Private("2026-12-03T12:00:00Z", mars, "I rule on #1: strike Carol 25"))
	if f := data2(h).fighter("Carol"); f.Stamina != 90-95 || f.Alive {
		t.Errorf("Carol %+v, want dead at -5", f)
	}
	wantPoints(t, h, map[string]int{"Bob": 2})
	body := norm(sent(t, h, "rumble/1/round/2/begin"))
	for _, want := range []string{"Bob's Flight: strike Carol 25", "Dead this round: Carol.", "Bob gains 2 points for attacking Carol (Rumble 10)."} {
		if !strings.Contains(body, want) {
			t.Errorf("the results do not say %q:\n%s", want, body)
		}
	}

	// The smallest use, 1 energy, is put to the contestmaster as well.
	h = atRound(t)
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "none",
		bob, "Flight: 1",
		carol, "none",
		dave, "none")
	if body := norm(sent(t, h, "rumble/1/round/1/actions")); !strings.Contains(body, "The results wait for the contestmaster's ruling on 1 use of powers") {
		t.Errorf("1 energy on Flight is not put to the contestmaster:\n%s", body)
	}
}

// G9: an amendment without a machine-readable change waits for a ruling.
func TestAmendmentRuling(t *testing.T) {
	h := atBids(t)
	mustDone(t, h.Public("2026-12-01T13:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: powers may be shared."))
	mustDone(t, h.Public("2026-12-06T13:00:00Z", mars, "I do so (intent #1)."))
	st := data2(h)
	if len(st.Amendments) != 1 || !strings.Contains(st.Amendments[0].Status, "needs") {
		t.Fatalf("amendments %+v", st.Amendments)
	}
	mustDone(t, h.Private("2026-12-06T14:00:00Z", mars, "I rule on #1: SET BidLimit = 120"))
	if v := h.S.Games["rumble"].Params["BidLimit"]; v != "120" {
		t.Errorf("BidLimit %q after the ruling", v)
	}
	r := h.Public("2026-12-06T15:00:00Z", alice, "I intend, without 2 objections, to amend the Rumble contract: SET Stamina = 5")
	mustDone(t, r)
	r = h.Public("2026-12-11T15:00:00Z", alice, "I do so (intent #2).")
	if !failed(r) || !strings.Contains(norm(r.Body), "only the contestmaster") {
		t.Errorf("a player amending:\n%v", r)
	}
	// A ruling in words, not a SET, is recorded as it reads (G9).
	mustDone(t, h.Public("2026-12-11T16:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: a power may be lent."))
	mustDone(t, h.Public("2026-12-16T16:00:00Z", mars, "I do so (intent #3)."))
	mustDone(t, h.Private("2026-12-16T17:00:00Z", mars, "I rule on #2: lending is allowed between rounds"))
	n, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-16T18:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"1. powers may be shared: applied by ruling: BidLimit = 120",
		"2. a power may be lent: recorded by ruling: lending is allowed between rounds",
	} {
		if !strings.Contains(norm(n.Body), want) {
			t.Errorf("the report's amendments do not say %q:\n%s", want, n.Body)
		}
	}
}

// U4: bids totalling the stamina warn of death; winners at 0 are dead before
// round 1, and a game with one survivor ends with a winner.
func TestDeathByBidding(t *testing.T) {
	h := atBids(t)
	r := h.Private("2026-12-02T10:00:00Z", alice, "Iron Skin: 100")
	mustDone(t, r)
	if !strings.Contains(norm(r.Body), "warning: if all these bids win, your stamina falls to 0 and you are dead before round 1 (U4)") {
		t.Errorf("no warning of 0 stamina:\n%s", r.Body)
	}
	privately(t, h, "2026-12-02T10:00:00Z",
		bob, "Flight: 100",
		carol, "Fire Breath: 100",
		dave, "no bids")
	st := data2(h)
	if st.Phase != PhaseNone || !strings.Contains(st.Last, "won by Dave") {
		t.Errorf("phase %q, %q", st.Phase, st.Last)
	}
}

// TestBidsToOneStamina: bids totalling 99 leave 1 stamina, which is alive
// (Rumble 4, U4): no warning, and the bids notice shows the contestant alive
// into the discards, while 100 is death.
func TestBidsToOneStamina(t *testing.T) {
	h := atBids(t)
	r := h.Private("2026-12-02T10:00:00Z", alice, "Iron Skin: 99")
	mustDone(t, r)
	if strings.Contains(norm(r.Body), "dead before round 1") {
		t.Errorf("a warning for bids that leave 1 stamina:\n%s", r.Body)
	}
	privately(t, h, "2026-12-02T10:00:00Z",
		bob, "Flight: 100",
		carol, "no bids",
		dave, "no bids")
	body := norm(sent(t, h, "rumble/1/bids"))
	if st := data2(h); st.Phase != PhaseDiscard || len(st.alive()) != 3 {
		t.Errorf("phase %q with %d alive, want discards with Alice, Carol and Dave:\n%s", st.Phase, len(st.alive()), body)
	}
	if !strings.Contains(body, "Alice 99 1 Iron Skin") || !strings.Contains(body, "Stamina below 1 after bidding: Bob, dead before round 1") {
		t.Errorf("the bids notice does not show Alice at 1 stamina and Bob alone dead:\n%s", sent(t, h, "rumble/1/bids"))
	}
	// Bob, dead of his bids, is still shown with what he bid and paid.
	if !strings.Contains(body, "Bob 100 0 Flight") {
		t.Errorf("the bids notice does not show what Bob paid:\n%s", sent(t, h, "rumble/1/bids"))
	}
}

// TestDiscardsListed: the discards of round 1's notice (Rumble 6, U3) name
// each holder of a power, with "none sent" for a holder who sent nothing by
// the deadline, and nobody who holds no power.
func TestDiscardsListed(t *testing.T) {
	h := atBids(t)
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Iron Skin: 30",
		bob, "Flight: 20",
		carol, "no bids",
		dave, "no bids")
	mustDone(t, h.Private("2026-12-02T11:00:00Z", alice, "No discard."))
	h.Advance("2026-12-06T00:00:00Z")
	body := sent(t, h, "rumble/1/round/1/begin")
	i, j := strings.Index(body, "Discards (Rumble 6)"), strings.Index(body, "Sealed discards")
	if i < 0 || j < i {
		t.Fatalf("no discards in round 1's notice:\n%s", body)
	}
	var got []string
	for _, l := range strings.Split(body[i:j], "\n")[2:] { // after the heading and its rule
		if l = strings.TrimSpace(l); l != "" {
			got = append(got, l)
		}
	}
	if want := []string{"Alice: no discard", "Bob: no discard (none sent, U3)"}; !slices.Equal(got, want) {
		t.Errorf("the discards %q, want %q", got, want)
	}
}

// TestStartLimits: a game has 1 to 10 powers per contestant and 0 to 40
// contestmaster powers (Rumble 1); 11 or 41 are refused, 10 and 40 start it.
func TestStartLimits(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	for _, bad := range []string{"11 powers per contestant and 40 contestmaster powers", "10 powers per contestant and 41 contestmaster powers"} {
		r := h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with "+bad+".")
		if !failed(r) || !strings.Contains(norm(r.Body), "announce 1 to 10 powers per contestant and 0 to 40 contestmaster powers (Rumble 1)") {
			t.Errorf("%s: not refused:\n%s", bad, r.Body)
		}
	}
	r := h.Public("2026-12-01T11:01:00Z", mars, "I announce a new game of Rumble with 10 powers per contestant and 40 contestmaster powers.")
	mustDone(t, r)
	if !strings.Contains(norm(r.Body), "10 powers per contestant, 40 for the contestmaster") {
		t.Errorf("the start's receipt:\n%s", r.Body)
	}
}

// Rumble 1: between games there is nothing to submit, and the receipt says so.
func TestSubmitBetweenGames(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	mustDone(t, h.Public("2026-12-01T10:00:00Z", alice, "I join Rumble."))
	r := h.Private("2026-12-01T11:00:00Z", alice, "Attack: 30 to Bob")
	if !failed(r) || !strings.Contains(norm(r.Body), "no game of Rumble is going on") {
		t.Errorf("a list between games:\n%v", r)
	}
}

// TestNoLogging: the package has no logger, so no log line can show a sealed
// value; the scenario's mails are all there is to scan (TestScenario/secrecy).
func TestNoLogging(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil || len(names) == 0 {
		t.Fatalf("list the package's files: %v", err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); path == "log" || path == "log/slog" {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}

// The report during bidding shows who has sealed and the commitments, never
// an amount.
func TestReportDuringBids(t *testing.T) {
	h := atBids(t)
	r := h.Private("2026-12-02T10:00:00Z", alice, "Iron Skin: 37 / Flight: 29")
	mustDone(t, r)
	commitment := regexp.MustCompile(`[0-9a-f]{64}`).FindString(r.Body)
	if commitment == "" {
		t.Fatalf("the receipt shows no commitment:\n%s", r.Body)
	}
	n, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-02T11:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.Body, commitment[:16]) || !strings.Contains(n.Body, "(none yet)") {
		t.Errorf("the report does not show who sealed:\n%s", n.Body)
	}
	for _, l := range strings.Split(n.Body, "\n") {
		if hasToken(l, "37") || hasToken(l, "29") {
			t.Errorf("the report shows a sealed amount: %q", l)
		}
	}
}

// TestContestmasterReminded: 24 hours before the power deadline (U3) the
// contestmaster, who owes Q powers (Rumble 3), is reminded privately with the
// contestants who have sent nothing; once e has sent eirs, e is not.
func TestContestmasterReminded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cmSent bool
		want   []string
	}{
		{"silent", false, []string{"bob@example.test", "cm@example.test"}},
		{"sent", true, []string{"bob@example.test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
			for _, p := range []string{alice, bob} {
				mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
			}
			mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 2 contestmaster powers."))
			mustDone(t, h.Private("2026-12-01T12:00:00Z", alice, "Iron Skin: my skin turns to iron (ward)"))
			if tc.cmSent {
				mustDone(t, h.Private("2026-12-01T12:00:00Z", mars, "Rain: it rains"))
			}
			var to []string
			for _, n := range h.Advance("2026-12-03T12:00:00Z") { // the deadline is 12-04 11:00
				if n.Kind != "reminder" {
					continue
				}
				to = append(to, n.To...)
				if slices.Contains(n.To, "cm@example.test") {
					if want := "Rumble game 1: your 2 powers are due 2026-12-04 11:00"; n.Subject != want {
						t.Errorf("the contestmaster's reminder is titled %q, want %q", n.Subject, want)
					}
					if !strings.Contains(norm(n.Body), "send up to 2 powers privately before 2026-12-04 11:00 UTC") {
						t.Errorf("the contestmaster's reminder:\n%s", n.Body)
					}
				}
			}
			slices.Sort(to)
			if !slices.Equal(to, tc.want) {
				t.Errorf("reminders to %q, want %q", to, tc.want)
			}
		})
	}
}

// TestContestmasterOwesNoPowers: in a game announced with no contestmaster
// powers (Rumble 1, 3), the contestmaster's private mail during power
// submission is not read as a list of eir powers: a note in which the phase
// finds nothing gets no receipt (no refusal as an empty power list) and
// changes nothing.
func TestContestmasterOwesNoPowers(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	before := snapshot(t, h)
	if r := h.Private("2026-12-01T12:00:00Z", mars, "Thanks, and good luck to you all"); r != nil {
		t.Errorf("a receipt for the contestmaster's note:\n%s", r.Body)
	}
	if after := snapshot(t, h); after != before {
		t.Errorf("the state changed:\n%s\n---\n%s", before, after)
	}
}
