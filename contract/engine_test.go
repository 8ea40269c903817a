package contract_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

const (
	alice = "Alice <alice@example.test>"
	bob   = "Bob <bob@example.test>"
	carol = "Carol <carol@example.test>"
)

func newToy(t testing.TB) *contracttest.Harness {
	return contracttest.New(t, "2026-12-01T10:00:00Z", &toy{})
}

func TestJoinReceipt(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "Hello all.\n\nI hereby join the Toy game.\n")
	if r == nil {
		t.Fatal("no receipt")
	}
	for _, want := range []string{"> I hereby join the Toy game.", "Done: you joined Toy with 5 coins", "1 done, 0 not done."} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("receipt lacks %q:\n%s", want, r.Body)
		}
	}
	if r.To[0] != "alice@example.test" || r.Subject != "Re: actions" || r.InReplyTo == "" {
		t.Errorf("receipt addressed wrongly: %+v", r)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 5 {
		t.Errorf("Alice owns %d coins, want 5", got)
	}
}

func TestRejectionRestoresState(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	before, _ := contract.Encode(h.S)
	r := h.Public("2026-12-01T10:07:00Z", alice, "I poke Bob in Toy.")
	if !strings.Contains(r.Body, "Not done: Bob cannot be poked (T4)") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 5 {
		t.Errorf("a rejected action changed the ledger: Alice owns %d", got)
	}
	after, _ := contract.Encode(h.S)
	// Only the processed-message memory (with the last Message-ID and the
	// game of its receipt), the receipt counter, the clock and the journal
	// number may differ.
	strip := func(b []byte) string {
		var keep []string
		skip := false
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "seen:") || strings.HasPrefix(l, "receipts:") || strings.HasPrefix(l, "clock:") || strings.HasPrefix(l, "journal_seq:") || strings.HasPrefix(l, "last_msgid:") || strings.HasPrefix(l, "receipted:") {
				skip = true
				continue
			}
			if skip && strings.HasPrefix(l, " ") {
				continue
			}
			skip = false
			keep = append(keep, l)
		}
		return strings.Join(keep, "\n")
	}
	if d := cmp.Diff(strip(before), strip(after)); d != "" {
		t.Errorf("a rejected action changed the state (-before +after):\n%s", d)
	}
}

// TestLedgerInvariantCaught: a game that breaks the right to own is caught
// after the action, a fault naming the holding: coins minted to an entity
// that cannot own them, or a player let leave Toy with the coins only its
// players may own (T2), which only the holdings of a player whose membership
// changed show.
func TestLedgerInvariantCaught(t *testing.T) {
	for text, want := range map[string]string{"I cheat in Toy.": "toy/coin: contestmaster:toy may not own it", "I walk out of Toy.": "toy/coin: Alice may not own it"} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		_, err := h.E.Apply(h.S, &contract.Message{ID: "x1", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
			Channel: contract.ChanPublic, ListCopy: true, Text: text})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%q: a broken ledger was not caught: %v", text, err)
		}
		if !contract.IsFault(err) {
			t.Errorf("%q: a broken invariant must be a fault, not a rejection", text)
		}
	}
}

// A game that changes the state behind the undo log (here a ledger entry
// written directly) is caught by the checks of undo, naming the entry.
func TestUndoCatchesWriteBehindLog(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "balances add up to 8 but the supply is 5") {
			t.Fatalf("the write behind the log was not caught: %v", r)
		}
	}()
	h.E.Apply(h.S, &contract.Message{ID: "x1", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, ListCopy: true, Text: "I smuggle in Toy."})
}

// A refused action whose change the undo log missed is caught when it is
// undone, naming the field.
func TestUndoCatchesMissedChange(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "state.Players[0].Nicknames: nil slice against a slice") {
			t.Fatalf("the missed change was not caught: %v", r)
		}
	}()
	h.Public("2026-12-01T11:00:00Z", alice, "I forge in Toy.")
}

func TestPanicRecovered(t *testing.T) {
	h := newToy(t)
	_, err := h.E.Apply(h.S, &contract.Message{ID: "x2", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, ListCopy: true, Text: "I crash Toy."})
	var pe *contract.PanicError
	if err == nil || !strings.Contains(err.Error(), "panic") || !errors.As(err, &pe) || !strings.Contains(pe.Stack, "toy_test.go") {
		t.Fatalf("the panic was not recovered with its stack: %v", err)
	}
}

