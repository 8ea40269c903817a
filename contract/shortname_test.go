package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// named is the toy game under a title of two words and a short name, the
// first word ("wacky" for Wacky World).
type named struct {
	toy
	id, title, short string
}

func (g *named) Spec() contract.Spec {
	return contract.Spec{ID: g.id, Title: g.title, Aliases: []string{strings.ToLower(g.title), g.short}, Guide: "The guide of " + g.title + ".\n"}
}

// TestAmbiguousShortName: a short name that is a word of another game's
// name names neither game ("help wacky" with Wacky World and Wacky Races),
// and each game is still named in full; alone, it names its game.
func TestAmbiguousShortName(t *testing.T) {
	world := func() *named { return &named{id: "world", title: "Wacky World", short: "wacky"} }
	h := contracttest.New(t, "2026-12-01T10:00:00Z", world(), &named{id: "races", title: "Wacky Races", short: "wacky"})
	if r := h.Private("2026-12-01T10:05:00Z", alice, "help wacky"); r == nil || !strings.Contains(r.Body, `No game here is called "wacky"`) {
		t.Errorf("help wacky with two wacky games:\n%v", r)
	}
	for _, title := range []string{"Wacky World", "Wacky Races"} {
		if r := h.Private("2026-12-01T10:06:00Z", alice, "help "+title); r == nil || !strings.Contains(r.Body, "The guide of "+title) {
			t.Errorf("help %s:\n%v", title, r)
		}
	}
	h = contracttest.New(t, "2026-12-01T10:00:00Z", world(), &riddle{})
	if r := h.Private("2026-12-01T10:05:00Z", alice, "help wacky"); r == nil || !strings.Contains(r.Body, "The guide of Wacky World") {
		t.Errorf("help wacky with one wacky game:\n%v", r)
	}
}
