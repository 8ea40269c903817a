package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"referee/contract/text"
)

// Corrections: a contestmaster's answer to a claim of error that changes the
// record re-runs the game from the earliest point it touches.
//
// A correction names one step of the history: a message read otherwise
// (FixReads), a message that performed nothing (FixVoid), a message that
// arrived at another time (FixArrived, ruling G2), or an explicit adjustment
// where no message is at fault (FixAdjust: a ledger or map change with the rule
// that allows it). EditInputs applies it to the inputs after a state; Rerun
// re-does both histories, the recorded one and the corrected one, from that
// state with the same master secret, so every draw keeps its seed and its
// label (ruling G5: never drawn anew), and compares them into a Revision.
//
// The outbox of a re-run. The recorded history's sends (InSent, InFailed)
// name notices by ID and are re-done as recorded: a notice the corrected
// history makes under an ID that was sent counts as sent, and the old text
// is what its reader has. Nothing a re-run makes is sent again: the new
// state's outbox keeps only the notices that were still waiting in the
// current state, in their re-run version, and the changed receipts go out
// once more as "Corrected: ..." with the revision (PublishRevision). A
// notice the corrected history makes that was never made before (a round's
// notice under a new ID) is listed in the revision and not sent.

// FixKind names what a correction changes.
type FixKind string

const (
	FixReads   FixKind = "reads"   // message MsgID reads Text
	FixVoid    FixKind = "void"    // message MsgID performed nothing
	FixArrived FixKind = "arrived" // message MsgID arrived at Arrived
	FixAdjust  FixKind = "adjust"  // an explicit adjustment (Adjust)
)

// Correction is the contestmaster's correction of one step of the history,
// in answer to claim of error CoE.
type Correction struct {
	CoE     int         `json:"coe" yaml:"coe"`
	Kind    FixKind     `json:"kind" yaml:"kind"`
	MsgID   string      `json:"msgid,omitempty" yaml:"msgid,omitempty"`
	Text    string      `json:"text,omitempty" yaml:"text,omitempty"`
	Arrived time.Time   `json:"arrived,omitzero" yaml:"arrived,omitempty"`
	Adjust  *Adjustment `json:"adjust,omitempty" yaml:"adjust,omitempty"`
	// Override: the contestmaster states that the correction overrides
	// the ratification of the reports it changes.
	Override bool `json:"override,omitempty" yaml:"override,omitempty"`
}

// Describe says what the correction does, for the revision.
func (f *Correction) Describe() string {
	switch f.Kind {
	case FixReads:
		return fmt.Sprintf("message %s reads `%s`", f.MsgID, strings.Join(strings.Fields(f.Text), " "))
	case FixVoid:
		return fmt.Sprintf("message %s is void", f.MsgID)
	case FixArrived:
		return fmt.Sprintf("message %s arrived at %s UTC", f.MsgID, Stamp(f.Arrived))
	case FixAdjust:
		if f.Adjust != nil {
			return f.Adjust.Describe()
		}
	}
	return string(f.Kind)
}

// at is the time a step of the history happened, by which a moved message
// or an adjustment finds its place.
func (in *Input) at() time.Time {
	if in.Kind == InMessage && in.Msg != nil {
		return in.Msg.Arrived
	}
	return in.At
}