func TestPrivateActionThroughList(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I seal 30.")
	if !strings.Contains(flat(r.Body), "private action") || !strings.Contains(flat(r.Body), "the list has now seen it") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	r = h.Private("2026-12-01T10:06:00Z", alice, "I seal 30.")
	if !strings.Contains(r.Body, "Done: sealed") {
		t.Errorf("receipt:\n%s", r.Body)
	}
}

func TestDuplicateMessageIgnored(t *testing.T) {
	h := newToy(t)
	m := &contract.Message{ID: "dup@example.test", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, Text: "I join the Toy game."}
	if ns := h.Send(m); len(ns) != 1 {
		t.Fatalf("first copy: %d notices", len(ns))
	}
	m2 := *m
	if ns := h.Send(&m2); len(ns) != 0 {
		t.Fatalf("second copy of the same Message-ID made %d notices", len(ns))
	}
}

func TestConditional(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
	r := h.Public("2026-12-01T10:06:00Z", alice, "If I own more than 10 coins, I transfer 2 coins to Bob.")
	if !strings.Contains(r.Body, `the condition "I own more than 10 coins" is false`) {
		t.Errorf("receipt:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:07:00Z", alice, "If I own at least 5 coins, I transfer 2 coins to Bob.")
	if !strings.Contains(r.Body, "Done:") || h.S.Ledger.Balance("toy/coin", "Bob") != 7 {
		t.Errorf("conditional transfer not done: %s", r.Body)
	}
	r = h.Public("2026-12-01T10:08:00Z", alice, "If it rains tomorrow, I transfer 1 coin to Bob.")
	if !strings.Contains(r.Body, "cannot decide the condition") || h.S.Ledger.Balance("toy/coin", "Bob") != 7 {
		t.Errorf("undecidable condition performed: %s", r.Body)
	}
}

func TestTransferRules(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:05:00Z", carol, "I change my name to Carol.") // known, not a player
	h.Public("2026-12-01T10:05:00Z", "Carl <carl@example.test>", "I join Toy.")
	cases := []struct{ text, want string }{
		{"I transfer 9 coins to Carl.", "you own 5 coins, fewer than 9 (T2)"},
		{"I transfer 1 coin to Carol.", "Carol cannot own coins (T2)"},
		{"I transfer 1 coin to Car.", `"Car" is ambiguous: it could be Carl, Carol`},
		{"I transfer 1 coin to Zed.", `no player is known as "Zed"`},
		{"I transfer 0 coins to Carl.", "a transfer of zero coins does nothing"},
		{"I transfer 2 coins to the Toy contest.", "2 coins moved from Alice to the Toy contest"},
		{"I transfer 1 doubloon to Carl.", `no game has a currency called "doubloon" (syntax)`},
		{"I transfer 3 coins to Carl.", "3 coins moved from Alice to Carl; you now own 0"},
	}
	for _, c := range cases {
		r := h.Public("2026-12-01T11:00:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%s: receipt lacks %q:\n%v", c.text, c.want, r)
		}
	}
	// The sender too must be able to own the currency (T2): Carol, no
	// player, is told so, not that she owns too few.
	for _, text := range []string{"I transfer 1 coin to Carl.", "I transfer 0 coins to Carl."} {
		if r := h.Public("2026-12-01T11:00:00Z", carol, text); r == nil || !strings.Contains(flat(r.Body), "you cannot own coins (T2)") {
			t.Errorf("Carol: %s: receipt lacks %q:\n%v", text, "you cannot own coins (T2)", r)
		}
	}
}

func TestNotUnderstoodAndFutureTense(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I will join the Toy game.\nI think Toy is fun.")
	if r != nil {
		t.Errorf("future tense got a receipt:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T10:06:00Z", alice, "I jion the Toy game.")
	if r == nil || !strings.Contains(r.Body, "not understood; the nearest form is: I join the Toy game") {
		t.Errorf("receipt: %v", r)
	}
	// The nearest form shares most words with the sentence, wherever they
	// stand in it; words of one or two letters do not count ("of" would
	// make it "I end the game of Toy").
	for text, want := range map[string]string{
		"I rest the Toy rounds.":                     "I reset the Toy rounds",
		"I jion the Toy game as one of the players.": "I join the Toy game",
	} {
		r = h.Public("2026-12-01T10:07:00Z", alice, text)
		if r == nil || !strings.Contains(flat(r.Body), "not understood; the nearest form is: "+want+" (") {
			t.Errorf("%q: receipt: %v", text, r)
		}
	}
	if len(h.S.Members("toy")) != 0 {
		t.Error("someone joined")
	}
}

func TestQuotedTextDoesNotAct(t *testing.T) {
	// The interpreter reads only Message.Text; mailin removes quotes. A sentence
	// in the Subject never acts either.
	h := newToy(t)
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"),
		Channel: contract.ChanPublic, Subject: "I join the Toy game", Text: "Any news?"})
	if len(ns) != 0 || len(h.S.Members("toy")) != 0 {
		t.Errorf("the Subject performed an action")
	}
}

