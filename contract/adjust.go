package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// Adjustment is a correction's explicit change where no message is at fault,
// stated in a game's terms with the rule that allows it: a balance set
// (Owner has Amount of Currency) or a change the game reads (Change, through
// its Adjuster: a Life cell's Controller).
type Adjustment struct {
	At   time.Time `json:"at" yaml:"at"`
	Game string    `json:"game" yaml:"game"`
	// Owner, Currency (a ledger ID) and Amount: the balance the adjustment
	// sets, the owner as written ("Alice", "the Life contest").
	Owner    string `json:"owner,omitempty" yaml:"owner,omitempty"`
	Currency string `json:"currency,omitempty" yaml:"currency,omitempty"`
	Amount   int64  `json:"amount,omitempty" yaml:"amount,omitempty"`
	// Change is the game's change, as written.
	Change string `json:"change,omitempty" yaml:"change,omitempty"`
	// Rule is the rule that allows it ("Life R15").
	Rule string `json:"rule" yaml:"rule"`
	// CoE is the claim it answers.
	CoE int `json:"coe" yaml:"coe"`
}

// Describe says what the adjustment does.
func (a *Adjustment) Describe() string {
	if a.Change != "" {
		return fmt.Sprintf("at %s UTC, %s (%s)", Stamp(a.At), a.Change, a.Rule)
	}
	return fmt.Sprintf("at %s UTC, %s has %d of %s (%s)", Stamp(a.At), a.Owner, a.Amount, a.Currency, a.Rule)
}

// Adjuster is a game that reads explicit adjustments in its own terms. Adjust
// makes the change, or returns a rejection saying what it expects; it
// returns ok false for a change it does not read.
type Adjuster interface {
	Adjust(c *Ctx, change string) (ok bool, err error)
}

// adjust performs an InAdjust: the scheduled events up to its time, then the
// change, within a transaction, journaled as "adjust".
func (e *Engine) adjust(s *State, in *Input) ([]Entry, error) {
	a := in.Adjust
	if a == nil {
		return nil, fmt.Errorf("redo: an adjustment input without its change")
	}
	g := e.games[a.Game]
	if g == nil {
		return nil, Reject("syntax", "no game %q to adjust", a.Game)
	}
	entries, err := e.advance(s, a.At)
	if err != nil {
		return entries, err
	}
	at := a.At.UTC()
	if at.Before(s.Clock) {
		at = s.Clock
	}
	tx := s.Begin()
	c := e.ctx(s, a.Game, at, nil)
	err = run(func() error {
		if a.Change != "" {
			ad, ok := g.(Adjuster)
			if !ok {
				return Reject(a.Rule, "%s reads no adjustment in its own terms; adjust a balance instead", g.Spec().Title)
			}
			done, err := ad.Adjust(c, a.Change)
			if err == nil && !done {
				err = Reject(a.Rule, "%s does not read the adjustment %q", g.Spec().Title, a.Change)
			}
			if err == nil {
				e.closeGone(c)
			}
			return err
		}
		owner, err := e.entity(s, a.Owner, false)
		if err != nil {
			return err
		}
		have := s.Ledger.Balance(a.Currency, owner)
		if a.Amount < 0 {
			return Reject(a.Rule, "a balance cannot be negative")
		}
		c.Did("%s: %d -> %d of %s", e.EntityName(owner), have, a.Amount, a.Currency)
		if a.Amount > have {
			return s.Ledger.Mint(a.Currency, owner, a.Amount-have)
		}
		return s.Ledger.Destroy(a.Currency, owner, have-a.Amount)
	})
	if err == nil {
		err = s.checkTouched(e.currencies(), tx)
	}
	if err != nil {
		tx.Undo()
		return entries, fmt.Errorf("adjustment %s: %w", a.Describe(), err)
	}
	tx.End()
	c.Record("referee", "adjusted by the correction of CoE #%d: %s", a.CoE, a.Describe())
	ent := e.flush(s, c)
	ent.Verb, ent.Outcome = "adjust", "applied"
	ent.set("rule", a.Rule)
	ent.set("coe", a.CoE)
	more, err := e.advance(s, at)
	return append(append(entries, ent), more...), err
}

func jsonMarshal(v any) ([]byte, error)   { return json.Marshal(v) }
func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func sha256hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