// EditInputs applies a correction to the inputs after a state: it returns
// the corrected inputs and the time of the earliest step the correction
// touches. The inputs given are not changed. A message moved to another
// arrival time leaves its mailbox position where it was (an InPosition) and
// takes its place among the inputs by time, after those of the same time.
func EditInputs(inputs []Input, f *Correction) ([]Input, time.Time, error) {
	if f.Kind == FixAdjust {
		if f.Adjust == nil {
			return nil, time.Time{}, fmt.Errorf("correction: an adjustment without its change")
		}
		in := Input{Kind: InAdjust, At: f.Adjust.At.UTC(), Adjust: f.Adjust}
		return insertByTime(slices.Clone(inputs), in), in.At, nil
	}
	k := -1
	for i := range inputs {
		if inputs[i].Kind == InMessage && inputs[i].Msg != nil && inputs[i].Msg.ID == f.MsgID {
			k = i
			break
		}
	}
	if k < 0 {
		return nil, time.Time{}, fmt.Errorf("correction: no message %s in the record after the starting state", f.MsgID)
	}
	out := slices.Clone(inputs)
	m := *out[k].Msg
	orig := m.Arrived
	switch f.Kind {
	case FixReads:
		m.Text = f.Text
		m.TooLarge = false
		m.Unreadable = nil
	case FixVoid:
		// Still remembered as seen, so that a copy of it performs nothing
		// either; an ignored message gets no receipt.
		m.Channel = ChanIgnore
		m.IgnoreReason = fmt.Sprintf("void by the correction of CoE #%d", f.CoE)
	case FixArrived:
		if f.Arrived.IsZero() {
			return nil, time.Time{}, fmt.Errorf("correction: an arrival time is missing")
		}
		m.Arrived = f.Arrived.UTC()
		moved := Input{Kind: InMessage, At: m.Arrived, Msg: &m}
		if out[k].IMAP != nil {
			out[k] = Input{Kind: InPosition, At: out[k].At, IMAP: out[k].IMAP}
		} else {
			out = slices.Delete(out, k, k+1)
		}
		if m.Arrived.Before(orig) {
			orig = m.Arrived
		}
		return insertByTime(out, moved), orig, nil
	default:
		return nil, time.Time{}, fmt.Errorf("correction: unknown kind %q", f.Kind)
	}
	out[k].Msg = &m
	return out, orig, nil
}

// EffectiveInputs is the history inputs stand for once the corrections
// among them are applied: each InCorrect edits the inputs before it (from
// the first given), and stays, to close its claim when re-done.
func EffectiveInputs(inputs []Input) ([]Input, error) {
	out, _, err := CorrectedPoints(inputs)
	return out, err
}

// CorrectedPoints is EffectiveInputs, and for each correction among the
// inputs (by its index in inputs) the earliest point of the history it
// touched. A re-run that includes a correction must start before that point:
// a state saved between it and the correction shows the history as it was
// before the correction.
func CorrectedPoints(inputs []Input) ([]Input, map[int]time.Time, error) {
	out := make([]Input, 0, len(inputs))
	points := map[int]time.Time{}
	for i, in := range inputs {
		if in.Kind == InCorrect && in.Fix != nil && in.Error == "" {
			edited, from, err := EditInputs(out, in.Fix)
			if err != nil {
				return nil, nil, fmt.Errorf("the earlier correction of CoE #%d: %w", in.Fix.CoE, err)
			}
			out = edited
			points[i] = from
		}
		out = append(out, in)
	}
	return out, points, nil
}

// insertByTime inserts in after the last input of its time or earlier.
func insertByTime(inputs []Input, in Input) []Input {
	t := in.at()
	i := len(inputs)
	for i > 0 && inputs[i-1].at().After(t) {
		i--
	}
	return slices.Insert(inputs, i, in)
}

// Rerun is what a re-run needs: the state to start from, every input after
// it up to the current state, that state, and the correction.
type Rerun struct {
	Base   *State  // the state before Inputs (a snapshot); not changed
	Inputs []Input // every input after Base, in order
	// Current is the state Inputs led to (not changed); nil when a
	// revision is checked from the record alone (referee verify).
	Current *State
	Fix     Correction
	// Ratified reports whether a notice has self-ratified: a correction
	// that changes it is refused unless it overrides ratification. Nil:
	// nothing has.
	Ratified func(noticeID string) bool
	// Journaled: the correction was made before and is made again (a
	// start whose state file does not include it): the checks that refuse
	// a new correction (renumbered claims) are not made again.
	Journaled bool
	// MailboxHashes: the revision's hashes count the mailbox position, as
	// those written before HashesOfTheGames did (referee verify of such a
	// revision).
	MailboxHashes bool
	// RenumberedRulings: the corrected history numbers its ruling
	// requests anew, as those of revisions written before RulingsKept did
	// (referee verify of such a revision).
	RenumberedRulings bool
	// RenumberedSeries: the corrected history numbers the games' series
	// anew (Ctx.Number), as those of revisions written before SeriesKept
	// did (referee verify of such a revision).
	RenumberedSeries bool
	// PlacedItems: the corrected history matches a message's items of a
	// series to the recorded history's by their place alone, not first by
	// their text (Ctx.Number), as those of revisions written before
	// ItemsByText did (referee verify of such a revision).
	PlacedItems bool
	// UnreadAhead: the corrected history numbers a message's items
	// without reading them ahead (replayAhead), as those of revisions
	// written before AheadRead did (referee verify of such a revision).
	UnreadAhead bool
	// LoneLines: the revision compares a report's lines one by one, as
	// those written before ReportEntries did (referee verify of such a
	// revision).
	LoneLines bool
	// UnrecordedAnswer: the corrected state does not record the answer to
	// the claim among its game's recent events, as those of revisions
	// written before AnswerRecorded did (referee verify of such a
	// revision).
	UnrecordedAnswer bool
}

