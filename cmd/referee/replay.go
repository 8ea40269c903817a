package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"referee/contract"
	"referee/contract/store"
	"referee/contract/text"
	"referee/internal/bridge"
	"referee/internal/daemon"
	"referee/mailin"
)

const replayUsage = `Usage: referee replay [--state F] [--config F] [--until TIME] [--out DIR] [--secret-file F] ARCHIVE...

Applies archived mail to the state, in the order given and, within each
archive, in its order, as referee run would have applied it on arrival:
  - an mbox file (mboxo or mboxrd; the From_ line's date is the arrival time),
  - a maildir folder (in the order of the delivery times in its files' names,
    which are the arrival times), or a single .eml file (its Date header),
  - imap:FOLDER, a folder of the configured IMAP server, read without changing
    it (INTERNALDATE is the arrival time; imap.addr and imap.user are needed,
    no SMTP server: a replay sends nothing).
Between messages every scheduled event whose time has passed runs (rounds,
reports). --until TIME then brings the clock to TIME, running every event due
by then, as if the referee had run on to TIME with no more mail. It is no
cutoff: every message of the archives is applied, whatever its arrival; a
TIME before the state's clock at the end (before the last message's arrival,
say) runs nothing, and the replay says so.

Each mail the referee would send is written as DIR/0001.eml, 0002.eml, ...
(DIR is created if missing; numbering continues after the files already
there); without --out the mails are counted and dropped. The last line
counts the messages applied and skipped, the journal entries and the mails.
DIR holds one state's mails: DIR/.state-id names the state (when it was
created, and the commitment to its seed of that week), and a replay of
another state into a DIR that holds mails is refused, exit status 2.

The state (--state, or data/state.yaml) is created if it does not exist yet,
from the starting state at the first message's arrival time (or, when that is
the Randomness notice a state sends when it is made, as in the referee's own
store of mail, at the second its Message-ID names, when that state was made),
with the master secret in --secret-file (64 hex digits, as the state writes it, or 32 raw
bytes) or a new one drawn, and saved before anything else. A state that
exists keeps its own secret: a --secret-file holding another is refused,
exit status 2, and nothing is written; so is a starting state named as
--state (one holding no secret, as referee init --template writes it), with
--secret-file or without. A replay is refused while referee run, another
replay, init or check --repair works on the same state.

Replaying the same archive again changes nothing: every message is
remembered, and one applied before (in an archive replayed again, or one
that overlaps it) is skipped, counted in the last line, and not journaled
again. A message that arrived before the memory of Message-IDs begins
(limits.seen_horizon before the latest message applied) is taken as
applied, whether it was or not, and counted apart; a newer one that arrived
before the state's clock is applied at the clock (ruling G2) and counted as
late: replay an archive older than the state before it, not after.

Every few seconds (or 8,192 messages), and on SIGINT or SIGTERM, the state's
journal and the position in the archives are saved (the position in
STATE.replay, removed at the end), and the state file whole every 25,000
messages, at a stop and at the end; a mail is written only once the journal
that made it is saved. A replay that was stopped, or killed, resumes from
there when it is run again with the same arguments, and writes no mail
twice. Stopped by a signal, it exits with status 3. A replay of other
arguments is refused while the checkpoint is there; deleted, the next replay
goes on from the state as the stopped one left it (the messages it applied
stay applied), and a mail of the state's that is in --out already (a killed
replay wrote it after the last whole save) is written again over its own
file, not under a new number.

An mbox that ends inside a line (a copy stopped, a full disk) is replayed up
to its last message, which is not applied: the replay stops naming it, and
the same command with a whole copy goes on from there.

Exit status: 0 done, 1 a failure (what the last checkpoint saved is kept),
2 bad usage or configuration (nothing written), 3 stopped by a signal.

Without GOGC in the environment, the garbage collector's target is 200 (a
heap three times what is live between collections) rather than Go's 100,
and the heap may grow to 64 MiB before a collection while less is live
(with a memory limit of 96 MiB meanwhile); GOGC set by the operator is
kept, and GOMEMLIMIT in place of that limit.
`