func TestDependentAction(t *testing.T) {
	h := newToy(t)
	for _, p := range []string{alice, bob, carol} {
		h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
	}
	r := h.Public("2026-12-01T10:10:00Z", alice, "I end the game of Toy.")
	if !strings.Contains(r.Body, "dependent action: first announce") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	intent := h.Send(&contract.Message{ID: "intent1@example.test", From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T10:11:00Z"),
		Channel: contract.ChanPublic, Text: "I intend, without objection, to end the game of Toy. I do so."})
	body := flat(contracttest.Receipt(intent).Body)
	if !strings.Contains(body, "intent #1 tabled") || !strings.Contains(body, "cannot be resolved in the message that announces it") {
		t.Errorf("receipt:\n%s", body)
	}
	r = h.Public("2026-12-03T10:00:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "can be resolved from 2026-12-05 10:11") {
		t.Errorf("early resolution: %s", r.Body)
	}
	r = h.Public("2026-12-03T11:00:00Z", "Dan <dan@example.test>", "I object to intent #1.")
	if !strings.Contains(r.Body, "only players may support or object") {
		t.Errorf("ineligible objection: %s", r.Body)
	}
	h.Send(&contract.Message{From: "bob@example.test", Arrived: contracttest.At(t, "2026-12-03T12:00:00Z"), Channel: contract.ChanPublic,
		InReplyTo: []string{"intent1@example.test"}, Text: "I object."})
	r = h.Public("2026-12-06T10:00:00Z", alice, "I do so.")
	if !strings.Contains(r.Body, "has 1 objection: Bob") {
		t.Errorf("objected intent resolved: %s", r.Body)
	}
	h.Public("2026-12-06T11:00:00Z", bob, "I withdraw my objection to intent #1.")
	r = h.Public("2026-12-06T12:00:00Z", alice, "Having received no objections, I end the game of Toy.")
	if !strings.Contains(r.Body, "the game of Toy is over") || !h.Data("toy").(*toyState).Ended {
		t.Errorf("not ended: %s", r.Body)
	}
	if len(h.S.Intents) != 0 {
		t.Errorf("intent left open: %+v", h.S.Intents)
	}
}

