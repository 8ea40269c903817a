package bridge

import (
	"fmt"
	"time"

	"referee/contract"
	"referee/mailin"
)

// Pipeline is the one way mail enters the games, the same for the daemon,
// replay and the test harness: parse (mailin.Parse, which also classifies the
// mail by its lists and its authentication), bridge (Message), apply
// (Engine.Apply). Read and Apply are its two halves, for a caller that parses
// outside its lock; Ingest is both.
//
// Later steps of reading mail belong here, so that every caller has them.
// Where a public post counts (G4) is decided in both halves: mailin says
// whether a copy is the list's (Message.ListCopy, by the policy), and the
// engine holds a direct copy in the state until the list's copy arrives
// (contract.Config.ListWait).
type Pipeline struct {
	Engine *contract.Engine
	Mail   *mailin.Config
	// Adjust, when set, edits each message after the bridge (the test
	// harness, whose policy is "none", marks private mail authenticated).
	Adjust func(*contract.Message)
}

// UnreadableError is mail the parser refused: nothing was applied.
type UnreadableError struct{ Err error }

func (e *UnreadableError) Error() string { return fmt.Sprintf("unreadable mail: %v", e.Err) }

func (e *UnreadableError) Unwrap() error { return e.Err }

// Read parses and classifies raw mail that arrived at arrived, converts it
// for the interpreter, and reads its sentences (Engine.ReadAhead), which
// depend on the text alone: all of it outside the caller's lock, on another
// core for a caller that reads ahead. A parse failure is an *UnreadableError.
func (p *Pipeline) Read(data []byte, arrived time.Time) (*contract.Message, error) {
	m, err := mailin.Parse(data, arrived, p.Mail)
	if err != nil {
		return nil, &UnreadableError{Err: err}
	}
	cm := Message(m)
	if p.Adjust != nil {
		p.Adjust(cm)
	}
	if p.Engine != nil {
		p.Engine.ReadAhead(cm)
	}
	return cm, nil
}

// Apply performs the message on s and returns the journal entries it made.
func (p *Pipeline) Apply(s *contract.State, m *contract.Message) ([]contract.Entry, error) {
	return p.Engine.Apply(s, m)
}

// Ingest reads raw mail and applies it to s.
func (p *Pipeline) Ingest(s *contract.State, data []byte, arrived time.Time) (*contract.Message, []contract.Entry, error) {
	m, err := p.Read(data, arrived)
	if err != nil {
		return nil, nil, err
	}
	ent, err := p.Apply(s, m)
	return m, ent, err
}
