// Command referee referees nomic games by email: it reads players' mail over
// IMAP (or from archives), applies their actions to the games, and mails back
// receipts, notices and weekly reports. Subcommands: run, replay, report, check,
// status, init, verify, config (DESIGN "Command line"). Exit status: 0 success, 1 runtime
// failure, 2 bad usage or bad configuration, 3 a replay stopped by a signal
// (it resumes when run again).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/store"
)

// usageError is bad usage or bad configuration: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// flagTime reads the time given to the option name, in RFC 3339. Refused,
// it says the form with an example: time.Parse's own error names Go's
// reference layout, which reads as a time the operator never gave.
func flagTime(name, v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, usagef("--%s: %q is not a time in RFC 3339, such as 2026-12-15T00:00:00Z (a date, T, a time, and Z or an offset such as +01:00)", name, v)
	}
	return t, nil
}

const mainUsage = `referee referees nomic games by email.

Usage:
  referee run     [--state F] [--config F] [--clock-start TIME] [--clock-rate N] [--log-format FORMAT]
  referee replay  [--state F] [--config F] [--until TIME] [--out DIR] [--secret-file F] ARCHIVE...
  referee report  [--state F] [--config F] GAME
  referee check   [--state F] [--config F]
  referee status  [--state F] [--config F]
  referee init    [--state F] [--config F] [--force] [--secret-file F] [--start TIME] [--template]
  referee verify  [--state F] [--config F]
  referee config

Run "referee COMMAND --help" for a command's options. With no configuration,
"referee run" starts an embedded mail hub on 127.0.0.1, serves the status
page on http://127.0.0.1:8025/ and works on data/state.yaml, created from the
committed state.yaml.
`

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdout, os.Stderr))
}

func realMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return 2
	}
	cmds := map[string]func([]string, io.Writer, io.Writer) error{
		"run": cmdRun, "replay": cmdReplay, "report": cmdReport,
		"check": cmdCheck, "init": cmdInit, "verify": cmdVerify, "config": cmdConfig, "status": cmdStatus,
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		fmt.Fprint(stdout, mainUsage)
		return 0
	}
	f := cmds[name]
	if f == nil {
		fmt.Fprintf(stderr, "referee: unknown command %q\n\n%s", name, mainUsage)
		return 2
	}
	// The usage asked for goes to stdout, as "referee --help" does, so
	// that it can be paged; given for bad usage it goes to stderr. A
	// command asked for its usage prints nothing else.
	errw := stderr
	if asksHelp(args[1:]) {
		errw = stdout
	}
	err := f(args[1:], stdout, errw)
	var ue *usageError
	var ie *interruptedError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ie):
		return 3
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "referee %s: %s\n", name, strings.TrimSpace(err.Error()))
		return 2
	case errors.Is(err, errProblems):
		return 2
	case errors.Is(err, errDataProblems):
		return 1
	case errors.Is(err, errMismatch):
		return 1
	default:
		fmt.Fprintf(stderr, "referee %s: %v\n", name, err)
		return 1
	}
}

var (
	errProblems     = errors.New("problems found")
	errDataProblems = errors.New("problems found in the state or journal")
	errMismatch     = errors.New("mismatches found")
)

// common are the flags every subcommand takes.
type common struct {
	state  string
	config string
}

func newFlags(name, usage string, stderr io.Writer) (*flag.FlagSet, *common) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &common{}
	fs.StringVar(&c.state, "state", "", "state file (default $REFEREE_STATE, the config's state, or data/state.yaml); its journal and snapshots are kept beside it, so each state needs a directory of its own")
	fs.StringVar(&c.config, "config", "", "configuration file (default referee.yaml when present)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fmt.Fprintln(stderr, "\nOptions:")
		printOptions(stderr, fs)
	}
	return fs, c
}

// optionValues name the value each option takes as the usage lines do.
var optionValues = map[string]string{
	"state": "F", "config": "F", "secret-file": "F", "out": "DIR",
	"until": "TIME", "start": "TIME", "clock-start": "TIME", "clock-rate": "N", "log-format": "FORMAT",
}

