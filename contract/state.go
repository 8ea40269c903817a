package contract

import (
	"fmt"
	"time"

	"gopkg.in/yaml.v3"

	"referee/internal/imappos"
)

// Version is the state schema this build reads and writes.
const Version = 1

// State is everything the referee must remember, one YAML file (DESIGN "State").
// Its size is bounded by the live games, not by history, which goes to the journal.
type State struct {
	Version int `yaml:"version"`
	// Secret is the 32-byte master secret, hex (DESIGN "Randomness"). Absent from
	// the committed starting state; drawn when a working state is created.
	Secret string `yaml:"secret,omitempty"`
	// Created is when the working state was created (the randomness epoch).
	Created time.Time `yaml:"created,omitempty"`
	// Clock is the latest time the state has been brought to.
	Clock time.Time `yaml:"clock,omitempty"`
	// JournalSeq is the number of the last journal line this state includes.
	JournalSeq int64 `yaml:"journal_seq"`
	// JournalInputs is the number of the last input (Input) of the journal
	// this state includes: start-up re-does the inputs after it.
	JournalInputs int64 `yaml:"journal_inputs,omitempty"`
	// ax is the undo log of open transactions and the memory's indexes.
	ax *aux

	Players    []*Player                 `yaml:"players"`
	Ledger     Ledger                    `yaml:"ledger"`
	Points     map[string]map[string]int `yaml:"points"` // player -> game -> points (G6)
	Intents    []*Intent                 `yaml:"intents"`
	NextIntent int                       `yaml:"next_intent"`
	// Ended are the intents performed, withdrawn, closed or expired in the
	// last 30 days, so that a support, an objection or "I do so" naming one
	// is told what became of it (G7). Not in the revisions' hashes
	// (deliveryless), nor in the notices' (hashedState).
	Ended      []*EndedIntent         `yaml:"ended_intents,omitempty"`
	Rulings    []*Ruling              `yaml:"rulings"`
	NextRuling int                    `yaml:"next_ruling"`
	Randomness Randomness             `yaml:"randomness"`
	Seen       Seen                   `yaml:"seen"`
	Receipts   map[string][]time.Time `yaml:"receipts"` // sender -> receipt times in the last hour
	Outbox     []*Outgoing            `yaml:"outbox"`
	Failed     []*Outgoing            `yaml:"failed"`
	// Paused is when each sender was told that eir receipts are paused by
	// the hourly limit, so that it is said once per pause.
	Paused map[string]time.Time `yaml:"receipts_paused,omitempty"`
	// Receipted is the one game whose actions a message's receipt
	// concerns, by the message's Message-ID, while the memory of
	// Message-IDs holds it: a claim replying to that receipt is a claim
	// in that game (doClaim). A receipt of no game's actions, or of two
	// games', has none. Not in the revisions' hashes (deliveryless): a
	// state written before it was kept holds none, and a replay of the
	// same mail from there makes some.
	Receipted map[string]string `yaml:"receipted,omitempty"`
	// Held are direct copies of public messages waiting for the list's copy
	// (G4), by Message-ID.
	Held map[string]*Held `yaml:"held,omitempty"`
	// Cited are the published reports and notices not yet ratified, and
	// those ratified within the memory's horizon (claims.go).
	Cited []*Cited `yaml:"cited,omitempty"`
	// Covered is, per game ("" for the referee's own notices), the last
	// journal line a citable notice covered.
	Covered map[string]int64 `yaml:"covered,omitempty"`
	// LastMsgID is the Message-ID of the last message applied.
	LastMsgID string `yaml:"last_msgid,omitempty"`
	// Claims are the open Claims of Error.
	Claims    []*Claim   `yaml:"claims,omitempty"`
	NextClaim int        `yaml:"next_claim,omitempty"`
	IMAP      Checkpoint `yaml:"imap"`
	// Games are written by Encode itself (an Encoder reuses the text of
	// sections that did not change).
	Games map[string]*GameState `yaml:"games"`
}

// Checkpoint is the IMAP position: the mailbox's UIDVALIDITY and the last UID
// applied. It is saved only in the state that includes those messages.
type Checkpoint = imappos.Checkpoint