// TestStances: supports and objections are kept per player, each player in
// one list at most, as the state reads back.
func TestStances(t *testing.T) {
	h := newToy(t)
	dan := "Dan <dan@example.test>"
	for _, p := range []string{alice, bob, carol, dan} {
		h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
	}
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	h.Public("2026-12-01T11:00:00Z", bob, "I support intent #1.")
	h.Public("2026-12-01T11:01:00Z", carol, "I object to intent #1.")
	h.Public("2026-12-01T11:02:00Z", dan, "I support intent #1.")
	h.Public("2026-12-01T11:03:00Z", bob, "I object to intent #1.")
	r := h.Public("2026-12-01T11:04:00Z", alice, "I support intent #1.")
	if !strings.Contains(r.Body, "the sponsor of intent #1 cannot support or object to it") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	back, err := h.E.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	in := back.Intents[0]
	if d := cmp.Diff([]string{"Dan"}, in.Supporters); d != "" {
		t.Errorf("supporters (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"Carol", "Bob"}, in.Objectors); d != "" {
		t.Errorf("objectors (-want +got):\n%s", d)
	}
}

func TestWeeklyEventAndRandomness(t *testing.T) {
	h := newToy(t)
	if len(h.Sent) != 1 || h.Sent[0].Kind != "randomness" || !strings.Contains(h.Sent[0].Body, "2026-W49") || !strings.Contains(h.Sent[0].Body, "2026-W50") {
		t.Fatalf("no randomness notice at creation: %+v", h.Sent)
	}
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	// A message arriving after Monday 00:00 is applied after the round (G2).
	r := contracttest.Receipt(h.Send(&contract.Message{From: "bob@example.test", Name: "Bob", Channel: contract.ChanPublic,
		Date: contracttest.At(t, "2026-12-06T23:59:00Z"), Arrived: contracttest.At(t, "2026-12-07T09:00:00Z"), Text: "I join the Toy game."}))
	if !strings.Contains(flat(r.Body), "applied after them") {
		t.Errorf("receipt does not say the round came first:\n%s", r.Body)
	}
	st := h.Data("toy").(*toyState)
	if st.Rounds != 1 {
		t.Fatalf("rounds = %d, want 1", st.Rounds)
	}
	// Check the round's draw as a player would: the commitment from the
	// notice at creation, the seed from the notice that reveals it, the draw
	// by the method the notice describes, and the value in the round's report.
	h.Advance("2026-12-14T00:00:00Z")
	commitment := noticeMatch(t, h.Sent, `2026-W50  2026-12-07  ([0-9a-f]{64})`)
	seed := mustHex(t, noticeMatch(t, h.Sent, `(?m)^2026-W50  ([0-9a-f]{64})$`))
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != commitment {
		t.Errorf("the revealed seed does not match its commitment")
	}
	var found bool
	for _, e := range h.Entries {
		draws, _ := e.Detail["draws"].([]contract.Draw)
		for _, d := range draws {
			if d.Label == "toy/2026-W50/round/J" {
				found = true
				got := playerDraw(seed, d.Label, d.N)
				if got != d.Value {
					t.Errorf("recomputed draw %d, journal says %d", got, d.Value)
				}
				if noticeMatch(t, h.Sent, `round 1: J = (\d)`) != fmt.Sprint(got+1) {
					t.Errorf("the report's J is not the recomputed draw %d plus 1", got)
				}
			}
		}
	}
	if !found {
		t.Error("the round's draw is not in the journal")
	}
}

// noticeMatch is the first submatch of re in the notices sent.
func noticeMatch(t *testing.T, sent []*contract.Outgoing, re string) string {
	t.Helper()
	for _, o := range sent {
		if m := regexp.MustCompile(re).FindStringSubmatch(o.Body); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no notice matches %s", re)
	return ""
}

// playerDraw computes a draw as the Randomness notice tells players to: for
// k = 0, 1, ... HMAC-SHA256(seed, L + "#" + k), its first 8 bytes big-endian
// as v, the first v below the largest multiple of n in 64 bits, v mod n.
func playerDraw(seed []byte, label string, n int) int {
	limit := math.MaxUint64 - math.MaxUint64%uint64(n)
	for k := 0; ; k++ {
		m := hmac.New(sha256.New, seed)
		m.Write([]byte(label + "#" + strconv.Itoa(k)))
		if v := binary.BigEndian.Uint64(m.Sum(nil)); v < limit {
			return int(v % uint64(n))
		}
	}
}

func TestRateLimit(t *testing.T) {
	h := newToy(t)
	n := 0
	var paused []*contract.Notice
	for i := 0; i < 40; i++ {
		text := "I jion Toy."
		if i == 35 {
			text = "I join the Toy game."
		}
		r := h.Public("2026-12-01T10:05:00Z", alice, text)
		switch {
		case r == nil:
		case strings.HasPrefix(r.Subject, "Receipts paused"):
			paused = append(paused, r)
		default:
			n++
		}
	}
	if n != 30 {
		t.Errorf("%d receipts in an hour, want the limit of 30", n)
	}
	// The pause is announced once, with its end, and actions still count.
	if len(paused) != 1 {
		t.Fatalf("the pause was announced %d times, want once", len(paused))
	}
	if !strings.Contains(paused[0].Subject, "until 2026-12-01 11:05 UTC") || !strings.Contains(flat(paused[0].Body), "receipts are paused until 2026-12-01 11:05 UTC. Your actions are still applied") {
		t.Errorf("pause notice: %s\n%s", paused[0].Subject, paused[0].Body)
	}
	if len(h.S.Members("toy")) != 1 {
		t.Error("an action sent while receipts were paused was not applied")
	}
	if h.Public("2026-12-01T11:06:00Z", alice, "I jion Toy.") == nil {
		t.Error("no receipt an hour later")
	}
}

func TestAmbiguousGame(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &toy{}, &other{})
	r := h.Public("2026-12-01T10:05:00Z", alice, "I join.")
	if r == nil || !strings.Contains(r.Body, "name the game") {
		t.Errorf("receipt: %v", r)
	}
	r = h.Public("2026-12-01T10:06:00Z", alice, "I join the Toy game.")
	if !strings.Contains(r.Body, "Done: you joined Toy") {
		t.Errorf("receipt:\n%s", r.Body)
	}
}

func TestHelp(t *testing.T) {
	h := newToy(t)
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanPrivate, Text: "help"})
	if len(ns) != 1 || !strings.Contains(ns[0].Body, "I poke <player> in Toy") || !strings.Contains(ns[0].Body, "How the referee reads your mail") {
		t.Fatalf("help: %+v", ns)
	}
	for _, l := range strings.Split(ns[0].Body, "\n") {
		if len([]rune(l)) > 72 {
			t.Errorf("help line over 72 columns: %q", l)
		}
	}
	ns = h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:01:00Z"), Channel: contract.ChanPrivate, Text: "HELP toy"})
	if len(ns) != 1 || ns[0].Body != "The toy game.\n" {
		t.Fatalf("help toy: %+v", ns)
	}
}

