package rumble

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

// testState is a game in round 1 with five powers and four contestants.
func testState() (*State, *Fighter) {
	st := &State{Game: 1, Phase: PhaseRound, Round: 1}
	for _, p := range []struct{ name, eff string }{{"Flight", ""}, {"Iron Skin", "ward"}, {"Blood Pact", "blood"}, {"Fire Breath", "fury"}, {"Attack Dog", ""}} {
		st.Powers = append(st.Powers, &Power{Name: p.name, Effect: p.eff, Strength: 10})
	}
	for _, n := range []string{"Alice", "Bob", "Carol", "Dave"} {
		st.Fighters = append(st.Fighters, &Fighter{Name: n, Alive: true, Stamina: 100, Energy: 100})
	}
	me := st.Fighters[0]
	me.Powers = []string{"Flight", "Iron Skin", "Blood Pact", "Attack Dog"}
	return st, me
}

func resolveTest(ref string) (string, error) {
	for _, n := range []string{"Alice", "Bob", "Carol", "Dave"} {
		if strings.EqualFold(n, strings.TrimSpace(ref)) {
			return n, nil
		}
	}
	return "", contract.Reject("Rumble 9", "no player is known as %q", ref)
}

// parsed checks a parser's error against the rejection a case wants ("" for
// none), and reports whether the case goes on to compare the result.
func parsed(t *testing.T, text string, err error, want string) bool {
	t.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
		return false
	}
	if err != nil {
		t.Errorf("%q: %v", text, err)
		return false
	}
	return true
}

// rejected reports whether a fuzzed parser failed, and fails the test when the
// failure is a fault rather than a rejection a player could be sent.
func rejected(t *testing.T, in string, err error) bool {
	t.Helper()
	if err == nil {
		return false
	}
	if _, ok := contract.AsRejection(err); !ok {
		t.Fatalf("%q: a fault, not a rejection: %v", in, err)
	}
	return true
}

func TestParseActions(t *testing.T) {
	tests := []struct {
		text string
		want []Alloc
		err  string
	}{
		{"Attack: 30 to Bob; 10 to Carol / Defense: 40 / Flight: 10", []Alloc{
			{Kind: "attack", Target: "Bob", N: 30}, {Kind: "attack", Target: "Carol", N: 10},
			{Kind: "defend", N: 40}, {Kind: "spend", Power: "Flight", N: 10}}, ""},
		{"Attack: 30 to Bob\n10 to Carol\nDefense: 40\nFlight: 10", []Alloc{
			{Kind: "attack", Target: "Bob", N: 30}, {Kind: "attack", Target: "Carol", N: 10},
			{Kind: "defend", N: 40}, {Kind: "spend", Power: "Flight", N: 10}}, ""},
		{"I attack Bob with 20.\nI defend with 5.\nI spend 3 on Iron Skin.", []Alloc{
			{Kind: "attack", Target: "Bob", N: 20}, {Kind: "defend", N: 5}, {Kind: "spend", Power: "Iron Skin", N: 3}}, ""},
		{"attack bob 5\nattack Bob: 6", []Alloc{{Kind: "attack", Target: "Bob", N: 11}}, ""},
		{"Hello!\nBurn 5 on Blood Pact\nBlood Pact: 2", []Alloc{{Kind: "burn", Power: "Blood Pact", N: 7}}, ""},
		{"- Attack Dog: 4", []Alloc{{Kind: "spend", Power: "Attack Dog", N: 4}}, ""},
		{"none", nil, ""},
		{"Attack: 30 to Zed", nil, "no player is known"},
		{"Attack: 1.5 to Bob", nil, "not a whole number"},
		{"Defense: -1", nil, "negative"},
		{"Fire Breath: 3", nil, "do not hold"},
		{"Spend 3 on Blood Pact", nil, "requires you to Burn"},
		{"Dance: 10", nil, "not a power"},
		{"Attack: 3 to Alice", nil, "yourself"},
		// The referee's own cap on an amount: 1,000,000 is read, one more is not.
		{"Defense: 1000000", []Alloc{{Kind: "defend", N: 1_000_000}}, ""},
		{"Defense: 1000001", nil, `the Defense "1000001" is too large`},
		// Commas between thousands, as Agora writes amounts; "2,5" and
		// "1,00" are no whole numbers.
		{"Defense: 1,000,000", []Alloc{{Kind: "defend", N: 1_000_000}}, ""},
		{"Attack: 1,000 to Bob", []Alloc{{Kind: "attack", Target: "Bob", N: 1000}}, ""},
		{"Defense: 1,000,001", nil, `the Defense "1,000,001" is too large`},
		{"Defense: 2,5", nil, "not a whole number"},
		{"Attack: 1,00 to Bob", nil, "not a whole number"},
	}
	for _, tc := range tests {
		st, me := testState()
		got, _, err := parseActions(tc.text, st, me, resolveTest)
		if !parsed(t, tc.text, err, tc.err) {
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.text, d)
		}
	}
}