// replayGCPercent is the garbage collector's target of a replay when the
// operator sets none: a replay keeps little alive (the state, a few seconds
// of notices) and makes much garbage per message, so collecting half as
// often saves CPU for some memory (a peak RSS of 110-125 MB for 200,000
// messages with a checkpoint's save behind the engine, 95 MB without,
// against 75 MB at Go's 100). A memory limit of 100 MiB with no target,
// measured against it (three runs each, interleaved, one core),
// saved user CPU at 20,000 messages (0.90-0.97 s against 1.04-1.14 s) but
// not at 200,000 (11.7-14.2 s against 11.9-13.3 s), where the collector
// takes 4% of the time, and at 5,000 cost more CPU than it saved (the
// system's, for a heap grown to the limit: 0.42-0.64 s against 0.37-0.52
// s), with twice the peak RSS there and 113 MB against 100 MB at 200,000.
const replayGCPercent = 200

// replayHeapFloor is the least heap goal of a replay when the operator
// sets no GOGC (daemon.SetGCFloor): the collector's target is raised for
// as long as three times the live heap is less. A short replay's live heap
// is a few megabytes, at which the target alone collected every few
// megabytes allocated, costing each message of a 5,000-message archive
// more than a long replay's (four collections of a heap of 8 to 32 MB;
// 32.5 µs of CPU a message on two cores against 26.5 µs at 200,000, five
// runs each, interleaved, mails on tmpfs). With the floor, it collects
// once or not at all: 28.2 µs a message, for a peak RSS of 62 MB against
// 42 MB. At 200,000 messages the live heap makes a goal of 57-76 MB by
// itself after the first seconds: the same CPU and peak RSS (93-103 MB).
const replayHeapFloor = 64 << 20

