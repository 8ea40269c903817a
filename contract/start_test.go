package contract_test

import (
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestStartNamesEachContestmaster: a starting state written without a
// contestmaster (the committed template) gets the configured one for each
// game when the referee starts from it, and a game whose contestmaster the
// template names keeps that one (G8): the saved state says which. The start
// is journaled: one entry, the first Randomness notice's, with the weeks it
// commits to and the journal number the state file holds.
func TestStartNamesEachContestmaster(t *testing.T) {
	tmpl, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee}, &toy{}, &other{})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := tmpl.NewState(nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	// The operator names Other's contestmaster in the template.
	edited := strings.Replace(string(b), "  other:\n    contestmaster: \"\"\n", "  other:\n    contestmaster: olga@example.test\n", 1)
	if edited == string(b) || strings.Count(edited, "contestmaster: \"\"") != 1 {
		t.Fatalf("the template does not read as expected:\n%s", b)
	}
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster}, &toy{}, &other{})
	if err != nil {
		t.Fatal(err)
	}
	s, err = e.Decode([]byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	ent, err := e.Start(s, contracttest.Secret[:], contracttest.At(t, "2026-12-01T10:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	saved, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  other:\n    contestmaster: olga@example.test\n", "  toy:\n    contestmaster: " + contracttest.Contestmaster + "\n"} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("the started state lacks %q:\n%s", want, saved)
		}
	}
	if len(ent) != 1 || ent[0].Verb != "randomness" || ent[0].Seq != s.JournalSeq || len(s.Outbox) != 1 {
		t.Fatalf("the start's journal: %+v (state at %d, %d notices)", ent, s.JournalSeq, len(s.Outbox))
	}
	committed, _ := ent[0].Detail["committed"].([]map[string]string)
	if len(committed) != 2 || committed[0]["week"] != "2026-W49" || committed[1]["week"] != "2026-W50" {
		t.Fatalf("the start's journal entry commits to %v, want 2026-W49 and 2026-W50", ent[0].Detail["committed"])
	}
	for _, c := range committed {
		if !strings.Contains(s.Outbox[0].Body, c["week"]+"  ") || !strings.Contains(s.Outbox[0].Body, c["commitment"]) {
			t.Errorf("the Randomness notice does not publish %v:\n%s", c, s.Outbox[0].Body)
		}
	}
}