// printOptions lists the options of fs as the usage lines write them
// (--state F), where flag.PrintDefaults writes "-state string".
func printOptions(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		value, usage := flag.UnquoteUsage(f)
		if v, ok := optionValues[f.Name]; ok {
			value = v
		}
		line := "  --" + f.Name
		if value != "" {
			line += " " + value
		}
		if f.DefValue != "" && f.DefValue != "false" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	})
}

// asksHelp reports whether the words before a "--" ask for a command's
// usage (-h, --h, -help, --help).
func asksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--h", "-help", "--help":
			return true
		}
	}
	return false
}

// parse reads the options wherever they stand, before or after the
// arguments ("referee report life --state F"); after "--" every word is an
// argument. fs.Args() is then the arguments in their order.
func parse(fs *flag.FlagSet, args []string) error {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return usagef("%v", err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" || len(rest) == 0 {
			words = append(words, rest...)
			break
		}
		words = append(words, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, words...))
}

// noArguments refuses the words left after a command's options, for the
// commands that take none: a word such as "referee status life" would
// otherwise be ignored without a word.
func noArguments(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q: referee %s takes options only (referee %s --help lists them)", fs.Arg(0), fs.Name(), fs.Name())
	}
	return nil
}

// configPath is the configuration file, and whether it was named.
func (c *common) configPath() (string, bool) {
	if c.config == "" {
		return "referee.yaml", false
	}
	return c.config, true
}

// load reads the configuration (strictly) and the state path, applies
// adjust (flags that override keys), and validates it: every problem at
// once, those of the file's decoding and of the keys that did decode, each
// naming its key, is a usage error.
func (c *common) load(adjust ...func(*Config)) (*Config, error) {
	return c.loadFor(usesMail, adjust...)
}

// loadFor is load for a command that uses the mail servers use says: the
// keys of a server it does not use are not required.
func (c *common) loadFor(use mailUse, adjust ...func(*Config)) (*Config, error) {
	cfg, err := loadConfig(c.configPath())
	var cp configProblems
	if err != nil && !errors.As(err, &cp) {
		return nil, usagef("%v", err)
	}
	if c.state != "" {
		cfg.State = c.state
	}
	for _, f := range adjust {
		f(cfg)
	}
	if p := append([]string(cp), cfg.validateFor(gameIDs(), use)...); len(p) > 0 {
		return nil, usagef("%s", strings.Join(inFileOrder(p), "\n"))
	}
	return cfg, nil
}

// loadState reads the configuration, builds the interpreter and loads the
// existing state. When only the state fails to load, the configuration and
// the interpreter come back with the error (a caller may say what is missing).
func (c *common) loadState() (*Config, *contract.Engine, *contract.State, error) {
	cfg, err := c.load()
	if err != nil {
		return nil, nil, nil, err
	}
	e, err := newEngine(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := store.Load(e, cfg.State)
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(cfg.State); errors.Is(serr, os.ErrNotExist) {
			err = noState(cfg.State)
		}
	}
	if err != nil {
		return cfg, e, nil, err
	}
	return cfg, e, s, nil
}

// noStateError is a state file that does not exist, explained: none yet, or
// one lost beside its journal (lost). It is an os.ErrNotExist.
type noStateError struct {
	msg  string
	lost bool
}

func (e *noStateError) Error() string { return e.msg }
func (e *noStateError) Unwrap() error { return os.ErrNotExist }

// noState explains the state file state, which does not exist.
func noState(state string) error {
	j := store.JournalPath(state)
	if fi, err := os.Stat(j); err == nil && fi.Size() > 0 {
		return &noStateError{fmt.Sprintf("%s: missing, but its journal %s is there: restore the state file (referee check explains)", state, j), true}
	}
	return &noStateError{msg: fmt.Sprintf("%s: no state yet; referee run, referee init or referee replay creates it", state)}
}