// RulingsKept marks a revision whose corrected history kept the numbers
// of the recorded history's ruling requests (Revision.Rulings).
const RulingsKept = "kept"

// history is what one run of the inputs made.
type history struct {
	s       *State
	entries []Entry
	// notices are every notice the run made, by ID, and their order.
	notices map[string]*Notice
	order   []string
	// public says whether a message's details are public (its channel);
	// from is each message's sender's address.
	public map[string]bool
	from   map[string]string
	// starts[i] is where the entries of input i begin in entries.
	starts []int
	// asked are the numbers of the ruling requests the run asked, by
	// rulingKey, in the order asked (a key may be asked again once
	// answered).
	asked map[string][]int
	// numbered are the numbers the run gave the games' series, by
	// seriesItem, in the order given, with their texts (Ctx.Number);
	// pins, the numbers it kept.
	numbered map[string][]numbered
	pins     *claimPins
}

// replay re-does inputs on a copy of base, collecting the notices made.
// pins, when not nil, are the numbers the claims keep (claimNumbers).
func (e *Engine) replay(base *State, inputs []Input, pins *claimPins) (*history, error) {
	h := &history{s: Snapshot(base), notices: map[string]*Notice{}, public: map[string]bool{}, from: map[string]string{}}
	if pins == nil {
		pins = &claimPins{}
	}
	h.asked, h.numbered, h.pins = map[string][]int{}, map[string][]numbered{}, pins
	h.s.aux().claims, h.s.aux().asked, h.s.aux().numbered = pins, h.asked, h.numbered
	defer func() {
		h.s.aux().claims, h.s.aux().asked, h.s.aux().numbered = nil, nil, nil
		h.s.NextClaim = max(h.s.NextClaim, pins.last)
		h.s.NextRuling = max(h.s.NextRuling, pins.lastRuling)
		e.keepNumbers(h.s, pins)
	}()
	for i := range inputs {
		in := &inputs[i]
		before := map[string]bool{}
		for _, o := range h.s.Outbox {
			before[o.ID] = true
		}
		ent, err := e.Redo(h.s, in)
		if err != nil {
			return nil, fmt.Errorf("re-run input %d (%s at %s): %w", i+1, in.Kind, Stamp(in.at()), err)
		}
		h.starts = append(h.starts, len(h.entries))
		h.entries = append(h.entries, ent...)
		if in.Kind == InMessage {
			h.public[in.Msg.ID] = in.Msg.Channel.IsPublic()
			h.from[in.Msg.ID] = in.Msg.From
		}
		for _, o := range h.s.Outbox {
			if !before[o.ID] {
				n := o.Notice
				if _, dup := h.notices[n.ID]; !dup {
					h.order = append(h.order, n.ID)
				}
				h.notices[n.ID] = &n
			}
		}
	}
	return h, nil
}