func TestDiscussionPerformsNothing(t *testing.T) {
	h := newToy(t)
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanDiscussion, Text: "I join the Toy game."})
	if len(h.S.Members("toy")) != 0 || len(ns) != 1 || !strings.Contains(ns[0].Body, "discussion list") {
		t.Errorf("discussion: %+v", ns)
	}
	// The journal records the message as refused, once; chatter there with
	// no action records nothing.
	var refused []string
	for _, en := range h.Entries {
		if en.Outcome == "rejected" {
			refused = append(refused, en.MsgID+": "+en.Reason)
		}
	}
	if d := cmp.Diff([]string{"m1@example.test: discussion list"}, refused); d != "" {
		t.Errorf("journal (-want +got):\n%s", d)
	}
	n := len(h.Entries)
	h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:05:00Z"), Channel: contract.ChanDiscussion, Text: "Has anyone read the report?"})
	if len(h.Entries) != n {
		t.Errorf("chatter on the discussion list journaled: %+v", h.Entries[n:])
	}
}

// TestTooLargeOnTheDiscussionList: a post to the discussion list too large
// to be read is talk, as any post there is (G4): no reply and nothing
// journaled, where it got a private "too large to be read for actions"; the
// same message sent privately still gets that reply.
func TestTooLargeOnTheDiscussionList(t *testing.T) {
	h := newToy(t)
	big := "Has anyone read the report? " + strings.Repeat("x", 100)
	n := len(h.Entries)
	if ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanDiscussion, Text: big, TooLarge: true}); len(ns) != 0 {
		t.Errorf("a discussion post too large to read was answered: %+v", ns)
	}
	if len(h.Entries) != n {
		t.Errorf("a discussion post too large to read was journaled: %+v", h.Entries[n:])
	}
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:05:00Z"), Channel: contract.ChanPrivate, Text: big, TooLarge: true})
	if len(ns) != 1 || !strings.Contains(ns[0].Body, "too large to be read for actions") {
		t.Errorf("a private message too large to read: %+v", ns)
	}
}

func TestContestmasterRuling(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I ask the contestmaster whether pokes stack.")
	if !strings.Contains(r.Body, "asked as ruling #1") {
		t.Fatalf("receipt:\n%s", r.Body)
	}
	var asked *contract.Outgoing
	for _, o := range h.Sent {
		if o.Kind == "ruling" {
			asked = o
		}
	}
	if asked == nil || asked.To[0] != contracttest.Contestmaster || !strings.Contains(flat(asked.Body), "I rule on #1:") {
		t.Fatalf("no private request to the contestmaster: %+v", asked)
	}
	// Only the contestmaster may rule, and only privately.
	r = h.Private("2026-12-01T11:00:00Z", bob, "I rule on #1: yes.")
	if !strings.Contains(r.Body, "only the contestmaster of Toy") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	// A reminder after 24 hours.
	ns := h.Advance("2026-12-02T10:06:00Z")
	if len(ns) != 1 || ns[0].Kind != "reminder" || ns[0].To[0] != contracttest.Contestmaster {
		t.Errorf("no reminder at 24 h: %+v", ns)
	}
	r = h.Private("2026-12-02T12:00:00Z", "CM <cm@example.test>", "I rule on #1: they stack.")
	if !strings.Contains(r.Body, "ruling #1 recorded") {
		t.Errorf("receipt:\n%s", r.Body)
	}
	st := h.Data("toy").(*toyState)
	if len(st.Rulings) != 1 || st.Rulings[0] != "q/whether pokes stack: they stack" {
		t.Errorf("rulings: %q", st.Rulings)
	}
	// Silence means the default after the bounded wait (48 h).
	h.Public("2026-12-03T10:00:00Z", alice, "I ask the contestmaster about walls.")
	h.Advance("2026-12-05T10:00:01Z")
	if len(st.Rulings) != 2 || st.Rulings[1] != "q/about walls: (silence) the answer is no" {
		t.Errorf("rulings after silence: %q", st.Rulings)
	}
}

