package contract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A list of actions opened by "I perform the following actions, in order:"
// (or "I hereby do the following:"), its items without "I", is read as the
// actions it lists, in order: it got no reply and did nothing. Items of a
// list under any other line ("Plans for next week:") still do nothing, and
// so does a list quoted from another message.
func TestListOfTheFollowingActions(t *testing.T) {
	for _, c := range []struct {
		body string
		want []string
		bob  int64
	}{
		{"I perform the following actions, in order:\n\n1. Transfer 3 Vials to Bob.\n2. Claim cell (1, 2) in Life.\n\nCheers,\nAlice",
			[]string{"Done: 3 Vials moved from Alice to Bob", "Done: you Control Cell (1, 2)", "2 done, 0 not done"}, 13},
		{"I hereby do the following:\n- transfer 2 Vials to Bob\n- I claim cell (1, 2) in Life\n\nNot this one:\n- transfer 5 Vials to Bob",
			[]string{"Done: 2 Vials moved from Alice to Bob", "2 done, 0 not done"}, 12},
		{"Plans for next week:\n- transfer 3 Vials to Bob\n- claim cell (5, 5) in Life", nil, 10},
		{"Agreed.\n\nBob wrote:\n> I perform the following actions:\n> 1. Transfer 3 Vials to Bob.", nil, 10},
	} {
		r, bob := sendList(t, c.body)
		switch {
		case c.want == nil && r != nil:
			t.Errorf("%q: a receipt:\n%s", c.body, r.Body)
		case c.want != nil && r == nil:
			t.Errorf("%q: no receipt", c.body)
		}
		for _, w := range c.want {
			if r != nil && !strings.Contains(flat(r.Body), w) {
				t.Errorf("%q: the receipt lacks %q:\n%s", c.body, w, r.Body)
			}
		}
		if bob != c.bob {
			t.Errorf("%q: Bob owns %d Vials, want %d", c.body, bob, c.bob)
		}
	}
}

// sendList sends body to the public list from Alice, Alice and Bob having
// joined Life the day before: Alice's receipt, and Bob's Vials after.
func sendList(t *testing.T, body string) (*contract.Notice, int64) {
	t.Helper()
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	h.Quietly("2026-11-30T10:01:00Z", bob, contract.ChanPublic, "I join the Life contest.")
	eml := "From: Alice <alice@example.test>\nTo: agora-business@example.test\n" +
		"List-Id: Agora Business <agora-business.example.test>\nDate: Tue, 01 Dec 2026 10:00:00 +0000\n" +
		"Message-ID: <list@example.test>\nSubject: BUS: actions\nMIME-Version: 1.0\n" +
		"Content-Type: text/plain; charset=utf-8\n\n" + body + "\n"
	path := filepath.Join(t.TempDir(), "m.eml")
	if err := os.WriteFile(path, []byte(eml), 0o644); err != nil {
		t.Fatal(err)
	}
	return contracttest.Receipt(h.Mbox(path)), h.S.Ledger.Balance(life.Vial, "Bob")
}