// claimPins are the numbers of the claims of the recorded history, which
// the same claims keep in the corrected one: claims are answered by number
// ("I deny CoE #3", "I correct CoE #3") and their claimants were given
// theirs, so a claim no longer made (its claimant never joined) leaves its
// number unused, and an answer to it answers nothing, rather than every
// later claim taking the number before. A claim only the corrected history
// makes takes a number after the recorded history's last.
//
// Ruling requests keep theirs alike ("I rule on #N"; a claim asks one), and
// so do the games' series (Ctx.Number).
type claimPins struct {
	ids  map[string]int // by claimKey
	last int            // the recorded history's last number
	// rulings are the ruling requests' numbers by rulingKey, in the
	// order asked; lastRuling the recorded history's last.
	rulings    map[string][]int
	lastRuling int
	// numbers are the numbers of the games' series by seriesItem, in the
	// order given, with their texts; lastNumber the recorded history's
	// last of each series, by seriesKey.
	numbers    map[string][]numbered
	lastNumber map[string]int
	// byPlace: an item keeps the number of the recorded one in the same
	// place alone, not first that of the one with the same text, as a
	// correction made before ItemsByText did (Input.PlacedItems,
	// Rerun.PlacedItems).
	byPlace bool
	// unread: the history is replayed without reading ahead, as a
	// correction made before AheadRead was (Input.UnreadAhead,
	// Rerun.UnreadAhead).
	unread bool
	// ahead are the texts of the items each message makes in the
	// corrected history, by seriesItem (replayAhead); nil before it is
	// known.
	ahead map[string][]string
}

// renumberRulings drops the ruling requests' numbers from p, so that a
// history replayed with p numbers its requests anew, as a correction made
// before they were kept did (Input.RenumberedRulings, Rerun.RenumberedRulings).
func (p *claimPins) renumberRulings() { p.rulings, p.lastRuling = nil, 0 }

// renumberSeries drops the numbers of the games' series from p, so that a
// history replayed with p numbers them anew, as a correction made before
// they were kept did (Input.RenumberedSeries, Rerun.RenumberedSeries).
func (p *claimPins) renumberSeries() { p.numbers, p.lastNumber = nil, nil }

// rulingKey names a ruling request across histories: its game and key.
func rulingKey(game, key string) string {
	return game + "\x00" + key
}

// claimKey names a claim across histories: its message and its report (a
// correction may give the message other words).
func claimKey(msgID, report string) string {
	return msgID + "\x00" + report
}

// claimNumbers are the numbers of the claims h made, from its entries.
func claimNumbers(h *history) *claimPins {
	p := &claimPins{ids: map[string]int{}, last: h.s.NextClaim, rulings: h.asked, lastRuling: h.s.NextRuling,
		numbers: h.numbered, lastNumber: lastNumbers(h.numbered, h.pins.lastNumber)}
	for _, en := range h.entries {
		d, _ := en.Detail["claim"].(map[string]any)
		id, ok := d["id"].(int)
		_, made := d["what"].(string) // a denial's has none
		if !ok || !made {
			continue
		}
		report, _ := d["report"].(string)
		p.ids[claimKey(en.MsgID, report)] = id
	}
	return p
}

// recordedPins are the claim numbers the latest correction among inputs
// kept (claimPins), which a replay of the history they stand for
// (EffectiveInputs) keeps again: the numbers of its own recorded history,
// itself the inputs before it with the corrections before it applied; its
// ruling requests' and the games' series' numbers too, unless it
// renumbered them (Input.RenumberedRulings, Input.RenumberedSeries). Nil without a correction among them.
func (e *Engine) recordedPins(base *State, inputs []Input) (*claimPins, error) {
	last := -1
	for i := len(inputs) - 1; i >= 0; i-- {
		if in := &inputs[i]; in.Kind == InCorrect && in.Fix != nil && in.Error == "" {
			last = i
			break
		}
	}
	if last < 0 {
		return nil, nil
	}
	before := inputs[:last]
	pins, err := e.recordedPins(base, before)
	if err != nil {
		return nil, err
	}
	effective, err := EffectiveInputs(before)
	if err != nil {
		return nil, err
	}
	h, err := e.replayAhead(base, effective, pins)
	if err != nil {
		return nil, err
	}
	kept := claimNumbers(h)
	if inputs[last].RenumberedRulings {
		// Its corrected history numbered the ruling requests anew, as
		// Rerun does for it (Rerun.RenumberedRulings).
		kept.renumberRulings()
	}
	if inputs[last].RenumberedSeries {
		// Its corrected history numbered the games' series anew
		// (Rerun.RenumberedSeries).
		kept.renumberSeries()
	}
	// Its corrected history matched the series' items by place alone
	// (Rerun.PlacedItems).
	kept.byPlace = inputs[last].PlacedItems
	kept.unread = inputs[last].UnreadAhead
	return kept, nil
}

