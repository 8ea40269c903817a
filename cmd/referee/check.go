package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"referee/contract"
	"referee/contract/store"
	"referee/contract/text"
	"referee/internal/bridge"
	"referee/internal/mailnet"
	"referee/internal/yamlerr"
	"referee/mailin"
	"referee/mailout"
)

const checkUsage = `Usage: referee check [--state F] [--config F] [--repair] [--no-login]

Reads everything the referee keeps and prints every problem at once, each
with its file and line, in order of file and line:
  - the configuration (each key, and the environment variable that set it);
  - the IMAP and SMTP servers, when imap.addr is set and the configuration
    has no other problem: check logs in to each as referee run does (the
    same TLS, the same login; the IMAP mailbox examined, nothing read or
    marked; no mail sent) and says the server's refusal with the settings
    to check. A server that does not answer is said, but is no problem:
    referee run keeps trying it. --no-login skips this (a check before
    each start of a service: a refused login would stop the start, and a
    server may lock an account after a few);
  - the state: every key, the master secret, every game's section and
    parameters, what each game would do next and its report, the outbox
    (every notice must compose) and the notices that failed for good;
  - the journal (journal.jsonl beside the state): every line decodes, seq
    runs without gaps, and it ends where the state does.
Exit status 0 when all is well, 2 when the configuration has a problem, 1 when
the state, the journal or the outbox has one.

A journal the referee will not open (a line that does not decode, lines that no
saved state includes) stops referee run and referee replay. --repair moves every
line that cannot be kept, byte for byte, to journal.jsonl.cut-<time> beside it,
and rewrites the journal without them: restore the state file first if you have
the one that includes those lines. A torn last line (a crash mid-write) and the
lines of the one save a crash interrupted are cut by the next start by itself.

The configuration, referee.yaml (every key optional; environment variables in
parentheses override it), as referee config prints it:

`

const configUsage = `Usage: referee config

Prints the configuration's schema: referee.yaml with every key, its default
(or an example), the environment variable that overrides it, in parentheses,
and what it is for.
`

// withSchema is a usage text followed by the configuration's schema.
func withSchema(usage string) string {
	var b strings.Builder
	b.WriteString(usage)
	printSchema(&b)
	return b.String()
}

