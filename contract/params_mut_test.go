package contract_test

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// dial is a game whose parameters its players change with a verb, as an
// amendment mechanism would (G9), and read back with another.
type dial struct{ toy }

func (g *dial) Spec() contract.Spec {
	return contract.Spec{ID: "dial", Title: "Dial", Aliases: []string{"dial"}, Guide: "The dials.\n",
		Params: []contract.Param{
			{Name: "A", Type: "int", Default: "1", Rule: "D1"},
			{Name: "B", Type: "int", Default: "2", Rule: "D1"},
			{Name: "FAST", Type: "bool", Default: "false", Rule: "D2"},
			{Name: "WAIT", Type: "duration", Default: "24h0m0s", Rule: "D3"},
		}}
}

func (g *dial) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "set", Pattern: `set (?P<name>\w+) to (?P<v>\S+)`, Syntax: "I set <parameter> to <value> in Dial", Rule: "D4",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				if err := c.SetParam(a.Arg("name"), a.Arg("v")); err != nil {
					return err
				}
				c.Did("%s is %s", a.Arg("name"), c.Param(a.Arg("name")))
				return nil
			}},
		{Name: "show", Pattern: `show the dials`, Syntax: "I show the dials in Dial", Rule: "D5",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Did("A = %d, B = %d, FAST = %s, WAIT = %s", c.IntParam("A"), c.IntParam("B"), c.Param("FAST"), c.DurationParam("WAIT"))
				return nil
			}},
	}
}

// TestParametersChangedOneByOne: changing one parameter keeps the others'
// values; each is checked against its type, the refusal naming the rule
// and the value (G9).
func TestParametersChangedOneByOne(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &dial{})
	for i, c := range []struct{ text, want string }{
		{"I set B to 7 in Dial.", "Done: B is 7"},
		{"I set A to 3 in Dial.", "Done: A is 3"},
		{"I set FAST to TRUE in Dial.", "Done: FAST is true"},
		{"I set FAST to maybe in Dial.", `Not done: FAST must be true or false, not "maybe" (D2)`},
		{"I set WAIT to 90m in Dial.", "Done: WAIT is 1h30m0s"},
		{"I show the dials in Dial.", "Done: A = 3, B = 7, FAST = true, WAIT = 1h30m0s"},
	} {
		r := h.Public(fmt.Sprintf("2026-12-01T10:%02d:00Z", 5+i), alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
	}
}