// RefusedError is a correction refused: it would change what a ratified
// report reported and does not override ratification.
type RefusedError struct {
	CoE     int
	Notices []string // the ratified notices it would change, "ID (Subject)"
}

func (r *RefusedError) Error() string {
	return fmt.Sprintf("the correction of CoE #%d would change what a ratified report reported (%s); to make it anyway, send it again ending with \"overriding ratification\"", r.CoE, joinAnd(r.Notices))
}

// Rerun re-runs the history with the correction and returns the new state
// and the revision. The recorded history must lead from Base to Current
// (else the record is broken and nothing is corrected). The new state has the
// current state's outbox and failed notices (see the package comment on the
// outbox of a re-run) and its journal number moved past the re-run's entries,
// which Revision.Entries holds numbered after Current's. The revision notice
// and the corrected receipts are not queued yet: PublishRevision does that.
func (e *Engine) Rerun(r *Rerun) (*State, *Revision, error) {
	recorded, err := EffectiveInputs(r.Inputs)
	if err != nil {
		return nil, nil, err
	}
	edited, from, err := EditInputs(recorded, &r.Fix)
	if err != nil {
		return nil, nil, err
	}
	// A message read otherwise or void is among the inputs after Base by
	// construction; a new arrival time or an adjustment must not reach
	// before Base, where nothing can enter any more (G2).
	if (r.Fix.Kind == FixArrived || r.Fix.Kind == FixAdjust) && from.Before(r.Base.Clock) {
		return nil, nil, fmt.Errorf("correction: it touches %s UTC, before the starting state's clock %s UTC; start from an earlier state", Stamp(from), Stamp(r.Base.Clock))
	}
	pins, err := e.recordedPins(r.Base, r.Inputs)
	if err != nil {
		return nil, nil, fmt.Errorf("the recorded history: %w", err)
	}
	old, err := e.replayAhead(r.Base, recorded, pins)
	if err != nil {
		return nil, nil, fmt.Errorf("the recorded history: %w", err)
	}
	current := r.Current
	if current == nil {
		current = old.s // a check of a revision: the record is the history
	} else if d := encodedDiff(deliveryless(old.s), deliveryless(current)); d != "" {
		return nil, nil, fmt.Errorf("the recorded history does not lead to the current state: %s", d)
	}
	kept := claimNumbers(old)
	if r.RenumberedRulings {
		kept.renumberRulings()
	}
	if r.RenumberedSeries {
		kept.renumberSeries()
	}
	kept.byPlace, kept.unread = r.PlacedItems, r.UnreadAhead
	cur, err := e.replayAhead(r.Base, edited, kept)
	if err != nil {
		return nil, nil, fmt.Errorf("the corrected history: %w", err)
	}
	s := cur.s
	if r.Current != nil && !r.Journaled {
		if err := renumbered(current, s); err != nil {
			return nil, nil, err
		}
	}
	cl := e.corrected(s, r.Fix.CoE) // the claim is answered, as the InCorrect re-done
	// The outbox: what was waiting, in its re-run version. A notice that
	// neither history made (an earlier correction's revision and corrected
	// receipts, which PublishRevision queued outside the record) is kept as
	// it is.
	made := map[string]*Outgoing{}
	for _, o := range s.Outbox {
		made[o.ID] = o
	}
	s.Outbox = nil
	for _, o := range current.Outbox {
		if n, ok := made[o.ID]; ok {
			c := *o
			c.Notice = n.Notice
			s.Outbox = append(s.Outbox, &c)
		} else if _, recorded := old.notices[o.ID]; !recorded && cur.notices[o.ID] == nil {
			c := *o
			s.Outbox = append(s.Outbox, &c)
		}
	}
	s.Failed = slices.Clone(current.Failed)
	// The journal: the correction's entry, then the re-run's from the
	// first input at or after the point the correction touches. Those
	// before it are the recorded history's again, and how many there are
	// hangs on the snapshot the re-run started from, which a replay of
	// the same mail may not have kept: counted, they would number every
	// later journal line, and so every later state hash, otherwise.
	seq := current.JournalSeq
	seq++
	fixEntry := Entry{Seq: seq, Time: s.Clock, Verb: "correction", Outcome: "applied",
		Detail: map[string]any{"coe": r.Fix.CoE, "correction": r.Fix.Describe(), "from": from}}
	entries := []Entry{fixEntry}
	first := len(cur.entries)
	for i := range edited {
		if !edited[i].at().Before(from) {
			first = cur.starts[i]
			break
		}
	}
	for _, en := range cur.entries[first:] {
		seq++
		en.Seq = seq
		entries = append(entries, en)
	}
	s.JournalSeq = seq
	s.JournalInputs = current.JournalInputs

	rev, err := e.compare(old, cur, r, from)
	if err != nil {
		return nil, nil, err
	}
	rev.Entries = entries
	if cl != nil && !r.UnrecordedAnswer {
		// After the comparison: the answer is no change the revision
		// lists.
		rev.Event, rev.Answer = answerEvent(cl, rev, s.Clock), AnswerRecorded
		s.recordAnswer(rev.Event)
	}
	if r.MailboxHashes {
		rev.OldHash, rev.NewHash = mailboxDigest(current), mailboxDigest(s)
	} else {
		rev.OldHash, rev.NewHash, rev.Hashes = StateDigest(current), StateDigest(s), HashesOfTheGames
	}
	if !r.RenumberedRulings {
		rev.Rulings = RulingsKept
	}
	if !r.RenumberedSeries {
		rev.Series = SeriesKept
	}
	if !r.PlacedItems {
		rev.Items = ItemsByText
	}
	if !r.UnreadAhead {
		rev.Ahead = AheadRead
	}
	if !r.LoneLines {
		rev.Lines = ReportEntries
	}
	return s, rev, nil
}

