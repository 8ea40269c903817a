package mailin

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"referee/internal/imappos"
	"referee/internal/mailnet"
)

// IMAPConfig says how to reach a mailbox. Zero values mean the defaults.
type IMAPConfig struct {
	Addr          string      // host:port
	TLS           string      // "tls" (default), "starttls", "none"
	ForceInsecure bool        // allow "none" off loopback
	TLSConfig     *tls.Config // nil = system roots, ServerName from Addr
	User          string
	Password      string
	Mailbox       string        // default "INBOX"
	Processed     string        // if set, handled messages are MOVEd there; else flagged
	IdleRestart   time.Duration // default 9 minutes; at most 10 minutes
	PollInterval  time.Duration // when no IDLE; default 30 s
	MaxBackoff    time.Duration // default 5 minutes
	Logger        *slog.Logger
	// Connected, when set, is called each time a connection is made and
	// its mailbox selected, before its mail is read: the first time, and
	// again after every connection lost.
	Connected func()
}

// Checkpoint is how far a mailbox has been applied: the caller saves it
// once a batch is applied and passes it back to Run.
type Checkpoint = imappos.Checkpoint

// Batch is a run of new messages.
type Batch struct {
	Messages   []*Raw     // in UID order, UID set
	Checkpoint Checkpoint // to save once these are applied
}

// DoneFlag is the keyword set on handled messages when IMAPConfig.Processed
// is empty (together with \Seen).
const DoneFlag imap.Flag = "$RefereeDone"

// cmdTimeout bounds every command, IDLE's DONE included: a peer that
// vanished without a FIN is noticed by then at the latest (a variable so
// that tests can shorten it).
var cmdTimeout = 2 * time.Minute

// dialTimeout bounds the TCP connect: a host that drops the SYN (a
// firewall, a listener whose queue is full) is given up after it and
// dialled again with backoff, not after the kernel's two minutes of SYN
// retries (a variable so that tests can shorten it).
var dialTimeout = 30 * time.Second

const batchSize = 50 // messages fetched and applied at a time

func (c *IMAPConfig) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func (c *IMAPConfig) mailbox() string {
	if c.Mailbox == "" {
		return "INBOX"
	}
	return c.Mailbox
}

func durationOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// applyError carries an error from the caller's apply function out of the
// session, so Run returns it instead of reconnecting.
type applyError struct{ err error }

func (e *applyError) Error() string { return e.err.Error() }
func (e *applyError) Unwrap() error { return e.err }

// refusal is a failure the configuration decides: the server's NO or BAD
// answer (RFC 9051 §7.1) to the login, the mailbox to read or the folder
// for handled mail, or a TLS that does not match (mailnet.TLSCheck). It is
// the operator's to mend, not a lost connection; what is what the log says
// of it, check names the settings to look at. Run retries it all the same
// (a server's authentication backend may be down for a while, its
// certificate renewed).
type refusal struct {
	what  string
	check string
	err   error
}

func (e *refusal) Error() string { return e.err.Error() }
func (e *refusal) Unwrap() error { return e.err }

// refused wraps err as a refusal when the server answered NO or BAD, and
// returns it unchanged otherwise (a dropped connection, a timeout).
func refused(err error, check string) error {
	var ie *imap.Error
	if errors.As(err, &ie) {
		return &refusal{what: "imap server refused the referee", check: check, err: err}
	}
	return err
}

// tlsRefused wraps err, from the TLS handshake, as a refusal when the
// configuration decides it (mailnet.TLSCheck), and returns it unchanged
// otherwise.
func tlsRefused(err error) error {
	if check := mailnet.TLSCheck(err, "imap"); check != "" {
		return &refusal{what: "imap TLS with the server failed", check: check, err: err}
	}
	return err
}

// SettingsToCheck names the settings of the configuration to look at when
// err, from Run or Login, is a refusal the configuration decides: the
// login, the mailbox, the TLS. It is "" for a server that could not be
// reached or a connection lost.
func SettingsToCheck(err error) string {
	var rf *refusal
	if errors.As(err, &rf) {
		return rf.check
	}
	return ""
}

