// Package store reads and writes the referee's state file and its journal
// durably (DESIGN "State"). Input: a path and a state; output: files written
// atomically (temp file, fsync, rename, fsync of the directory), mode 0600, and a
// journal of numbered JSON lines appended and synced before the state that
// includes them. It knows nothing of games: decoding is the interpreter's.
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
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"referee/contract"
)

// Load reads and strictly decodes the state at path, the last snapshot, and
// re-does on it the inputs its journal holds after it (wal.go), so that it
// returns the state as the last save left it. A missing file is
// os.ErrNotExist (wrapped); a corrupt or future-version one is an error naming
// the file, and is never overwritten by this package; a journal whose inputs
// do not re-do as journaled is a *RedoError naming the journal's line.
func Load(e *contract.Engine, path string) (*contract.State, error) {
	s, err := loadFile(e, path)
	if err != nil {
		return nil, err
	}
	if err := redoJournal(e, s, path); err != nil {
		return nil, err
	}
	return s, nil
}

// loadFile reads and decodes the state file at path.
func loadFile(e *contract.Engine, path string) (*contract.State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if isDir(path) {
			return nil, fmt.Errorf("read state: %s is a directory, not a state file: move it away and put the state file back", path)
		}
		return nil, fmt.Errorf("read state: %w", err)
	}
	s, err := e.Decode(b)
	var de *contract.DecodeError
	if errors.As(err, &de) {
		de.File = path
		return nil, de
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Save writes the state atomically: a temporary file in the same directory,
// fsync, rename over path, fsync of the directory. A crash at any instant leaves
// either the old or the new file, never a torn one.
func Save(path string, s *contract.State) error {
	b, err := contract.Encode(s)
	if err != nil {
		return err
	}
	return WriteAtomic(path, b, 0o600)
}

// Save writes the state as the package's Save does, appending nothing to
// the journal: it encodes with the text kept from the journal's last
// commit or save, so it pays only for what changed since.
func (j *Journal) Save(path string, s *contract.State) error {
	b, err := j.enc.Encode(s)
	if err != nil {
		return err
	}
	return WriteAtomic(path, b, 0o600)
}

// WriteAtomic writes data to path atomically with the given mode.
func WriteAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := writeTemp(path, data, mode, false)
	if err != nil {
		return err
	}
	return install(tmp, path)
}

// writeTemp writes data to a synced temporary file beside path (paced:
// see fillTemp).
func writeTemp(path string, data []byte, mode os.FileMode, paced bool) (string, error) {
	return writeTempPieces(path, [][]byte{data}, mode, paced)
}

// writeTempPieces is writeTemp of the pieces, in order.
func writeTempPieces(path string, pieces [][]byte, mode os.FileMode, paced bool) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), tempPattern(path))
	if err != nil {
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return fillTemp(path, f, pieces, paced)
}

// fillTemp writes the pieces, in order, to the new, empty temporary file f
// (mode set), syncs and closes it. Paced, it is written back to the disk
// piece by piece as it is written (writePieces), so that the final sync
// has little left to write: a journal sync that comes meanwhile waits for
// one piece, not for the whole file (a background snapshot's).
func fillTemp(path string, f *os.File, pieces [][]byte, paced bool) (string, error) {
	tmp := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	if err := writePieces(f, pieces, paced); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("fsync: %w", err))
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return tmp, nil
}