func TestRejectionsJournaled(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I jion the Toy game. I poke Zed in Toy.")
	var got []string
	for _, e := range h.Entries {
		if e.Outcome == "rejected" {
			got = append(got, e.Game+": "+e.Reason)
		}
	}
	// In the order written, as the receipt.
	want := []string{`toy: not understood; the nearest form is: I join the Toy game (send "help toy" for all)`, `toy: no player is known as "Zed" (guide: Naming players)`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("journal rejections (-want +got):\n%s", d)
	}
}

// TestJournalNamesThePlayer: the journal line of an action names the
// player who sent it, also for an action whose game never asked who acted.
func TestJournalNamesThePlayer(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Private("2026-12-01T10:06:00Z", alice, "I seal 3.")
	var named []string
	for _, en := range h.Entries {
		if en.Outcome == "applied" && en.Game == "toy" {
			named = append(named, en.Verb+": "+en.Player)
		}
	}
	if d := cmp.Diff([]string{"join: Alice", "seal: Alice"}, named); d != "" {
		t.Errorf("journal (-want +got):\n%s", d)
	}
}

// TestReportSentKeepsSincePrevious: after a report, the recent events kept are
// those since the report before it, so the next report shows them above its
// time-of-last-report marker.
func TestReportSentKeepsSincePrevious(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-02T10:05:00Z", alice, "I transfer 1 coin to the Toy contest.")
	h.Advance("2026-12-07T00:00:00Z") // report 1
	h.Public("2026-12-08T10:05:00Z", alice, "I transfer 1 coin to the Toy contest.")
	h.Advance("2026-12-14T00:00:00Z") // report 2
	h.Public("2026-12-15T10:05:00Z", alice, "I transfer 1 coin to the Toy contest.")
	rep := reportAt(t, h, "2026-12-21T00:00:00Z") // report 3
	body := rep.Body
	marker := strings.Index(body, "----- time of last report -----")
	if marker < 0 {
		t.Fatalf("no marker:\n%s", body)
	}
	above, below := body[:marker], body[marker:]
	if strings.Contains(body, "2026-12-02 10:05") {
		t.Errorf("an event from before the report before last was kept:\n%s", body)
	}
	if !strings.Contains(above, "2026-12-08 10:05") || !strings.Contains(above, "round 2") {
		t.Errorf("last week's events are not above the marker:\n%s", body)
	}
	if !strings.Contains(below, "2026-12-15 10:05") || !strings.Contains(below, "round 3") {
		t.Errorf("this week's events are not below the marker:\n%s", body)
	}
}