// Run connects, reads everything after from, then IDLEs (or polls when the
// server lacks IDLE); for each batch it calls apply, and only after apply
// returns nil marks the batch's messages processed (MOVE to Processed, or
// \Seen and $RefereeDone). An error from apply stops Run and is returned.
// Connection errors are retried with capped exponential backoff and logged;
// the server's refusal of the login or the mailbox, and a TLS that does
// not match the configuration (a plain port set as tls, a certificate that
// does not verify), are logged at the error level, naming the settings to
// check, and retried the same way.
// A UIDVALIDITY change (RFC 3501 §2.3.1.1) re-reads the whole mailbox: the
// caller dedupes by Message-ID. Run returns ctx.Err() when ctx is done.
//
// New mail announced while IDLE is fetched by UID range at once; every IDLE
// is also ended after IdleRestart, the mailbox searched by UID from the
// checkpoint and IDLE started again, so mail that arrives while IDLE is being
// restarted is read once, in UID order.
func (c *IMAPConfig) Run(ctx context.Context, from Checkpoint, apply func(context.Context, Batch) error) error {
	log := c.logger()
	maxBackoff := durationOr(c.MaxBackoff, 5*time.Minute)
	first := min(time.Second, maxBackoff)
	backoff := first
	cp := from
	for {
		progressed := false
		err := c.session(ctx, &cp, apply, &progressed)
		var ae *applyError
		if errors.As(err, &ae) {
			return ae.err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if progressed {
			backoff = first
		}
		var rf *refusal
		if errors.As(err, &rf) {
			log.Error(rf.what+"; retrying", "addr", c.Addr, "mailbox", c.mailbox(), "check", rf.check, "err", err, "retry_in", backoff)
		} else {
			log.Warn("imap connection lost; reconnecting", "addr", c.Addr, "mailbox", c.mailbox(), "err", err, "retry_in", backoff)
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// connect dials, logs in and returns a client. go-imap takes no context, so
// every step is bounded by wait (a deadline, and ctx closing the client).
func (c *IMAPConfig) connect(ctx context.Context, handler *imapclient.UnilateralDataHandler) (*imapclient.Client, error) {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return nil, fmt.Errorf("imap address %q: %w", c.Addr, err)
	}
	mode := c.TLS
	if mode == "" {
		mode = mailnet.TLSImplicit
	}
	if mode == mailnet.TLSNone && !c.ForceInsecure && !mailnet.IsLoopback(host) {
		return nil, &refusal{what: "imap connection not tried", check: "imap.tls: none is for loopback (or imap.force_insecure)",
			err: fmt.Errorf("imap: refusing plain text to %s off loopback (set ForceInsecure)", host)}
	}
	tlsConf := mailnet.ClientTLS(c.TLSConfig, host)
	opts := &imapclient.Options{
		TLSConfig:             tlsConf,
		UnilateralDataHandler: handler,
		WordDecoder:           wordDecoder,
	}
	conn, err := mailnet.Dial(ctx, c.Addr, dialTimeout)
	if err != nil {
		return nil, fmt.Errorf("imap dial: %w", err)
	}
	var cl *imapclient.Client
	switch mode {
	case mailnet.TLSImplicit:
		tc := tls.Client(conn, tlsConf)
		hctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			conn.Close()
			return nil, tlsRefused(fmt.Errorf("imap tls: %w", err))
		}
		cl = imapclient.New(tc, opts)
	case mailnet.TLSStart:
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		cl, err = imapclient.NewStartTLS(conn, opts)
		stop()
		if err != nil {
			conn.Close()
			err = fmt.Errorf("imap starttls: %w", err)
			var ie *imap.Error
			if errors.As(err, &ie) {
				return nil, &refusal{what: "imap TLS with the server failed", check: "imap.tls: the server refused STARTTLS on this port (tls wants a port such as 993)", err: err}
			}
			return nil, tlsRefused(err)
		}
	case mailnet.TLSNone:
		cl = imapclient.New(conn, opts)
	default:
		conn.Close()
		return nil, fmt.Errorf("imap: unknown TLS mode %q", c.TLS)
	}
	if err := wait(ctx, cl, func() error { return cl.WaitGreeting() }); err != nil {
		cl.Close()
		return nil, fmt.Errorf("imap greeting: %w", err)
	}
	if err := wait(ctx, cl, func() error { return cl.Login(c.User, c.Password).Wait() }); err != nil {
		cl.Close()
		return nil, refused(fmt.Errorf("imap login as %s: %w", c.User, err), "imap.user and its password")
	}
	return cl, nil
}

// Login connects, logs in and examines the mailbox (SELECT read-only, RFC
// 9051 §6.3.3) as Run does, then logs out: referee check's test of the
// configuration. It returns how many messages the mailbox holds. Its
// errors name the settings to check as Run's log does (SettingsToCheck).
func (c *IMAPConfig) Login(ctx context.Context) (uint32, error) {
	cl, err := c.connect(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	var sel *imap.SelectData
	if err := wait(ctx, cl, func() (err error) {
		sel, err = cl.Select(c.mailbox(), &imap.SelectOptions{ReadOnly: true}).Wait()
		return
	}); err != nil {
		return 0, refused(fmt.Errorf("examine %s: %w", c.mailbox(), err), "imap.mailbox: the folder must exist")
	}
	if err := wait(ctx, cl, func() error { return cl.Logout().Wait() }); err != nil {
		c.logger().Debug("imap logout", "err", err)
	}
	return sel.NumMessages, nil
}

// wait runs one blocking client call, closing the connection if it takes
// longer than cmdTimeout or ctx ends first (go-imap has no per-command
// deadline, and no read deadline at all while IDLE).
func wait(ctx context.Context, cl *imapclient.Client, f func() error) error {
	// An ended context starts no command: its AfterFunc would close the
	// connection only beside f, which could finish first.
	if err := ctx.Err(); err != nil {
		return err
	}
	t := time.AfterFunc(cmdTimeout, func() { cl.Close() })
	stop := context.AfterFunc(ctx, func() { cl.Close() })
	err := f()
	t.Stop()
	stop()
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// session is one connection's life: select, sync, then wait for mail and
// sync again until the connection fails or ctx ends.
func (c *IMAPConfig) session(ctx context.Context, cp *Checkpoint, apply func(context.Context, Batch) error, progressed *bool) error {
	log := c.logger()
	// The handler runs on the client's read goroutine: it must never send
	// a command (that deadlocks); it only signals the owner goroutine.
	newMail := make(chan struct{}, 1)
	handler := &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				select {
				case newMail <- struct{}{}:
				default:
				}
			}
		},
	}
	cl, err := c.connect(ctx, handler)
	if err != nil {
		return err
	}
	defer cl.Close()
	stop := context.AfterFunc(ctx, func() { cl.Close() })
	defer stop()

	if c.Processed != "" {
		// Create the folder if it is missing; an error here means it
		// exists (or MOVE will say what is wrong).
		_ = wait(ctx, cl, func() error { return cl.Create(c.Processed, nil).Wait() })
	}
	var sel *imap.SelectData
	if err := wait(ctx, cl, func() (err error) { sel, err = cl.Select(c.mailbox(), nil).Wait(); return }); err != nil {
		return refused(fmt.Errorf("select %s: %w", c.mailbox(), err), "imap.mailbox: the folder must exist")
	}
	if sel.UIDValidity != cp.UIDValidity {
		if cp.UIDValidity != 0 {
			log.Warn("imap UIDVALIDITY changed; re-reading the mailbox", "mailbox", c.mailbox(), "old", cp.UIDValidity, "new", sel.UIDValidity)
		}
		*cp = Checkpoint{UIDValidity: sel.UIDValidity}
	}
	if err := c.leftovers(ctx, cl, cp); err != nil {
		return err
	}
	*progressed = true
	if c.Connected != nil {
		c.Connected()
	}
	idle := cl.Caps().Has(imap.CapIdle)
	log.Info("imap connected", "addr", c.Addr, "mailbox", c.mailbox(), "uidvalidity", cp.UIDValidity, "last_uid", cp.LastUID, "idle", idle)
	pollEvery := durationOr(c.PollInterval, 30*time.Second)
	if !idle {
		log.Info("imap server has no IDLE; polling for new mail", "mailbox", c.mailbox(), "every", pollEvery)
	}
	for {
		if err := c.sync(ctx, cl, cp, apply); err != nil {
			return err
		}
		if idle {
			err = c.idle(ctx, cl, cp, apply, newMail)
		} else {
			err = poll(ctx, cl, pollEvery)
		}
		if err != nil {
			return err
		}
	}
}

// idle waits in IDLE (RFC 2177) for new mail. Mail announced while IDLE is
// fetched at once: DONE and "UID FETCH last+1:*" go out together, so a new
// message costs one round trip before it is applied. It returns, for a full
// sync by UID SEARCH in batches, after IdleRestart or when a wake-up shows
// more new messages than a batch. Waiting for the server's reply to DONE
// proves the connection is alive.
//
// Nothing is missed: any message above the checkpoint when IDLE starts came
// after the last fetch or search, so its EXISTS has left a signal in newMail
// (the handler signals after the client has counted it); the fetch after a
// wake-up takes every message above the checkpoint, and a message announced
// after the wake-up signals again. A signal for mail already read costs one
// empty fetch.
func (c *IMAPConfig) idle(ctx context.Context, cl *imapclient.Client, cp *Checkpoint, apply func(context.Context, Batch) error, newMail <-chan struct{}) error {
	// RFC 2177 §3: servers may drop a client idle for 30 minutes; restart
	// well before, and never less often than every 10 minutes.
	restart := time.NewTimer(min(durationOr(c.IdleRestart, 9*time.Minute), 10*time.Minute))
	defer restart.Stop()
	for {
		known := numMessages(cl)
		var cmd *imapclient.IdleCommand
		if err := wait(ctx, cl, func() (err error) { cmd, err = cl.Idle(); return }); err != nil {
			return fmt.Errorf("idle: %w", err)
		}
		woken := false
		select {
		case <-newMail:
			woken = true
		case <-restart.C:
		case <-ctx.Done():
		case <-cl.Closed():
			return errors.New("idle: connection closed")
		}
		now := numMessages(cl)
		// A wake-up shows the messages announced since IDLE began (none when
		// they came just before it, while the last batch was being applied);
		// a burst larger than a batch is left to the full sync.
		fast := woken && ctx.Err() == nil && now >= known && now-known <= batchSize
		var raws []*Raw
		err := wait(ctx, cl, func() error {
			if err := cmd.Close(); err != nil {
				return err
			}
			var fc *imapclient.FetchCommand
			if fast {
				var set imap.UIDSet
				set.AddRange(imap.UID(cp.LastUID+1), 0)
				fc = cl.Fetch(set, fetchOptions)
			}
			if err := cmd.Wait(); err != nil {
				if fc != nil {
					fc.Close()
				}
				return err
			}
			if fc == nil {
				return nil
			}
			bufs, err := fc.Collect()
			if err != nil {
				return fmt.Errorf("uid fetch %d:*: %w", cp.LastUID+1, err)
			}
			raws = rawsOf(bufs)
			return nil
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("end idle: %w", err)
		}
		if !fast {
			return nil // the restart, or a burst for the full sync
		}
		if len(raws) == 0 {
			continue // nothing new: a signal for mail already read
		}
		next := Checkpoint{UIDValidity: cp.UIDValidity, LastUID: raws[len(raws)-1].UID}
		if err := apply(ctx, Batch{Messages: raws, Checkpoint: next}); err != nil {
			return &applyError{err}
		}
		*cp = next
		if err := c.markProcessed(ctx, cl, raws); err != nil {
			return err
		}
	}
}

func numMessages(cl *imapclient.Client) uint32 {
	if mb := cl.Mailbox(); mb != nil {
		return mb.NumMessages
	}
	return 0
}

// poll waits every and asks the server for news with NOOP.
func poll(ctx context.Context, cl *imapclient.Client, every time.Duration) error {
	t := time.NewTimer(every)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-cl.Closed():
		return errors.New("poll: connection closed")
	case <-t.C:
	}
	if err := wait(ctx, cl, func() error { return cl.Noop().Wait() }); err != nil {
		return fmt.Errorf("noop: %w", err)
	}
	return nil
}

// newUIDs returns the UIDs above last, ascending. "UID n:*" also matches the
// highest UID when it is below n (RFC 3501 §6.4.8), so the result is filtered.
func newUIDs(ctx context.Context, cl *imapclient.Client, last uint32) ([]imap.UID, error) {
	var set imap.UIDSet
	set.AddRange(imap.UID(last+1), 0)
	var sd *imap.SearchData
	if err := wait(ctx, cl, func() (err error) {
		sd, err = cl.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
		return
	}); err != nil {
		return nil, fmt.Errorf("uid search: %w", err)
	}
	var uids []imap.UID
	for _, u := range sd.AllUIDs() {
		if uint32(u) > last {
			uids = append(uids, u)
		}
	}
	slices.Sort(uids)
	return uids, nil
}

var wholeBody = &imap.FetchItemBodySection{Peek: true} // BODY.PEEK[]: the whole message, \Seen untouched (RFC 3501 §6.4.5)

var fetchOptions = &imap.FetchOptions{UID: true, InternalDate: true, BodySection: []*imap.FetchItemBodySection{wholeBody}}

// fetch reads whole messages with their INTERNALDATE, in UID order.
func fetch(ctx context.Context, cl *imapclient.Client, uids []imap.UID) ([]*Raw, error) {
	var bufs []*imapclient.FetchMessageBuffer
	if err := wait(ctx, cl, func() (err error) {
		bufs, err = cl.Fetch(imap.UIDSetNum(uids...), fetchOptions).Collect()
		return
	}); err != nil {
		return nil, fmt.Errorf("fetch uids %v: %w", imap.UIDSetNum(uids...), err)
	}
	return rawsOf(bufs), nil
}

// rawsOf returns the fetched messages in UID order. "UID FETCH n:*" also
// matches the highest UID when it is below n (RFC 3501 §6.4.8), but go-imap's
// client hands a FETCH command only the UIDs of the set it sent (n and above;
// others go to the unilateral handler, which drops them), so a wake-up for
// mail already read fetches nothing (TestIMAPWakeUpForMailAlreadyRead).
// A message another client flagged and expunged between the search and the
// fetch comes back as its flags alone (the server's unsolicited FETCH, which
// the client counts to the command): it has no body and is left out.
func rawsOf(bufs []*imapclient.FetchMessageBuffer) []*Raw {
	raws := make([]*Raw, 0, len(bufs))
	for _, b := range bufs {
		data := b.FindBodySection(wholeBody)
		if data == nil {
			continue
		}
		raws = append(raws, &Raw{Data: data, Arrived: b.InternalDate.UTC(), UID: uint32(b.UID)})
	}
	slices.SortFunc(raws, func(a, b *Raw) int { return cmp.Compare(a.UID, b.UID) })
	return raws
}

// sync reads everything above the checkpoint in batches; each batch is
// applied, the checkpoint advanced, then the messages marked processed.
func (c *IMAPConfig) sync(ctx context.Context, cl *imapclient.Client, cp *Checkpoint, apply func(context.Context, Batch) error) error {
	for {
		uids, err := newUIDs(ctx, cl, cp.LastUID)
		if err != nil {
			return err
		}
		if len(uids) == 0 {
			return nil
		}
		for len(uids) > 0 {
			n := min(len(uids), batchSize)
			chunk := uids[:n]
			uids = uids[n:]
			raws, err := fetch(ctx, cl, chunk)
			if err != nil {
				return err
			}
			next := Checkpoint{UIDValidity: cp.UIDValidity, LastUID: uint32(chunk[len(chunk)-1])}
			if len(raws) > 0 {
				if err := apply(ctx, Batch{Messages: raws, Checkpoint: next}); err != nil {
					return &applyError{err}
				}
			}
			*cp = next
			if len(raws) > 0 {
				if err := c.markProcessed(ctx, cl, raws); err != nil {
					return err
				}
			}
		}
	}
}

// markProcessed moves the messages to the Processed folder (RFC 6851 MOVE;
// go-imap falls back to COPY+STORE+EXPUNGE) or flags them \Seen and
// $RefereeDone. A server that refuses new keywords gets \Seen alone.
func (c *IMAPConfig) markProcessed(ctx context.Context, cl *imapclient.Client, raws []*Raw) error {
	var set imap.UIDSet
	for _, r := range raws {
		set.AddNum(imap.UID(r.UID))
	}
	if c.Processed != "" {
		return c.move(ctx, cl, set)
	}
	store := func(flags ...imap.Flag) error {
		return wait(ctx, cl, func() error {
			return cl.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: flags}, nil).Close()
		})
	}
	err := store(imap.FlagSeen, DoneFlag)
	var ie *imap.Error
	if errors.As(err, &ie) {
		c.logger().Warn("imap server refused the keyword; flagging \\Seen only", "flag", string(DoneFlag), "err", err)
		err = store(imap.FlagSeen)
	}
	if err != nil {
		return fmt.Errorf("flag %v: %w", set, err)
	}
	return nil
}

