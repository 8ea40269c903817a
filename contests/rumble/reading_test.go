package rumble

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract/contracttest"
)

// quoted lists the lines a receipt quotes, in order.
func quoted(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "> ") {
			out = append(out, strings.TrimPrefix(l, "> "))
		}
	}
	return out
}

// A bid sentence followed by a "#k: amount" item is two bids (Rumble 5), read
// once and quoted once.
func TestMixedBidForms(t *testing.T) {
	h := atBids(t)
	r := h.Private("2026-12-02T12:00:00Z", alice, "I bid 35 on Flight. #4: 20")
	mustDone(t, r)
	if q := quoted(r.Body); len(q) != 1 {
		t.Errorf("the receipt quotes %d lines, want the list once:\n%s", len(q), r.Body)
	}
	if !strings.Contains(norm(r.Body), "bid: Flight: 35 / bid: Lucky Star: 20") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	x := data2(h).sub("Alice")
	if x == nil || len(x.Bids) != 2 || x.Bids[0] != (Bid{Power: "Flight", N: 35}) || x.Bids[1] != (Bid{Power: "Lucky Star", N: 20}) {
		t.Errorf("Alice's sealed bids = %+v", x)
	}
}

// A private Life action in a message sent while a Rumble round is open is
// Life's to answer: no Rumble error about it, and the Rumble list in the same
// message still counts.
func TestOtherGamesPrivateSentence(t *testing.T) {
	h := atRound(t, life.New())
	r := h.Private("2026-12-02T12:00:00Z", alice, "I claim cell (3, 4) in Life.")
	if r == nil {
		t.Fatal("no receipt")
	}
	if strings.Contains(r.Body, "Rumble") || strings.Contains(r.Body, "Attack") {
		t.Errorf("a Life action got a Rumble error:\n%s", r.Body)
	}
	if !strings.Contains(norm(r.Body), "this is a public action: announce it on the public list") {
		t.Errorf("the Life action is not refused as public-only:\n%s", r.Body)
	}
	r = h.Private("2026-12-02T12:05:00Z", alice, "Attack: 30 to Bob\nI claim cell (3, 4) in Life.")
	if q := quoted(r.Body); len(q) != 2 || q[0] != "Attack: 30 to Bob" || q[1] != "I claim cell (3, 4) in Life." {
		t.Errorf("receipt quotes %q:\n%s", q, r.Body)
	}
	if !strings.Contains(norm(r.Body), "attack: Bob: 30") || !strings.Contains(norm(r.Body), "1 done, 1 not done") {
		t.Errorf("receipt:\n%s", r.Body)
	}
}

// Rumble 2, G4: a power mailed to the public list does not count and is
// answered with the warning the guide promises.
func TestPublicPowerWarned(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	for _, text := range []string{"Power: Teleport: I vanish and reappear", "Iron Skin: my skin turns to iron (ward)", "I submit the power Teleport: I vanish."} {
		r := h.Public("2026-12-01T12:00:00Z", alice, "Hello all,\n\n"+text+"\n")
		if r == nil || !failed(r) || !strings.Contains(norm(r.Body), "the list has now seen it") {
			t.Errorf("%q on the public list: receipt %v", text, r)
			continue
		}
		if x := data2(h).sub("Alice"); x != nil {
			t.Errorf("%q on the public list was sealed: %+v", text, x)
		}
	}
	// Talk about powers is not a power.
	if r := h.Public("2026-12-01T12:30:00Z", bob, "Note: powers are due on Friday.\nI think Teleport would be fun."); r != nil {
		t.Errorf("talk got a receipt:\n%s", r.Body)
	}
}

// TestReportDuringPowers: while the powers are being submitted there is no
// stamina to show and no power yet: the report's contestants have an empty
// Stamina column, and there is no table of powers.
func TestReportDuringPowers(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	n, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-01T13:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.Body, "is in its power submission phase") {
		t.Fatalf("the report is not of the powers phase:\n%s", n.Body)
	}
	for _, l := range strings.Split(n.Body, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && (f[0] == "Alice" || f[0] == "Bob") && strings.Join(f[1:], " ") != "alive (none yet)" {
			t.Errorf("a contestant's row during the powers phase: %q", l)
		}
		if len(f) > 1 && f[0] == "#" && f[1] == "Power" {
			t.Errorf("a table of powers during the powers phase:\n%s", n.Body)
		}
	}
}

