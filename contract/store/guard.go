package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The journal guards: what OpenJournal may cut by itself, and what it must
// leave to the operator (`referee check --repair`).
//
// A line is cut without asking only when it is provably redundant:
//   - the torn last line of a crash (bytes after the last newline), and
//   - the lines of the one save that never finished: every line past the
//     state's journal_seq written by the save that started from it, which the
//     journal marks in each line as "base" (the journal_seq before the save).
//     The message or event that made them is applied again, as the state
//     shows it was not. A copy is kept all the same (journal.jsonl.cut-<time>):
//     an operator may have put back the state from just before that save.
//
// Anything else, a line that does not decode, lines past a state that does
// not exist yet or past an older state written by more than one save, stops
// OpenJournal with a *JournalError, and nothing is changed.

// JournalError is a journal OpenJournal will not open: Line (1-based) is the
// first line at fault.
type JournalError struct {
	Path    string
	Line    int
	Problem string
	// Undecodable: the line does not decode (else: lines no saved state
	// includes).
	Undecodable bool
}

func (e *JournalError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Problem) }

// Opened says what OpenJournal cut by itself: the lines of a save that never
// finished (Lines, seq From to To, copied first to CopiedTo, for an
// operator who restored an older state on purpose) and a torn last line
// (Torn bytes). Behind
// is set when the journal ends before the state's journal_seq (lines of the
// state are missing from it).
type Opened struct {
	Lines    int
	From, To int64
	Torn     int
	Behind   bool
	LastSeq  int64 // the last line kept
	Keep     int64 // the state's journal_seq
	FileLine int   // number of the first line cut, when Lines > 0
	CopiedTo string
}

// Cut reports whether OpenJournal cut anything.
func (o Opened) Cut() bool { return o.Lines > 0 || o.Torn > 0 }

// String says what was cut, for the log.
func (o Opened) String() string {
	var parts []string
	if o.Lines > 0 {
		seq := "inputs with no entry"
		if o.From > 0 {
			seq = span("seq", o.From, o.To)
		}
		parts = append(parts, fmt.Sprintf("%s (%s) of a save that never finished, copied to %s", span("line", int64(o.FileLine), int64(o.FileLine+o.Lines-1)), seq, filepath.Base(o.CopiedTo)))
	}
	if o.Torn > 0 {
		parts = append(parts, fmt.Sprintf("a torn last line (%d bytes)", o.Torn))
	}
	return strings.Join(parts, " and ")
}

// LineProblem is one problem of a journal, on its line (1-based; 0 for the
// file as a whole).
type LineProblem struct {
	Line    int
	Problem string
}

// Scan is a journal read against the state that should include it.
type Scan struct {
	Path string
	Keep int64 // the state's journal_seq (0: no state includes any line)
	// KeepInputs is the last input the state includes.
	KeepInputs int64
	Lines      int // complete lines
	// LastSeq is the seq of the last line that decodes; LastInput the
	// number of the last input line.
	LastSeq, LastInput int64
	// Bad are the lines that do not decode; Gaps the seq that do not follow
	// the line before.
	Bad, Gaps []LineProblem
	// Torn is the length of an unterminated last line.
	Torn int
	// Past is the number of the first line past Keep (0: none), PastLines
	// how many there are, PastFrom and PastTo their seq; OneSave says they
	// were all written by the one save that started from Keep.
	Past, PastLines  int
	PastFrom, PastTo int64
	OneSave          bool

	keepEnd  int64 // bytes up to the last line to keep
	wholeEnd int64 // bytes of the complete lines
	cut      []int // lines (1-based) a repair moves aside
}

// journalLine is what a line must hold to count as decoded.
type journalLine struct {
	Seq     *int64    `json:"seq"`
	Base    *int64    `json:"base"`
	Time    time.Time `json:"time"`
	Outcome string    `json:"outcome"`
}

// ScanJournal reads the journal at path against keep, the journal_seq of the
// state beside it (0 when there is none). A missing journal is an empty one.
func ScanJournal(path string, keep Position) (*Scan, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &Scan{Path: path, Keep: keep.Seq, KeepInputs: keep.Inputs}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	return scan(path, f, keep)
}