// move moves the messages of set to the Processed folder.
func (c *IMAPConfig) move(ctx context.Context, cl *imapclient.Client, set imap.UIDSet) error {
	if err := wait(ctx, cl, func() error { _, err := cl.Move(set, c.Processed).Wait(); return err }); err != nil {
		return refused(fmt.Errorf("move %v to %s: %w", set, c.Processed, err), "imap.processed: a folder the referee may create and move mail into")
	}
	return nil
}

// leftovers marks processed the messages at or below the checkpoint that
// are still in the mailbox unmarked: moves them to the Processed folder, or
// flags them when there is none (those not \Seen). Every one of them was
// applied (the checkpoint is saved in the journal line of the message it
// names), but a stop between that save and the batch's MOVE or STORE (a
// kill, a crash, the connection lost) left it behind: the Processed
// folder, the referee's own store of received mail that a replay rebuilds
// the games from, would lack it for good, and in the mailbox it would look
// unhandled.
func (c *IMAPConfig) leftovers(ctx context.Context, cl *imapclient.Client, cp *Checkpoint) error {
	if cp.LastUID == 0 {
		return nil
	}
	var upTo imap.UIDSet
	upTo.AddRange(1, imap.UID(cp.LastUID))
	crit := &imap.SearchCriteria{UID: []imap.UIDSet{upTo}}
	if c.Processed == "" {
		crit.NotFlag = []imap.Flag{imap.FlagSeen}
	}
	var sd *imap.SearchData
	if err := wait(ctx, cl, func() (err error) {
		sd, err = cl.UIDSearch(crit, nil).Wait()
		return
	}); err != nil {
		return fmt.Errorf("uid search 1:%d: %w", cp.LastUID, err)
	}
	var raws []*Raw
	for _, u := range sd.AllUIDs() {
		if uint32(u) <= cp.LastUID {
			raws = append(raws, &Raw{UID: uint32(u)})
		}
	}
	if len(raws) == 0 {
		return nil
	}
	c.logger().Info("imap marking mail applied before a stop as processed", "mailbox", c.mailbox(), "messages", len(raws), "processed", c.Processed)
	return c.markProcessed(ctx, cl, raws)
}
