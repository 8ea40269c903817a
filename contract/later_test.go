package contract_test

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
)

// A putOffCase is a sentence Alice sends on Tuesday 2026-12-01, Bob
// owning 10 Vials: a text her receipt holds, and Bob's Vials after.
type putOffCase struct {
	text, want string
	bob        int64
}

// checkPutOff sends each case's sentence in a game of its own, Alice and
// Bob having joined Life the day before; a case whose receipt is "Not
// done" must do no action.
func checkPutOff(t *testing.T, cases []putOffCase) {
	t.Helper()
	for _, c := range cases {
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
}

// An action is done by announcing it (G3): "Tomorrow, I transfer 2 Vials
// to Bob." was performed at once, as if the word were not there, and "Next
// week I ..." (no comma) was passed over without a word. A sentence that
// puts its action off performs nothing, and the receipt says why; a day
// named that is the day the mail arrives (Tuesday 2026-12-01 here) is
// today, as "Today, I ..." is, and the action is performed.
func TestActionPutOffIsNotPerformed(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed; send it when you mean it, or make it a condition the referee can decide now ("If I own more than 5 Vials, I ...") (G3)`
	checkPutOff(t, []putOffCase{
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
	})
	// The future tense after the time phrase is no action, as before: no
	// receipt.
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	if r := h.Public("2026-12-01T10:00:00Z", alice, "Tomorrow I will transfer 2 Vials to Bob."); r != nil {
		t.Errorf("the future tense got a receipt:\n%s", r.Body)
	}
}

// A time phrase after the action puts it off as one before it does (G3):
// "I transfer 2 Vials to Bob tomorrow." was refused with "no player is
// known as "Bob tomorrow"", the right outcome for the wrong reason, and
// "... on Friday" the same. The receipt now says the action is put off; a
// day named that is today is performed; a verb whose last argument is a
// text the player writes keeps the phrase in its text.
func TestActionPutOffAfterIsNotPerformed(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed`
	checkPutOff(t, []putOffCase{
		{"I transfer 2 Vials to Bob tomorrow.", `Not done: "tomorrow" ` + putOff, 10},
		{"I transfer 2 Vials to Bob, tomorrow morning.", `Not done: "tomorrow morning" ` + putOff, 10},
		{"I transfer 2 Vials to Bob next week.", `Not done: "next week" ` + putOff, 10},
		{"I transfer 2 Vials to Bob in two days.", `Not done: "in two days" ` + putOff, 10},
		{"I transfer 2 Vials to Bob later today.", `Not done: "later today" ` + putOff, 10},
		{"I transfer 2 Vials to Bob as of tomorrow.", `Not done: "as of tomorrow" ` + putOff, 10},
		{"I transfer 2 Vials to Bob on Friday.", `Not done: "on Friday" is not today (Tuesday 2026-12-01, UTC)`, 10},
		{"I transfer 2 Vials to Bob on 2 December 2026.", `Not done: "on 2 December 2026" is not today`, 10},
		{"I transfer 2 Vials to Bob on Tuesday.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob on 2026-12-01.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Tomorrow, I transfer 2 Vials to Bob on Tuesday.", `Not done: "Tomorrow" ` + putOff, 10},
		{"I transfer 2 Vials to Bob now.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
	})
	// A suggestion's text keeps its time phrase, and the suggestion is made.
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	r := h.Public("2026-12-01T10:00:00Z", alice, "I suggest we end the contest next week.")
	if r == nil || !strings.Contains(flat(r.Body), "Done: Suggestion #1 recorded") {
		t.Errorf("the suggestion's receipt:\n%v", r)
	}
}

// Time phrases written as players write them put the action off too:
// "Tomorrow - I transfer ...", "Tonight I ...", "So, tomorrow, I ...",
// "Tomorrow at noon I ...", "This evening I ..." were not performed and
// got no reply at all. The receipt now says the action is put off, as for
// "Tomorrow, I ..." (G3); "Today - I ...", "So, I ...", "Now I ..." are
// performed; a player called Tonight is paid by name.
func TestActionPutOffAsWrittenGetsAReply(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed`
	checkPutOff(t, []putOffCase{
		{"Tomorrow - I transfer 2 Vials to Bob.", `Not done: "Tomorrow" ` + putOff, 10},
		{"Tomorrow \u2014 I transfer 2 Vials to Bob.", `Not done: "Tomorrow" ` + putOff, 10},
		{"Tonight I transfer 2 Vials to Bob.", `Not done: "Tonight" ` + putOff, 10},
		{"So, tomorrow, I transfer 2 Vials to Bob.", `Not done: "tomorrow" ` + putOff, 10},
		{"So tomorrow I transfer 2 Vials to Bob.", `Not done: "tomorrow" ` + putOff, 10},
		{"OK - next week I transfer 2 Vials to Bob.", `Not done: "next week" ` + putOff, 10},
		{"Tomorrow at noon I transfer 2 Vials to Bob.", `Not done: "Tomorrow at noon" ` + putOff, 10},
		{"Tonight at 8pm, I transfer 2 Vials to Bob.", `Not done: "Tonight at 8pm" ` + putOff, 10},
		{"This evening I transfer 2 Vials to Bob.", `Not done: "This evening" ` + putOff, 10},
		{"Early tomorrow, I transfer 2 Vials to Bob.", `Not done: "tomorrow" ` + putOff, 10},
		{"I transfer 2 Vials to Bob tonight.", `Not done: "tonight" ` + putOff, 10},
		{"I transfer 2 Vials to Bob tomorrow at noon.", `Not done: "tomorrow at noon" ` + putOff, 10},
		{"Today - I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"So, I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Now I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"So I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Today I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
	})
	// Chatter with a time word is still no action, and gets no reply; a
	// player called Tonight is paid by name.
	h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New())
	h.Quietly("2026-11-30T10:00:00Z", alice, contract.ChanPublic, "I join the Life contest.")
	h.Quietly("2026-11-30T10:00:00Z", "Tonight <tonight@example.test>", contract.ChanPublic, "I join the Life contest.")
	for _, text := range []string{"Tonight I was busy, sorry.", "So tomorrow I will look at the map.", "Tomorrow - I think - the round ends.",
		"Now I see what you mean.", "This evening I have a meeting.", "So, tonight, I'm away."} {
		if r := h.Public("2026-12-01T10:00:00Z", alice, text); r != nil {
			t.Errorf("%q got a reply:\n%s", text, r.Body)
		}
	}
	r := h.Public("2026-12-01T10:00:00Z", alice, "I transfer 2 Vials to Tonight.")
	if r == nil || !strings.Contains(flat(r.Body), "Done: 2 Vials moved from Alice to Tonight") {
		t.Errorf("the transfer to Tonight:\n%v", r)
	}
}

// A time phrase where a name may stand between "I" and the action puts
// the action off too: "I, tomorrow, transfer 2 Vials to Bob." moved the
// Vials at once, the phrase read as the writer's name ("I, Quux, ...").
// The receipt now says it is put off (G3); a name there, or the day the
// mail arrives, is performed as before.
func TestActionPutOffBetweenIAndTheVerb(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed`
	checkPutOff(t, []putOffCase{
		{"I, tomorrow, transfer 2 Vials to Bob.", `Not done: "tomorrow" ` + putOff, 10},
		{"We, next week, transfer 2 Vials to Bob.", `Not done: "next week" ` + putOff, 10},
		{"I , on Friday, hereby transfer 2 Vials to Bob.", `Not done: "on Friday" is not today (Tuesday 2026-12-01, UTC)`, 10},
		{"I, on Tuesday, transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I, Alice, transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
	})
}

// A time written with stops ("9 a.m.", "8 p.m.") puts the action off as
// "9am" does: "Tomorrow at 9 a.m. I transfer 2 Vials to Bob." moved the
// Vials, the text cut after "a.m." into "Tomorrow at 9 a.m." and an "I
// transfer ..." of its own, and "Tomorrow at 9 a.m., I ..." got no reply.
// A time phrase alone before the stop now keeps its sentence (G3); "The
// round ends at 9 a.m. I transfer ..." is two sentences, and performs.
func TestActionPutOffAtATimeWithStops(t *testing.T) {
	const putOff = `puts the action off: an action is done by announcing it now, so this one was not performed`
	checkPutOff(t, []putOffCase{
		{"Tomorrow at 9 a.m. I transfer 2 Vials to Bob.", `> Tomorrow at 9 a.m. I transfer 2 Vials to Bob. Not done: "Tomorrow at 9 a.m." ` + putOff, 10},
		{"Tonight at 8 P.M. I transfer 2 Vials to Bob.", `Not done: "Tonight at 8 P.M." ` + putOff, 10},
		{"Tomorrow at 9 a.m., I transfer 2 Vials to Bob.", `Not done: "Tomorrow at 9 a.m." ` + putOff, 10},
		{"I transfer 2 Vials to Bob tomorrow at 9 a.m.", `Not done: "tomorrow at 9 a.m." ` + putOff, 10},
		{"The round ends at 9 a.m. I transfer 2 Vials to Bob.", "> I transfer 2 Vials to Bob. Done: 2 Vials moved from Alice to Bob", 12},
		{"See you at 9 a.m. I transfer 2 Vials to Bob.", "> I transfer 2 Vials to Bob. Done: 2 Vials moved from Alice to Bob", 12},
	})
	for text, want := range map[string][]string{
		"The round ends at 9 a.m. I join Rumble.":   {"The round ends at 9 a.m.", "I join Rumble."},
		"Tomorrow at 9 a.m. I join Rumble.":         {"Tomorrow at 9 a.m. I join Rumble."},
		"We meet at 10 p.m. Tomorrow at 9 a.m. Ok.": {"We meet at 10 p.m.", "Tomorrow at 9 a.m. Ok."},
	} {
		var got []string
		for _, s := range contract.Sentences(text) {
			got = append(got, s.Text)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Sentences(%q) = %q, want %q", text, got, want)
		}
	}
}

// A day named with a time ("On Friday at noon I ...") puts the action off
// as the day alone does: it was passed over without a word, where "On
// Friday I ..." gets the receipt saying Friday is not today. The day
// decides, as for "On Friday I ...": named on that day, the action is
// performed.
func TestActionPutOffToADayAtATime(t *testing.T) {
	const notToday = `is not today (Tuesday 2026-12-01, UTC): an action is done by announcing it now, so this one was not performed`
	checkPutOff(t, []putOffCase{
		{"On Friday at noon I transfer 2 Vials to Bob.", `Not done: "On Friday at noon" ` + notToday, 10},
		{"On Friday at 9 a.m., I transfer 2 Vials to Bob.", `Not done: "On Friday at 9 a.m." ` + notToday, 10},
		{"This Friday at 17:00 UTC - I transfer 2 Vials to Bob.", `Not done: "This Friday at 17:00 UTC" ` + notToday, 10},
		{"On 2026-12-02 at 8pm I transfer 2 Vials to Bob.", `Not done: "On 2026-12-02 at 8pm" ` + notToday, 10},
		{"I transfer 2 Vials to Bob on Friday at noon.", `Not done: "on Friday at noon" ` + notToday, 10},
		{"Next Friday at noon I transfer 2 Vials to Bob.", `Not done: "Next Friday at noon" puts the action off`, 10},
		{"On Tuesday at 9 a.m. I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"I transfer 2 Vials to Bob on 1 December at 08:30.", "Done: 2 Vials moved from Alice to Bob", 12},
	})
}

// A day named with a time later that day, on the day the mail arrives,
// puts the action off as another day does: "On Tuesday at noon I transfer
// 2 Vials to Bob.", sent on Tuesday at 10:00, moved the Vials two hours
// before the time it named (G3: an action is done by announcing it now).
// It now gets "Not done: "On Tuesday at noon" is later than this message,
// sent at 10:00 UTC ..."; a time already past that day (or now), and "Today
// at 9 a.m.", are performed. Midnight is the day's end; an hour without am
// or pm is on the 24-hour clock.
func TestActionPutOffToALaterTimeToday(t *testing.T) {
	const later = `is later than this message, sent at 10:00 UTC: an action is done by announcing it now, so this one was not performed; send it at the time you mean it`
	checkPutOff(t, []putOffCase{
		{"On Tuesday at noon I transfer 2 Vials to Bob.", `Not done: "On Tuesday at noon" ` + later, 10},
		{"I transfer 2 Vials to Bob on 1 December at noon.", `Not done: "on 1 December at noon" ` + later, 10},
		{"Today at 8pm, I transfer 2 Vials to Bob.", `Not done: "Today at 8pm" ` + later, 10},
		{"Today at 10:01 UTC I transfer 2 Vials to Bob.", `Not done: "Today at 10:01 UTC" ` + later, 10},
		{"On Tuesday at midnight I transfer 2 Vials to Bob.", `Not done: "On Tuesday at midnight" ` + later, 10},
		{"I transfer 2 Vials to Bob today at 11 a.m.", `Not done: "today at 11 a.m." ` + later, 10},
		{"Today at 9 a.m. I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Today at 10 I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"On Tuesday at 12 am I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
		{"Today I transfer 2 Vials to Bob.", "Done: 2 Vials moved from Alice to Bob", 12},
	})
}