// An item put off by a time phrase before its verb ("1. Tomorrow, transfer
// 3 Vials to Bob.") was dropped without a word: the receipt had no line
// for it. It is read as "Tomorrow, I transfer ..." is: not performed, and
// the receipt quotes the item and says why (G3); an item that names today
// is performed.
func TestListItemPutOffIsNotPerformed(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed`
	for _, c := range []struct {
		body string
		want []string
		bob  int64
	}{
		{"I perform the following actions, in order:\n\n1. Tomorrow, transfer 3 Vials to Bob.\n2. Claim cell (1, 2) in Life.",
			[]string{"> 1. Tomorrow, transfer 3 Vials to Bob. Not done: \"Tomorrow\" " + putOff, "Done: you Control Cell (1, 2)", "1 done, 1 not done"}, 10},
		{"I do the following:\n- next week transfer 3 Vials to Bob\n- On Friday: claim cell (1, 2) in Life\n- tomorrow, I transfer 1 Vial to Bob",
			[]string{"> - next week transfer 3 Vials to Bob Not done: \"next week\" " + putOff, "> - On Friday: claim cell (1, 2) in Life Not done: \"On Friday\" is not today",
				"> - tomorrow, I transfer 1 Vial to Bob Not done: \"tomorrow\" " + putOff, "0 done, 3 not done"}, 10},
		{"I perform the following actions:\n1. On Tuesday, transfer 3 Vials to Bob.\n2. Transfer 1 Vial to Bob.",
			[]string{"> 1. On Tuesday, transfer 3 Vials to Bob. Done: 3 Vials moved", "2 done, 0 not done"}, 14},
	} {
		r, bob := sendList(t, c.body)
		for _, w := range c.want {
			if r == nil || !strings.Contains(flat(r.Body), w) {
				t.Errorf("%q: the receipt lacks %q:\n%v", c.body, w, r)
			}
		}
		if bob != c.bob {
			t.Errorf("%q: Bob owns %d Vials, want %d", c.body, bob, c.bob)
		}
	}
}

// An item with a plain preface before its verb ("2. Today, transfer 1
// Vial to Bob.", "2. So, transfer ...") was dropped without a word: the
// receipt had no line for it. It is read as "Today, I transfer ..." is,
// performed and quoted as written; a time phrase after the preface still
// puts it off (G3), and an item under any other line still does nothing.
func TestListItemWithAPrefaceIsPerformed(t *testing.T) {
	for _, c := range []struct {
		body string
		want []string
		bob  int64
	}{
		{"I perform the following actions, in order:\n1. Transfer 1 Vial to Bob.\n2. Today, transfer 1 Vial to Bob.\n3. So, transfer 1 Vial to Bob.",
			[]string{"> 2. Today, transfer 1 Vial to Bob. Done: 1 Vial moved from Alice to Bob; you now own 8",
				"> 3. So, transfer 1 Vial to Bob. Done: 1 Vial moved from Alice to Bob; you now own 7", "3 done, 0 not done"}, 13},
		{"I do the following:\n- Now transfer 2 Vials to Bob\n- Finally: claim cell (1, 2) in Life\n- So, tomorrow, transfer 1 Vial to Bob",
			[]string{"> - Now transfer 2 Vials to Bob Done: 2 Vials moved", "> - Finally: claim cell (1, 2) in Life Done: you Control Cell (1, 2)",
				"> - So, tomorrow, transfer 1 Vial to Bob Not done: \"tomorrow\" puts the action off", "2 done, 1 not done"}, 12},
		{"Plans for next week:\n1. Today, transfer 1 Vial to Bob.\n2. So, transfer 1 Vial to Bob.", nil, 10},
	} {
		r, bob := sendList(t, c.body)
		if c.want == nil && r != nil {
			t.Errorf("%q: a receipt:\n%s", c.body, r.Body)
		}
		for _, w := range c.want {
			if r == nil || !strings.Contains(flat(r.Body), w) {
				t.Errorf("%q: the receipt lacks %q:\n%v", c.body, w, r)
			}
		}
		if bob != c.bob {
			t.Errorf("%q: Bob owns %d Vials, want %d", c.body, bob, c.bob)
		}
	}
}

// An item whose preface is a word "I" may take ("then", "now", "also")
// and a dash ("2. Then - claim cell (1, 2) in Life.") was not understood,
// where "2. Then, claim ..." was done: the dash the word left before the
// verb is read off as the comma is.
func TestListItemWithAnAdverbAndADash(t *testing.T) {
	r, bob := sendList(t, "I perform the following actions, in order:\n1. Transfer 1 Vial to Bob.\n2. Then - claim cell (1, 2) in Life.\n"+
		"3. Now \u2013 transfer 1 Vial to Bob.\n4. Also \u2014 transfer 1 Vial to Bob.")
	for _, w := range []string{"> 2. Then - claim cell (1, 2) in Life. Done: you Control Cell (1, 2)",
		"> 3. Now \u2013 transfer 1 Vial to Bob. Done: 1 Vial moved from Alice to Bob", "4 done, 0 not done"} {
		if r == nil || !strings.Contains(flat(r.Body), w) {
			t.Errorf("the receipt lacks %q:\n%v", w, r)
		}
	}
	if bob != 13 {
		t.Errorf("Bob owns %d Vials, want 13", bob)
	}
}
