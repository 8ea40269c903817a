package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
)

// brokenToy is the toy game with a verb whose pattern does not parse.
type brokenToy struct{ toy }

func (g *brokenToy) Verbs() []*contract.Verb {
	return append(g.toy.Verbs(), &contract.Verb{Name: "poke twice", Pattern: `poke (twice`, Syntax: "I poke twice", Rule: "T3"})
}

// A verb's pattern is compiled at its first use, but one that does not
// parse is refused when the engine is built, naming the game, the verb
// and regexp's reason, as when every pattern was compiled there: no
// action reaches it first.
func TestNewEngineRefusesABadPattern(t *testing.T) {
	_, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &brokenToy{})
	if err == nil {
		t.Fatal("an engine was built with a verb whose pattern does not parse")
	}
	for _, want := range []string{"game toy verb poke twice", "missing closing )"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{}); err != nil {
		t.Fatalf("the toy game's engine: %v", err)
	}
}
