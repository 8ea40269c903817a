package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"

	"referee/contract"
)

// The journal is the write-ahead log of the state (DESIGN "State"). Every
// change to the state is an input (contract.Input) written as one line,
// followed by the lines of the entries it made:
//
//	{"in":7,"base":41,"entries":2,"input":{"kind":"message",...}}
//	{"seq":42,...,"base":41}
//	{"seq":43,...,"base":41}
//
// "in" numbers the inputs (1, 2, ...), "entries" is how many entry lines
// follow, "base" is, as on an entry line, the journal_seq of the state the
// save that wrote the line started from. An input with "more" is followed by
// another input of the same save (a replay's checkpoint saves many inputs at
// once); the last input of a save has none. An entry line is byte for byte
// what it was before inputs were journaled: readers of entries skip the
// input lines (they have no "seq").
//
// The state file is a snapshot: it records the last entry (journal_seq) and
// the last input (journal_inputs) it includes. Load reads it and re-does
// every whole save of the journal after it with Engine.Redo, checking that
// each re-done entry is the journaled one byte for byte.

// Step is one input and the entries it made. An Input of nil stands for
// entries made by no input (the start of a fresh state), which only a whole
// save of the state (Commit) writes.
type Step struct {
	Input   *contract.Input
	Entries []contract.Entry
	// N is the input's number, and Line its line in the journal (1-based),
	// when read from a journal (History).
	N    int64
	Line int
}

// Position is a point of the journal: the last entry (Seq) and the last
// input (Inputs) a state includes.
type Position struct{ Seq, Inputs int64 }

// At is the position of the journal a state includes.
func At(s *contract.State) Position {
	if s == nil {
		return Position{}
	}
	return Position{Seq: s.JournalSeq, Inputs: s.JournalInputs}
}

// inputRecord is an input's journal line.
type inputRecord struct {
	In      int64           `json:"in"`
	Base    int64           `json:"base"`
	Entries int             `json:"entries"`
	More    bool            `json:"more,omitempty"`
	Input   *contract.Input `json:"input"`
}

// saveSize is about the size of the lines of one save of steps, a little
// more for messages as players write them, so that a buffer grown to it
// holds them: an input's line is 100-450 bytes and its message's text, an
// entry's about 280.
func saveSize(steps []Step) int {
	n := 0
	for _, st := range steps {
		n += 512 + len(st.Entries)*320
		if st.Input != nil && st.Input.Msg != nil {
			n += len(st.Input.Msg.Text)
		}
	}
	return n
}

// encodeSave writes the lines of one save of steps, made on s (after them),
// to w: the inputs are numbered after s.JournalInputs-count, the entries'
// base is the seq before the first of them. It returns the number of
// inputs.
func encodeSave(w *chunkWriter, s *contract.State, steps []Step) (int64, error) {
	return encodeSaveAt(w, At(s), steps)
}

// encodeSaveAt is encodeSave of a state at at: its journal_seq after the
// steps, its journal_inputs before them.
func encodeSaveAt(w *chunkWriter, at Position, steps []Step) (int64, error) {
	var nent, nin int64
	for _, st := range steps {
		nent += int64(len(st.Entries))
		if st.Input != nil {
			nin++
		}
	}
	base := at.Seq - nent
	n := at.Inputs
	// Each line as json.Encoder writes it (jsonline.go), and a newline,
	// written where w gathers its lines.
	enc := json.NewEncoder(w)
	left := nin // inputs not yet written: every one but the last has "more"
	for _, st := range steps {
		if st.Input != nil {
			n++
			left--
			r := inputRecord{In: n, Base: base, Entries: len(st.Entries), More: left > 0, Input: st.Input}
			mark := len(w.b)
			var ok bool
			if w.b, ok = appendInputLine(w.b, r); ok {
				w.written()
			} else if err := w.encode(mark, enc, r); err != nil {
				return 0, fmt.Errorf("journal input %d: %w", n, err)
			}
		}
		for _, e := range st.Entries {
			mark := len(w.b)
			var ok bool
			if w.b, ok = appendEntryLine(w.b, record{e, base}); ok {
				w.written()
			} else if err := w.encode(mark, enc, record{e, base}); err != nil {
				return 0, fmt.Errorf("journal entry %d: %w", e.Seq, err)
			}
		}
	}
	return nin, nil
}

