package contract

import "time"

// Claims of Error and self-ratification (AGORA "Reports and notices"): every
// public report and notice is citable, describes the state by a hash, and
// becomes true after its period unless a player claims an error in it first.

// Cited is a published report or notice that self-ratifies: what it covers of
// the record, the hash of the state it describes, and its ratification clock.
type Cited struct {
	// ID is its citation, the notice's ID: "life/report/2026-W50".
	ID   string `yaml:"id"`
	Game string `yaml:"game,omitempty"` // "" for the referee's own notices
	Kind string `yaml:"kind"`
	// Subject is the notice's subject, for players who cite it by name.
	Subject string `yaml:"subject"`
	// From and Seq are the journal lines it covers: From..Seq.
	From int64 `yaml:"from"`
	Seq  int64 `yaml:"seq"`
	// LastMsgID is the Message-ID of the last message applied before it.
	LastMsgID string `yaml:"last_msgid,omitempty"`
	// Hash is the keyed hash of the state it describes (StateHash).
	Hash      string    `yaml:"hash"`
	Published time.Time `yaml:"published"`
	// Ratifies is when it self-ratifies, unless a claim is open on it then
	// (zero while one is: the clock is stopped).
	Ratifies time.Time `yaml:"ratifies,omitempty"`
	// Status is "pending", "claimed" (a claim is open: the clock is stopped)
	// or "ratified".
	Status   string    `yaml:"status"`
	Ratified time.Time `yaml:"ratified,omitempty"`
	// Announced: a later notice of its game has said that it ratified.
	Announced bool `yaml:"announced,omitempty"`
	// Excluded are the parts the game's text says do not self-ratify.
	Excluded []string `yaml:"excluded,omitempty"`
}

// Claim is an open Claim of Error: a player's doubt about a report, a notice
// or a receipt, waiting for the contestmaster's answer (G8).
type Claim struct {
	ID int `yaml:"id"`
	// Game is the game whose contestmaster answers it.
	Game string `yaml:"game"`
	// Report is what is claimed against: a citation (a Cited ID) or the
	// receipt of a message ("receipt/<Message-ID>").
	Report   string `yaml:"report"`
	Claimant string `yaml:"claimant"` // the player's name
	From     string `yaml:"from"`     // eir address
	MsgID    string `yaml:"msgid"`    // the message that made the claim
	What     string `yaml:"what"`     // what is wrong, in eir words
	// Public: the claim was made on a public list, so its words may be
	// quoted in public; a private claim's words are not (they may tell a
	// sealed value).
	Public bool      `yaml:"public,omitempty"`
	Filed  time.Time `yaml:"filed"`
	// Ruling is the number of the ruling request asked of the contestmaster.
	Ruling int `yaml:"ruling,omitempty"`
	// Status is "open" while it waits; a claim answered leaves the state (the
	// journal keeps the answer).
	Status string `yaml:"status"`
}

// DefaultRatification is a report's self-ratification period when the game's
// "ratification" parameter is unset.
const DefaultRatification = 7 * 24 * time.Hour
