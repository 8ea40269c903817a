package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"referee/contract"
	"referee/contract/store"
	"referee/internal/bridge"
	"referee/mailout"
)

// A replay's checkpoint: the archive position that goes with a saved state,
// so that a replay killed midway resumes where its state stands instead of
// starting again from the first message.
//
// A save of a replay journals the inputs applied since the last one (one
// append and one sync: the journal is the write-ahead log), on a goroutine
// of its own while the next messages are applied (cmdReplay's behind); the state file
// is written whole only every snapshotInputs inputs, at the first save and
// at the end. The checkpoint file (beside the state, named after it with
// ".replay") is written before each save, and holds two points: Cur, the
// point of the save under way, and Prev, the point of the save before it,
// each with the journal position its state includes. A resumed replay
// loads the state file and re-does the journal's whole saves after it up to
// Cur (store.LoadUpTo), and takes the point whose position it reached: Prev
// when the replay was killed before Cur's save was whole in the journal.
//
// The state of a point holds the notices of its save in its outbox,
// numbered from Next; they are written as .eml files only after that save,
// and a replay empties its outbox after writing them (without an input:
// they were written, never sent), which the re-doing does before each save
// it re-does. A resumed replay writes them again under the same numbers
// (the same bytes, over a file a kill may have cut short), so no file is
// written twice under two numbers, none is missing and none is torn once
// the replay ends. A snapshot is written with
// an empty outbox, once the files of its save are durable: re-done up to a
// point from a snapshot taken there, the outbox holds none of the point's
// notices, which are all on disk.

// replayPoint is the replay's position that goes with a saved state.
type replayPoint struct {
	Seq       int64  `json:"journal_seq"`    // the state's journal_seq
	Inputs    int64  `json:"journal_inputs"` // and its journal_inputs
	Saved     bool   `json:"saved"`          // a state was saved (false: the fresh replay's start)
	Archive   int    `json:"archive"`        // index of the archive in the arguments
	Message   int    `json:"message"`        // messages read from it so far
	MessageID string `json:"message_id,omitempty"`
	Next      int    `json:"next_eml"`          // number of the first .eml of the state's outbox
	Outbox    int    `json:"outbox"`            // notices in the state's outbox
	Applied   int    `json:"applied"`           // messages applied since the replay began
	Skipped   int    `json:"skipped,omitempty"` // and those skipped, applied before it (Engine.Repeats)
	Old       int    `json:"old,omitempty"`     // and those skipped, older than the memory of Message-IDs (State.Forgotten)
	Late      int    `json:"late,omitempty"`    // and those applied that arrived before the state's clock, applied at it (G2)
}

// replayCheckpoint is the checkpoint file.
type replayCheckpoint struct {
	Archives []string `json:"archives"`
	Until    string   `json:"until,omitempty"`
	Out      string   `json:"out,omitempty"`
	FirstSeq int64    `json:"first_seq"` // journal_seq when the replay began
	// FirstInputs: journal_inputs when it began; the saves after it
	// are the replay's.
	FirstInputs int64        `json:"first_inputs"`
	FirstEml    int          `json:"first_eml"` // number of its first .eml
	Prev        *replayPoint `json:"prev,omitempty"`
	Cur         replayPoint  `json:"cur"`
}

// checkpointPath is the checkpoint file of the state at statePath.
func checkpointPath(statePath string) string { return statePath + ".replay" }

func loadCheckpoint(path string) (*replayCheckpoint, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var c replayCheckpoint
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: not a replay checkpoint (%v): delete it to replay from the first message", path, err)
	}
	return &c, nil
}

func (c *replayCheckpoint) save(path string) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return store.WriteAtomic(path, append(b, '\n'), 0o600)
}

// sameRun reports whether c is the checkpoint of a replay with these
// arguments.
func (c *replayCheckpoint) sameRun(archives []string, until, out string) bool {
	if c.Until != until || c.Out != out || len(c.Archives) != len(archives) {
		return false
	}
	for i := range archives {
		if c.Archives[i] != archives[i] {
			return false
		}
	}
	return true
}