func TestParseBids(t *testing.T) {
	tests := []struct {
		text     string
		want     []Bid
		explicit bool
		err      string
	}{
		{"Flight: 30\nIron Skin: 20", []Bid{{"Flight", 30}, {"Iron Skin", 20}}, false, ""},
		{"I bid 30 on Flight. I bid 5 on #2", []Bid{{"Flight", 30}, {"Iron Skin", 5}}, false, ""},
		{"Bids: flight 7 / iron skin = 8", []Bid{{"Flight", 7}, {"Iron Skin", 8}}, false, ""},
		{"30 on Flight; 2 for Fire Breath", []Bid{{"Flight", 30}, {"Fire Breath", 2}}, false, ""},
		{"No bids.", nil, true, ""},
		{"Flight: 30\nFlight: 2", nil, false, "two bids"},
		{"Speed: 3", nil, false, "not a power"},
		{"Flight: 0", nil, false, "1 or more"},
		// U4: 1 is the smallest bid; #1 to #5 are the five powers listed.
		{"I bid 1 on #1. I bid 2 on #5", []Bid{{"Flight", 1}, {"Attack Dog", 2}}, false, ""},
		{"#0: 3", nil, false, "not a power"},
		{"#6: 3", nil, false, "not a power"},
		{"Flight: 2,5", nil, false, "not a whole number"},
		{"Flight: 1,000", []Bid{{"Flight", 1000}}, false, ""},
		{"Flight: 0,100", nil, false, "not a whole number"},
	}
	for _, tc := range tests {
		st, _ := testState()
		got, explicit, err := parseBids(tc.text, st)
		if !parsed(t, tc.text, err, tc.err) {
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" || explicit != tc.explicit {
			t.Errorf("%q: explicit %v (-want +got):\n%s", tc.text, explicit, d)
		}
	}
}

func TestParsePowers(t *testing.T) {
	tests := []struct {
		text string
		want []PowerDef
		err  string
	}{
		{"Hi,\nIron Will: I never fall (ward)\nThanks, Ann", []PowerDef{{"Iron Will", "I never fall (ward)", "ward"}}, ""},
		{"Power 1: Sky Fist - a fist from the sky [effect: fury]\nPower 2: Nap: I rest", []PowerDef{
			{"Sky Fist", "a fist from the sky [effect: fury]", "fury"}, {"Nap", "I rest", ""}}, ""},
		{"I submit the power Glue: sticky", []PowerDef{{"Glue", "sticky", ""}}, ""},
		{"I rule on #3: ward 5\nMoon: shines", []PowerDef{{"Moon", "shines", ""}}, ""},
		{"Power: Lonely", nil, "no description"},
		// A line that introduces the list is no power ("Here are my
		// powers:" is skipped as talk; "I submit ..." leads a power).
		{"I submit the following powers:\n1. Moss: soft\n2. Glue: sticky", []PowerDef{{"Moss", "soft", ""}, {"Glue", "sticky", ""}}, ""},
		{"I hereby submit my two powers for game 2\nMoss: soft", []PowerDef{{"Moss", "soft", ""}}, ""},
		{"I submit the power Moss", nil, "no description"},
		{"Moon: a\nmoon: b", nil, "listed twice"},
		// Rumble 2: a description of up to 300 characters.
		{"Moon: " + strings.Repeat("m", 300), []PowerDef{{"Moon", strings.Repeat("m", 300), ""}}, ""},
		{"Moon: " + strings.Repeat("m", 301), nil, `the description of "Moon" is longer than 300 characters`},
	}
	for _, tc := range tests {
		got, err := parsePowers(tc.text)
		if !parsed(t, tc.text, err, tc.err) {
			continue
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.text, d)
		}
	}
}

