package contract

import (
	"fmt"
	"time"
)

// InputKind names what an Input did to the state.
type InputKind string

const (
	// InMessage: a message was applied (Engine.Apply), and the mailbox
	// position it came with, when there is one, saved with it.
	InMessage InputKind = "message"
	// InAdvance: the clock was brought to At (Engine.Advance).
	InAdvance InputKind = "advance"
	// InPosition: only the mailbox position moved (unreadable mail skipped,
	// an empty batch's last UID).
	InPosition InputKind = "position"
	// InSent: the mail server accepted notice Notice: it leaves the outbox.
	InSent InputKind = "sent"
	// InFailed: sending notice Notice failed with Error; it is tried again
	// at NextTry, or, when Permanent, moved to the failed notices.
	InFailed InputKind = "failed"
	// InAdjust: a correction's explicit adjustment (Adjust), at At.
	InAdjust InputKind = "adjust"
	// InCorrect: the correction Fix was applied by a re-run (Engine.Rerun).
	// The state after it is saved whole, so it is never re-done from the
	// state before it; in a later re-run's history its effect is the edit
	// of the inputs before it (EffectiveInputs) and, re-done, it closes
	// the claim it answered.
	InCorrect InputKind = "correct"
)

// Input is one step of the state's history, as the journal keeps it (the
// write-ahead log, DESIGN "State"): everything that changes a state is an
// Input, and Redo of a state's inputs, in order, on the state they started
// from gives the same state byte for byte, with the same entries and notices
// (invariant 1). Start-up re-does the inputs after the last snapshot; a
// correction re-runs them from an earlier point with one message changed.
//
// An Input holds the message as Apply received it (parsed, the list's copy
// decided, its arrival time set), never the raw mail: re-doing it needs no
// parser and no configuration of the mail side.
type Input struct {
	Kind InputKind `json:"kind"`
	// At: for InAdvance, the time the clock was brought to; for the
	// others, when it happened on the referee's clock (recorded only).
	At time.Time `json:"at"`
	// Msg is the message of an InMessage.
	Msg *Message `json:"msg,omitempty"`
	// IMAP is the mailbox position saved with an InMessage or InPosition.
	IMAP *Checkpoint `json:"imap,omitempty"`
	// Notice is the outgoing notice's ID, for InSent and InFailed.
	Notice string `json:"notice,omitempty"`
	// Error, Permanent and NextTry say how an InFailed send failed; Error
	// is also why an InCorrect was refused.
	Error     string    `json:"error,omitempty"`
	Permanent bool      `json:"permanent,omitempty"`
	NextTry   time.Time `json:"next_try,omitzero"`
	// Adjust is the change of an InAdjust.
	Adjust *Adjustment `json:"adjust,omitempty"`
	// Fix is the correction of an InCorrect, and Seq the journal number
	// the corrected state went on from (after the correction's entries),
	// which a re-done InCorrect sets, so that what the state records of
	// journal numbers (citations) is the same in a later re-run.
	Fix *Correction `json:"fix,omitempty"`
	Seq int64       `json:"seq,omitempty"`
	// RenumberedRulings: the correction of an InCorrect was made by a
	// build before ruling requests kept their numbers (its journaled
	// revision is not marked RulingsKept), so its corrected history
	// numbered them anew; a later re-run of the history holding it
	// numbers them so again (recordedPins). The store sets it from the
	// journal; it is not journaled with the input.
	RenumberedRulings bool `json:"-"`
	// RenumberedSeries is RenumberedRulings for the games' series
	// (Ctx.Number): the correction was made by a build before they kept
	// their numbers (its journaled revision is not marked SeriesKept).
	RenumberedSeries bool `json:"-"`
	// PlacedItems is RenumberedSeries for the matching of a message's
	// items of a series (Ctx.Number): the correction was made by a build
	// that matched them by place alone (its journaled revision is not
	// marked ItemsByText).
	PlacedItems bool `json:"-"`
	// UnreadAhead is PlacedItems for reading a message's items ahead
	// (replayAhead): the correction was made by a build that did not (its
	// journaled revision is not marked AheadRead).
	UnreadAhead bool `json:"-"`
	// Answer is the line the correction of an InCorrect added to its
	// claim's game's recent events (Revision.Event), added again when the
	// input is re-done; nil for one made by a build before the answer was
	// recorded there (its revision is not marked AnswerRecorded).
	Answer *GameEvent `json:"answer,omitempty"`
}

// Redo performs one input on the state and returns the journal entries it
// made, as the first time. A message's Channel, ListCopy and Arrived are
// taken as recorded.
func (e *Engine) Redo(s *State, in *Input) ([]Entry, error) {
	switch in.Kind {
	case InMessage:
		if in.Msg == nil {
			return nil, fmt.Errorf("redo: a message input without its message")
		}
		m := *in.Msg
		entries, err := e.Apply(s, &m)
		if err != nil {
			return entries, err
		}
		if in.IMAP != nil {
			s.SetIMAP(*in.IMAP)
		}
		return entries, nil
	case InAdvance:
		return e.Advance(s, in.At)
	case InPosition:
		if in.IMAP == nil {
			return nil, fmt.Errorf("redo: a position input without its position")
		}
		s.SetIMAP(*in.IMAP)
		return nil, nil
	case InSent:
		s.Sent(in.Notice)
		return nil, nil
	case InFailed:
		s.SendFailed(in.Notice, in.Error, in.Permanent, in.NextTry)
		return nil, nil
	case InAdjust:
		return e.adjust(s, in)
	case InCorrect:
		if in.Fix == nil {
			return nil, fmt.Errorf("redo: a correction input without its correction")
		}
		if in.Error != "" {
			return e.correctionRefused(s, in), nil
		}
		if cl := e.corrected(s, in.Fix.CoE); cl != nil && in.Answer != nil {
			s.recordAnswer(in.Answer)
		}
		s.JournalSeq = max(s.JournalSeq, in.Seq)
		return nil, nil
	}
	return nil, fmt.Errorf("redo: unknown input kind %q", in.Kind)
}

// SetIMAP records the mailbox position.
func (s *State) SetIMAP(cp Checkpoint) { s.IMAP = cp }

// Sent removes notice id from the outbox: the mail server accepted it. It
// returns the notice, or nil when it was not there. Like every change to
// the state's top level, it replaces the slice rather than writing into it,
// so an open transaction can undo it.
func (s *State) Sent(id string) *Outgoing {
	for i, o := range s.Outbox {
		if o.ID == id {
			s.Outbox = append(s.Outbox[:i:i], s.Outbox[i+1:]...)
			return o
		}
	}
	return nil
}

// SendFailed records a failed attempt to send notice id: with permanent,
// it moves to the failed notices (shown by referee check); otherwise it
// stays in its place, to be tried again at next. It returns the notice as
// it now is, or nil when it was not in the outbox.
func (s *State) SendFailed(id, msg string, permanent bool, next time.Time) *Outgoing {
	for i, o := range s.Outbox {
		if o.ID != id {
			continue
		}
		c := *o
		c.Attempts++
		c.LastError = msg
		if permanent {
			s.Outbox = append(s.Outbox[:i:i], s.Outbox[i+1:]...)
			s.Failed = append(s.Failed[:len(s.Failed):len(s.Failed)], &c)
			return &c
		}
		c.NextTry = next
		out := make([]*Outgoing, len(s.Outbox))
		copy(out, s.Outbox)
		out[i] = &c
		s.Outbox = out
		return &c
	}
	return nil
}
