package contract_test

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// An action is done by announcing it (G3): "Tomorrow, I transfer 2 Vials
// to Bob." was performed at once, as if the word were not there, and "Next
// week I ..." (no comma) was passed over without a word. A sentence that
// puts its action off performs nothing, and the receipt says why; a day
// named that is the day the mail arrives (Tuesday 2026-12-01 here) is
// today, as "Today, I ..." is, and the action is performed.
func TestActionPutOffIsNotPerformed(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed; send it when you mean it, or make it a condition the referee can decide now ("If I own more than 5 Vials, I ...") (G3)`
	for _, c := range []struct {
		text, want string
		bob        int64
	}{
		{"Tomorrow, I transfer 2 Vials to Bob.", `Not done: "Tomorrow" ` + putOff, 10},
		{"Tomorrow: i transfer 2 Vials to Bob . .", `Not done: "Tomorrow" ` + putOff, 10},
		{"Next week I transfer 2 Vials to Bob.", `Not done: "Next week" ` + putOff, 10},
		{"Later I hereby transfer 2 Vials to Bob.", `Not done: "Later" ` + putOff, 10},
		{"In two days, I transfer 2 Vials to Bob.", `Not done: "In two days" ` + putOff, 10},
		{"Next Tuesday, I transfer 2 Vials to Bob.", `Not done: "Next Tuesday" ` + putOff, 10},
		{"Tomorrow, I transfer 2 Vials to Bob and claim cell (1, 2) in Life.", `Not done: "Tomorrow" ` + putOff, 10},
		{"Tomorrow, if I own more than 5 Vials, I transfer 2 Vials to Bob.", `Not done: "Tomorrow" ` + putOff, 10},
		{"On Friday I transfer 2 Vials to Bob.", `Not done: "On Friday" is not today (Tuesday 2026-12-01, UTC): an action is done by announcing it now, so this one was not performed; send it on the day you mean it`, 10},
		{"On 2026-12-02, I transfer 2 Vials to Bob.", `Not done: "On 2026-12-02" is not today`, 10},
		{"On 2 December I transfer 2 Vials to Bob.", `Not done: "On 2 December" is not today`, 10},
		{"As of tomorrow, I transfer 2 Vials to Bob.", `Not done: "As of tomorrow" ` + putOff, 10},
		{"Starting next week I transfer 2 Vials to Bob.", `Not done: "Starting next week" ` + putOff, 10},
		{"From tomorrow on, I transfer 2 Vials to Bob.", `Not done: "From tomorrow on" ` + putOff, 10},
		{"From Tuesday on, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Beginning on Friday, I transfer 2 Vials to Bob.", `Not done: "Beginning on Friday" is not today (Tuesday 2026-12-01, UTC)`, 10},
		{"As of Tuesday, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"From now on, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Today, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Now, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"On Tuesday, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"On 2026-12-01, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"On December 1st, 2026, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"On 1 Dec I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
	} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
		for _, who := range []string{alice, bob} {
			h.Quietly("2026-11-30T10:00:00Z", who, contract.ChanPublic, "I join the Life contest.")
		}
		r := h.Public("2026-12-01T10:00:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
		if strings.HasPrefix(c.want, "Not done") && r != nil && strings.Contains(r.Body, "Done:") {
			t.Errorf("%q: an action was done:\n%s", c.text, r.Body)
		}
		if got := h.S.Ledger.Balance(life.Vial, "Bob"); got != c.bob {
			t.Errorf("%q: Bob owns %d Vials, want %d", c.text, got, c.bob)
		}
	}
	// The future tense after the time phrase is no action, as before: no
	// receipt.
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	if r := h.Public("2026-12-01T10:00:00Z", alice, "Tomorrow I will transfer 2 Vials to Bob."); r != nil {
		t.Errorf("the future tense got a receipt:\n%s", r.Body)
	}
}
