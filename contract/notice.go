package contract

import (
	"strings"
	"time"
)

// Notice is a mail the referee must send. It enters the outbox in the same save as
// the state change that caused it (DESIGN invariant 3).
type Notice struct {
	// ID is unique and deterministic within the state ("receipt/<msgid>",
	// "life/report/2026-W50"): the mail's Message-ID is derived from it, so a resend
	// after a crash carries the same Message-ID.
	ID      string  `yaml:"id" json:"id"`
	Kind    string  `yaml:"kind" json:"kind"` // receipt, report, notice, randomness, reminder, ruling
	Game    string  `yaml:"game,omitempty" json:"game,omitempty"`
	Channel Channel `yaml:"channel" json:"channel"` // public, official or private
	// To are the addresses of a private notice; lists are added from the
	// configuration for public and official notices.
	To         []string  `yaml:"to,omitempty" json:"to,omitempty"`
	Subject    string    `yaml:"subject" json:"subject"` // without the list tag (OFF:, BUS:)
	Body       string    `yaml:"body" json:"body"`
	InReplyTo  string    `yaml:"in_reply_to,omitempty" json:"in_reply_to,omitempty"`
	References []string  `yaml:"references,omitempty" json:"references,omitempty"`
	Time       time.Time `yaml:"time" json:"time"`
}

// Recipients names whom the notice goes to, for an operator: its addresses,
// or for a list notice (To empty: the configuration names the lists) its
// channel's list.
func (n *Notice) Recipients() string {
	if len(n.To) > 0 {
		return strings.Join(n.To, ", ")
	}
	return "the " + string(n.Channel) + " list"
}

// Outgoing is a notice in the outbox with its delivery state.
type Outgoing struct {
	Notice    `yaml:",inline"`
	Attempts  int       `yaml:"attempts,omitempty"`
	NextTry   time.Time `yaml:"next_try,omitempty"`
	LastError string    `yaml:"last_error,omitempty"`
}