// GameState is one game's section: what the interpreter keeps for every game, and
// the game's own state in Data.
type GameState struct {
	// Contestmaster is the game's current contestmaster's address (G8).
	Contestmaster string `yaml:"contestmaster"`
	// Params are the current parameter values, as text (declared by the game).
	Params map[string]string `yaml:"params"`
	// LastReport is when the last weekly report was made.
	LastReport time.Time `yaml:"last_report,omitempty"`
	// Recent are the events since the report before the last (the "Recent events"
	// list of a report).
	Recent []Happening `yaml:"recent"`
	// Data is the game's own state (its NewState type).
	Data any `yaml:"-"`
	raw  *yaml.Node
	// saves counts the times the section was saved for a change
	// (touchSection, touchData), which every change to it is: a game's
	// answer to Next is kept while it is the same (nextAnswer).
	saves uint64
}

// Happening is one line of a report's "Recent events".
type Happening struct {
	Time time.Time `yaml:"time"`
	Who  string    `yaml:"who"`
	What string    `yaml:"what"`
}

type gameStateYAML struct {
	Contestmaster string            `yaml:"contestmaster"`
	Params        map[string]string `yaml:"params"`
	LastReport    time.Time         `yaml:"last_report,omitempty"`
	Recent        []Happening       `yaml:"recent"`
	State         yaml.Node         `yaml:"state"`
}

// MarshalYAML writes the section with the game's data under "state". The
// node read (raw) is never written: Engine.Decode binds every section, its
// node decoded into Data, or returns no state.
//
// The data is written in place, as the YAML encoder writes it; its texts
// that begin with a line break or a tab are double-quoted by the encoding
// of the section (quotingTexts), which searches Data as well. Encoded into
// a node first, the data would be written, parsed back and written again
// (yaml.v3's Node.Encode writes the value and parses the text).
func (g *GameState) MarshalYAML() (any, error) {
	return &gameStateText{Contestmaster: g.Contestmaster, Params: g.Params, LastReport: g.LastReport, Recent: g.Recent, State: g.Data}, nil
}

// gameStateText is a section as gameStateYAML reads it, with the game's
// data in place of its node (no data, nil, is written "null", as an empty
// node is).
type gameStateText struct {
	Contestmaster string            `yaml:"contestmaster"`
	Params        map[string]string `yaml:"params"`
	LastReport    time.Time         `yaml:"last_report,omitempty"`
	Recent        []Happening       `yaml:"recent"`
	State         any               `yaml:"state"`
}

// UnmarshalYAML keeps the game's data as a node until the game is known.
func (g *GameState) UnmarshalYAML(n *yaml.Node) error {
	// The state is decoded strictly (unknown keys are errors naming the key); a
	// custom unmarshaler does not inherit that, so check the keys here.
	if n.Kind == yaml.MappingNode {
		var unknown []string
		for i := 0; i < len(n.Content); i += 2 {
			switch k := n.Content[i]; k.Value {
			case "contestmaster", "params", "last_report", "recent", "state":
			default:
				// As the decoder words it, so that the decoding goes on
				// and every problem is listed.
				unknown = append(unknown, fmt.Sprintf("line %d: field %s not found in type a game section", k.Line, k.Value))
			}
		}
		if unknown != nil {
			return &yaml.TypeError{Errors: unknown}
		}
	}
	var y gameStateYAML
	if err := n.Decode(&y); err != nil {
		return err
	}
	g.Contestmaster, g.Params, g.LastReport, g.Recent = y.Contestmaster, y.Params, y.LastReport, y.Recent
	if y.State.Kind != 0 {
		st := y.State
		g.raw = &st
	}
	return nil
}

// Seen is the processed-message memory (DESIGN invariant 2): Message-IDs within the
// horizon of the latest arrival; anything arriving before Horizon counts as seen.
type Seen struct {
	Horizon time.Time            `yaml:"horizon,omitempty"`
	Latest  time.Time            `yaml:"latest,omitempty"`
	IDs     map[string]time.Time `yaml:"ids"`
}
