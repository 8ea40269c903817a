package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/store"
	"referee/contract/text"
	"referee/internal/web"
)

const statusUsage = `Usage: referee status [--state F] [--config F]

Prints what the referee is doing, from its files (a running referee run need
not be stopped): the game clock (that of the state's last change), each
game's phase, contestants and next event with the time left to it (from now;
from the test clock of a referee run going, which it keeps in STATE.clock;
or from the game clock when that is ahead, a test clock's with no run going
on it; the clock line says which), the open intents, the outbox,
the last mail read and sent, and the problems referee check would list. Exit
status 2 when there is any problem, 1 when there is no state file (as for
report and verify: the error names it and what makes one).
`

func cmdStatus(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("status", statusUsage, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArguments(fs); err != nil {
		return err
	}
	// No state file is a failure, exit status 1, as for report and verify:
	// not a problem referee check lists (a referee not started yet has
	// none), nor bad usage.
	cfg, e, s, err := c.loadState()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "state: %s (journal seq %d)\n", cfg.State, s.JournalSeq)
	// The time left to an event counts from now, as the status page counts
	// it, or from the test clock of a referee run still going (which keeps
	// it in STATE.clock), or from the state's clock when that is ahead (a
	// test clock's): the state's clock is that of its last change, behind
	// on a quiet day, and behind a test clock that runs on.
	from := s.Clock
	if clk, ok := runningClock(cfg.State); ok {
		from = clk.Now()
		fmt.Fprintf(stdout, "clock: %s (its last change; the time left counts from the test clock of the referee run going, %s, %g times real time)\n", fmtWhen(s.Clock), fmtWhen(from), clk.Rate)
	} else if now := time.Now().UTC(); now.After(from) {
		from = now
		fmt.Fprintf(stdout, "clock: %s (its last change; the time left counts from now, %s)\n", fmtWhen(s.Clock), fmtWhen(now))
	} else {
		// Ahead of now, the state's clock is a test clock's (run's
		// --clock-start, --clock-rate), and no run is going on it.
		fmt.Fprintf(stdout, "clock: %s (its last change, ahead of now: a test clock's, no referee run going on it; the time left counts from it)\n", fmtWhen(s.Clock))
	}
	switch {
	case cfg.Web.Addr == "off":
		fmt.Fprintln(stdout, "web page: off (web.addr)")
	case strings.HasSuffix(cfg.Web.Addr, ":0"):
		fmt.Fprintln(stdout, "web page: on a port chosen at each start (referee run prints it)")
	default:
		fmt.Fprintf(stdout, "web page: http://%s/ (while referee run runs)\n", cfg.Web.Addr)
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tPHASE\tCONTESTANTS\tNEXT EVENT\tIN")
	for _, g := range e.Games() {
		next, in := "nothing scheduled", ""
		if ev, ok, err := e.GameNext(s, g.Spec().ID); err != nil {
			next = err.Error()
		} else if ok {
			next = ev.Name
			if ev.Key != "" {
				next += " (" + ev.Key + ")"
			}
			next += " at " + fmtWhen(ev.At)
			in = web.Left(ev.At.Sub(from))
		}
		var names []string
		for _, p := range s.Members(g.Spec().ID) {
			names = append(names, p.Name)
		}
		who := fmt.Sprint(len(names))
		if len(names) > 0 {
			who += ": " + strings.Join(names, ", ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", g.Spec().ID, phase(s.Games[g.Spec().ID]), who, next, in)
	}
	tw.Flush()
	fmt.Fprintln(stdout)
	printIntents(stdout, s, from)
	fmt.Fprintf(stdout, "outbox: %d waiting", len(s.Outbox))
	if len(s.Outbox) > 0 {
		o := s.Outbox[0]
		fmt.Fprintf(stdout, "; the first, %q, made %s", o.Subject, fmtWhen(o.Time))
		if o.LastError != "" {
			fmt.Fprintf(stdout, ", %d attempt(s), last error: %s", o.Attempts, o.LastError)
		}
	}
	fmt.Fprintf(stdout, "\nfailed for good: %d\n", len(s.Failed))
	if entries, err := store.ReadJournal(store.JournalPath(cfg.State)); err == nil {
		for i := len(entries) - 1; i >= 0; i-- {
			if en := entries[i]; en.MsgID != "" {
				from := ""
				if en.Player != "" {
					from = " from " + en.Player // a player's name; others are not named
				}
				fmt.Fprintf(stdout, "last mail read: <%s>%s, %s\n", en.MsgID, from, fmtWhen(en.Time))
				break
			}
		}
	}
	if all, err := web.OpenArchive(web.SentPath(cfg.State)).All(); err == nil && len(all) > 0 {
		m := all[len(all)-1]
		fmt.Fprintf(stdout, "last mail sent to the lists: %q <%s>, %s\n", m.Subject, m.MessageID, fmtWhen(m.SentAt))
	}
	problems := cfg.validate(gameIDs())
	for _, p := range e.Check(s) {
		problems = append(problems, cfg.State+": "+p)
	}
	problems = append(problems, fileProblems(cfg.State)...)
	if len(problems) == 0 {
		fmt.Fprintln(stdout, "problems: none")
		return nil
	}
	fmt.Fprintln(stdout, "problems:")
	for _, p := range inFileOrder(problems) {
		fmt.Fprintln(stdout, "  "+p)
	}
	return errProblems
}

// printIntents lists the open intents (ruling G7): who tabled each, the
// action, how, its support, from when it may be done (and how long after
// from) and until when.
func printIntents(w io.Writer, s *contract.State, from time.Time) {
	if len(s.Intents) == 0 {
		fmt.Fprintln(w, "open intents: none")
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "open intents: %d\n", len(s.Intents))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "INTENT\tGAME\tSPONSOR\tACTION\tMETHOD\tSUPPORT/OBJECTIONS\tMAY BE DONE\tIN\tEXPIRES")
	for _, in := range s.Intents {
		when, left := "once supported", ""
		if ripe := in.RipeFrom(); !ripe.IsZero() {
			when, left = "from "+fmtWhen(ripe), web.Left(ripe.Sub(from))
		}
		fmt.Fprintf(tw, "#%d\t%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\t%s\n", in.ID, in.Game, in.Sponsor, in.Text, in.Describe(),
			len(in.Supporters), len(in.Objectors), when, left, fmtWhen(in.Expires()))
	}
	tw.Flush()
	fmt.Fprintln(w)
}

func fmtWhen(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("Mon 2006-01-02 15:04 UTC")
}

// phase says where a game stands, in its rules' words.
func phase(gs *contract.GameState) string {
	if gs == nil {
		return "-"
	}
	switch d := gs.Data.(type) {
	case *life.State:
		return text.Count(d.Rounds, "round", "rounds") + ", " + text.Count(d.Generations, "generation", "generations")
	case *rumble.State:
		if d.Phase == rumble.PhaseNone {
			if d.Game == 0 {
				return "no game yet"
			}
			return fmt.Sprintf("game %d over", d.Game)
		}
		return fmt.Sprintf("game %d: %s", d.Game, d.Phase)
	case *steemfield.State:
		switch d.Phase {
		case steemfield.PhaseGathering:
			return "gathering players"
		case steemfield.PhaseOver:
			if d.Winner == "" {
				return "over: the totem was dissolved" // Meta 3: nobody won
			}
			return "over: " + d.Winner + " won"
		}
		return fmt.Sprintf("round %d: %s", d.Round, d.Phase)
	case *wackyworld.State:
		if d.Turn == 0 {
			return "no party yet"
		}
		return fmt.Sprintf("turn %d", d.Turn)
	}
	return "-"
}