// Log journals one save of steps, already performed on s, and numbers
// their inputs in s (journal_inputs). With sync, the lines are synced to
// disk before Log returns (a message, an advance: the save a receipt or an
// IMAP flag waits for); without, they are written only, which a killed
// process does not undo, and the next synced save or snapshot makes them
// durable (a send accepted: losing it to a power cut sends the mail again,
// with the same Message-ID). On an error nothing of the save stays in the
// journal and s is as before Log.
func (j *Journal) Log(s *contract.State, steps []Step, sync bool) error {
	nin, err := j.LogAt(At(s), steps, sync)
	if err == nil {
		s.JournalInputs += nin
	}
	return err
}

// LogAt is Log of a save made on a state at at (its journal_seq after the
// steps, its journal_inputs before them) which it does not touch: it
// returns the number of inputs it journaled, which the caller adds to the
// state's journal_inputs. A replay hands its saves to a goroutine of its
// own with it, and applies the next messages meanwhile.
func (j *Journal) LogAt(at Position, steps []Step, sync bool) (int64, error) {
	if len(steps) == 0 {
		return 0, nil
	}
	if err := j.refusing(); err != nil {
		return 0, err
	}
	// A save is written in one piece, unless it is longer than logChunk
	// (a replay's saves are megabytes, which a buffer of the whole save
	// would allocate, clear and grow each time): then in pieces of
	// logChunk or a line more.
	w := &chunkWriter{f: j.f, b: make([]byte, 0, min(saveSize(steps), logChunk)+lineSlack)}
	base := j.size
	w.after = func(n int64) error { return j.wroteTo(base + n) }
	nin, err := encodeSaveAt(w, at, steps)
	if err == nil {
		err = w.flush()
	}
	if err != nil {
		j.cut(j.size)
		if w.err != nil {
			return 0, fmt.Errorf("append journal: %w", w.err)
		}
		return 0, err
	}
	if sync {
		if err := syncLog(j.f); err != nil {
			// A failed sync stops the journal (syncFailed): the lines
			// written before without a sync may be lost too, and the
			// next sync need not say so.
			j.cut(j.size)
			return 0, j.syncFailed(err)
		}
		j.dirty = false
	} else {
		j.dirty = true
	}
	j.size += w.n
	return nin, nil
}

// syncLog syncs the journal's file for the journal's own saves and syncs
// (a save's, Sync, a PendingSave's, a whole save's): a test makes it fail.
var syncLog = (*os.File).Sync

// logChunk is the size past which Log writes a save's lines in pieces.
const logChunk = 256 << 10

// lineSlack is the room a save's buffer has past saveSize or logChunk,
// so that the line which passes logChunk, or a save a little longer than
// saveSize says, does not grow it.
const lineSlack = 4 << 10

// chunkWriter gathers lines in b and writes them to f once they pass
// logChunk (and at flush), counting what it wrote and keeping the first
// error, which every later Write and flush return; without f, it gathers
// them all. A line is appended to b where it is made (encodeSave), then
// written says so.
type chunkWriter struct {
	f   io.Writer
	b   []byte
	n   int64
	err error
	// after, when set, is told after each write how much was written
	// in all; its error is the writer's.
	after func(n int64) error
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	w.b = append(w.b, p...)
	w.written()
	return len(p), nil
}

// encode takes b back to mark, where a line that could not be written
// directly began, and writes v there by enc (which writes to w).
func (w *chunkWriter) encode(mark int, enc *json.Encoder, v any) error {
	w.b = w.b[:mark]
	return enc.Encode(v)
}

// written writes the lines gathered once they pass logChunk.
func (w *chunkWriter) written() {
	if len(w.b) >= logChunk && w.f != nil {
		w.flush() // a failure is kept: the next Write or the last flush says it
	}
}

func (w *chunkWriter) flush() error {
	if w.err != nil {
		w.b = w.b[:0]
		return w.err
	}
	n, err := w.f.Write(w.b)
	w.n += int64(n)
	if err == nil && w.after != nil {
		err = w.after(w.n)
	}
	w.err = err
	w.b = w.b[:0]
	return err
}