// args are the arguments of c's replay as its command line gave them (the
// paths made absolute), for the operator who runs another: every one that
// sameRun compares, so the one that differs can be seen.
func (c *replayCheckpoint) args() string {
	var a []string
	if c.Until != "" {
		a = append(a, "--until", c.Until)
	}
	if c.Out != "" {
		a = append(a, "--out", c.Out)
	}
	return strings.Join(append(a, c.Archives...), " ")
}

// pointOf is the point of c that goes with a state at position at.
func (c *replayCheckpoint) pointOf(at store.Position) (replayPoint, bool) {
	if c.Cur.Saved && c.Cur.Seq == at.Seq && c.Cur.Inputs == at.Inputs {
		return c.Cur, true
	}
	if c.Prev != nil && c.Prev.Saved && c.Prev.Seq == at.Seq && c.Prev.Inputs == at.Inputs {
		return *c.Prev, true
	}
	return replayPoint{}, false
}

// emlWriter writes notices as numbered .eml files in dir (none when dir is
// ""), each in place under its number (a file cut short by a kill belongs
// to the checkpoint's save, whose files the resumed replay writes again),
// with one sync of the file system for all of them. Once started
// (background), it composes and writes them on a goroutine of its own, in
// the order given, while the replay applies the next messages; sync waits
// for them, and returns the first error met.
type emlWriter struct {
	dir  string
	addr bridge.Addresses
	// mark is the state's mark (outMark), written in the folder before
	// its first mail (writeMark) unless it is there already (marked).
	mark   []byte
	marked bool
	made   []string // the folders newEmlWriter created (removeMade)
	// dirFD is dir, open from newEmlWriter to close: each file is made
	// by its name in it (openat), with no walk of dir's path, and the
	// sync is of its file system.
	dirFD   int
	pending bool // files written (or handed over) since the last sync
	// chmod: the umask takes bits of 0644 away (or is not known), so a
	// file made with that mode is set to it again.
	chmod bool
	// With a writer goroutine: the runs of notices handed over, those
	// not yet written, and the first error the goroutine met (read once
	// wg says it is done).
	jobs chan emlJob
	wg   sync.WaitGroup
	err  error
	// kept are the files written since the last sync, still open (the
	// first maxKept of them), so that once the sync has written them
	// back their pages are let go (letGoKept).
	kept    []keptFile
	maxKept int // keptFiles, or a quarter of the open files allowed if less
}

// keptFile is a file written since the last sync and kept open.
type keptFile struct {
	fd   int
	name string
}

// keptFiles is how many files written between two syncs are kept open to
// be let go from the page cache after the sync (a save's notices, a few
// thousand at most between a replay's checkpoints); those past it are
// closed at once, and left to the kernel. Where the process may open few
// files (RLIMIT_NOFILE), a quarter of them, and fewer if the process
// meets its limit all the same (writeFile).
const keptFiles = 4096

// emlJob is a run of notices to be written from number next on.
type emlJob struct {
	outbox []*contract.Outgoing
	next   int
}

func newEmlWriter(dir string, addr bridge.Addresses) (*emlWriter, error) {
	w := &emlWriter{dir: dir, addr: addr, dirFD: -1, chmod: umask()&0o644 != 0, maxKept: keptFiles}
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err == nil && lim.Cur/4 < keptFiles {
		w.maxKept = int(lim.Cur / 4)
	}
	if dir == "" {
		return w, nil
	}
	w.made = missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// The temporary files an earlier build's replay, killed while
	// writing, left.
	stale, _ := filepath.Glob(filepath.Join(dir, ".eml-*.tmp"))
	for _, f := range stale {
		os.Remove(f)
	}
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	w.dirFD = fd
	return w, nil
}

// close waits for the files handed over, ends the writer goroutine and
// closes the folder.
func (w *emlWriter) close() {
	w.stop()
	w.closeKept()
	if w.dirFD != -1 {
		unix.Close(w.dirFD)
		w.dirFD = -1
	}
}

// removeMade removes the folders newEmlWriter created, once closed, if
// nothing was written in them: a replay that fails or is refused before it
// writes a mail leaves no folder behind.
func (w *emlWriter) removeMade() { removeEmpty(w.made) }