// The weekly report shows the powers as they are held: a discarded power has
// no holder (Rumble 6), and the game's own number of powers is the one shown
// (Rumble 1), not the default for games that name none.
func TestReportAfterDiscard(t *testing.T) {
	h := atBids(t)
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Iron Skin: 30",
		bob, "Flight: 20",
		carol, "Fire Breath: 10",
		dave, "no bids")
	privately(t, h, "2026-12-02T11:00:00Z",
		alice, "Discard: Iron Skin",
		bob, "No discard.",
		carol, "No discard.")
	n, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-02T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	var ironSkin, powers, cmPowers, bidLimit string
	for _, l := range strings.Split(n.Body, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 2 && f[1] == "Iron" && f[2] == "Skin":
			ironSkin = l
		case len(f) > 0 && f[0] == "Powers":
			powers = l
		case len(f) > 0 && f[0] == "ContestmasterPowers":
			cmPowers = l
		case len(f) > 0 && f[0] == "BidLimit":
			bidLimit = l
		}
	}
	if strings.Contains(ironSkin, "Alice") || !strings.Contains(ironSkin, "(discarded)") {
		t.Errorf("the discarded power's row: %q\n%s", ironSkin, n.Body)
	}
	if !strings.Contains(norm(n.Body), "with 4 contestants, 1 power each and 0 for the contestmaster") {
		t.Errorf("the report does not say the game's powers:\n%s", n.Body)
	}
	if !strings.Contains(powers, "1 in game 1 (default 2)") {
		t.Errorf("the Powers parameter row: %q", powers)
	}
	if !strings.Contains(cmPowers, "0 in game 1 (default 2)") {
		t.Errorf("the ContestmasterPowers parameter row: %q", cmPowers)
	}
	if f := strings.Fields(bidLimit); len(f) != 4 || f[1] != "100" || f[2] != "Rumble" {
		t.Errorf("the BidLimit parameter row: %q", bidLimit)
	}
}

// TestSentenceBeyondTheQuote: a receipt quotes a long list cut at 200
// characters, so a bid sentence past the cut is quoted and answered apart
// (G4: the whole message is one list): "part of the list sealed above" when
// the list was sealed, "not counted" when it was refused, and then the list
// sealed earlier stands.
func TestSentenceBeyondTheQuote(t *testing.T) {
	h := atBids(t)
	words := "Thanks" + strings.Repeat(" and thanks", 18)
	for _, tc := range []struct {
		at, list, want string
	}{
		{"2026-12-02T10:00:00Z", "Iron Skin: 30", "> I bid 20 on Flight. Done: part of the list sealed above 2 done, 0 not done."},
		{"2026-12-02T10:05:00Z", "Iron Skin: 90", "> I bid 20 on Flight. Not done: not counted: this message's list was not accepted (see above) (Rumble 5) 0 done, 2 not done."},
	} {
		r := h.Private(tc.at, alice, tc.list+"\n"+words+"\nI bid 20 on Flight.")
		if r == nil || !strings.Contains(norm(r.Body), tc.want) {
			t.Errorf("%s: the receipt does not say %q:\n%v", tc.list, tc.want, r)
		}
	}
	x := data2(h).sub("Alice")
	if x == nil || len(x.Bids) != 2 || x.Bids[0] != (Bid{Power: "Iron Skin", N: 30}) || x.Bids[1] != (Bid{Power: "Flight", N: 20}) {
		t.Errorf("Alice's sealed bids = %+v, want the first list", x)
	}
}

// TestSentenceOverLines: a list whose "I ..." sentence runs on to the next
// line without a full stop ("I attack Bob with 30 and defend with 35" then
// "Iron Skin: 5") is quoted once, as the list sealed: the sentence the
// reader joins across the line break is the list's, not a second action.
func TestSentenceOverLines(t *testing.T) {
	h := atRound(t)
	r := h.Private("2026-12-02T12:00:00Z", alice, "I attack Bob with 30 and defend with 35\nIron Skin: 5")
	mustDone(t, r)
	if got := norm(r.Body); strings.Contains(got, "part of the list sealed above") || !strings.Contains(got, "1 done, 0 not done") {
		t.Errorf("the receipt quotes the list twice:\n%s", r.Body)
	}
}

// TestReportBetweenGames: between games the weekly report says that players
// may join (Rumble 13) and sums up the last game, here won by the one
// contestant who survived the bidding (Rumble 4, 11).
func TestReportBetweenGames(t *testing.T) {
	h := atBids(t)
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Iron Skin: 100",
		bob, "Flight: 100",
		carol, "Fire Breath: 100",
		dave, "no bids")
	n, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-02T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	want := "No game of Rumble is going on; players may join (Rumble 13). Game 1 (started 2026-12-01 (Tue), 4 contestants) was won by Dave."
	if !strings.Contains(norm(n.Body), want) {
		t.Errorf("the report does not say %q:\n%s", want, n.Body)
	}
}