// PendingSave is one save journaled by LogPending and not yet synced.
type PendingSave struct {
	j    *Journal
	from int64 // the journal's end before its lines
}

// LogPending journals one save of steps, already performed on s, as Log
// does without a sync, and returns it to be synced (Sync) or taken back
// (Cut): so the caller can let go of what guards the journal while the
// disk syncs, and other saves (a send accepted: Log without a sync) can be
// written after it meanwhile.
func (j *Journal) LogPending(s *contract.State, steps []Step) (*PendingSave, error) {
	from := j.size
	if err := j.Log(s, steps, false); err != nil {
		return nil, err
	}
	return &PendingSave{j: j, from: from}, nil
}

// Sync syncs the journal to disk: the save's lines and every line written
// before them (and any written since). It touches nothing of the Journal's
// own fields but its failure, which is atomic, so it may run beside the
// journal's other methods. A failed sync stops the journal (syncFailed),
// and a failure of another sync of the journal (a snapshot's) before this
// one returns is this one's too.
func (p *PendingSave) Sync() error {
	if err := syncLog(p.j.f); err != nil {
		return p.j.syncFailed(err)
	}
	// A sync of the file that failed since the save's lines were written
	// (a background snapshot's) is this save's failure too: Linux reports
	// a failed write-back to one fsync of the file alone, so this one's
	// success does not put the lines on disk.
	return p.j.Failed()
}

// Cut takes the journal back to before the save's lines, with every line
// written after them: after a failed Sync, none of them is known to be on
// disk. The state they were performed on must be read again, or undone, by
// the caller.
func (p *PendingSave) Cut() { p.j.cut(p.from) }

// Sync makes every line written durable; after a failed sync or write-back
// (Failed), its own included, it returns that failure, as every save does,
// for Linux need not report it to a second fsync.
func (j *Journal) Sync() error {
	if err := j.Failed(); err != nil {
		return err
	}
	if !j.dirty {
		return nil
	}
	if err := syncLog(j.f); err != nil {
		return j.syncFailed(err)
	}
	j.dirty = false
	return nil
}

// lineKind reads what a journal line is from its first key, as this
// package writes it: an input ("in"), an entry ("seq"), or neither.
func lineKind(line []byte) (input bool, n int64, ok bool) {
	var rest []byte
	switch {
	case bytes.HasPrefix(line, []byte(`{"in":`)):
		input, rest = true, line[len(`{"in":`):]
	case bytes.HasPrefix(line, []byte(`{"seq":`)):
		rest = line[len(`{"seq":`):]
	default:
		return false, 0, false
	}
	num, _, found := bytes.Cut(rest, []byte(","))
	if !found {
		return false, 0, false
	}
	v, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil {
		return false, 0, false
	}
	return input, v, true
}

// RedoError is a journal whose inputs do not re-do as journaled: Line is
// the journal line at fault.
type RedoError struct {
	Path    string
	Line    int
	Problem string
}

func (e *RedoError) Error() string {
	return fmt.Sprintf("%s:%d: %s\nNothing was changed. If another build of the referee wrote these lines, start that build and stop it (SIGINT or SIGTERM): it writes a snapshot that includes them, which this build loads without re-doing them", e.Path, e.Line, e.Problem)
}

// journalReader reads the saves of a journal after a position.
type journalReader struct {
	path string
	r    *bufio.Reader
	line int
	held []byte // a line read ahead
	// done: the end, a torn line, or a line that is not an input's save
	// (an entry no input made, a line that does not decode): what follows
	// is the journal guards' (OpenJournal), not the re-doing's.
	done bool
}

func (jr *journalReader) next() ([]byte, bool) {
	if jr.held != nil {
		l := jr.held
		jr.held = nil
		return l, true
	}
	l, err := jr.r.ReadBytes('\n')
	if len(l) == 0 || l[len(l)-1] != '\n' || (err != nil && !errors.Is(err, io.EOF)) {
		return nil, false
	}
	jr.line++
	return l, true
}