// background starts the writer goroutine; stop ends it.
func (w *emlWriter) background() {
	if w.dir == "" || w.jobs != nil {
		return
	}
	jobs := make(chan emlJob, 4)
	w.jobs = jobs
	go func() {
		for j := range jobs {
			if w.err == nil {
				w.err = w.writeAll(j.outbox, j.next, func(string) {})
			}
			w.wg.Done()
		}
	}()
}

// stop waits for the files handed over and ends the writer goroutine.
func (w *emlWriter) stop() {
	if w.jobs != nil {
		w.wg.Wait()
		close(w.jobs)
		w.jobs = nil
	}
}

// first is the number of the next file after those already in the folder.
func (w *emlWriter) first() int {
	next := 1
	if w.dir == "" {
		return next
	}
	entries, _ := os.ReadDir(w.dir)
	for _, en := range entries {
		if v, err := strconv.Atoi(strings.TrimSuffix(en.Name(), ".eml")); err == nil && strings.HasSuffix(en.Name(), ".eml") && v >= next {
			next = v + 1
		}
	}
	return next
}

// writeAgain writes each notice of outbox whose mail is in the folder
// already (a file holding its Message-ID) over that file, under its number,
// and returns the others, in their order, with how many it wrote. A replay
// that starts without a checkpoint calls it on the outbox of the state it
// loaded: a replay of that state killed, its checkpoint deleted since,
// wrote those files, and the journal re-done still holds their notices as
// not written (only the checkpoint said they were). Written after the
// folder's last file instead, each would be there twice. Only the files
// that can be the outbox's are read (outboxFiles), not every mail of the
// folder.
func (w *emlWriter) writeAgain(outbox []*contract.Outgoing, pause func(string)) (rest []*contract.Outgoing, again int, err error) {
	if w.dir == "" {
		return outbox, 0, nil
	}
	names, err := w.outboxFiles(len(outbox))
	if err != nil {
		return nil, 0, err
	}
	return w.takeAgain(outbox, names, pause)
}

// outboxFiles are the names of the folder's numbered files that can hold
// the mails of an outbox of n notices: the n last by number. A replay
// writes the mails of each save numbered on from those before, and writes
// a snapshot (the state file whole) only once the mails of the saves it
// includes are on disk; the saves after the snapshot, whose notices the
// outbox of the state loaded holds, in their order, wrote theirs (all,
// some, or none, the last perhaps cut short by the kill) as the folder's
// last files. The files before them are the snapshot's saves' and earlier
// replays' of the state (the folder holds one state's mails: outTaken).
func (w *emlWriter) outboxFiles(n int) ([]string, error) {
	d, err := os.Open(w.dir)
	if err != nil {
		return nil, err
	}
	all, err := d.Readdirnames(-1) // unsorted: the numbers are
	d.Close()
	if err != nil {
		return nil, err
	}
	var nums []int
	for _, name := range all {
		num, ok := strings.CutSuffix(name, ".eml")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 0 || emlName(v) != name {
			continue
		}
		nums = append(nums, v)
	}
	slices.Sort(nums)
	nums = nums[max(0, len(nums)-n):]
	names := make([]string, len(nums))
	for i, v := range nums {
		names[i] = emlName(v)
	}
	return names, nil
}

// takeAgain is writeAgain over the folder's files names, in the folder's
// order. A file is the notice's only if it holds the start of the mail
// composed of it (all of it, or what a kill left): another state's replay
// of the same archive into the same folder (one an earlier build wrote,
// before the folder named its state: outTaken) makes mails of the same
// Message-IDs, and its files stay.
func (w *emlWriter) takeAgain(outbox []*contract.Outgoing, names []string, pause func(string)) (rest []*contract.Outgoing, again int, err error) {
	byID, cut, err := w.messageIDs(names)
	if err != nil {
		return nil, 0, err
	}
	for _, o := range outbox {
		// Its own file, among those of its Message-ID (other states' too:
		// the latest first, as this state's were written after theirs),
		// or else a file a kill cut short before its header's end (it
		// holds the start of this mail, an empty file too).
		same := slices.Clone(byID[contract.MessageID(o.ID, contract.Domain(w.addr.Referee))])
		slices.Reverse(same)
		name, err := w.fileOf(o, same)
		if err == nil && name == "" {
			if name, err = w.fileOf(o, cut); name != "" {
				cut = slices.DeleteFunc(cut, func(c string) bool { return c == name })
			}
		}
		if err != nil {
			return nil, 0, err
		}
		if name == "" {
			rest = append(rest, o)
			continue
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(name, ".eml"))
		if err := w.write([]*contract.Outgoing{o}, n, pause); err != nil {
			return nil, 0, err
		}
		again++
	}
	return rest, again, nil
}