// TestStanceNamesTheIntent: the number written is the intent acted on; an
// unknown number is refused, whether one intent or several are open.
func TestStanceNamesTheIntent(t *testing.T) {
	h := newToy(t)
	for _, p := range []string{alice, bob, carol} {
		h.Public("2026-12-01T10:05:00Z", p, "I join the Toy game.")
	}
	h.Public("2026-12-01T10:10:00Z", alice, "I intend, without objection, to end the game of Toy.")
	r := h.Public("2026-12-01T11:00:00Z", bob, "I object to intent #7.")
	if !strings.Contains(flat(r.Body), "Not done: there is no open intent #7") {
		t.Errorf("objection to an unknown intent:\n%s", r.Body)
	}
	if len(h.S.Intents[0].Objectors) != 0 {
		t.Errorf("intent #1 got objectors %v from an objection to #7", h.S.Intents[0].Objectors)
	}
	h.Public("2026-12-01T11:05:00Z", carol, "I intend, without objection, to end the game of Toy.")
	r = h.Public("2026-12-01T11:10:00Z", bob, "I object to intent #2.")
	if !strings.Contains(flat(r.Body), "Done: you object to intent #2") {
		t.Errorf("objection to #2 with two open:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T11:20:00Z", bob, "I withdraw my objection to intent #2.")
	if !strings.Contains(flat(r.Body), "Done: your objection to intent #2 is withdrawn") {
		t.Errorf("withdrawal from #2:\n%s", r.Body)
	}
	r = h.Public("2026-12-01T11:30:00Z", bob, "I withdraw my objection to intent #9.")
	if !strings.Contains(flat(r.Body), "Not done: there is no open intent #9") {
		t.Errorf("withdrawal from an unknown intent:\n%s", r.Body)
	}
}

// TestReceiptKeepsOrderWritten: a sentence not understood is listed where it
// was written, not after the actions.
func TestReceiptKeepsOrderWritten(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I jion the Toy game.\nI join the Toy game.\nI cheerlead in Toy.\nI poke Alice in Toy.")
	if r == nil {
		t.Fatal("no receipt")
	}
	var order []string
	for _, l := range strings.Split(r.Body, "\n") {
		if strings.HasPrefix(l, "> ") {
			order = append(order, strings.TrimPrefix(l, "> "))
		}
	}
	want := []string{"I jion the Toy game.", "I join the Toy game.", "I cheerlead in Toy.", "I poke Alice in Toy."}
	if d := cmp.Diff(want, order); d != "" {
		t.Errorf("receipt order (-want +got):\n%s\n%s", d, r.Body)
	}
}

// TestOneIsSingular: a count of one is written with the singular ("1 coin",
// "1 objection"), not "1 coins" or "1 objection(s)".
func TestOneIsSingular(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	h.Public("2026-12-01T10:07:00Z", alice, "I transfer 4 coins to Bob.")
	r := h.Public("2026-12-01T10:08:00Z", alice, "I transfer 2 coins to Bob.")
	if !strings.Contains(flat(r.Body), "you own 1 coin, fewer than 2") {
		t.Errorf("receipt:\n%s", r.Body)
	}
}

// TestNamesSafeAndWhole: a display name is cut on a character boundary, and
// an RFC 2047 encoded-word in it is decoded (or dropped when its charset is
// unknown), never kept raw for a Subject; the state keeps plain text.
func TestNamesSafeAndWhole(t *testing.T) {
	h := newToy(t)
	long := "Z" + strings.Repeat("ë", 30) // an "ë" straddles byte 40
	cases := []struct{ addr, display, want string }{
		{"zoe@example.test", long, "Z" + strings.Repeat("ë", 19)},
		{"mallory@example.test", "=?utf-8?q?Mall=C3=B6ry?=", "Mallöry"},
		{"eve@example.test", "=?utf-8?q?Eve=0D=0ABcc=3A_x=40evil=2Etest?=", "EveBcc: x@evil.test"},
		{"odd@example.test", "=?x-unknown?q?abc?=", "odd"},
		{"raw@example.test", "Raw \xff\xfe Name", "Raw Name"},
	}
	for i, c := range cases {
		h.Send(&contract.Message{ID: fmt.Sprintf("name%d@example.test", i), From: c.addr, Name: c.display,
			Arrived: contracttest.At(t, "2026-12-01T10:05:00Z"), Channel: contract.ChanPublic, Text: "I join the Toy game."})
		p := h.S.PlayerByAddress(c.addr)
		if p == nil || p.Name != c.want {
			t.Errorf("display name %q became %+v, want %q", c.display, p, c.want)
			continue
		}
		if !utf8.ValidString(p.Name) || strings.Contains(p.Name, "=?") || strings.ContainsAny(p.Name, "\r\n\ufffd") {
			t.Errorf("name %q is not plain text", p.Name)
		}
	}
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "!!binary") {
		t.Errorf("the state holds a binary name:\n%s", b)
	}
}

// TestRandomnessKeepsTenWeeks: the state keeps the seeds of the last ten
// weeks (the revealed ones, the current and the next committed), so it stays bounded
// however long the games run; the weeks it drops were published when
// revealed.
func TestRandomnessKeepsTenWeeks(t *testing.T) {
	h := newToy(t)
	h.Advance("2027-03-01T10:00:00Z") // thirteen weeks on
	w := h.S.Randomness.Weeks
	if len(w) != 10 {
		t.Fatalf("the state keeps %d weeks of seeds, want 10", len(w))
	}
	// 2027-03-01 begins W09; W10's seed is committed ahead, W09's revealed
	// when it ends.
	if w[0].Week != "2027-W01" || w[9].Week != "2027-W10" || w[9].Seed != "" || w[7].Seed == "" {
		t.Errorf("weeks kept: %+v", w)
	}
}

// TestHelpUnknownGame: "help <word>" naming no game says so, names the
// games to ask about, and then gives the overview.
func TestHelpUnknownGame(t *testing.T) {
	h := newToy(t)
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanPrivate, Text: "help chess"})
	if len(ns) != 1 {
		t.Fatalf("help chess: %+v", ns)
	}
	body := flat(ns[0].Body)
	if !strings.HasPrefix(body, `No game here is called "chess"; send "help toy" for Toy's guide.`) {
		t.Errorf("help chess does not say there is no such game:\n%s", ns[0].Body)
	}
	if !strings.Contains(ns[0].Body, "How the referee reads your mail") {
		t.Errorf("help chess lacks the overview:\n%s", ns[0].Body)
	}
	for _, l := range strings.Split(ns[0].Body, "\n") {
		if len([]rune(l)) > 72 {
			t.Errorf("help line over 72 columns: %q", l)
		}
	}
	ns = h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:01:00Z"), Channel: contract.ChanPrivate, Text: "help"})
	if len(ns) != 1 || strings.Contains(ns[0].Body, "No game here") {
		t.Errorf("plain help names a missing game:\n%s", ns[0].Body)
	}
}