// encodedDiff names the first line where two states' encodings differ, ""
// when they are the same (a decoded state and one made in memory differ in
// empty maps, not in their encoding).
func encodedDiff(a, b *State) string {
	ea, err := Encode(a)
	if err != nil {
		return err.Error()
	}
	eb, err := Encode(b)
	if err != nil {
		return err.Error()
	}
	la, lb := strings.Split(string(ea), "\n"), strings.Split(string(eb), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d of the encoded state differs", i+1) // never the values: a line can hold a sealed bid
		}
	}
	if len(la) != len(lb) {
		return fmt.Sprintf("%d lines against %d", len(la), len(lb))
	}
	return ""
}

// renumbered refuses a corrected record in which a claim of error open now
// has another number, or a number names another claim: claims are answered
// by number ("I deny CoE #3", "I correct CoE #3", and the correction's own
// number), and their claimants were given theirs. A claim that is no longer
// made at all (its claimant never joined in the corrected record) is not
// renumbered.
func renumbered(current, s *State) error {
	type key struct{ msgid, report string }
	now := map[key]*Claim{}
	byID := map[int]*Claim{}
	for _, c := range current.Claims {
		now[key{c.MsgID, c.Report}] = c
		byID[c.ID] = c
	}
	var moved []string
	for _, c := range s.Claims {
		if o := now[key{c.MsgID, c.Report}]; o != nil && o.ID != c.ID {
			moved = append(moved, fmt.Sprintf("%s's claim on %s, #%d, would be #%d", o.Claimant, o.Report, o.ID, c.ID))
		} else if o == nil && byID[c.ID] != nil {
			o := byID[c.ID]
			moved = append(moved, fmt.Sprintf("#%d, %s's claim on %s, would name another claim", o.ID, o.Claimant, o.Report))
		}
	}
	if len(moved) > 0 {
		return fmt.Errorf("correction: in the corrected record the open Claims of Error would be numbered otherwise (%s), and claims are answered by number; answer those claims first", strings.Join(moved, "; "))
	}
	return nil
}