// fileOf is the first of the folder's files names that holds the start of
// o's mail (holdsStartOf), "" for none.
func (w *emlWriter) fileOf(o *contract.Outgoing, names []string) (string, error) {
	for _, name := range names {
		ok, err := w.holdsStartOf(name, o)
		if err != nil || ok {
			return name, err
		}
	}
	return "", nil
}

// holdsStartOf says whether the folder's file name holds the start of the
// mail composed of o (compose).
func (w *emlWriter) holdsStartOf(name string, o *contract.Outgoing) (bool, error) {
	raw, err := w.compose(o)
	if err != nil {
		return false, err
	}
	have, err := os.ReadFile(filepath.Join(w.dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return bytes.HasPrefix(raw, have), nil
}

// messageIDs are the folder's files names (numbered files, in the
// folder's order) by the Message-ID each holds (without its angle
// brackets), and the names of those whose Message-ID cannot be read: cut
// short before it or before their header's end (a kill while one was
// written). A file gone is left out.
func (w *emlWriter) messageIDs(names []string) (byID map[string][]string, cut []string, err error) {
	byID = map[string][]string{}
	for _, name := range names {
		f, err := openHeader(filepath.Join(w.dir, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		m, err := mail.ReadMessage(bufio.NewReader(f))
		f.Close()
		if err != nil {
			cut = append(cut, name)
			continue
		}
		if id := strings.Trim(m.Header.Get("Message-ID"), "<> \t"); id != "" {
			byID[id] = append(byID[id], name)
		} else {
			cut = append(cut, name) // cut before its Message-ID
		}
	}
	return byID, cut, nil
}

// openHeader opens a file of the folder to read its header (messageIDs); a
// variable for its test alone.
var openHeader = os.Open

// write writes the outbox's notices as files from number next on, or hands
// them to the writer goroutine. The notices are not changed after: the
// outbox that held them is emptied.
func (w *emlWriter) write(outbox []*contract.Outgoing, next int, pause func(string)) error {
	if w.dir == "" || len(outbox) == 0 {
		return nil
	}
	if err := w.writeMark(); err != nil {
		return err
	}
	w.pending = true
	if w.jobs != nil {
		w.wg.Add(1)
		w.jobs <- emlJob{outbox, next}
		return nil
	}
	return w.writeAll(outbox, next, pause)
}

// compose is the mail of o as the folder holds it: the same every time.
func (w *emlWriter) compose(o *contract.Outgoing) ([]byte, error) {
	raw, err := mailout.Compose(bridge.Mail(&o.Notice, w.addr))
	if err != nil {
		return nil, fmt.Errorf("compose %s: %w", o.ID, err)
	}
	return raw, nil
}

func (w *emlWriter) writeAll(outbox []*contract.Outgoing, next int, pause func(string)) error {
	for i, o := range outbox {
		raw, err := w.compose(o)
		if err != nil {
			return err
		}
		name := emlName(next + i)
		if err := w.writeFile(name, raw); err != nil {
			return fmt.Errorf("write %s: %w", filepath.Join(w.dir, name), err)
		}
		pause("eml")
	}
	return nil
}

// emlName is the name of the file numbered n (n >= 0): at least four
// digits, as "%04d.eml" writes it.
func emlName(n int) string {
	d := strconv.Itoa(n)
	return "0000"[min(len(d), 4):] + d + ".eml"
}

// writeFile writes raw as the file name in the folder, mode 0644 whatever
// the umask. A new file takes three system calls (openat, write, and close,
// which is put off to after the sync, with the advice to let its pages go:
// see letGoKept; os.OpenFile adds four fcntl and an epoll_ctl to them, the
// chmod one more), with a fourth only when the umask takes bits of 0644
// away; a file that is there already (written before a kill) is written
// over and set to 0644. The name is looked up in the folder held open, not
// by its path from the root: the kernel's time to make a file is then the
// folder's (its lookup of the name, the new inode, the name's entry).
func (w *emlWriter) writeFile(name string, raw []byte) error {
	fd, chmod, err := w.openFile(name)
	if (errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE)) && len(w.kept) > 0 {
		// The files kept open take what the process may open: they are
		// closed now, left to the kernel, and half as many are kept
		// from now on.
		w.maxKept = len(w.kept) / 2
		if err := w.closeKept(); err != nil {
			return err
		}
		fd, chmod, err = w.openFile(name)
	}
	if err != nil {
		return err
	}
	for len(raw) > 0 && err == nil {
		var n int
		if n, err = rawWrite(fd, raw); err == nil && n == 0 {
			err = io.ErrShortWrite
		} else if err == nil {
			raw = raw[n:]
		} else if errors.Is(err, unix.EINTR) {
			err = nil
		}
	}
	if err == nil && chmod {
		err = unix.Fchmod(fd, 0o644)
	}
	if err == nil && len(w.kept) < w.maxKept {
		w.kept = append(w.kept, keptFile{fd, name})
		return nil
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	return err
}

// openFile opens the file name in the folder to be written, new or
// emptied; chmod says whether its mode is to be set.
func (w *emlWriter) openFile(name string) (fd int, chmod bool, err error) {
	fd, err = ignoringEINTR(func() (int, error) {
		return rawOpenat(w.dirFD, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o644)
	})
	if errors.Is(err, unix.EEXIST) {
		fd, err = ignoringEINTR(func() (int, error) {
			return unix.Openat(w.dirFD, name, unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
		})
		return fd, true, err
	}
	return fd, w.chmod, err
}

// closeKept closes the files kept open, without letting them go; a file
// whose close fails (a file system that reports a failed write there) is
// named.
func (w *emlWriter) closeKept() error {
	var err error
	for _, k := range w.kept {
		if cerr := unix.Close(k.fd); cerr != nil && err == nil {
			err = fmt.Errorf("write %s: %w", filepath.Join(w.dir, k.name), cerr)
		}
	}
	w.kept = w.kept[:0]
	return err
}

func ignoringEINTR(f func() (int, error)) (int, error) {
	for {
		fd, err := f()
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}

// umask is the process's file mode creation mask, read from
// /proc/self/status (setting it to read it would change it for every
// thread meanwhile); 0o777 when it cannot be read.
func umask() uint32 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0o777
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Umask:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return uint32(m)
			}
		}
	}
	return 0o777
}

// sync makes the files written so far durable: one sync of the folder's
// file system, however many files.
func (w *emlWriter) sync() error {
	if !w.pending {
		return nil
	}
	if w.jobs != nil {
		w.wg.Wait()
		if w.err != nil {
			return w.err
		}
	}
	if err := syncFS(w.dirFD); err != nil {
		return fmt.Errorf("sync %s: %w", w.dir, err)
	}
	w.pending = false
	return w.letGoKept()
}

// syncFS syncs the file system of a folder open as fd (unix.Syncfs); a
// variable for its test alone.
var syncFS = unix.Syncfs

// letGoKept lets the pages of the files kept open go from the page cache,
// now that the sync has written them back, and closes them: the replay
// never reads them, and the kernel gives their pages to the next files at
// once, where a page the process has never touched can cost many times
// the copy into it (a virtual machine whose host took back the memory the
// guest had left free). A file whose close fails is named.
func (w *emlWriter) letGoKept() error {
	for _, k := range w.kept {
		_ = unix.Fadvise(k.fd, 0, 0, unix.FADV_DONTNEED)
	}
	return w.closeKept()
}

// interruptedError is a replay stopped by SIGINT or SIGTERM after saving
// its checkpoint: exit status 3.
type interruptedError struct{ sig os.Signal }

func (e *interruptedError) Error() string { return fmt.Sprintf("stopped by %v", e.sig) }

// replayPause is a test hook: REFEREE_REPLAY_PAUSE=POINT:K stops the replay
// the K-th time it reaches POINT ("message": before reading a message;
// "saving": the checkpoint file written, the inputs not yet journaled;
// "saved": the inputs journaled, the save's files not yet written; "eml":
// after each file; "snapshot": the state file written whole), says so on
// stderr, and waits there (at most a minute) for a signal. It also saves a
// checkpoint after every message instead of every few seconds, and a
// snapshot every third input instead of every snapshotInputs.
//
// The replay's saves reach their points on a goroutine of their own while
// the messages after them reach "message": mu guards what both change.
type replayPause struct {
	point   string
	k       int
	w       io.Writer
	sigs    chan os.Signal
	mu      sync.Mutex
	seen    map[string]int
	got     os.Signal
	waiting bool // at waits for the signal: signalled leaves it to at
}

func newReplayPause(w io.Writer, sigs chan os.Signal) *replayPause {
	p := &replayPause{w: w, sigs: sigs, seen: map[string]int{}}
	v := os.Getenv("REFEREE_REPLAY_PAUSE")
	if point, k, ok := strings.Cut(v, ":"); ok {
		p.point = point
		p.k, _ = strconv.Atoi(k)
	}
	return p
}

func (p *replayPause) active() bool { return p.point != "" }

func (p *replayPause) at(point string) {
	if point != p.point {
		return
	}
	p.mu.Lock()
	p.seen[point]++
	k := p.seen[point]
	p.mu.Unlock()
	if k != p.k {
		return
	}
	p.mu.Lock()
	p.waiting = true
	p.mu.Unlock()
	fmt.Fprintf(p.w, "referee replay: paused at %s %d\n", point, p.k)
	select {
	case s := <-p.sigs:
		p.mu.Lock()
		p.got = s
		p.waiting = false
		p.mu.Unlock()
	case <-time.After(time.Minute):
		p.mu.Lock()
		p.waiting = false
		p.mu.Unlock()
	}
}

// signalled returns the signal received, if any, without waiting.
func (p *replayPause) signalled() os.Signal {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.got != nil || p.waiting {
		return p.got
	}
	select {
	case s := <-p.sigs:
		p.got = s
	default:
	}
	return p.got
}

// loadReplayState loads the state a replay starts from: as Load does (the
// state file and the journal's inputs after it), but for a replay stopped
// before its end (its checkpoint ck), only up to ck's last point, each save
// of the replay re-done on an empty outbox as the replay had it (a save
// before it, a daemon's, on the outbox as it was): the lines past it are
// those of the save the stop interrupted, which the replay makes again
// (the journal's guards cut them, keeping a copy). It also returns the
// journal_inputs of the state file, -1 when it may not hold them all.
func loadReplayState(e *contract.Engine, path string, ck *replayCheckpoint) (*contract.State, int64, error) {
	if ck != nil {
		return store.LoadUpTo(e, path, ck.Cur.Inputs, func(s *contract.State) {
			if s.JournalInputs >= ck.FirstInputs {
				s.Outbox = nil
			}
		})
	}
	s, err := store.Load(e, path)
	return s, -1, err
}

// rawOpenat and rawWrite are unix.Openat and unix.Write made as raw
// system calls: the goroutine keeps its P through them. A mail's file
// takes 20 to 40 us of the kernel's time to make, longer than the 20 us
// after which the runtime's monitor takes the P of a goroutine in a system
// call and wakes another thread for it; when the call returns, the writer's
// thread finds its P gone and sleeps, and the writer waits in the queue.
// On one core that was two thread switches a mail (17,000 voluntary
// context switches in a 200,000-message replay, 8,600 without), with their
// system time, and the writer fell behind the engine. A file in the mails'
// folder is made and written in the page cache: the calls do not wait for
// the disk, save in the rare case of a block to read, when the P waits with
// them.
func rawOpenat(dirfd int, path string, flags int, mode uint32) (int, error) {
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	fd, _, e := unix.RawSyscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), uintptr(mode), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

func rawWrite(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