// TestSpendAndBurnOnePower: energy both spent and burnt on one power (Rumble
// 8) is sealed in the canonical order the guide gives (by power name, then
// "burn" before "spend"), whichever the message names first, so the receipt
// and the commitment are the same for either wording.
func TestSpendAndBurnOnePower(t *testing.T) {
	sealedAlike(t, atRound(t), "2026-12-03T10:00:00Z", bob, "Bob",
		"read as: rumble game 1 phase round-1 contestant Bob / burn: Flight: 5 / spend: Flight: 10",
		"Spend 10 on Flight\nBurn 5 on Flight", "Burn 5 on Flight\nSpend 10 on Flight")
}

// sealedAlike sends each list privately from who (named name), a minute
// apart from at, and checks that each receipt says want and that every list
// was sealed under one commitment.
func sealedAlike(t *testing.T, h *contracttest.Harness, at, who, name, want string, lists ...string) {
	t.Helper()
	start := contracttest.At(t, at)
	var commitments []string
	for i, list := range lists {
		r := h.Private(start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), who, list)
		mustDone(t, r)
		if !strings.Contains(norm(r.Body), want) {
			t.Errorf("%q: the receipt does not say %q:\n%s", list, want, r.Body)
		}
		commitments = append(commitments, data2(h).sub(name).Commitment)
	}
	for _, c := range commitments[1:] {
		if c != commitments[0] {
			t.Errorf("one list in %d orders sealed under different commitments: %q", len(lists), commitments)
		}
	}
}

// TestBidsOnLookalikeNames: two powers whose names differ but lower-case
// alike ("İron Skin" and "Iron Skin", both accepted, Rumble 2) are sealed in
// one order whichever the list names first, so the receipt and the
// commitment do not depend on how the bids were written (Rumble 5).
func TestBidsOnLookalikeNames(t *testing.T) {
	h := lookalikeBids(t)
	if st := data2(h); st.Phase != PhaseBids {
		t.Fatalf("phase %q after all powers, want bids", st.Phase)
	}
	var refs []string
	for i, p := range data2(h).Powers {
		if strings.HasSuffix(p.Name, "ron Skin") {
			refs = append(refs, fmt.Sprintf("#%d", i+1))
		}
	}
	if len(refs) != 2 {
		t.Fatalf("powers %v, want both skins", data2(h).Powers)
	}
	sealedAlike(t, h, "2026-12-02T10:00:00Z", carol, "Carol",
		"read as: rumble game 1 phase bids contestant Carol / bid: Iron Skin: 10 / bid: İron Skin: 10",
		refs[0]+": 10\n"+refs[1]+": 10", refs[1]+": 10\n"+refs[0]+": 10")
}