func cmdReplay(args []string, stdout, stderr io.Writer) (err error) {
	fs, c := newFlags("replay", replayUsage, stderr)
	until := fs.String("until", "", "after the last message, run the scheduled events up to this time, RFC 3339 (no cutoff: every message is applied)")
	out := fs.String("out", "", "write outgoing mail here as numbered .eml files")
	secretFile := fs.String("secret-file", "", "the master secret of a state this replay creates: 64 hex digits, as the state writes it, or 32 raw bytes (for a state that exists: its own, or the replay is refused)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("name at least one archive")
	}
	secret, err := readSecretFile(*secretFile)
	if err != nil {
		return err
	}
	defer daemon.SetGCFloor(replayGCPercent, replayHeapFloor)()
	var untilT time.Time
	if *until != "" {
		t, err := flagTime("until", *until)
		if err != nil {
			return err
		}
		untilT = t.UTC()
	}
	// A replay sends nothing: the SMTP keys are not required, nor the
	// IMAP ones unless an archive is an IMAP folder.
	use := mailUse{}
	archives := make([]string, fs.NArg())
	for i, a := range fs.Args() {
		archives[i] = absArchive(a)
		use.imap = use.imap || strings.HasPrefix(a, "imap:")
	}
	cfg, err := c.loadFor(use)
	if err != nil {
		return err
	}
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	// Every archive is found readable before anything is written: one
	// missing after the first would stop the replay there, its saved
	// position past what the same command can ever read again.
	if err := checkArchives(cfg, archives); err != nil {
		return err
	}
	outDir := ""
	if *out != "" {
		if outDir, err = filepath.Abs(*out); err != nil {
			return err
		}
		if fi, err := os.Stat(outDir); err == nil && !fi.IsDir() {
			return usagef("--out: %s is a file; name a directory (created if missing) for the mails", *out)
		}
	}
	release, err := lockState(cfg.State)
	if err != nil {
		return err
	}
	defer release()
	ckPath := checkpointPath(cfg.State)
	ck, err := loadCheckpoint(ckPath)
	if err != nil {
		return err
	}
	if ck != nil && !ck.sameRun(archives, *until, outDir) {
		// Arguments that do not fit the state as it is: bad usage (exit 2).
		return usagef("%s: a replay of other arguments (%s) was stopped before its end: run it again with the same arguments to finish it, or delete %s to start this one on the state as that one left it (what it applied stays applied; a mail of it found in --out is written over, not twice)", ckPath, ck.args(), ckPath)
	}
	// lastSnap: journal_inputs of the state file (of the last snapshot
	// written); clean: the state file holds every input and no notice,
	// as referee run may take it.
	s, lastSnap, err := loadReplayState(e, cfg.State, ck)
	clean := false
	fresh := errors.Is(err, os.ErrNotExist)
	if err != nil && !fresh {
		return err
	}
	if s != nil && s.Secret == "" {
		// A starting state: the mail applied to it would run no
		// scheduled event, and leave a started state with no secret.
		return usagef("%s exists and holds no master secret (a starting state, as referee init --template writes it): a replay applies mail to a working state; name a --state that does not exist yet, which the replay creates from the starting state at the first message's arrival, with the secret in --secret-file or a new one", cfg.State)
	}
	if secret != nil && s != nil {
		if err := sameSecret(s, secret, *secretFile, cfg.State); err != nil {
			return err
		}
	}
	// The --out folder holds one state's mails: a state made by this
	// replay is held to it once made, at the first message.
	var mark []byte
	if s != nil {
		if mark, err = outMark(s); err != nil {
			return err
		}
		if err := outTaken(outDir, cfg.State, mark); err != nil {
			return err
		}
	}
	if ck != nil && fresh {
		// A point with no state is one before the first save.
		if ck.Prev != nil && ck.Prev.Saved {
			return fmt.Errorf("%s: the replay this checkpoint belongs to saved %s, which is missing now: restore it, or delete %s", ckPath, cfg.State, ckPath)
		}
		// Killed during its first save: nothing of it was kept but,
		// perhaps, the journal lines of that save.
		if sc, err := store.ScanJournal(store.JournalPath(cfg.State), store.Position{}); err == nil && sc.Refusal() != nil && len(sc.Bad) == 0 && sc.OneSave {
			cut, _, err := store.Repair(store.JournalPath(cfg.State), store.Position{}, time.Now())
			if err != nil {
				return err
			}
			fmt.Fprintf(stderr, "referee replay: the first save of the stopped replay never finished: its journal lines were moved to %s\n", cut)
		}
		ck = nil
	}
	if err := checkJournal(cfg, store.At(s)); err != nil {
		return err
	}
	emls, err := newEmlWriter(outDir, addresses(cfg))
	if err != nil {
		return err
	}
	emls.mark = mark
	defer func() {
		emls.close()
		if err != nil {
			emls.removeMade()
		}
	}()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	pause := newReplayPause(stderr, sigs)
	snapEvery := int64(snapshotInputs)
	if pause.active() {
		snapEvery = 3 // the tests' kills meet snapshots within a few messages
	} else {
		// The files are composed and written on another core while the
		// next messages are applied (the tests' pauses come after each
		// file, so there they are written in place).
		emls.background()
	}

	var cur replayPoint
	if ck != nil {
		p, ok := ck.pointOf(store.At(s))
		if !ok || len(s.Outbox) > p.Outbox {
			return fmt.Errorf("%s: %s with its journal (journal_seq %d, journal_inputs %d) is not the state this checkpoint saved (journal_seq %d, journal_inputs %d): it changed since; delete %s to replay from the first message", ckPath, cfg.State, s.JournalSeq, s.JournalInputs, ck.Cur.Seq, ck.Cur.Inputs, ckPath)
		}
		cur = p
		where := "the start"
		if p.Archive < len(archives) {
			where = fmt.Sprintf("%s, message %d", archives[p.Archive], p.Message+1)
		}
		if p.Archive >= len(archives) {
			where = "the end of the archives"
		}
		fmt.Fprintf(stderr, "referee replay: resuming the replay stopped before its end, at %s (%s applied before)\n", where, text.Count(p.Applied, "message", "messages"))
	} else {
		if s != nil && len(s.Outbox) > 0 {
			// A replay of this state killed, its checkpoint deleted
			// since, left the notices of its saves after its last
			// snapshot in the outbox, and wrote their files already.
			rest, again, err := emls.writeAgain(s.Outbox, pause.at)
			if err != nil {
				return err
			}
			if again > 0 {
				fmt.Fprintf(stderr, "referee replay: %s of the state's outbox found in %s already (a replay of this state stopped before its end, its checkpoint gone, wrote them): written again over their own files, not after the last\n", text.Count(again, "mail", "mails"), *out)
			}
			s.Outbox = rest
		}
		ck = &replayCheckpoint{Archives: archives, Until: *until, Out: outDir, FirstSeq: keepOf(s), FirstInputs: store.At(s).Inputs, FirstEml: emls.first()}
		cur = replayPoint{Seq: keepOf(s), Next: ck.FirstEml}
		if s != nil {
			cur.Inputs, cur.Saved, cur.Outbox = s.JournalInputs, true, len(s.Outbox)
		}
	}
	if s != nil {
		// The notices of the last save, which may not all have been
		// written: written again under the same numbers (the last of
		// the save's; the outbox of a snapshot written after the save
		// holds none of them).
		if err := emls.write(s.Outbox, cur.Next+cur.Outbox-len(s.Outbox), pause.at); err != nil {
			return err
		}
		s.Outbox = nil
	}
	var steps []store.Step // the inputs since the last save
	ck.Cur, ck.Prev = cur, nil

	// The journal of a state to be created is opened at its first save
	// (its folder may not exist before).
	keep := store.At(s)
	var j *store.Journal
	defer func() {
		if j != nil {
			j.Close()
		}
	}()
	if s != nil {
		if j, err = openJournal(cfg, keep, printNote(stderr, "replay")); err != nil {
			return err
		}
	}

	// behind is the save handed to a goroutine of its own (save), which
	// says on it when the save is done, with its error; nil when none is
	// under way. The messages after the save are applied meanwhile: they
	// change the state, never a file. waitBehind waits for it: before
	// the next save, a snapshot, a correction's re-run (which reads the
	// journal), and before the replay returns.
	var behind chan error
	waitBehind := func() error {
		if behind == nil {
			return nil
		}
		err := <-behind
		behind = nil
		return err
	}
	// goBehind hands f to a goroutine of its own as the save behind.
	goBehind := func(f func() error) {
		done := make(chan error, 1)
		behind = done
		go func() { done <- f() }()
	}
	// Stopped by another error while a save is behind, the replay
	// names the save's error too (a file-system sync that failed, say).
	defer func() {
		if werr := waitBehind(); werr != nil {
			err = errors.Join(err, werr)
		}
	}()

	// save journals the inputs since the last save with the position pos,
	// then writes the notices of the save; with nothing to journal, only
	// the position is saved. The first save (entries made by no input: the
	// state's start) writes the state file whole.
	save := func(pos replayPoint) error {
		if err := waitBehind(); err != nil {
			return err
		}
		if len(steps) == 0 {
			pos.Seq, pos.Inputs, pos.Saved, pos.Next, pos.Outbox = cur.Seq, cur.Inputs, cur.Saved, cur.Next, cur.Outbox
			cur, ck.Cur = pos, pos
			return ck.save(ckPath)
		}
		whole := j == nil
		nin := int64(0)
		for _, st := range steps {
			if st.Input != nil {
				nin++
			} else {
				whole = true
			}
		}
		pos.Seq, pos.Inputs, pos.Saved, pos.Next, pos.Outbox = s.JournalSeq, s.JournalInputs+nin, true, cur.Next+cur.Outbox, len(s.Outbox)
		prev := cur
		ck.Prev, ck.Cur = &prev, pos
		// The rest of the save, in this order: the files of the last save
		// become durable before the point that lists them is replaced;
		// the point, then the save's journal lines (journal); then the
		// save's notices, numbered from pos.Next.
		finish := func(journal func() error, outbox []*contract.Outgoing) error {
			if err := emls.sync(); err != nil {
				return err
			}
			if err := ck.save(ckPath); err != nil {
				return err
			}
			pause.at("saving")
			if err := journal(); err != nil {
				return err
			}
			pause.at("saved")
			return emls.write(outbox, pos.Next, pause.at)
		}
		if !whole {
			// On a goroutine of its own: the next messages are applied
			// while the disk makes this save durable (the files' sync
			// waits for their writer and the disk: 0.3 to 1.2 s a save
			// at 20,000 messages).
			at, saved, outbox := store.At(s), steps, s.Outbox
			s.JournalInputs += nin
			cur = pos
			steps, s.Outbox = nil, nil
			goBehind(func() error {
				return finish(func() error {
					_, err := j.LogAt(at, saved, true)
					return err
				}, outbox)
			})
			return nil
		}
		// The state file written whole, in line: it is the state.
		err := finish(func() error {
			if j == nil {
				var err error
				if j, err = openJournal(cfg, keep, printNote(stderr, "replay")); err != nil {
					return err
				}
			}
			if err := store.CommitSteps(j, cfg.State, s, steps); err != nil {
				return err
			}
			lastSnap, clean = s.JournalInputs, len(s.Outbox) == 0
			cur = pos
			return nil
		}, s.Outbox)
		if err != nil {
			return err
		}
		steps = nil
		s.Outbox = nil
		return nil
	}
	// snapshot writes the state file whole, its outbox empty, once the
	// files of the last save are durable: a replay resumed from it re-does
	// less of the journal. The point stays: its notices are on disk.
	//
	// The state is taken on the engine's goroutine (Encoder.Take: what
	// changed since the last); the files' sync, the encoding and the
	// write go behind, as a save does, and the next save, snapshot or
	// re-run waits for them: on one core the engine stood idle through
	// the disk's part (the file system's sync, the state file's fsync
	// and rename, the folder's fsync), nine times in a 200,000-message
	// replay.
	snapshot := func() error {
		if err := waitBehind(); err != nil {
			return err
		}
		if (clean && lastSnap == s.JournalInputs) || j == nil {
			return nil
		}
		p, err := j.StartSnapshot(cfg.State, s)
		if err != nil {
			return err
		}
		lastSnap, clean = s.JournalInputs, true
		goBehind(func() error {
			if err := emls.sync(); err != nil {
				p.Drop()
				return err
			}
			if err := p.Write(); err != nil {
				return err
			}
			pause.at("snapshot")
			return nil
		})
		return nil
	}
	// checkpoint saves, and writes a snapshot every snapshotInputs
	// inputs; the last one always does, so that the state file, which
	// `referee run` takes as it is, holds every input and none of the
	// replay's notices (run would send them).
	checkpoint := func(pos replayPoint, last bool) error {
		if err := save(pos); err != nil {
			return err
		}
		if !last && s.JournalInputs-lastSnap < snapEvery {
			return nil
		}
		return snapshot()
	}
	interrupted := func(pos replayPoint) error {
		sig := pause.signalled()
		if sig == nil {
			return nil
		}
		if fresh {
			fmt.Fprintf(stderr, "referee replay: stopped by %v before the first message; nothing was saved\n", sig)
			return &interruptedError{sig: sig}
		}
		if err := checkpoint(pos, true); err != nil {
			return err
		}
		if err := waitBehind(); err != nil {
			return err
		}
		if err := emls.sync(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "referee replay: stopped by %v after %s; the state and the position are saved: run the same command again to resume\n", sig, text.Count(pos.Applied, "message", "messages"))
		return &interruptedError{sig: sig}
	}

	// correctPending re-runs the corrections accepted and not yet re-run
	// (State.PendingCorrections), as referee run does: the state and the
	// journal are saved first, for the re-run reads its history from them;
	// the re-run (or its refusal) is saved at once, so a resumed replay
	// finds none left, or re-runs one a kill interrupted.
	correctPending := func(pos replayPoint, at time.Time) error {
		fixes := s.PendingCorrections()
		if len(fixes) == 0 {
			return nil
		}
		if err := checkpoint(pos, false); err != nil {
			return err
		}
		for _, fix := range fixes {
			// The re-run reads the journal: the last save is whole
			// in it first.
			if err := waitBehind(); err != nil {
				return err
			}
			s2, step, _ := store.Correct(e, cfg.State, s, fix, at)
			if s2 == nil { // refused: the contestmaster is told why
				ent, err := e.Redo(s, step.Input)
				if err != nil {
					return err
				}
				step.Entries = ent
			} else {
				s = s2
			}
			steps = append(steps, step)
			if err := checkpoint(pos, false); err != nil {
				return err
			}
		}
		return nil
	}
	if s != nil {
		if err := correctPending(cur, s.Clock); err != nil {
			return err
		}
	}

	pipe := &bridge.Pipeline{Engine: e, Mail: mailinConfig(cfg)}
	progress := newProgress(stderr)
	pos := cur
	lastSave, every := time.Now(), checkpointEvery
	for ai := cur.Archive; ai < len(archives); ai++ {
		path := archives[ai]
		a, err := openArchive(cfg, path)
		if err != nil {
			return err
		}
		read := 0
		if ai == cur.Archive {
			// Skip what the checkpoint says was read, and check that
			// the archive still holds the same message there.
			for read < cur.Message {
				raw, err := a.Next()
				if err != nil {
					a.Close()
					return fmt.Errorf("%s: the checkpoint's position (message %d) is past the archive's end (%v): it changed since; delete %s to replay from the first message", path, cur.Message, err, ckPath)
				}
				read++
				if read == cur.Message && cur.MessageID != "" {
					if m, err := pipe.Read(raw.Data, raw.Arrived); err == nil && m.ID != cur.MessageID {
						a.Close()
						return fmt.Errorf("%s: message %d is %s, the checkpoint's is %s: the archive changed since; delete %s to replay from the first message", path, read, m.ID, cur.MessageID, ckPath)
					}
				}
			}
		}
		pos.Archive, pos.Message = ai, read
		if ai != cur.Archive {
			pos.MessageID = ""
		}
		// The rest of the archive is read and parsed ahead, on every
		// core, while the engine applies in order.
		ahead := readAhead(a, pipe, runtime.GOMAXPROCS(0))
		stop := func() { ahead.stop(); a.Close() }
		for {
			if err := interrupted(pos); err != nil {
				stop()
				return err
			}
			if !fresh && (pause.active() || time.Since(lastSave) >= every || len(s.Outbox) >= checkpointNotices || len(steps) >= checkpointInputs) {
				began := time.Now()
				if err := checkpoint(pos, false); err != nil {
					stop()
					return err
				}
				lastSave = time.Now()
				// Checkpoints take at most a twentieth of the time: on a
				// busy machine, or with a large state, they come less often.
				every = max(checkpointEvery, 20*lastSave.Sub(began))
			}
			if pause.active() {
				// The tests' kills at a message find the save
				// before it whole, as without a save behind.
				if err := waitBehind(); err != nil {
					stop()
					return err
				}
			}
			pause.at("message")
			r, ok := ahead.next()
			if !ok {
				break
			}
			if r.err != nil {
				stop()
				return fmt.Errorf("read %s: %w", path, r.err)
			}
			if fresh {
				var started []contract.Entry
				at := r.arrived
				if t, ok := startedAt(r.m, cfg.Address); ok && !t.After(at) {
					at = t
				}
				s, started, err = openState(e, cfg, at, secret)
				steps = []store.Step{{Entries: started}}
				if err != nil {
					stop()
					return err
				}
				// Refused before anything of the state is saved.
				if emls.mark, err = outMark(s); err == nil {
					err = outTaken(outDir, cfg.State, emls.mark)
				}
				if err != nil {
					stop()
					return err
				}
				fresh = false
				// The master secret is saved before any notice that
				// depends on it.
				if err := checkpoint(pos, false); err != nil {
					stop()
					return err
				}
				lastSave = time.Now()
			}
			m, err := r.m, r.parseErr
			if err == nil && e.Repeats(s, m) {
				// Read before (an archive replayed again, or one that
				// overlaps it): nothing to apply or to journal.
				pos.Message++
				pos.MessageID = m.ID
				if s.Forgotten(m) {
					pos.Old++
				} else {
					pos.Skipped++
				}
				continue
			}
			var ent []contract.Entry
			late := false
			if err == nil {
				late = m.Arrived.Before(s.Clock)
				ent, err = pipe.Apply(s, m)
			}
			pos.Message++
			pos.MessageID = ""
			var ue *bridge.UnreadableError
			if errors.As(err, &ue) {
				fmt.Fprintf(stderr, "referee replay: %s: message %d unreadable, skipped: %v\n", path, pos.Message, ue.Err)
				continue
			}
			if err != nil {
				stop()
				return fmt.Errorf("%s: message %s: %w (the state is saved up to the last checkpoint, which the same command resumes from)", path, m.ID, err)
			}
			pos.MessageID = m.ID
			steps = append(steps, store.Step{Input: &contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m}, Entries: ent})
			pos.Applied++
			if late {
				pos.Late++
			}
			progress.tick(pos.Applied)
			if err := correctPending(pos, m.Arrived); err != nil {
				stop()
				return err
			}
		}
		stop()
	}
	progress.done(pos.Applied)
	if fresh {
		return usagef("the archives hold no message and there is no state to replay onto")
	}
	// Not again when resumed after it: the input would be journaled twice.
	if !untilT.IsZero() && s.Clock.Before(untilT) {
		in := &contract.Input{Kind: contract.InAdvance, At: untilT}
		ent, err := e.Redo(s, in)
		if err != nil {
			return err
		}
		steps = append(steps, store.Step{Input: in, Entries: ent})
	}
	// --until is no cutoff: a TIME the messages went past ran nothing,
	// which the operator who took it for one is told.
	untilPast := !untilT.IsZero() && s.Clock.After(untilT)
	pos.Archive, pos.Message, pos.MessageID = len(archives), 0, ""
	if err := checkpoint(pos, true); err != nil {
		return err
	}
	if err := waitBehind(); err != nil {
		return err
	}
	if err := emls.sync(); err != nil {
		return err
	}
	if err := os.Remove(ckPath); err != nil {
		return err
	}
	if untilPast {
		fmt.Fprintf(stderr, "referee replay: --until %s is before the state's clock, %s: it ran nothing; --until is no cutoff, every message is applied whatever its arrival (for the state as it stood at a time, replay the mail that arrived before it alone)\n", *until, s.Clock.UTC().Format(time.RFC3339))
	}
	where := "dropped (no --out)"
	if *out != "" {
		where = "written to " + *out
	}
	applied := text.Count(pos.Applied, "message", "messages") + " applied"
	if pos.Late > 0 {
		applied += fmt.Sprintf(", %d of them late (arrived before the state's clock and applied at it, ruling G2: replay archives in the order their mail arrived)", pos.Late)
	}
	if pos.Skipped > 0 {
		applied += fmt.Sprintf(", %d skipped (applied before)", pos.Skipped)
	}
	if pos.Old > 0 {
		applied += fmt.Sprintf(", %d skipped (arrived before %s, where the memory of applied Message-IDs begins: taken as applied)", pos.Old, s.Seen.Horizon.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(stdout, "%s, %s, %s %s\n", applied, text.Count(int(s.JournalSeq-ck.FirstSeq), "journal entry", "journal entries"),
		text.Count(cur.Next+cur.Outbox-ck.FirstEml, "mail", "mails"), where)
	return nil
}

// A replay saves its checkpoint every checkpointEvery (or twenty times as
// long as the last checkpoint took, if that is longer), and sooner when
// checkpointNotices notices wait in the outbox (each save encodes them with
// the state, which takes memory) or checkpointInputs inputs wait to be
// journaled (each holds its message: a replay of mail that makes no notice,
// such as talk on the discussion list, held three seconds of it, 200 MB
// and more).
const (
	checkpointEvery   = 3 * time.Second
	checkpointNotices = 1024
)

// checkpointInputs is a variable for its test alone.
var checkpointInputs = 8192

// A replay writes the state file whole (a snapshot) every snapshotInputs
// inputs, besides its first save and its end: a resumed replay re-does the
// journal's inputs after it, and a correction re-runs from a snapshot.
const snapshotInputs = 25000

// absArchive is the archive's path made absolute (imap:FOLDER as it is), so
// that a replay run again from another directory is known as the same.
func absArchive(path string) string {
	if strings.HasPrefix(path, "imap:") {
		return path
	}
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}

// openArchive opens an mbox file, a maildir, an .eml file, or "imap:FOLDER": a
// folder of the configured IMAP server read without changing it (the
// referee's own store of received mail, so a game can be rebuilt from it).
// checkArchives opens each archive file and closes it again (an mbox, a
// maildir or a message, its first bytes read), and refuses an IMAP folder
// with no IMAP server configured: bad usage, before the replay starts.
// The folders of a configured server are opened in turn, as they are read.
func checkArchives(cfg *Config, archives []string) error {
	for _, path := range archives {
		if strings.HasPrefix(path, "imap:") {
			if cfg.Embedded() {
				return usagef("%s: no IMAP server is configured (imap.addr)", path)
			}
			continue
		}
		a, err := mailin.OpenArchive(path)
		if err != nil {
			return usagef("%v", err)
		}
		a.Close()
	}
	return nil
}

func openArchive(cfg *Config, path string) (mailin.Archive, error) {
	folder, ok := strings.CutPrefix(path, "imap:")
	if !ok {
		a, err := mailin.OpenArchive(path)
		if err != nil {
			return nil, usagef("%v", err)
		}
		return a, nil
	}
	if cfg.Embedded() {
		return nil, usagef("%s: no IMAP server is configured (imap.addr)", path)
	}
	ic, err := imapConfig(cfg, nil)
	if err != nil {
		return nil, err
	}
	ic.Mailbox = folder
	// Every IMAP command is bounded by mailin's own time limit.
	return mailin.OpenIMAPArchive(context.Background(), ic)
}

// progress shows a line on a terminal for long archives.
type progress struct {
	w     io.Writer
	tty   bool
	start time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
	}
	return p
}

