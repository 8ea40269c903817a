package contract_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// adjustToy is the toy game reading an adjustment in its own terms
// (Adjuster), as Life reads a cell's Controller: "the rounds are N".
type adjustToy struct{ toy }

var roundsAre = regexp.MustCompile(`^the rounds are (\d+)$`)

func (g *adjustToy) Adjust(c *contract.Ctx, change string) (bool, error) {
	m := roundsAre.FindStringSubmatch(change)
	if m == nil {
		return false, nil
	}
	n, _ := strconv.Atoi(m[1])
	c.Data().(*toyState).Rounds = n
	c.Did("the Toy rounds are %d", n)
	return true, nil
}

// TestAdjustmentInTheRecord: a correction's adjustment is made at its time
// and the game's next report names it as the correction wrote it: a balance
// set (to zero too, the journal giving the balance before and after), or a
// change in the game's own terms.
func TestAdjustmentInTheRecord(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &adjustToy{})
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	before := h.S.Ledger.Balance("toy/coin", "Alice")
	if before == 0 {
		t.Fatal("Alice has no coins to set to zero")
	}
	n := len(h.Entries)
	if _, _, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{
		At: contracttest.At(t, "2026-12-01T10:30:00Z"), Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 0, Rule: "T1", CoE: 1}}, nil); err != nil {
		t.Fatalf("setting Alice's coins to 0: %v", err)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 0 {
		t.Errorf("Alice has %d coins after the adjustment to 0", got)
	}
	var journaled bool
	for _, en := range h.Entries[n:] {
		if en.Verb == "adjust" && en.Outcome == "applied" {
			changes, _ := en.Detail["changes"].([]string)
			journaled = strings.Join(changes, "; ") == "Alice: "+strconv.FormatInt(before, 10)+" -> 0 of toy/coin"
		}
	}
	if !journaled {
		t.Errorf("the journal does not give Alice's balance before and after: %+v", h.Entries[n:])
	}
	if _, _, err := h.Correct("2026-12-01T11:30:00Z", contract.Correction{CoE: 2, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{
		At: contracttest.At(t, "2026-12-01T10:45:00Z"), Game: "toy", Change: "the rounds are 3", Rule: "T11", CoE: 2}}, nil); err != nil {
		t.Fatalf("setting the rounds: %v", err)
	}
	if got := h.Data("toy").(*toyState).Rounds; got != 3 {
		t.Errorf("%d rounds after the adjustment to 3", got)
	}
	report := reportAt(t, h, "2026-12-07T00:00:01Z")
	for _, want := range []string{
		"referee adjusted by the correction of CoE #1: at 2026-12-01 10:30 UTC, Alice has 0 of toy/coin (T1)",
		"referee adjusted by the correction of CoE #2: at 2026-12-01 10:45 UTC, the rounds are 3 (T11)",
	} {
		if !strings.Contains(flat(report.Body), want) {
			t.Errorf("the report lacks %q:\n%s", want, report.Body)
		}
	}
}

// TestAdjustmentToTheBalanceItHas: a correction that sets a balance to
// what it already is, before a single coin of the game was made, is made
// and published, not refused as a fault of the referee's.
func TestAdjustmentToTheBalanceItHas(t *testing.T) {
	h := newToy(t)
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "Hello, is anyone playing?")
	rev, ns, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{
		At: contracttest.At(t, "2026-12-01T10:30:00Z"), Game: "toy", Owner: "the Toy contest", Currency: "toy/coin", Amount: 0, Rule: "T1", CoE: 1}}, nil)
	if err != nil {
		t.Fatalf("the contest's coins set to the 0 it has: %v", err)
	}
	var published bool
	for _, n := range ns {
		published = published || n.Kind == "revision" && strings.Contains(flat(n.Body), "the Toy contest has 0 of toy/coin (T1)")
	}
	if rev == nil || !published {
		t.Errorf("no revision published: %+v", ns)
	}
}