func TestReadRuling(t *testing.T) {
	tests := []struct {
		in   string
		want ruled
		ok   bool
	}{
		{"ward 15", ruled{Effect: "ward", N: 15}, true},
		{"Fury: +3.", ruled{Effect: "fury", N: 3}, true},
		{"strike Bob 20", ruled{Effect: "strike", N: 20, Target: "Bob"}, true},
		{"No effect.", ruled{}, true},
		{"it makes em fly", ruled{}, false},
	}
	for _, tc := range tests {
		got, ok := readRuling(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("readRuling(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestCommitmentVector checks the documented formula against a value computed
// independently (Python's hashlib).
func TestCommitmentVector(t *testing.T) {
	nonce := strings.Repeat("00", 32)
	canon := "rumble game 1 phase bids contestant Alice\nbid: Flight: 30\n"
	const want = "53bf00a2cd74e9644a36c6af3e50733b61d01d1a6867d5889571f67044adc53e"
	if got := Commit(canon, nonce); got != want {
		t.Errorf("Commit = %s, want %s", got, want)
	}
	if !VerifyCommitment(canon, nonce, strings.ToUpper(want)) {
		t.Error("VerifyCommitment refuses the right commitment")
	}
	for _, bad := range []struct{ c, n, h string }{
		{canon + " ", nonce, want}, {canon, strings.Repeat("11", 32), want}, {canon, nonce, want[:63]}, {canon, nonce, ""},
	} {
		if VerifyCommitment(bad.c, bad.n, bad.h) {
			t.Errorf("VerifyCommitment accepts %q %q %q", bad.c, bad.n, bad.h)
		}
	}
}

func TestCanonicalOrder(t *testing.T) {
	x := &Sub{Acts: []Alloc{{Kind: "spend", Power: "Flight", N: 1}, {Kind: "defend", N: 2}, {Kind: "attack", Target: "Dave", N: 3}, {Kind: "attack", Target: "Bob", N: 4}}}
	got := canonical(2, "round-3", "Carol", x)
	want := "rumble game 2 phase round-3 contestant Carol\nattack: Bob: 4\nattack: Dave: 3\ndefend: 2\nspend: Flight: 1\n"
	if got != want {
		t.Errorf("canonical:\n%s\nwant:\n%s", got, want)
	}
	if got := canonical(1, "discard", "Bob", &Sub{}); got != "rumble game 1 phase discard contestant Bob\ndiscard: none\n" {
		t.Errorf("empty discard: %q", got)
	}
	if got := canonical(1, "bids", "Bob", &Sub{}); got != "rumble game 1 phase bids contestant Bob\nnone\n" {
		t.Errorf("no bids: %q", got)
	}
}

// TestPool: U2 needs at least 60 original powers, with distinct names that
// pass the submission rules and only documented effects.
func TestPool(t *testing.T) {
	if len(pool) < 60 {
		t.Fatalf("the pool has %d powers, want at least 60", len(pool))
	}
	seen := map[string]bool{}
	for _, p := range pool {
		k := strings.ToLower(p.Name)
		if seen[k] {
			t.Errorf("%q twice", p.Name)
		}
		seen[k] = true
		defs, err := parsePowers(p.Name + ": " + p.Text)
		if err != nil || len(defs) != 1 || defs[0].Effect != p.Effect {
			t.Errorf("%q does not read back as itself: %v %+v", p.Name, err, defs)
		}
		if p.Effect != "" {
			if _, ok := effectByName(p.Effect); !ok {
				t.Errorf("%q has an undocumented effect %q", p.Name, p.Effect)
			}
		}
	}
}

// TestPoolSkipsUsedNames: U2's duplicate check is case-insensitive for the
// pool's draws too. Alice and Bob send two of the pool's powers in capitals;
// the contestmaster sends none, so all 40 of eir powers are drawn: the powers
// notice lists none of the pool's powers twice in any case, and each draw's
// label counts the candidates left after the names already in the game.
func TestPoolSkipsUsedNames(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 40 contestmaster powers."))
	taken := []PowerDef{pool[0], pool[len(pool)-1]}
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, strings.ToUpper(taken[0].Name)+": "+taken[0].Text,
		bob, strings.ToUpper(taken[1].Name)+": "+taken[1].Text)
	h.Advance("2026-12-05T00:00:00Z")
	body := norm(sent(t, h, "rumble/1/powers"))
	for _, p := range pool {
		if n := len(regexp.MustCompile(`(?i)\b\d+\. `+regexp.QuoteMeta(p.Name)+`: `).FindAllString(body, -1)); n > 1 {
			t.Errorf("%s is in the powers notice %d times", p.Name, n)
		}
	}
	labels := regexp.MustCompile(`/game/1/pool/contestmaster/(\d+) \((\d+) candidates\)`).FindAllStringSubmatch(body, -1)
	if len(labels) != 40 {
		t.Fatalf("%d draws labelled, want 40:\n%s", len(labels), body)
	}
	for _, l := range labels {
		k, _ := strconv.Atoi(l[1])
		if want := strconv.Itoa(len(pool) - len(taken) - (k - 1)); l[2] != want {
			t.Errorf("draw %s: %s candidates, want %s (U2: the pool less the %d names in the game)", l[1], l[2], want, len(taken)+k-1)
		}
	}
}

// TestPoolSpent: when the pool's 66 powers are spent, each further power is
// a spare named by its number in the list, or the next number whose name is
// free, so no two powers share a name (U2) and a bid wins the one power it
// names (Rumble 5). Alice sends ten powers, one of them "spare power 78";
// Bob, Carol, Dave and the contestmaster send none, so 70 are drawn and the
// last four of the 80 are spares: #77 is Spare Power 77, #78 skips Alice's
// name to Spare Power 79, and #79 and #80 follow as 80 and 81.
func TestPoolSpent(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob, carol, dave} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 10 powers per contestant and 40 contestmaster powers."))
	var own []string
	for _, n := range []string{"Rain", "Hail", "Sleet", "Snow", "Mist", "Frost", "Dew", "Gale", "Drizzle", "spare power 78"} {
		own = append(own, n+": weather of my own")
	}
	privately(t, h, "2026-12-01T12:00:00Z", alice, strings.Join(own, "\n"))
	h.Advance("2026-12-05T00:00:00Z")
	powers := noticeHas(t, h, "rumble/1/powers",
		"10. spare power 78: weather of my own",
		"77. Spare Power 77: A power with no description.",
		"78. Spare Power 79: A power with no description.",
		"79. Spare Power 80: A power with no description.",
		"80. Spare Power 81: A power with no description.",
		"The pool was spent, so the referee made 4 spare powers without a description: Spare Power 77, Spare Power 79, Spare Power 80, Spare Power 81.")
	if n := strings.Count(strings.ToLower(powers), ". spare power 77:"); n != 1 {
		t.Errorf("Spare Power 77 is listed %d times, want once:\n%s", n, sent(t, h, "rumble/1/powers"))
	}
	privately(t, h, "2026-12-05T01:00:00Z",
		alice, "spare power 78: 2",
		bob, "Spare Power 77: 5",
		carol, "#78: 3",
		dave, "no bids")
	noticeHas(t, h, "rumble/1/bids",
		"spare power 78 2 2 Alice",
		"Spare Power 77 5 5 Bob",
		"Spare Power 79 3 3 Carol",
		"Spare Power 80 0 (no bids: discarded)",
		"Spare Power 81 0 (no bids: discarded)",
		"Alice 2 98 spare power 78",
		"Bob 5 95 Spare Power 77",
		"Carol 3 97 Spare Power 79")
}

// noticeHas is the notice id's text with its white space made single
// spaces, after checking that it holds each of wants.
func noticeHas(t *testing.T, h *contracttest.Harness, id string, wants ...string) string {
	t.Helper()
	body := norm(sent(t, h, id))
	for _, want := range wants {
		if !strings.Contains(body, want) {
			t.Errorf("the notice %s lacks %q:\n%s", id, want, sent(t, h, id))
		}
	}
	return body
}

// TestNoContestmasterPowers: in a game announced with 0 contestmaster
// powers, a power list from the contestmaster is refused with the reason
// in eir terms (Rumble 3: e creates the number e announced, here none),
// not as a count out of range; the contestants' powers are then the whole
// list.
func TestNoContestmasterPowers(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	r := h.Private("2026-12-01T11:30:00Z", mars, "Power: Rain: it rains")
	want := "Not done: game 1 was announced with 0 contestmaster powers, so you have no powers to send; " +
		"its powers are the contestants' alone (Rumble 3)"
	if r == nil {
		t.Fatal("a power from the contestmaster of a game with none: no receipt")
	}
	if !failed(r) || !strings.Contains(norm(r.Body), want) {
		t.Fatalf("a power from the contestmaster of a game with none: want %q in the receipt:\n%s", want, r.Body)
	}
	if x := data2(h).sub("Mars"); x != nil {
		t.Errorf("the contestmaster's power was sealed: %+v", x)
	}
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, "Iron Skin: my skin turns to iron (ward)",
		bob, "Flight: I fly above the fray")
	if st := data2(h); st.Phase != PhaseBids || len(st.Powers) != 2 {
		t.Errorf("after the contestants' powers: phase %s, %d powers, want bids and 2", st.Phase, len(st.Powers))
	}
}

// TestContestmasterPowers: the contestmaster may send 1 to Q powers (Rumble
// 3, U2); exactly Q are all eir powers, so nothing is drawn from the pool
// and the journal's entry for the list names no draw.
func TestContestmasterPowers(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 2 contestmaster powers."))
	if r := h.Private("2026-12-01T11:30:00Z", mars, "Rain: it rains\nHail: it hails\nSnow: it snows"); !failed(r) || !strings.Contains(norm(r.Body), "send 1 to 2 contestmaster powers") {
		t.Errorf("three contestmaster powers of 2:\n%s", r.Body)
	}
	mustDone(t, h.Private("2026-12-01T12:00:00Z", mars, "Rain: it rains\nHail: it hails"))
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, "Iron Skin: my skin turns to iron (ward)",
		bob, "Flight: I fly above the fray")
	h.Advance("2026-12-05T00:00:00Z")
	body := norm(sent(t, h, "rumble/1/powers"))
	for _, n := range []string{"Rain", "Hail"} {
		if !regexp.MustCompile(n + ` ruled contestmaster\b`).MatchString(body) {
			t.Errorf("the powers notice does not list %s as the contestmaster's:\n%s", n, body)
		}
	}
	if strings.Contains(body, "Drawn from the built-in pool") {
		t.Errorf("a draw from the pool with the contestmaster's powers all sent:\n%s", body)
	}
	for _, e := range h.Entries {
		if _, ok := e.Detail["powers"]; ok {
			if d, ok := e.Detail["drawn"]; ok {
				t.Errorf("the journal's entry for the powers names draws: %v", d)
			}
		}
	}
}

