// Package benchgen is the Life play the cost benchmarks generate: the
// players, their Life actions (joins first, then claims of Cells, some
// already taken or badly written, and transfers of Vials) and the chatter
// between them. bench/replay writes it as a list archive; contract's
// BenchmarkStream hands it to the engine as mailin would.
package benchgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var firstNames = []string{"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
	"Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Zelda"}

var domains = []string{"example.test", "mail.example.net", "agora.example.org", "post.example.com"}

// Chatter is what players write to the lists that is no action.
var Chatter = []string{
	"I think the last round went badly for everyone who bet on gliders.",
	"Has anyone worked out whether a blinker near the edge wraps around the torus?",
	"Will I claim (3, 4) next week? Probably not, it looks crowded there.",
	"The report says the contest holds most of the Vials now. Is that intended?",
	"I would support a suggestion to raise VPP, if someone writes one.",
	"Thanks for the summary, that clears it up.",
	"Could the referee's receipts be shorter? Mine are three screens long.",
	"I disagree: the amended R21 is the better reading, and the rulings say so.",
	"If you claim cells in a line they die at once, so do not do that.",
	"Does anybody know when the next monthly award is counted?",
	"Speaking as a former contestmaster, this was always contested.",
	"My last message was a joke, please do not take it as an action.",
	"Someone should write a guide for new players about still lifes.",
	"Interesting. I had not noticed that the corners are neighbours.",
}

// Topics are the subjects chatter replies to.
var Topics = []string{"Life strategy", "the last report", "a question about rounds", "regulations"}

// Player is one of the players writing to the lists.
type Player struct {
	Name, Addr string
	Joined     bool
}

// Players are n players, each with a name and an address of their own.
func Players(n int) []Player {
	out := make([]Player, 0, n)
	for i := 0; i < n; i++ {
		fn := firstNames[i%len(firstNames)]
		out = append(out, Player{
			Name: fmt.Sprintf("%s%03d", fn, i),
			Addr: fmt.Sprintf("%s%03d@%s", strings.ToLower(fn), i, domains[i%len(domains)]),
		})
	}
	return out
}

// Cell is a Cell written as players write it, now and then badly.
func Cell(r *rand.Rand) string {
	x, y := r.IntN(51), r.IntN(51)
	switch r.IntN(40) {
	case 0:
		return fmt.Sprintf("(%d, %d, 1)", x, y)
	case 1:
		return fmt.Sprintf("(%d,%d)", x, y+60)
	}
	return fmt.Sprintf("(%d, %d)", x, y)
}

// Action is the subject and text of a Life action by p, one of players:
// its join if p has not joined.
func Action(r *rand.Rand, p *Player, players []Player) (subject, text string) {
	if !p.Joined {
		p.Joined = true
		return "Joining Life", "Hello all,\n\nI join the Life contest.\n"
	}
	switch k := r.IntN(10); {
	case k < 5:
		return "Life", fmt.Sprintf("I claim cell %s in Life.\n", Cell(r))
	case k < 7:
		return "Life claims", fmt.Sprintf("I claim cells %s, %s and %s in Life.\n", Cell(r), Cell(r), Cell(r))
	case k < 8:
		return "Life", fmt.Sprintf("I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell %s.\n", Cell(r))
	default:
		to := &players[r.IntN(len(players))]
		return "Life: a gift", fmt.Sprintf("I transfer %d Vials to %s.\n", 1+r.IntN(2), to.Name)
	}
}