// save reads the next whole save of inputs numbered after after (skipping
// the lines up to it), or returns nil when there is none: the journal ends,
// or what follows is not a whole save of inputs.
func (jr *journalReader) save(after Position) ([]Step, [][][]byte, error) {
	var steps []Step
	var lines [][][]byte
	for {
		l, ok := jr.next()
		if !ok {
			return nil, nil, nil // the end, or a torn last line: an unfinished save
		}
		input, n, ok := lineKind(l)
		if !ok {
			jr.done = true
			return nil, nil, nil
		}
		if !input {
			if n <= after.Seq && len(steps) == 0 {
				continue // an entry the position includes
			}
			jr.done = true // an entry no input made, past the position
			return nil, nil, nil
		}
		if n <= after.Inputs && len(steps) == 0 {
			var rec struct {
				Entries int `json:"entries"`
			}
			if err := json.Unmarshal(l, &rec); err != nil {
				jr.done = true
				return nil, nil, nil
			}
			for range rec.Entries {
				if _, ok := jr.next(); !ok {
					return nil, nil, nil
				}
			}
			continue
		}
		want := after.Inputs + int64(len(steps)) + 1
		if n != want {
			return nil, nil, &RedoError{jr.path, jr.line, fmt.Sprintf("input %d where input %d should be: the journal's inputs do not follow its state", n, want)}
		}
		var rec inputRecord
		if err := json.Unmarshal(l, &rec); err != nil || rec.Input == nil {
			jr.done = true
			return nil, nil, nil
		}
		st := Step{Input: rec.Input, N: n, Line: jr.line}
		ls := [][]byte{l}
		for range rec.Entries {
			el, ok := jr.next()
			if !ok {
				return nil, nil, nil
			}
			if in, _, ok := lineKind(el); !ok || in {
				return nil, nil, &RedoError{jr.path, jr.line, fmt.Sprintf("input %d (line %d) made %d entries, but this line is not one of them", n, st.Line, rec.Entries)}
			}
			var e contract.Entry
			if err := json.Unmarshal(el, &e); err != nil {
				return nil, nil, &RedoError{jr.path, jr.line, fmt.Sprintf("entry does not decode: %v", err)}
			}
			st.Entries = append(st.Entries, e)
			ls = append(ls, el)
		}
		steps = append(steps, st)
		lines = append(lines, ls)
		if !rec.More {
			return steps, lines, nil
		}
	}
}

// redoJournal re-does on s, the state file at path, the whole saves of
// its journal after the position s includes, and checks that each re-done
// entry is the journaled line byte for byte. What follows the last whole
// save (an unfinished one, a torn line, a line that does not decode) is
// left to OpenJournal's guards.
func redoJournal(e *contract.Engine, s *contract.State, path string) error {
	return redoUpTo(e, s, path, math.MaxInt64, nil)
}

// redoUpTo is redoJournal stopping before the first save that goes past
// input upto, calling before (when not nil) ahead of each save re-done.
func redoUpTo(e *contract.Engine, s *contract.State, path string, upto int64, before func(*contract.State)) error {
	jpath := JournalPath(path)
	f, err := os.Open(jpath)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	jr := &journalReader{path: jpath, r: bufio.NewReaderSize(f, 1<<16)}
	for !jr.done {
		steps, lines, err := jr.save(At(s))
		if err != nil {
			return err
		}
		if steps == nil || steps[len(steps)-1].N > upto {
			return nil
		}
		if before != nil {
			before(s)
		}
		if err := redoSave(e, s, path, steps, lines); err != nil {
			return err
		}
	}
	return nil
}

