package contract_test

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A remark after the action does not stop it: "I claim cell (40, 40) in
// Life, as discussed." was not understood (the game's name no longer
// ended the sentence), and "I transfer 2 Vials to Bob as a gift." was
// refused as naming no player "Bob as a gift", where "..., because he
// asked." was done. A remark after a comma is read off the action; one
// without, after a recipient, is read off the longest name that is a
// player. A remark that takes the action back or names another player,
// a name that is no player's ("Bob Smith"), are refused as before.
func TestTrailingRemarkDoesNotStopTheAction(t *testing.T) {
	const putOff = `Not done: "tomorrow" puts the action off`
	for _, c := range []putOffCase{
		{"I claim cell (40, 40) in Life, as discussed.", "> I claim cell (40, 40) in Life, as discussed. Done: you Control Cell (40, 40)", 10},
		{"I claim cell (40, 40) in Life, because nobody else wanted it.", "Done: you Control Cell (40, 40)", 10},
		{"I claim cell (40, 40) in Life, as promised, thanks.", "Done: you Control Cell (40, 40)", 10},
		{"I transfer 2 Vials to Bob as a gift.", "> I transfer 2 Vials to Bob as a gift. Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob because he asked.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob for the cell (as promised).", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob, as promised.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob tomorrow, as agreed.", putOff, 10},
		{"I claim cell (40, 40) in Life, as a joke.", "Not done: not understood", 10},
		{"I transfer 2 Vials to Bob as a joke.", `Not done: no player is known as "Bob as a joke"`, 10},
		{"I transfer 2 Vials to Bob, because Carol asked.", `Not done: no player is known as "Bob, because Carol asked"`, 10},
		{"I transfer 2 Vials to Bob as a gift for Carol.", `Not done: no player is known as "Bob as a gift for Carol"`, 10},
		{"I transfer 2 Vials to Bob Smith as a gift.", `Not done: no player is known as "Bob Smith as a gift"`, 10},
	} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		for _, who := range []string{alice, bob, carol} {
			h.Quietly("2026-11-30T10:00:00Z", who, contract.ChanPublic, "I join the Life contest.")
		}
		r := h.Public("2026-12-01T10:00:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
		if got := h.S.Ledger.Balance(life.Vial, "Bob"); got != c.bob {
			t.Errorf("%q: Bob owns %d Vials, want %d", c.text, got, c.bob)
		}
	}

	// A player whose name begins as the remark does is never paid as
	// another: with Bob As playing, "to Bob as a gift" is refused.
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	for _, who := range []string{alice, bob, "Bob As <bobas@example.test>"} {
		h.Quietly("2026-11-30T10:00:00Z", who, contract.ChanPublic, "I join the Life contest.")
	}
	r := h.Public("2026-12-01T10:00:00Z", alice, "I transfer 2 Vials to Bob as a gift.")
	if r == nil || !strings.Contains(flat(r.Body), `Not done: no player is known as "Bob as a gift"`) {
		t.Errorf("the transfer with Bob As playing:\n%v", r)
	}
	if b, ba := h.S.Ledger.Balance(life.Vial, "Bob"), h.S.Ledger.Balance(life.Vial, "Bob As"); b != 10 || ba != 10 {
		t.Errorf("Bob owns %d Vials and Bob As %d, want 10 and 10", b, ba)
	}
	r = h.Public("2026-12-01T10:00:00Z", alice, "I transfer 2 Vials to Bob As as a gift.")
	if r == nil || !strings.Contains(flat(r.Body), "Done: 2 Vials moved from Alice to Bob As") {
		t.Errorf("the transfer to Bob As:\n%v", r)
	}

	// A text the player writes keeps its remark.
	e := corpusEngine(t)
	for text, want := range map[string]string{
		"I amend the Rumble contract by letting a player bid twice, as discussed.": "letting a player bid twice, as discussed",
		"I modify the Wacky World contract: parties may move twice, as agreed.":    "parties may move twice, as agreed",
	} {
		got := e.Read(text)
		if len(got) != 1 || got[0].Args["text"] != want {
			t.Errorf("Read(%q) = %v, want the text %q", text, got, want)
		}
	}
}

// A remark without a comma after the game the action names is read off
// as one after a comma is: "I claim cell (40, 40) in Life as discussed."
// was not understood. Words after the game's name that are no remark, or
// one that takes the action back, leave the sentence not understood, as
// before.
func TestRemarkAfterTheGameWithoutAComma(t *testing.T) {
	checkPutOff(t, []putOffCase{
		{"I claim cell (40, 40) in Life as discussed.", "> I claim cell (40, 40) in Life as discussed. Done: you Control Cell (40, 40)", 10},
		{"I claim cell (40, 40) in Life because nobody else wanted it.", "Done: you Control Cell (40, 40)", 10},
		{"I claim cell (40, 40) in the Life contest as promised, thanks.", "Done: you Control Cell (40, 40)", 10},
		{"I claim cell (40, 40) in Life as a joke.", "Not done: not understood", 10},
		{"I claim cell (40, 40) in Life as well as cell (1, 2).", "Not done: not understood", 10},
	})
}