// TestGuide: the guide lists every verb and every effect, and fits in mail.
func TestGuide(t *testing.T) {
	contracttest.CheckGuide(t, New(), nil)
	g := New().Spec().Guide
	for _, e := range effects {
		if !strings.Contains(norm(g), e.Help) {
			t.Errorf("the guide does not document %s: %q", e.Name, e.Help)
		}
	}
}

func FuzzParseActions(f *testing.F) {
	for _, s := range []string{"Attack: 30 to Bob; 10 to Carol / Defense: 40 / Flight: 10", "I attack Bob with 20.", "Burn 5 on Blood Pact", "none", "Attack: -3 to Bob"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, me := testState()
		acts, _, err := parseActions(s, st, me, resolveTest)
		if rejected(t, s, err) {
			return
		}
		for _, a := range acts {
			if a.N < 0 {
				t.Fatalf("%q: negative allocation %+v", s, a)
			}
		}
	})
}

func FuzzParseBids(f *testing.F) {
	for _, s := range []string{"Flight: 30\nIron Skin: 20", "I bid 30 on Flight.", "no bids", "#2: 5", "Flight: 1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, _ := testState()
		bids, _, err := parseBids(s, st)
		if rejected(t, s, err) {
			return
		}
		for _, b := range bids {
			if b.N < 1 || st.power(b.Power) == nil {
				t.Fatalf("%q: bad bid %+v", s, b)
			}
		}
	})
}

func FuzzParsePowers(f *testing.F) {
	for _, s := range []string{"Iron Will: I never fall (ward)", "Power 1: Sky - x\nPower 2: Nap: y", "I submit the power Glue: sticky"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defs, err := parsePowers(s)
		if rejected(t, s, err) {
			return
		}
		for _, d := range defs {
			if d.Name == "" || d.Text == "" || strings.Contains(d.Name, "\n") {
				t.Fatalf("%q: bad power %+v", s, d)
			}
		}
	})
}

func FuzzReadRuling(f *testing.F) {
	for _, s := range []string{"ward 15", "strike Bob 20", "none", "fury: +3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := readRuling(s)
		if ok && r.N < 0 {
			t.Fatalf("%q: negative %+v", s, r)
		}
	})
}