func scan(path string, f io.Reader, pos Position) (*Scan, error) {
	keep := pos.Seq
	sc := &Scan{Path: path, Keep: keep, KeepInputs: pos.Inputs, OneSave: true}
	r := bufio.NewReaderSize(f, 1<<16)
	var off int64
	var prev int64
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read journal: %w", err)
		}
		if len(line) == 0 {
			break
		}
		if line[len(line)-1] != '\n' {
			sc.Torn = len(line)
			break
		}
		sc.Lines++
		off += int64(len(line))
		if input, _, ok := lineKind(line); ok && input {
			sc.input(n, line, off)
			continue
		}
		var e journalLine
		if derr := json.Unmarshal(line, &e); derr != nil || e.Seq == nil || *e.Seq <= 0 {
			why := "no seq"
			if derr != nil {
				why = derr.Error()
			}
			sc.Bad = append(sc.Bad, LineProblem{n, fmt.Sprintf("does not decode as a journal entry (%s): %s", why, excerpt(line))})
			sc.cut = append(sc.cut, n)
			continue
		}
		seq := *e.Seq
		// An if chain, not a tagless switch: Go's coverage gives a case's
		// condition no counter, and mutation testing skips what it cannot
		// place.
		if prev == 0 && seq != 1 {
			sc.Gaps = append(sc.Gaps, LineProblem{n, fmt.Sprintf("seq %d is the first line: %s", seq, missing(1, seq-1))})
		} else if prev != 0 && seq != prev+1 {
			if seq <= prev {
				sc.Gaps = append(sc.Gaps, LineProblem{n, fmt.Sprintf("seq %d after %d: out of order", seq, prev)})
			} else {
				sc.Gaps = append(sc.Gaps, LineProblem{n, fmt.Sprintf("seq %d after %d: %s", seq, prev, missing(prev+1, seq-1))})
			}
		}
		prev = seq
		sc.LastSeq = seq
		if seq <= keep && sc.Past == 0 {
			sc.keepEnd = off
			continue
		}
		if sc.Past == 0 {
			sc.Past = n
		}
		if sc.PastFrom == 0 {
			sc.PastFrom = seq
		}
		sc.PastLines++
		sc.PastTo = seq
		sc.cut = append(sc.cut, n)
		if e.Base == nil || *e.Base != keep {
			sc.OneSave = false
		}
	}
	sc.wholeEnd = off
	if sc.Past == 0 {
		sc.OneSave = false
	}
	return sc, nil
}