func (p *progress) tick(n int) {
	if !p.tty || n < 2000 || n%500 != 0 {
		return
	}
	el := time.Since(p.start).Seconds()
	bar := strings.Repeat("#", (n/2000)%30) + strings.Repeat(".", 30-(n/2000)%30)
	fmt.Fprintf(p.w, "\r[%s] %d messages, %.0f/s", bar, n, float64(n)/el)
}

func (p *progress) done(n int) {
	if p.tty && n >= 2000 {
		fmt.Fprintf(p.w, "\r%d messages in %.1fs%s\n", n, time.Since(p.start).Seconds(), strings.Repeat(" ", 30))
	}
}

// startNoticeID is the Message-ID the referee gives the Randomness notice a
// state sends when it is made: the notice's ID, "randomness/2026-W49/
// 20261204T154027", spelled with dots, then a hash of it.
var startNoticeID = regexp.MustCompile(`^randomness\.(\d{4}-W\d{2})\.(\d{8}T\d{6})\.[0-9a-f]{12}@`)

// startedAt is the time a Randomness notice of the referee's, the first
// message of an archive of its own mail, names in its Message-ID: when the
// state that sent it was made (or, for a weekly one, when the week's notice
// was due). A state the replay makes then is made at that second, as the
// live one was, not at the notice's arrival a moment later, so the notice's
// state hash is the one published. The Message-ID is derived again from
// the notice's ID to be sure it is the referee's.
func startedAt(m *contract.Message, referee string) (time.Time, bool) {
	if m == nil || !strings.EqualFold(m.From, referee) {
		return time.Time{}, false
	}
	g := startNoticeID.FindStringSubmatch(m.ID)
	if g == nil || contract.MessageID("randomness/"+g[1]+"/"+g[2], contract.Domain(referee)) != m.ID {
		return time.Time{}, false
	}
	t, err := time.Parse("20060102T150405", g[2])
	return t.UTC(), err == nil
}
