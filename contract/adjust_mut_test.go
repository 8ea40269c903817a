package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestAdjustmentDownToSome: a correction that lowers a balance to an
// amount above zero destroys the difference; the player keeps the rest,
// and the revision and the game's next report say so.
func TestAdjustmentDownToSome(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &adjustToy{})
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 5 {
		t.Fatalf("Alice joined with %d coins, want 5", got)
	}
	_, ns, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{
		At: contracttest.At(t, "2026-12-01T10:30:00Z"), Game: "toy", Owner: "Alice", Currency: "toy/coin", Amount: 2, Rule: "T1", CoE: 1}}, nil)
	if err != nil {
		t.Fatalf("setting Alice's 5 coins to 2 was refused: %v", err)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Alice"); got != 2 {
		t.Errorf("Alice has %d coins after the adjustment to 2", got)
	}
	var published bool
	for _, n := range ns {
		published = published || n.Kind == "revision" && strings.Contains(flat(n.Body), "Alice has 2 of toy/coin (T1)")
	}
	if !published {
		t.Errorf("no revision saying Alice has 2 coins: %+v", ns)
	}
	report := reportAt(t, h, "2026-12-07T00:00:01Z")
	if want := "Alice has 2 of toy/coin (T1)"; !strings.Contains(flat(report.Body), want) {
		t.Errorf("the report lacks %q:\n%s", want, report.Body)
	}
}

// TestAdjustmentTheGameDoesNotRead: a change in the game's own terms that
// the game does not read is refused, and the contestmaster is told so; the
// state is as before.
func TestAdjustmentTheGameDoesNotRead(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &adjustToy{})
	h.Record()
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	rounds := h.Data("toy").(*toyState).Rounds
	_, ns, err := h.Correct("2026-12-01T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixAdjust, Adjust: &contract.Adjustment{
		At: contracttest.At(t, "2026-12-01T10:30:00Z"), Game: "toy", Change: "the rounds are many", Rule: "T11", CoE: 1}}, nil)
	want := `Toy does not read the adjustment "the rounds are many"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("a change the game does not read: %v, want a refusal saying %s", err, want)
	}
	var told bool
	for _, n := range ns {
		told = told || strings.Contains(flat(n.Body), want)
	}
	if !told {
		t.Errorf("no notice tells the contestmaster %s: %+v", want, ns)
	}
	if got := h.Data("toy").(*toyState).Rounds; got != rounds {
		t.Errorf("the rounds are %d after a refused adjustment, were %d", got, rounds)
	}
}
