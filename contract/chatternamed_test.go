package contract_test

import (
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contract/contracttest"
)

// Talk that names a game is not answered: "Tonight we celebrate in Life."
// got "Not done: not understood" with the nearest form of a Life action,
// where other talk gets no reply. A sentence no verb reads, written "We
// ..." or put off to a later time, is talk (G3: plans never act) and gets
// no reply; one of them that reads as an action still gets its answer
// ("Tonight we join Life." is put off), and "I ..." that no verb reads
// is still not understood, with the nearest form.
func TestTalkNamingAGameIsNotAnswered(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Tonight we celebrate in Life.", ""},
		{"Today we celebrate in Life.", ""},
		{"We celebrate in Life!", ""},
		{"Tomorrow I rest from Life.", ""},
		{"On Friday at noon we party in the Rumble contest.", ""},
		{"Next week we all go to war in Rumble.", ""},
		{"Tonight we join Life.", `Not done: "Tonight" puts the action off`},
		{"We join Life.", "Done: you are a contestant of Life"},
		{"I celebrate in Life.", "Not done: not understood; the nearest form is"},
	} {
		h := contracttest.New(t, "2026-11-30T09:00:00Z", life.New(), rumble.New())
		r := h.Public("2026-12-01T10:00:00Z", alice, c.text)
		switch {
		case c.want == "" && r != nil:
			t.Errorf("%q got a reply:\n%s", c.text, r.Body)
		case c.want != "" && (r == nil || !strings.Contains(flat(r.Body), c.want)):
			t.Errorf("%q: the reply lacks %q:\n%v", c.text, c.want, r)
		}
		for _, en := range h.Entries {
			if en.Outcome == "applied" && c.want == "" {
				t.Errorf("%q acted: %s %s", c.text, en.Game, en.Verb)
			}
		}
	}
	if got := corpusEngine(t).Read("Tonight we celebrate in Life."); len(got) != 0 {
		t.Errorf("Read: %v, want nothing", got)
	}
}
