package contract_test

import (
	"bytes"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// lanes is a game whose state holds an array of slices, a shape no game
// of this build has yet.
type lanes struct{ toy }

type lanesState struct {
	Lanes [2][]string `yaml:"lanes"`
}

func (g *lanes) Spec() contract.Spec {
	return contract.Spec{ID: "lanes", Title: "Lanes", Aliases: []string{"lanes"}, Guide: "The lanes.\n"}
}
func (g *lanes) NewState() any { return &lanesState{} }
func (g *lanes) Init(c *contract.Ctx) error {
	c.Data().(*lanesState).Lanes = [2][]string{{"Alice"}, {"Bob"}}
	return nil
}
func (g *lanes) Verbs() []*contract.Verb { return nil }

// TestSnapshotCopiesArrays: a snapshot of a state whose game holds an
// array of slices can be changed without changing the state.
func TestSnapshotCopiesArrays(t *testing.T) {
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee}, &lanes{})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.NewState(contracttest.Secret[:], contracttest.At(t, "2026-12-01T10:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := contract.Encode(s)
	c := contract.Snapshot(s)
	if b, _ := contract.Encode(c); !bytes.Equal(b, before) {
		t.Fatalf("the snapshot encodes differently from the original:\n%s\nwant:\n%s", b, before)
	}
	c.Games["lanes"].Data.(*lanesState).Lanes[0][0] = "Mallory"
	c.Games["lanes"].Data.(*lanesState).Lanes[1][0] = "Eve"
	if after, _ := contract.Encode(s); !bytes.Equal(after, before) {
		t.Errorf("changing the snapshot changed the original:\n%s", after)
	}
}