// deliveryless is a copy of the state without what sending changes (the
// outbox, the failed notices) and without its journal number: the state of
// the games a history leads to.
func deliveryless(s *State) *State {
	c := *s
	c.Outbox, c.Failed, c.JournalSeq, c.JournalInputs, c.ax = nil, nil, 0, 0, nil
	c.Receipted = nil
	// The ended intents only word refusals (State.Ended): a state written
	// before they were kept holds none, and a replay of the same mail from
	// there makes some.
	c.Ended = nil
	return &c
}

// StateDigest is the SHA-256 of the encoded state without its outbox, failed
// notices, journal number and mailbox position, hex: the state of the games,
// which a replay of the same mail reproduces (it reads another folder, or an
// archive, and so keeps another position, or none).
func StateDigest(s *State) string {
	c := deliveryless(s)
	c.IMAP = Checkpoint{}
	return digest(c)
}

// HashesOfTheGames marks a revision whose hashes are StateDigest's
// (Revision.Hashes); those of a revision without it also counted the
// mailbox position (mailboxDigest).
const HashesOfTheGames = "games"

// mailboxDigest is StateDigest with the mailbox position counted, as the
// revisions written before HashesOfTheGames have it: referee verify
// re-computes those so.
func mailboxDigest(s *State) string { return digest(deliveryless(s)) }

// RevisionDigest is the hash of s as a revision marked hashes
// (Revision.Hashes; "hashes" in its journaled form) gives it:
// StateDigest's for HashesOfTheGames, else with the mailbox position
// counted.
func RevisionDigest(s *State, hashes string) string {
	if hashes == HashesOfTheGames {
		return StateDigest(s)
	}
	return mailboxDigest(s)
}