func cmdConfig(args []string, stdout, stderr io.Writer) error {
	fs, _ := newFlags("config", configUsage, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArguments(fs); err != nil {
		return err
	}
	printSchema(stdout)
	return nil
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("check", withSchema(checkUsage), stderr)
	repair := fs.Bool("repair", false, "move the journal lines that cannot be kept to journal.jsonl.cut-<time>")
	noLogin := fs.Bool("no-login", false, "do not log in to the IMAP and SMTP servers")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArguments(fs); err != nil {
		return err
	}
	path, explicit := c.configPath()
	cfg, err := loadConfig(path, explicit)
	var conf configProblems
	if err != nil && !errors.As(err, &conf) {
		return usagef("%v", err)
	}
	if c.state != "" {
		cfg.State = c.state
	}
	conf = append(conf, cfg.validate(gameIDs())...)
	if err := othersJournal(cfg.State); *repair && err != nil {
		// Perhaps not this state's journal: --repair would take it
		// from its own.
		return err
	}
	if _, err := os.Stat(filepath.Dir(cfg.State)); *repair && err == nil {
		// --repair moves journal lines: not under a running referee.
		release, err := lockState(cfg.State)
		if err != nil {
			return err
		}
		defer release()
	}
	if len(conf) == 0 && !cfg.Embedded() && !*noLogin {
		conf = append(conf, cfg.locate(checkServers(context.Background(), cfg, stdout, serverTimeout))...)
	}
	data := checkData(cfg, *repair, stdout)
	for _, p := range inFileOrder(append(conf, data...)) {
		fmt.Fprintln(stdout, p)
	}
	switch {
	case len(conf) > 0:
		return errProblems
	case len(data) > 0:
		return errDataProblems
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}

// problemAt is the "file:line: " a problem begins with.
var problemAt = regexp.MustCompile(`^(\S+?):(\d+): `)

// inFileOrder lists problems in order of file and line: those of a file
// together, where its first problem was, by line (a problem of the file's
// decoding, then one of a key that decoded, on an earlier line, come in
// line order); a problem with no line (one set by an environment variable)
// stays where it was among them.
func inFileOrder(problems []string) []string {
	type at struct {
		file string
		line int
	}
	where := make([]at, len(problems))
	for i, p := range problems {
		if m := problemAt.FindStringSubmatch(p); m != nil {
			n, _ := strconv.Atoi(m[2])
			where[i] = at{m[1], n}
		}
	}
	out := make([]string, 0, len(problems))
	done := map[string]bool{}
	for i, p := range problems {
		f := where[i].file
		if f == "" {
			out = append(out, p)
			continue
		}
		if done[f] {
			continue
		}
		done[f] = true
		var of []int
		for j := i; j < len(problems); j++ {
			if where[j].file == f {
				of = append(of, j)
			}
		}
		slices.SortStableFunc(of, func(a, b int) int { return cmp.Compare(where[a].line, where[b].line) })
		for _, j := range of {
			out = append(out, problems[j])
		}
	}
	return out
}

// serverTimeout bounds check's login to each server.
const serverTimeout = 30 * time.Second

// tlsProbeTimeout bounds check's look, after a login that got no answer,
// at whether the port speaks TLS from the first byte.
const tlsProbeTimeout = 10 * time.Second

// checkServers logs in to the configured IMAP and SMTP servers as referee
// run does and says so to out. A failure the configuration decides (the
// server's refusal of the login or the mailbox, a TLS that does not match)
// is a problem, with the server's words and the settings to check, never
// a password; a server not reached is said to out alone: referee run keeps
// trying it, and the configuration may well be right. The two logins run
// at once, so that two servers that do not answer cost one wait of
// timeout (each login's bound), not two; what each says is written IMAP
// first.
func checkServers(ctx context.Context, cfg *Config, out io.Writer, timeout time.Duration) []string {
	ic, err := imapConfig(cfg, nil)
	if err != nil {
		return []string{err.Error()}
	}
	// An SMTP setting that cannot be used (a password file that cannot
	// be read) is a problem beside the IMAP server's.
	sc, scErr := smtpConfig(cfg)
	sc.Timeout = timeout
	type said struct {
		out     strings.Builder
		problem string
	}
	var imapSaid, smtpSaid said
	failed := func(to *said, key, addr string, mode TLSMode, err error) {
		section := strings.TrimSuffix(key, ".addr")
		if check := serverCheck(err); check != "" {
			to.problem = fmt.Sprintf("%s: %s: %v; check %s", key, addr, err, check)
			return
		}
		if mode != mailnet.TLSImplicit && mailnet.SpeaksTLS(ctx, addr, tlsProbeTimeout) {
			// No greeting: the server waits for the handshake of a
			// client set to tls.
			to.problem = fmt.Sprintf("%s: %s: %v; the server speaks TLS from the first byte there, and %s.tls is %s: check %s.tls (tls for such a port) and the port of %s", key, addr, err, section, mode, section, key)
			return
		}
		fmt.Fprintf(&to.out, "%s: no login to %s (%v); referee run keeps trying it\n", section, addr, err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		ictx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		if n, err := ic.Login(ictx); err != nil {
			failed(&imapSaid, "imap.addr", cfg.IMAP.Addr, cfg.IMAP.TLS, err)
		} else {
			fmt.Fprintf(&imapSaid.out, "imap: logged in to %s as %s; %s holds %s\n", cfg.IMAP.Addr, cfg.IMAP.User, ic.Mailbox, text.Count(int(n), "message", "messages"))
		}
	})
	wg.Go(func() {
		if scErr != nil {
			smtpSaid.problem = scErr.Error()
			return
		}
		switch err := mailout.NewSender(sc, nil).Login(ctx, cfg.Address); {
		case err != nil:
			failed(&smtpSaid, "smtp.addr", cfg.SMTP.Addr, cfg.SMTP.TLS, err)
		case cfg.SMTP.User == "":
			fmt.Fprintf(&smtpSaid.out, "smtp: %s answered (no smtp.user: no login)\n", cfg.SMTP.Addr)
		default:
			fmt.Fprintf(&smtpSaid.out, "smtp: logged in to %s as %s\n", cfg.SMTP.Addr, cfg.SMTP.User)
		}
	})
	wg.Wait()
	var p []string
	for _, s := range []*said{&imapSaid, &smtpSaid} {
		io.WriteString(out, s.out.String())
		if s.problem != "" {
			p = append(p, s.problem)
		}
	}
	return p
}

// serverCheck names the settings to check for err, a login's failure the
// configuration decides, or "" for a server not reached.
func serverCheck(err error) string {
	if check := mailin.SettingsToCheck(err); check != "" {
		return check
	}
	return mailout.SettingsToCheck(err)
}

// checkData lists the problems of the state, its outbox and its journal;
// with repair, it first moves aside the journal lines that cannot be kept.
// What is merely worth knowing goes to out.
func checkData(cfg *Config, repair bool, out io.Writer) []string {
	var p []string
	e, err := newEngine(cfg)
	if err != nil {
		return []string{err.Error()}
	}
	s, err := store.Load(e, cfg.State)
	var de *contract.DecodeError
	missing := errors.Is(err, os.ErrNotExist)
	switch {
	case missing:
	case errors.As(err, &de):
		p = append(p, strings.Split(de.Error(), "\n")...)
	case err != nil:
		p = append(p, err.Error())
	default:
		p = append(p, checkState(e, s, cfg, out)...)
	}
	p = append(p, fileProblems(cfg.State)...)
	jpath := store.JournalPath(cfg.State)
	if s == nil && !missing {
		// No journal_seq to hold the journal against: its lines alone.
		sc, err := store.ScanJournal(jpath, store.Position{Seq: math.MaxInt64, Inputs: math.MaxInt64})
		if err != nil {
			return append(p, err.Error())
		}
		for _, lp := range append(sc.Bad, sc.Gaps...) {
			p = append(p, fmt.Sprintf("%s:%d: %s", jpath, lp.Line, lp.Problem))
		}
		if repair {
			p = append(p, fmt.Sprintf("%s: not repaired: the journal is cut against the state, which does not load (fix it first)", jpath))
		}
		return p
	}
	keep := store.At(s)
	if repair {
		name, lines, err := store.Repair(jpath, keep, time.Now())
		switch {
		case err != nil:
			p = append(p, fmt.Sprintf("%s: repair: %v", jpath, err))
		case name == "":
			fmt.Fprintf(out, "%s: nothing to cut\n", jpath)
		default:
			fmt.Fprintf(out, "%s: moved %d line(s) (%s) to %s; the journal now ends at seq %d\n", jpath, len(lines), lineList(lines), name, journalEnd(jpath, keep))
		}
	}
	sc, err := store.ScanJournal(jpath, keep)
	if err != nil {
		return append(p, err.Error())
	}
	if missing {
		if sc.Lines == 0 && sc.Torn == 0 {
			fmt.Fprintf(out, "%s: no state yet (referee init or referee run creates it)\n", cfg.State)
			return p
		}
		p = append(p, fmt.Sprintf("%s: missing, but its journal %s holds %d line(s)", cfg.State, jpath, sc.Lines))
	}
	for _, lp := range sc.Problems() {
		p = append(p, fmt.Sprintf("%s:%d: %s", jpath, lp.Line, lp.Problem))
	}
	if r := sc.Refusal(); r != nil {
		first := "Restore the state file that includes its lines if you have it"
		if r.Undecodable {
			first = "Mend the lines that do not decode if you know what they held"
		}
		p = append(p, fmt.Sprintf("%s: referee run and referee replay will not start on this journal. %s; or run referee check --repair, which moves the lines that cannot be kept to %s.cut-<time> (nothing is deleted)", jpath, first, filepath.Base(jpath)))
	}
	return p
}

// fileProblems are the problems of the files beside the state that loading
// it does not show: a save that would fail now, the checkpoint of a replay
// stopped before its end, a sync of the journal that failed.
func fileProblems(state string) []string {
	var p []string
	if err := canSave(state); err != nil {
		p = append(p, err.Error())
	}
	if cp := leftoverReplay(state); cp != "" {
		p = append(p, cp)
	}
	jpath := store.JournalPath(state)
	if b, err := os.ReadFile(store.SyncFailedPath(jpath)); err == nil {
		p = append(p, fmt.Sprintf("%s: a sync of the journal failed (%s), so lines written before it may not be on disk, and referee run will not start: check the disk, then remove this file", store.SyncFailedPath(jpath), strings.TrimSpace(string(b))))
	}
	return p
}

// checkState lists the problems of a state that loads: the interpreter's
// checks and the outbox, each on its line of the file.
func checkState(e *contract.Engine, s *contract.State, cfg *Config, out io.Writer) []string {
	var root yaml.Node
	if b, err := os.ReadFile(cfg.State); err == nil {
		yaml.Unmarshal(b, &root)
	}
	at := func(key, msg string) string {
		if line := yamlerr.LineOf(&root, key); line > 0 {
			return fmt.Sprintf("%s:%d: %s", cfg.State, line, msg)
		}
		return cfg.State + ": " + msg
	}
	var p []string
	for _, c := range e.Check(s) {
		key, _, _ := strings.Cut(c, ": ")
		p = append(p, at(key, c))
	}
	rcpts := make([][]string, len(s.Outbox)) // each notice's, lists included
	for i, o := range s.Outbox {
		m := bridge.Mail(&o.Notice, addresses(cfg))
		rcpts[i] = bridge.Recipients(m)
		if _, err := mailout.Compose(m); err != nil {
			p = append(p, at("outbox", fmt.Sprintf("outbox[%d]: notice %s cannot be composed: %v", i, o.ID, err)))
		} else if len(rcpts[i]) == 0 {
			p = append(p, at("outbox", fmt.Sprintf("outbox[%d]: notice %s has no recipient", i, o.ID)))
		}
	}
	if len(s.Outbox) > 0 {
		fmt.Fprintf(out, "%s: %d notice(s) waiting in the outbox\n", cfg.State, len(s.Outbox))
	}
	for i, o := range s.Outbox {
		if o.Attempts > 0 && o.LastError != "" {
			p = append(p, at("outbox", fmt.Sprintf("outbox[%d]: notice %s (%s) to %s not sent after %d attempt(s), the next at %s; the mail server said: %s",
				i, o.ID, o.Subject, strings.Join(rcpts[i], ", "), o.Attempts, o.NextTry.UTC().Format(time.RFC3339), o.LastError)))
		}
	}
	return p
}

// leftoverReplay describes the checkpoint a replay stopped before its end
// left beside the state ("" when there is none): the state is that
// replay's as far as it got, and referee run would take it as it is.
func leftoverReplay(state string) string {
	path := checkpointPath(state)
	c, err := loadCheckpoint(path)
	switch {
	case err != nil:
		return err.Error()
	case c == nil:
		return ""
	}
	where := "before its first message"
	if a := c.Cur.Archive; a >= 0 && a < len(c.Archives) && c.Cur.Message > 0 {
		where = fmt.Sprintf("after message %d of %s", c.Cur.Message, c.Archives[a])
	}
	args := []string{"referee replay"}
	if c.Until != "" {
		args = append(args, "--until", c.Until)
	}
	if c.Out != "" {
		args = append(args, "--out", c.Out)
	}
	args = append(args, c.Archives...)
	return fmt.Sprintf("%s: the checkpoint of a referee replay stopped %s (%s applied): the state holds that replay only as far as it got. "+
		"Run the same command again to resume it (%s, with the same --state and --secret-file if it had them); "+
		"deleting the checkpoint would make referee run mail the notices this replay wrote as files since its last snapshot",
		path, where, text.Count(c.Cur.Applied, "message", "messages"), strings.Join(args, " "))
}

// lineList writes line numbers compactly: "3, 6-11".
func lineList(lines []int) string {
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(lines[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// journalEnd is the last seq of the journal (0 when empty).
func journalEnd(path string, keep store.Position) int64 {
	sc, err := store.ScanJournal(path, keep)
	if err != nil {
		return 0
	}
	return sc.LastSeq
}

// canSave tries, beside the state, what a save does: a temporary file as
// large as the state, written and synced, then removed. So a full disk or
// a read-only directory is named before the daemon meets it.
func canSave(state string) error {
	dir := filepath.Dir(state)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil // created by the first save
	}
	size := int64(4096)
	if fi, err := os.Stat(state); err == nil && !fi.IsDir() {
		size = max(size, fi.Size())
	}
	f, err := os.CreateTemp(dir, ".check-*")
	if err != nil {
		return fmt.Errorf("%s: a save would fail: %w", dir, errors.Unwrap(err))
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(make([]byte, size)); err != nil {
		return fmt.Errorf("%s: a save would fail: %w (the state needs %d bytes)", dir, errors.Unwrap(err), size)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("%s: a save would fail: %w", dir, err)
	}
	return nil
}