// TestReportPointsOrder: the weekly report's points table puts the most
// points first and players with as many points in name order (G6): Dave and
// Bob each gain 2 for attacking Carol, who dies (Rumble 10).
func TestReportPointsOrder(t *testing.T) {
	h := atRound(t)
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "none",
		bob, "Attack: 50 to Carol",
		carol, "none",
		dave, "Attack: 50 to Carol")
	wantPoints(t, h, map[string]int{"Bob": 2, "Dave": 2, "Alice": 0, "Carol": 0})
	n, err := h.E.Report(h.S, "rumble", contracttest.At(t, "2026-12-03T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Player Points ------ ------ Bob 2 Dave 2"; !strings.Contains(norm(n.Body), want) {
		t.Errorf("the report's points table is not %q:\n%s", want, n.Body)
	}
}

// An item that names a power but no amount is refused with the list, not
// skipped as a remark (Rumble 5, 8): "I use Iron Skin." was left out of the
// sealed list unseen, and "Flight too" of the bids, while the rest was
// sealed and the receipt said Done. A greeting is still skipped.
func TestPowerWithoutAmountIsNoRemark(t *testing.T) {
	h := atRound(t)
	r := h.Private("2026-12-02T12:00:00Z", alice, "I use Iron Skin.\nAttack Bob with 10.")
	if r == nil || !strings.Contains(norm(r.Body), `Not done: "use Iron Skin" names the power Iron Skin but no energy; write "Spend 10 on Iron Skin"`) {
		t.Fatalf("receipt:\n%v", r)
	}
	if x := data2(h).sub("Alice"); x != nil {
		t.Errorf("a list was sealed: %+v", x)
	}

	h = atBids(t)
	for _, list := range []string{"Lucky Star: 20\nFlight too, please.", "Lucky Star: 20\nI bid on Flight."} {
		r = h.Private("2026-12-02T12:00:00Z", alice, list)
		if r == nil || !strings.Contains(norm(r.Body), "Not done:") || !strings.Contains(norm(r.Body), "I bid 30 on") {
			t.Fatalf("%q: receipt:\n%v", list, r)
		}
		if x := data2(h).sub("Alice"); x != nil {
			t.Errorf("%q: bids were sealed: %+v", list, x)
		}
	}
	r = h.Private("2026-12-02T12:05:00Z", alice, "Hi!\nLucky Star: 20\nThanks, and good luck.")
	mustDone(t, r)
	if x := data2(h).sub("Alice"); x == nil || len(x.Bids) != 1 {
		t.Errorf("Alice's sealed bids = %+v", x)
	}
}

// Items of a private list joined by "and" or ", " on one line are read as
// several (Rumble 5, 8), and a "please" after one is no part of it: "I bid
// 30 on Flight and 20 on Lucky Star" was refused ("Flight and 20 on Lucky
// Star" is not a power), "I attack Bob with 30 and defend with 20" too,
// and "I bid 30 on flight, please" named a power "flight, please".
func TestItemsJoinedOnOneLine(t *testing.T) {
	h := atBids(t)
	r := h.Private("2026-12-02T12:00:00Z", alice, "I bid 30 on Flight and 20 on Lucky Star, please.")
	mustDone(t, r)
	if x := data2(h).sub("Alice"); x == nil || len(x.Bids) != 2 || x.Bids[0] != (Bid{Power: "Flight", N: 30}) || x.Bids[1] != (Bid{Power: "Lucky Star", N: 20}) {
		t.Errorf("Alice's sealed bids = %+v", x)
	}
	r = h.Private("2026-12-02T12:05:00Z", bob, "I bid 30 on flight, please.")
	mustDone(t, r)
	if x := data2(h).sub("Bob"); x == nil || len(x.Bids) != 1 || x.Bids[0] != (Bid{Power: "Flight", N: 30}) {
		t.Errorf("Bob's sealed bids = %+v", x)
	}

	h = atRound(t)
	r = h.Private("2026-12-02T12:00:00Z", alice, "I attack Bob with 30 and defend with 20, thanks.")
	mustDone(t, r)
	if !strings.Contains(norm(r.Body), "attack: Bob: 30 / defend: 20") {
		t.Errorf("receipt:\n%s", r.Body)
	}
}

// The contestmaster's numbers of powers are read in words as in figures
// (Rumble 1): "with two powers per contestant and three contestmaster
// powers" started a game with the parameters' 2 and 2, the three read as
// nothing. A number read as neither is refused, no game started, where the
// default took its place.
func TestStartReadsItsNumbers(t *testing.T) {
	for text, want := range map[string][2]int{
		"I announce a new game of Rumble with two powers per contestant and three contestmaster powers.": {2, 3},
		"I announce a new game of Rumble with one power per contestant and no contestmaster powers.":     {1, 0},
		"I announce a new game of Rumble: 3 powers each, 5 for the contestmaster.":                       {3, 5},
		"I announce a new game of Rumble with 3 powers each and 1 for me, over 4 rounds.":                {0, 0},
	} {
		h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
		for _, p := range []string{alice, bob, carol, dave} {
			mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
		}
		r := h.Public("2026-12-01T11:00:00Z", mars, text)
		st := data2(h)
		if want[0] == 0 {
			if !failed(r) || !strings.Contains(norm(r.Body), "are not read as powers per contestant or for the contestmaster") || st.Game != 0 {
				t.Errorf("%q: game %d, receipt:\n%v", text, st.Game, r)
			}
			continue
		}
		mustDone(t, r)
		if st.P != want[0] || st.Q != want[1] {
			t.Errorf("%q: P %d, Q %d; want %d, %d", text, st.P, st.Q, want[0], want[1])
		}
	}
}

// Amounts in a private list may be words, as in public actions: "I bid
// thirty on Flight" found no bid, "Flight: thirty" and "Attack Bob with
// ten" were refused.
func TestAmountsInWords(t *testing.T) {
	h := atBids(t)
	mustDone(t, h.Private("2026-12-02T12:00:00Z", alice, "I bid thirty on Flight.\nLucky Star: twenty-five"))
	if x := data2(h).sub("Alice"); x == nil || len(x.Bids) != 2 || x.Bids[0] != (Bid{Power: "Flight", N: 30}) || x.Bids[1] != (Bid{Power: "Lucky Star", N: 25}) {
		t.Errorf("Alice's sealed bids = %+v", x)
	}
	h = atRound(t)
	r := h.Private("2026-12-02T12:00:00Z", alice, "Attack Bob with ten.\nDefend with twenty.")
	mustDone(t, r)
	if !strings.Contains(norm(r.Body), "attack: Bob: 10 / defend: 20") {
		t.Errorf("receipt:\n%s", r.Body)
	}
}