// TestUnknownGameNamed: an action that names a game the referee does not
// run, a typo or another game, is refused with the games it runs, where it
// would otherwise perform nothing and go unmentioned in the receipt; a
// sentence that no game's verb reads with a game in its place still gets no
// line.
func TestUnknownGameNamed(t *testing.T) {
	h := newToy(t)
	r := h.Public("2026-12-01T10:05:00Z", alice, "I join the Chess game.\nI join the Tyo game.\nI won the bridge game.\nI join the Toy game.")
	body := flat(r.Body)
	receiptHas(t, r.Body,
		`> I join the Chess game. Not done: no game here is called "Chess"; the games are Toy (send "help" for their actions)`,
		`> I join the Tyo game. Not done: no game here is called "Tyo"; the games are Toy`,
		"Done: you joined Toy",
		"1 done, 2 not done.",
	)
	if strings.Contains(body, "bridge") {
		t.Errorf("a sentence that is no action got a line:\n%s", r.Body)
	}
	if len(h.S.Members("toy")) != 1 {
		t.Errorf("the refusals changed the contestants: %v", h.S.Members("toy"))
	}
}

// TestGuideUnknownGame: the players' guide, the start of the HELP reply,
// says what the receipt does with an action naming a game the referee does
// not run (TestUnknownGameNamed), as it says the rest of how mail is read.
func TestGuideUnknownGame(t *testing.T) {
	h := newToy(t)
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanPrivate, Text: "help"})
	const want = `An action naming a game the referee does not run ("I join the Chess contest", or a typo such as "the Lfie contest") is refused, and the receipt names the games it runs.`
	if len(ns) != 1 || !strings.Contains(flat(ns[0].Body), want) {
		t.Errorf("the help does not say how an unknown game is answered (%q):\n%+v", want, ns)
	}
}

// TestHelpWords: "help" with words that only ask for help ("help me
// please") answers the overview, as "help" does; with a game's name among
// such words, that game's guide; with another word among them, it says that
// no game has that name, the asking words left out.
func TestHelpWords(t *testing.T) {
	h := newToy(t)
	for i, c := range []struct{ text, want, wantNot string }{
		{"help me please", "How the referee reads your mail", "No game here"},
		{"Help?", "How the referee reads your mail", "No game here"},
		{"help me with toy please", "The toy game.", "How the referee reads"},
		{"help me with chess please", `No game here is called "chess"; send "help toy"`, "me with"},
	} {
		at := contracttest.At(t, "2026-12-01T11:00:00Z").Add(time.Duration(i) * time.Minute)
		ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: at, Channel: contract.ChanPrivate, Text: c.text})
		if len(ns) != 1 {
			t.Errorf("%q: %d replies, want 1", c.text, len(ns))
			continue
		}
		if body := flat(ns[0].Body); !strings.Contains(body, c.want) || strings.Contains(body, c.wantNot) {
			t.Errorf("%q: the reply lacks %q or has %q:\n%s", c.text, c.want, c.wantNot, ns[0].Body)
		}
	}
}

// TestCoreNearest: a sentence that begins as a transfer or a change of name
// but does not read as one (a negative or fractional amount, no amount, no
// name) is refused with the form expected, where it got no line; a sentence
// that only shares a word with them still gets none.
func TestCoreNearest(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	r := h.Public("2026-12-01T10:07:00Z", alice, "I transfer -3 coins to Bob. I give 2.5 coins to Bob. I transfer all my coins to Bob. I change my name to . I pay attention to Bob.")
	body := flat(r.Body)
	form := `Not done: not understood; the form is: I transfer N <currency> to <player> (or give, send, hand, pay), N a whole number, 0 or more`
	receiptHas(t, r.Body,
		"> I transfer -3 coins to Bob. "+form,
		"> I give 2.5 coins to Bob. "+form,
		"> I transfer all my coins to Bob. "+form,
		"> I change my name to . Not done: not understood; the form is: I change my name to <name>",
		"0 done, 4 not done.",
	)
	if strings.Contains(body, "attention") {
		t.Errorf("a sentence that is no transfer got a line:\n%s", r.Body)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != 5 {
		t.Errorf("Bob owns %d coins after the refusals, want 5", got)
	}
}
