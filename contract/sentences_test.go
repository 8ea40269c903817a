package contract_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
)

// TestSentencesAsWritten: how a message's text is cut into sentences, as
// the receipt shows it: the sentences quoted, in the order written, and
// what was done.
func TestSentencesAsWritten(t *testing.T) {
	for _, c := range []struct {
		why, text string
		quoted    []string
		done      string
	}{
		{"the last sentence without its stop comes last",
			"I join the Toy game. I ask the contestmaster whether pokes stack",
			[]string{"I join the Toy game.", "I ask the contestmaster whether pokes stack"}, "2 done, 0 not done."},
		{"a stop before a number or a small letter ends no sentence",
			"I ask the contestmaster whether rule No. 3 holds, e.g. for pokes.",
			[]string{"I ask the contestmaster whether rule No. 3 holds, e.g. for pokes."}, "1 done, 0 not done."},
		{"a list numbered from 0 starts a sentence on each item",
			"My moves\n0) I join the Toy game\n1) I ask the contestmaster whether pokes stack",
			[]string{"0) I join the Toy game", "1) I ask the contestmaster whether pokes stack"}, "2 done, 0 not done."},
		{"a list's item 9 starts a sentence",
			"My moves\n8. I join the Toy game\n9. I ask the contestmaster whether pokes stack",
			[]string{"8. I join the Toy game", "9. I ask the contestmaster whether pokes stack"}, "2 done, 0 not done."},
		{"a last sentence whose last word is I",
			"I join the Toy game. Who goes first? Not I",
			[]string{"I join the Toy game."}, "1 done, 0 not done."},
		{"We in capitals",
			"WE JOIN THE TOY GAME.",
			[]string{"WE JOIN THE TOY GAME."}, "1 done, 0 not done."},
		{"must spelled with a long s is no action",
			"I join the Toy game. I mu\u017ft join the Toy game.",
			[]string{"I join the Toy game."}, "1 done, 0 not done."},
		{"I after a colon",
			"Update:I join the Toy game.",
			[]string{"Update:I join the Toy game."}, "1 done, 0 not done."},
		{"I after a dash, in capitals",
			"UPDATE: —I JOIN THE TOY GAME.",
			[]string{"UPDATE: —I JOIN THE TOY GAME."}, "1 done, 0 not done."},
		{"i after a dash, in small letters",
			"update: —i join the toy game.",
			[]string{"update: —i join the toy game."}, "1 done, 0 not done."},
	} {
		h := newToy(t)
		r := h.Public("2026-12-01T10:05:00Z", alice, c.text)
		if r == nil {
			t.Errorf("%s: no receipt (nothing was read as an action)", c.why)
			continue
		}
		if d := cmp.Diff(c.quoted, quoted(r)); d != "" || !strings.Contains(r.Body, c.done) {
			t.Errorf("%s: receipt (-want +got):\n%s\n%s", c.why, d, r.Body)
		}
	}
}

// TestIntentCountsAsWritten: the number of supporters or objections an
// intent names is read digit by digit, 0 and 9 included: more supporters
// than the game's are kept, more objections than the game allows refused
// (G7).
func TestIntentCountsAsWritten(t *testing.T) {
	h := joined(t)
	r := h.Public("2026-12-01T10:10:00Z", alice, "I intend, with 10 support, to crown Dan.")
	if !strings.Contains(flat(r.Body), "intent #1 tabled") || !strings.Contains(flat(r.Body), "once 10 supporters have supported it") {
		t.Errorf("with 10 support:\n%s", r.Body)
	}
	for _, n := range []string{"9", "10"} {
		r = h.Public("2026-12-01T10:11:00Z", alice, "I intend, without "+n+" objections, to end the game of Toy.")
		if !strings.Contains(flat(r.Body), "this action is performed without objection; "+n+" objections would be a weaker requirement") || len(h.S.Intents) != 1 {
			t.Errorf("without %s objections was tabled:\n%s", n, r.Body)
		}
	}
}

// TestConditionInACondition: a condition whose action is itself a
// conditional (here behind a list mark, the one way the sentence reader
// takes "if" after a condition's comma) holds when both do (G3).
func TestConditionInACondition(t *testing.T) {
	for _, c := range []struct {
		least string
		done  bool
	}{{"5", true}, {"6", false}} {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", bob, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, "If I own at least "+c.least+" coins, i) if I am a player of Toy, I transfer 1 coin to Bob.")
		cond := `condition "I own at least ` + c.least + ` coins and I am a player of Toy"`
		if c.done && !strings.Contains(flat(r.Body), cond+" holds") || !c.done && !strings.Contains(flat(r.Body), cond+" is false") {
			t.Errorf("owning 5, at least %s:\n%s", c.least, r.Body)
		}
		if got := h.S.Ledger.Balance("toy/coin", "Bob") == 6; got != c.done {
			t.Errorf("owning 5, at least %s: transferred %v", c.least, got)
		}
	}
}

// TestSentencesOfManyStops: a text that is mostly stops (a player's
// million dots, or ". " many times) is read with memory of the order of
// the text, not a Sentence's room for every stop: room made for each stop
// up front was 24 times the text, 25 MB for 1 MiB of dots.
func TestSentencesOfManyStops(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int   // sentences
		times      int64 // the most allocated, in times the text
	}{
		{"dots", "I join the Life contest. " + strings.Repeat(".", 1<<20), 1, 4},
		// Each run of stops is an end, kept while the text is read (16
		// bytes for 2 of text, and append's doubling).
		{"dot and space", "I join the Life contest. " + strings.Repeat(". ", 1<<16), 1, 64},
	} {
		var got []contract.Sentence
		allocated := bytesAllocated(func() { got = contract.Sentences(tc.text) })
		if len(got) != tc.want || !strings.HasPrefix(got[0].Text, "I join the Life contest.") {
			t.Errorf("%s: %d sentences, want %d starting with the join", tc.name, len(got), tc.want)
		}
		if allocated > tc.times*int64(len(tc.text)) {
			t.Errorf("%s: reading %d bytes allocated %d bytes, more than %d times the text", tc.name, len(tc.text), allocated, tc.times)
		}
	}
}

// bytesAllocated is what f allocates on the heap (the test runs alone: no
// other goroutine of the package allocates meanwhile).
func bytesAllocated(f func()) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return int64(after.TotalAlloc - before.TotalAlloc)
}