// writePieces writes the pieces to the new file f in order, in writes of
// pacePiece bytes (the last less): a piece that long or longer goes as
// it is, and shorter ones are gathered, so that a state file in
// thousands of pieces of a few hundred bytes (a record's, an item's) is
// not as many writes. Paced, each write is written back to the disk and
// waited for (pace) before the next.
func writePieces(f *os.File, pieces [][]byte, paced bool) error {
	var off int64
	write := func(b []byte) error {
		if _, err := f.Write(b); err != nil {
			return err
		}
		if paced {
			if err := pace(f, off, int64(len(b))); err != nil {
				return fmt.Errorf("write back: %w", err)
			}
		}
		off += int64(len(b))
		return nil
	}
	var buf []byte
	for _, p := range pieces {
		for len(p) > 0 {
			if len(buf) == 0 && len(p) >= pacePiece {
				if err := write(p[:pacePiece]); err != nil {
					return err
				}
				p = p[pacePiece:]
				continue
			}
			if buf == nil {
				buf = make([]byte, 0, pacePiece)
			}
			n := min(len(p), pacePiece-len(buf))
			buf, p = append(buf, p[:n]...), p[n:]
			if len(buf) == pacePiece {
				if err := write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
	}
	if len(buf) > 0 {
		return write(buf)
	}
	return nil
}

// install renames the temporary file over path and syncs the directory.
func install(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("save %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// isDir reports whether path is a directory (where a file should be).
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// JournalPath is the journal beside a state file.
func JournalPath(statePath string) string {
	return filepath.Join(filepath.Dir(statePath), "journal.jsonl")
}

// Journal is the append-only history beside the state. It also keeps a
// spare temporary file for the next Commit of the state beside it, created
// after each Commit off the critical path: creating the file inside a save
// costs a metadata change in the same filesystem transaction as the data.
type Journal struct {
	path string
	f    *os.File
	size int64 // bytes of whole lines written
	// dirty: lines were written since the last sync (Log without sync).
	dirty bool
	keep  time.Duration // how far back snapshots are all kept (0: SnapshotKeep)

	opened Opened // what OpenJournal cut
	// broken: a failed save's lines could not be cut; appending after them
	// would number two lines alike, so nothing more is appended until the
	// journal is opened again (which cuts them, or refuses).
	broken error
	// failed is a sync of the journal that failed beside the journal's
	// own methods (a background snapshot's): sticky, see syncFailed.
	failed atomic.Pointer[error]

	spare chan spareFile // at most one, ready for the next Commit
	// writing: a snapshot started (StartSnapshot) is being written.
	writing sync.WaitGroup
	making  atomic.Bool // a spare is being made
	swept   bool        // stale temporary files removed

	// enc keeps the text of the state last committed, so that a commit
	// re-encodes only the parts of the state that changed.
	enc contract.Encoder

	// behind writes the journal back behind its end (writeBehind).
	behind writeBehind
}

type spareFile struct {
	path string // the state file it will replace
	f    *os.File
}

// OpenJournal opens (creating) the journal beside a state that includes up
// to position keep (zero: no saved state includes any line). It cuts only what is
// provably redundant (see guard.go): a torn last line, and the lines of the
// one save that never finished; j.Opened says what. A journal holding
// anything else it would have to cut is refused with a *JournalError, and
// left as it is.
func OpenJournal(path string, keep Position) (*Journal, error) {
	if err := SyncFailedRefusal(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	sc, err := scan(path, f, keep)
	if err != nil {
		f.Close()
		return nil, err
	}
	if r := sc.Refusal(); r != nil {
		f.Close()
		return nil, r
	}
	op := Opened{Torn: sc.Torn, Behind: sc.LastSeq < keep.Seq, Keep: keep.Seq, LastSeq: min(sc.LastSeq, keep.Seq)}
	off := sc.keepEnd
	if sc.Past > 0 {
		op.Lines, op.From, op.To, op.FileLine = sc.PastLines, sc.PastFrom, sc.PastTo, sc.Past
		// Provably the lines of a save that never finished, unless the
		// operator put back an older state on purpose: a copy is kept.
		b := make([]byte, sc.wholeEnd-off)
		if _, err := f.ReadAt(b, off); err != nil {
			f.Close()
			return nil, fmt.Errorf("read journal: %w", err)
		}
		if op.CopiedTo, err = keepCut(path, b, time.Now()); err != nil {
			f.Close()
			return nil, err
		}
	}
	if op.Cut() {
		if err := f.Truncate(off); err != nil {
			f.Close()
			return nil, fmt.Errorf("cut journal: %w", err)
		}
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("cut journal: %w", err)
	}
	behind, err := openWriteBehind(path, off)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Journal{path: path, f: f, size: off, opened: op, spare: make(chan spareFile, 1), behind: behind}, nil
}

// SyncFailedRefusal is OpenJournal's refusal of the journal at path while
// the record of a failed sync of it is there (SyncFailedPath), or nil: a
// command checks it before it starts anything.
func SyncFailedRefusal(path string) error {
	b, err := os.ReadFile(SyncFailedPath(path))
	if err != nil {
		return nil
	}
	return fmt.Errorf("%s: a sync of the journal failed (%s): lines written before it may not be on disk. Nothing is journaled until you have checked the disk and the journal (referee check) and removed %s", path, strings.TrimSpace(string(b)), SyncFailedPath(path))
}

// SyncFailedPath is the file beside the journal at path that records a
// failed sync of it (Journal.Failed): while it is there, OpenJournal
// refuses the journal, and referee check names it.
func SyncFailedPath(path string) string { return path + ".sync-failed" }

// syncFailed makes a failed sync of the journal sticky. Linux reports a
// failed write-back to one fsync and may not repeat it: a later sync that
// succeeds says nothing of the lines the failed one should have written.
// So every later save of this journal refuses, and SyncFailedPath records
// it for the next OpenJournal and for referee check, until the operator
// has looked. It returns the error every save now returns.
func (j *Journal) syncFailed(err error) error {
	var e error = &SyncFailedError{Path: j.path, Err: err}
	if !j.failed.CompareAndSwap(nil, &e) {
		return *j.failed.Load()
	}
	note := fmt.Sprintf("%s %v\n", time.Now().UTC().Format(time.RFC3339), err)
	if f, ferr := os.OpenFile(SyncFailedPath(j.path), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); ferr == nil {
		f.WriteString(note)
		f.Sync()
		f.Close()
		syncDir(filepath.Dir(j.path))
	}
	return e
}

// SyncFailedError is a failed sync of the journal at Path that stopped it
// (syncFailed).
type SyncFailedError struct {
	Path string
	Err  error
}

func (e *SyncFailedError) Error() string {
	return fmt.Sprintf("sync journal: %v; lines written before it may not be on disk, so nothing more is journaled: check the disk and the journal (referee check), then remove %s and start again", e.Err, SyncFailedPath(e.Path))
}

func (e *SyncFailedError) Unwrap() error { return e.Err }

// Failed is the failed sync that stopped the journal (syncFailed), or nil.
func (j *Journal) Failed() error {
	if p := j.failed.Load(); p != nil {
		return *p
	}
	return nil
}

// refusing is why the journal takes no more lines, or nil.
func (j *Journal) refusing() error {
	if j.broken != nil {
		return j.broken
	}
	return j.Failed()
}

// Opened says what OpenJournal cut by itself.
func (j *Journal) Opened() Opened { return j.opened }

// record is a journal line: the entry, and the journal_seq of the state the
// save that wrote it started from (the seq before its first line), by which
// OpenJournal knows the lines of a save that never finished.
type record struct {
	contract.Entry
	Base int64 `json:"base"`
}

// Append writes entries, one save's, and syncs them to disk.
func (j *Journal) Append(entries []contract.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	if err := j.refusing(); err != nil {
		return err
	}
	var b bytes.Buffer
	base := entries[0].Seq - 1
	for _, e := range entries {
		line, err := json.Marshal(record{e, base})
		if err != nil {
			return fmt.Errorf("journal entry %d: %w", e.Seq, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if _, err := j.f.Write(b.Bytes()); err != nil {
		j.cut(j.size)
		return fmt.Errorf("append journal: %w", err)
	}
	if err := syncLog(j.f); err != nil {
		j.cut(j.size)
		return j.syncFailed(err)
	}
	j.size += int64(b.Len())
	return nil
}

// cut takes the journal back to size bytes: the lines of a step whose
// state was not saved go, as the next start would cut them.
func (j *Journal) cut(size int64) {
	if err := j.f.Truncate(size); err != nil {
		j.broken = fmt.Errorf("append journal: the lines of a failed save could not be cut (%w): the journal must be opened again", err)
		return
	}
	j.f.Seek(size, io.SeekStart)
	j.size = size
	j.behind.cut(size)
}

// wroteTo notes that the journal's lines now end at end (writeBehind); a
// failed write-back stops the journal as a failed sync does.
func (j *Journal) wroteTo(end int64) error {
	if err := j.behind.wrote(end); err != nil {
		return j.syncFailed(fmt.Errorf("write back: %w", err))
	}
	return nil
}

// Close closes the journal and removes the spare temporary file.
func (j *Journal) Close() error {
	j.writing.Wait()
	for j.making.Load() {
		runtime.Gosched()
	}
	select {
	case sp := <-j.spare:
		sp.f.Close()
		os.Remove(sp.f.Name())
	default:
	}
	j.behind.f.Close()
	return j.f.Close()
}

// tempPattern names the temporary files of a state file.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// takeSpare returns the spare temporary file for path, or nil.
func (j *Journal) takeSpare(path string) *os.File {
	select {
	case sp := <-j.spare:
		if sp.path == path {
			return sp.f
		}
		sp.f.Close()
		os.Remove(sp.f.Name())
	default:
	}
	return nil
}

// makeSpare creates the next spare in the background. The first call also
// removes temporary files a crash left beside the state.
func (j *Journal) makeSpare(path string) {
	if !j.swept {
		j.swept = true
		if old, err := filepath.Glob(filepath.Join(filepath.Dir(path), tempPattern(path))); err == nil {
			for _, f := range old {
				os.Remove(f)
			}
		}
	}
	if len(j.spare) > 0 || !j.making.CompareAndSwap(false, true) {
		return // one is ready, or on its way
	}
	go func() {
		defer j.making.Store(false)
		f, err := os.CreateTemp(filepath.Dir(path), tempPattern(path))
		if err != nil {
			return // the next Commit creates its own, and says why if it cannot
		}
		select {
		case j.spare <- spareFile{path: path, f: f}:
		default:
			f.Close()
			os.Remove(f.Name())
		}
	}()
}

// ReadJournal reads every entry of a journal file; the input lines are
// skipped (History reads them).
func ReadJournal(path string) ([]contract.Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	defer f.Close()
	var out []contract.Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if input, _, _ := lineKind(sc.Bytes()); input {
			continue
		}
		var e contract.Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Commit is one durable step: the journal entries first (appended and synced),
// then the state that includes them (DESIGN "State"); entries made by no
// input (the start of a fresh state). CommitSteps journals inputs.
func Commit(j *Journal, path string, s *contract.State, entries []contract.Entry) error {
	if len(entries) == 0 {
		return CommitSteps(j, path, s, nil)
	}
	return CommitSteps(j, path, s, []Step{{Entries: entries}})
}

// CommitSteps is one durable step that also writes a snapshot: the lines
// of steps (one save, performed on s) first, appended and synced with any
// line written before without a sync, then the state that includes them,
// kept also as a snapshot (snapshots/, see Snapshots).
//
// The journal's write and sync run while the new state is encoded and written
// to its temporary file (the spare the journal keeps, mode 0600, when there
// is one); the state replaces the old one only once both are on disk, so the
// order that matters is kept and the two syncs overlap.
//
// When the state cannot be written, the journal is cut back to where it
// was, so the two still agree; after any error the caller should read the
// state file again (a failed sync of the directory comes after the rename).
func CommitSteps(j *Journal, path string, s *contract.State, steps []Step) error {
	size := j.size
	// The lines gathered whole (a chunkWriter without a file).
	lines := &chunkWriter{b: make([]byte, 0, saveSize(steps)+lineSlack)}
	nin, err := encodeSave(lines, s, steps)
	if err != nil {
		return err
	}
	s.JournalInputs += nin
	fail := func(err error) error {
		s.JournalInputs -= nin
		return err
	}
	jerr := make(chan error, 1)
	go func() { jerr <- j.appendSync(lines.b) }()
	b, err := j.enc.EncodePieces(s)
	if err != nil {
		if <-jerr == nil {
			j.cut(size)
		}
		return fail(err)
	}
	var tmp string
	if f := j.takeSpare(path); f != nil {
		tmp, err = fillTemp(path, f, b, false)
	} else {
		tmp, err = writeTempPieces(path, b, 0o600, false)
	}
	if err != nil {
		if <-jerr == nil {
			j.cut(size)
		}
		return fail(err)
	}
	if err := <-jerr; err != nil {
		os.Remove(tmp)
		return fail(err)
	}
	// The snapshot's copy before the state: a state that is in place has
	// its copy (a copy whose state never replaced the file is a point
	// whose journal lines are on disk, as good as any other).
	snap := keepSnapshot(tmp, path, s)
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		j.cut(size)
		if snap != "" {
			os.Remove(snap)
		}
		if isDir(path) {
			return fail(fmt.Errorf("save %s: it is a directory, not a state file: move it away", path))
		}
		return fail(fmt.Errorf("save %s: %w", path, err))
	}
	// Renamed: the file holds the new state and the journal its lines,
	// whether or not the directory's sync below succeeds.
	if err := syncDir(filepath.Dir(path)); err != nil {
		return err
	}
	if snap != "" {
		syncDir(filepath.Dir(snap))
		pruneSnapshots(path, j.keepFor())
	}
	j.makeSpare(path)
	return nil
}

// Snapshot writes the state s, which includes every line journaled so far,
// as the state file at path (and its copy in snapshots/), syncing first the
// lines written without a sync.
func (j *Journal) Snapshot(path string, s *contract.State) error {
	return CommitSteps(j, path, s, nil)
}

// appendSync writes lines, syncs the journal (with what was written before
// without a sync) and counts them.
func (j *Journal) appendSync(lines []byte) error {
	if err := j.refusing(); err != nil {
		return err
	}
	if len(lines) == 0 && !j.dirty {
		return nil // nothing to write, nothing written without a sync
	}
	if _, err := j.f.Write(lines); err != nil {
		j.cut(j.size)
		return fmt.Errorf("append journal: %w", err)
	}
	if err := syncLog(j.f); err != nil {
		j.cut(j.size)
		return j.syncFailed(err)
	}
	j.dirty = false
	j.size += int64(len(lines))
	return j.wroteTo(j.size)
}
