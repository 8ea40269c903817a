package contract

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// mentionNames are the names the games give themselves and names that
// meet the trailing expression's own words.
var mentionNames = []string{"life", "the life contest", "life contest", "rumble", "the rumble contest", "steemfield", "wacky world", "wackyworld",
	"game", "contest", "in", "the", "a b", "Life", "x"}

// mentionSeeds are actions that end, or nearly end, in a game's name.
var mentionSeeds = []string{"", "life", "Life", "LIFE", "I join Life", "I join the Life contest", "I join Life contest", "I join the life game",
	"I claim cell (1, 2) in Life", "I claim cell (1, 2) (Life)", "I claim cell (1, 2), in Life.", "I claim cell (1, 2) in Life)", "I join (Life",
	"I join xlife", "I join _life", "I join 9life", "I join in life", "I join inlife", "I join inthe life", "I join in the  life", "I join in the\tlife contract",
	"I join for the life contest", "I join the rumble contest contest", "I join wacky world", "I join wacky  world", "I bid on Rumble  )", "I bid on Rumble ) ",
	"I join , ( life", "I join ,( life", "I join (, life", "x,life", "x(life", "( life )", "(life))", "of life game game", "life game", "game", "in game",
	"I join thelife", "I join the life\n", "I join the\nlife", "I join from\r\nlife", "I join with the the life", "to life contest )", "at\f life",
	"I join lifecontest", "I join life  contest", "I join life-contest", "I join steemfield game", "I join in_life", "I join in1 life", "the life contest contest"}

// mentionPieces are what the random actions are made of.
var mentionPieces = []string{" ", "  ", "\t", "\n", "\r\n", "\f", ",", "(", ")", ".", "-", "_", "1", "x", "I", "join", "in", "In", "for", "of", "on",
	"to", "at", "from", "with", "the", "THE", "life", "Life", "LIFE", "contest", "Contest", "game", "contract", "rumble", "wacky", "world", "a", "b",
	"steemfield", "inthe", "thelife"}

// checkMention fails when mentionAt disagrees with the trailing expression
// of the alias a on s.
func checkMention(t *testing.T, a alias, s string) {
	t.Helper()
	want := -1
	if m := a.trailing().FindStringIndex(s); m != nil {
		want = m[0]
	}
	if got := a.trailingAt(s, true); got != want {
		t.Errorf("name %q: trailingAt(%q) = %d, the expression finds %d", a.lower, s, got, want)
	}
}

// mentionAliases are mentionNames compiled.
func mentionAliases(t testing.TB) []alias {
	var out []alias
	for _, name := range mentionNames {
		a := compileAlias(name)
		if !a.plain {
			t.Fatalf("%q is not a plain name", name)
		}
		out = append(out, a)
	}
	return out
}

// TestMentionAt: for each name, trailingAt of an ASCII action finds by hand
// where the trailing expression finds a mention of the game, on the seeds
// and on 10,000 actions drawn from mentionPieces (half of them ending in
// a name and what may follow it).
func TestMentionAt(t *testing.T) {
	aliases := mentionAliases(t)
	for _, name := range []string{"", " life", "life ", "wacky  world", "vial's", "x1", "ſ"} {
		if isPlainName(name) {
			t.Errorf("isPlainName(%q) is true", name)
		}
	}
	r := rand.New(rand.NewPCG(14, 3))
	inputs := append([]string(nil), mentionSeeds...)
	for range 10000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(mentionPieces[r.IntN(len(mentionPieces))])
		}
		if r.IntN(2) == 0 {
			b.WriteString(mentionNames[r.IntN(len(mentionNames))])
			for range r.IntN(3) {
				b.WriteString([]string{" ", "\t", " contest", " game", ")", " )", "x", "."}[r.IntN(8)])
			}
		}
		inputs = append(inputs, b.String())
	}
	found := 0
	for _, s := range inputs {
		for _, a := range aliases {
			checkMention(t, a, s)
			if a.trailing().MatchString(s) {
				found++
			}
		}
	}
	if found < 2500 {
		t.Errorf("only %d of the inputs mention a game: the draws test too little", found)
	}
}

func FuzzMentionAt(f *testing.F) {
	for _, s := range mentionSeeds {
		f.Add(s)
	}
	aliases := mentionAliases(f)
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		for _, a := range aliases {
			checkMention(t, a, s)
		}
	})
}