// input reads the input line n, ending at off.
func (sc *Scan) input(n int, line []byte, off int64) {
	var r struct {
		In      int64            `json:"in"`
		Base    *int64           `json:"base"`
		Entries int              `json:"entries"`
		Input   *json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(line, &r); err != nil || r.In <= 0 || r.Base == nil || r.Input == nil || r.Entries < 0 {
		why := "no input"
		if err != nil {
			why = err.Error()
		}
		sc.Bad = append(sc.Bad, LineProblem{n, fmt.Sprintf("does not decode as a journal input (%s): %s", why, excerpt(line))})
		sc.cut = append(sc.cut, n)
		return
	}
	if sc.LastInput != 0 && r.In != sc.LastInput+1 {
		sc.Gaps = append(sc.Gaps, LineProblem{n, fmt.Sprintf("input %d after input %d: out of order", r.In, sc.LastInput)})
	}
	sc.LastInput = r.In
	if r.In <= sc.KeepInputs && sc.Past == 0 {
		sc.keepEnd = off
		return
	}
	if sc.Past == 0 {
		sc.Past = n
	}
	sc.PastLines++
	sc.cut = append(sc.cut, n)
	if *r.Base != sc.Keep {
		sc.OneSave = false
	}
}

// span is "line 4" or "lines 4-9".
func span(what string, a, b int64) string {
	if a == b {
		return fmt.Sprintf("%s %d", what, a)
	}
	if what == "line" {
		what = "lines"
	}
	return fmt.Sprintf("%s %d-%d", what, a, b)
}

// missing says seq a to b are missing.
func missing(a, b int64) string {
	if a == b {
		return fmt.Sprintf("seq %d is missing", a)
	}
	return fmt.Sprintf("seq %d-%d are missing", a, b)
}

// excerpt is the start of a line, for an error message.
func excerpt(line []byte) string {
	line = bytes.TrimRight(line, "\n")
	const max = 60
	if len(line) > max {
		return fmt.Sprintf("%q...", line[:max])
	}
	return fmt.Sprintf("%q", line)
}

// Refusal is why OpenJournal must not open the journal as it is, or nil.
func (sc *Scan) Refusal() *JournalError {
	if len(sc.Bad) > 0 {
		b := sc.Bad[0]
		p := b.Problem
		if len(sc.Bad) > 1 {
			p += fmt.Sprintf(" (and %d more such lines)", len(sc.Bad)-1)
		}
		return &JournalError{Path: sc.Path, Line: b.Line, Problem: "line " + p, Undecodable: true}
	}
	if sc.Past == 0 || (sc.Keep > 0 && sc.OneSave) {
		return nil
	}
	what := sc.pastLines()
	if sc.Keep == 0 {
		return &JournalError{Path: sc.Path, Line: sc.Past, Problem: what + " are history no saved state includes: the state file is missing or new"}
	}
	return &JournalError{Path: sc.Path, Line: sc.Past, Problem: fmt.Sprintf("%s go past the state, which includes up to seq %d, and were not all written by the one save that never finished: the state is older than its journal", what, sc.Keep)}
}

// pastLines names the lines past the state: "lines 4-9 (seq 3-8)".
func (sc *Scan) pastLines() string {
	lines := span("line", int64(sc.Past), int64(sc.Past+sc.PastLines-1))
	if sc.PastFrom == 0 {
		return lines + " (inputs with no entry)"
	}
	return fmt.Sprintf("%s (%s)", lines, span("seq", sc.PastFrom, sc.PastTo))
}

// Problems lists everything wrong with the journal against its state, for
// `referee check`: lines that do not decode, seq gaps, a torn last line,
// lines past the state and a journal that ends before it.
func (sc *Scan) Problems() []LineProblem {
	p := append([]LineProblem{}, sc.Bad...)
	p = append(p, sc.Gaps...)
	if sc.Past != 0 {
		if r := sc.Refusal(); r != nil && r.Line == sc.Past {
			p = append(p, LineProblem{r.Line, r.Problem})
		} else if sc.Keep > 0 && sc.OneSave {
			p = append(p, LineProblem{sc.Past, fmt.Sprintf("%s written by a save that never finished; the next start cuts it, keeping a copy", sc.pastLines())})
		}
	}
	if sc.Torn > 0 {
		p = append(p, LineProblem{sc.Lines + 1, fmt.Sprintf("a torn last line (%d bytes, no newline): a crash mid-write; the next start cuts it", sc.Torn)})
	}
	if sc.LastSeq < sc.Keep {
		p = append(p, LineProblem{sc.Lines, fmt.Sprintf("the journal ends at seq %d but the state includes up to seq %d: %s", sc.LastSeq, sc.Keep, missing(sc.LastSeq+1, sc.Keep))})
	}
	return p
}

// CutName is the file a repair moves lines to: path.cut-<time>.
func CutName(path string, now time.Time) string {
	return path + ".cut-" + now.UTC().Format("20060102T150405Z")
}

// Repair moves every line the journal must not keep (lines that do not
// decode, lines past keep, a torn last line) to CutName(path, now), written
// before the journal is rewritten without them, both atomically. It returns
// the cut file ("" when there was nothing to cut) and the numbers of the
// lines moved (the torn line counted as the line after the last).
func Repair(path string, keep Position, now time.Time) (string, []int, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("read journal: %w", err)
	}
	sc, err := scan(path, bytes.NewReader(b), keep)
	if err != nil {
		return "", nil, err
	}
	lines := sc.cut
	if sc.Torn > 0 {
		lines = append(lines, sc.Lines+1)
	}
	if len(lines) == 0 {
		return "", nil, nil
	}
	cutSet := map[int]bool{}
	for _, n := range lines {
		cutSet[n] = true
	}
	var kept, cut bytes.Buffer
	n := 0
	for line := range bytes.Lines(b) {
		n++
		if cutSet[n] {
			cut.Write(line)
		} else {
			kept.Write(line)
		}
	}
	name, err := keepCut(path, cut.Bytes(), now)
	if err != nil {
		return "", nil, err
	}
	if err := WriteAtomic(path, kept.Bytes(), 0o600); err != nil {
		return name, nil, fmt.Errorf("the lines are copied to %s but the journal was not rewritten: %w", filepath.Base(name), err)
	}
	return name, lines, nil
}

// keepCut writes lines about to be cut from the journal at path to a new
// CutName file, and returns its name.
func keepCut(path string, lines []byte, now time.Time) (string, error) {
	name := CutName(path, now)
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) {
			break
		}
		name = fmt.Sprintf("%s-%d", CutName(path, now), i)
	}
	if err := WriteAtomic(name, lines, 0o600); err != nil {
		return "", fmt.Errorf("keep a copy of the journal lines to cut: %w", err)
	}
	return name, nil
}