// redoSave re-does one save's steps on s (the state at path) and checks
// their entries against the journal's lines. A correction made is made
// again (correctBefore): the state file it loaded is older than the
// correction, whose corrected state never replaced it (a kill between the
// save's journal sync and its rename, or a state file put back from an
// older copy), and re-doing its input alone would only close its claim.
func redoSave(e *contract.Engine, s *contract.State, path string, steps []Step, lines [][][]byte) error {
	jpath := JournalPath(path)
	base := s.JournalSeq
	for i, st := range steps {
		var got []contract.Entry
		var err error
		if in := st.Input; in.Kind == contract.InCorrect && in.Fix != nil && in.Error == "" {
			if kept := keptAt(e, path, st); kept != nil && len(steps) == 1 {
				// The save's own copy, made before the rename: the
				// corrected state itself.
				*s = *kept
				continue
			}
			cs, step, _ := correctBefore(e, path, s, *in.Fix, in.At, st.N, revisionOf(st.Entries))
			if cs == nil {
				return &RedoError{jpath, st.Line, fmt.Sprintf("input %d (correct) cannot be made again: %s", st.N, step.Input.Error)}
			}
			*s = *cs
			got = step.Entries
		} else if got, err = e.Redo(s, st.Input); err != nil {
			return &RedoError{jpath, st.Line, fmt.Sprintf("input %d (%s) fails when re-done: %v", st.N, st.Input.Kind, err)}
		}
		if len(got) != len(st.Entries) {
			return &RedoError{jpath, st.Line, fmt.Sprintf("input %d (%s) made %d entries when re-done, the journal has %d: the journal and this build disagree", st.N, st.Input.Kind, len(got), len(st.Entries))}
		}
		for k, en := range got {
			want := bytes.TrimSuffix(lines[i][k+1], []byte("\n"))
			b, err := json.Marshal(record{en, base})
			if err != nil {
				return err
			}
			if !bytes.Equal(b, want) {
				return &RedoError{jpath, st.Line + k + 1, fmt.Sprintf("entry seq %d of input %d differs when re-done (%s): the journal and this build disagree", st.Entries[k].Seq, st.N, differing(b, want))}
			}
		}
		s.JournalInputs = st.N
	}
	return nil
}

// keptAt is the kept snapshot of the state after st, a correction's input
// read from the journal, that the journal says is its corrected state, or
// nil (the correction is then made again). A count of inputs names no one
// state: two snapshots may hold one (a store run again from an older
// state file, whose later inputs were others, or a file copied in), so the
// one taken ends at the correction's last line and has the state hash its
// journaled revision gives the corrected state (Revision.NewHash).
func keptAt(e *contract.Engine, path string, st Step) *contract.State {
	snaps, err := Snapshots(path)
	if err != nil || len(st.Entries) == 0 {
		return nil
	}
	stated := revisionOf(st.Entries)
	hash, _ := stated["new_hash"].(string)
	marked, _ := stated["hashes"].(string)
	if hash == "" {
		return nil
	}
	last := st.Entries[len(st.Entries)-1].Seq
	for _, sn := range snaps {
		if sn.Inputs != st.N {
			continue
		}
		s, err := loadFile(e, sn.Path)
		if err == nil && s.JournalInputs == st.N && s.JournalSeq == last && contract.RevisionDigest(s, marked) == hash {
			return s
		}
	}
	return nil
}

// differing names the keys of two JSON objects whose values differ (never
// the values: an entry's reason can quote a sealed bid).
func differing(a, b []byte) string {
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return "the line does not decode"
	}
	var keys []string
	for k, v := range ma {
		if !bytes.Equal(v, mb[k]) {
			keys = append(keys, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "the same fields, written differently"
	}
	return "fields " + fmt.Sprint(keys)
}

// LoadUpTo reads the state file at path and re-does on it, as Load does,
// the whole saves of its journal after it, but none that goes past input
// upto; before is called ahead of each save re-done. It returns the state
// as the last save re-done left it (At says which), what follows it left
// to OpenJournal's guards, and the journal_inputs of the state file. A
// replay resumes so: its saves are checkpoints, and before empties the
// outbox as the replay did after each one.
func LoadUpTo(e *contract.Engine, path string, upto int64, before func(*contract.State)) (*contract.State, int64, error) {
	s, err := loadFile(e, path)
	if err != nil {
		return nil, 0, err
	}
	file := s.JournalInputs
	if err := redoUpTo(e, s, path, upto, before); err != nil {
		return nil, 0, err
	}
	return s, file, nil
}

// LoadSnapshot reads the state file at path as it is, without re-doing
// the journal after it (Load does).
func LoadSnapshot(e *contract.Engine, path string) (*contract.State, error) {
	return loadFile(e, path)
}