func digest(s *State) string {
	b, err := Encode(s)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// compare builds the revision of two histories.
func (e *Engine) compare(old, cur *history, r *Rerun, from time.Time) (*Revision, error) {
	rev := &Revision{CoE: r.Fix.CoE, Correction: r.Fix.Describe(), Fix: r.Fix, From: from,
		private: r.Fix.Kind == FixReads && !old.public[r.Fix.MsgID]}
	rev.Outcomes = outcomeChanges(old, cur)
	rev.Draws = e.drawChanges(cur.s, old.entries, cur.entries)
	var err error
	rev.State, err = e.stateChanges(old.s, cur.s, r.LoneLines)
	if err != nil {
		return nil, err
	}
	ids := slices.Clone(old.order)
	for _, id := range cur.order {
		if _, ok := old.notices[id]; !ok {
			ids = append(ids, id)
		}
	}
	var ratified []string
	for _, id := range ids {
		o, n := old.notices[id], cur.notices[id]
		if o != nil && n != nil && o.Subject == n.Subject && reported(o.Body) == reported(n.Body) && slices.Equal(o.To, n.To) {
			continue
		}
		ch := NoticeChange{ID: id, Old: o, New: n}
		if o != nil && r.Ratified != nil && r.Ratified(id) {
			ch.Ratified = true
			ratified = append(ratified, fmt.Sprintf("%s (%s)", id, o.Subject))
		}
		if (o != nil && o.Kind == "receipt") || (o == nil && n.Kind == "receipt") {
			rev.Receipts = append(rev.Receipts, ch)
		} else {
			rev.Notices = append(rev.Notices, ch)
		}
	}
	if len(ratified) > 0 {
		if !r.Fix.Override {
			return nil, &RefusedError{CoE: r.Fix.CoE, Notices: ratified}
		}
		rev.Overrides = ratified
	}
	return rev, nil
}

// reported is what a notice reports: its body without its citation (the
// journal lines it covers and the state's hash change with any change of the
// record before it; the revision gives the new hashes).
func reported(body string) string {
	kept, cited, ok := strings.Cut(body, "\n"+text.Heading("Citation"))
	if !ok {
		return body
	}
	if _, signature, ok := strings.Cut(cited, "\n-- \n"); ok {
		return kept + "\n-- \n" + signature
	}
	return kept
}

// outcomeChanges compares the journal entries of two histories by what they
// are about (the time, the message, the game, the verb, the player), in the
// order of the corrected history and then the entries it no longer has.
func outcomeChanges(old, cur *history) []OutcomeChange {
	type keyed struct {
		key string
		o   Outcome
	}
	index := func(h *history) ([]keyed, map[string]Outcome) {
		var list []keyed
		m := map[string]Outcome{}
		count := map[string]int{}
		for _, en := range h.entries {
			if en.Verb == "randomness" {
				continue
			}
			o := outcomeOf(en, h.public[en.MsgID], h.from[en.MsgID])
			k := fmt.Sprintf("%s|%s|%s|%s|%s", en.Time.UTC().Format(time.RFC3339Nano), en.MsgID, en.Game, en.Verb, en.Player)
			count[k]++
			k = fmt.Sprintf("%s|%d", k, count[k])
			list = append(list, keyed{k, o})
			m[k] = o
		}
		return list, m
	}
	ol, om := index(old)
	cl, cm := index(cur)
	var out []OutcomeChange
	for _, c := range cl {
		o, had := om[c.key]
		if had && o.equal(c.o) {
			continue
		}
		ch := OutcomeChange{New: ptr(c.o)}
		if had {
			ch.Old = ptr(o)
		}
		out = append(out, ch)
	}
	for _, o := range ol {
		if _, ok := cm[o.key]; !ok {
			out = append(out, OutcomeChange{Old: ptr(o.o)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at().Before(out[j].at()) })
	return out
}

func ptr[T any](v T) *T { return &v }

// outcomeOf is what a revision may say of an entry: a private message's
// reason and changes stay with its sender (they may hold sealed values).
// from is the message's sender's address, which names a sender who is not
// a player (as the revision's list of notices names a private receipt's).
func outcomeOf(en Entry, public bool, from string) Outcome {
	o := Outcome{Time: en.Time.UTC(), MsgID: en.MsgID, Game: en.Game, Verb: en.Verb, Player: en.Player, Outcome: en.Outcome}
	if en.MsgID != "" && en.Verb == "" {
		// A message's outcome, not an action's: a sentence not understood
		// (journaled with its line), or the whole message (unreadable,
		// too large, through the discussion list, held).
		o.what = "message"
		if _, ok := en.Detail["line"]; ok {
			o.what = "not understood"
		}
		if en.Player == "" {
			o.sender = from
		}
	}
	if public || en.MsgID == "" {
		o.line, _ = en.Detail["line"].(string)
		o.Reason = en.Reason
		if ch, ok := en.Detail["changes"].([]string); ok {
			o.Changes = slices.Clone(ch)
		}
	}
	return o
}

// drawChanges lists the draws one history made and the other did not, or
// made with another range. The same label under the same seed gives the same
// value: a draw changes only by being made or not, or over another range. A
// draw of a week whose seed is not revealed yet is listed without its value.
func (e *Engine) drawChanges(s *State, old, cur []Entry) []DrawChange {
	collect := func(entries []Entry) (map[string]Draw, []string) {
		m := map[string]Draw{}
		var order []string
		for _, en := range entries {
			ds, _ := en.Detail["draws"].([]Draw)
			for _, d := range ds {
				if _, ok := m[d.Label]; !ok {
					order = append(order, d.Label)
				}
				m[d.Label] = d
			}
		}
		return m, order
	}
	om, oo := collect(old)
	cm, co := collect(cur)
	var out []DrawChange
	add := func(label string) {
		o, hadO := om[label]
		n, hadN := cm[label]
		if hadO && hadN && o == n {
			return
		}
		dc := DrawChange{Label: label, Made: hadN, Before: hadO}
		revealed := s.RevealedSeed(weekOfLabel(label)) != ""
		if hadO {
			dc.OldN = o.N
			if revealed {
				dc.OldValue = ptr(o.Value)
			}
		}
		if hadN {
			dc.NewN = n.N
			if revealed {
				dc.NewValue = ptr(n.Value)
			}
		}
		dc.Sealed = !revealed
		out = append(out, dc)
	}
	for _, l := range co {
		add(l)
	}
	for _, l := range oo {
		if _, ok := cm[l]; !ok {
			add(l)
		}
	}
	return out
}

// weekOfLabel is the week of a draw's label, "<game>/<week>/<purpose>".
func weekOfLabel(label string) string {
	_, rest, _ := strings.Cut(label, "/")
	week, _, _ := strings.Cut(rest, "/")
	return week
}
