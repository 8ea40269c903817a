package contract

import (
	"errors"
	"fmt"
)

// Rejection is a player's mistake: the action fails, nothing changes, and the
// receipt says why and which rule or syntax applies.
type Rejection struct {
	Rule   string // "Life R16", "G4", "syntax"
	Reason string // written for the player
}

func (r *Rejection) Error() string {
	if r.Rule == "" {
		return r.Reason
	}
	return r.Reason + " (" + r.Rule + ")"
}

// NamingRule is what a refusal of a player's name cites: the section of the
// players' guide (guide.md, the start of the HELP reply) that says how
// players are named, a heading a player can find.
const NamingRule = "guide: Naming players"

// Reject builds a rejection citing rule.
func Reject(rule, format string, args ...any) *Rejection {
	return &Rejection{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// AsRejection reports whether err is a player's mistake.
func AsRejection(err error) (*Rejection, bool) {
	var r *Rejection
	if errors.As(err, &r) {
		return r, true
	}
	return nil, false
}
