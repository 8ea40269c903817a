package mailhub

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
)

// Options configures a Hub. The zero value is a working hub on ephemeral
// loopback ports.
type Options struct {
	IMAPAddr, SMTPAddr string            // "" = 127.0.0.1:0
	Lists              map[string]string // list address -> List-Id value ("Agora Business <agora-business.example.test>")
	Users              []string          // mailboxes made at start if missing (the referee, the contestmasters)
	Now                func() time.Time  // nil = time.Now; INTERNALDATE and Received dates
	Logger             *slog.Logger      // nil = discard
	MaxMessageBytes    int64             // 0 = 10 MiB

	// Dir holds the mail (see store.go); a later Start on the same
	// directory finds it as it was. "" = a temporary directory removed by
	// Close.
	Dir string
	// Players are the addresses the game knows: each gets a mailbox at
	// start if it has none, so that the lists reach it before the player
	// logs in. An address the hub cannot use is logged and skipped.
	Players []string
}

// Hostname is the name the hub gives itself in SMTP and Received headers.
const Hostname = "mailhub.localhost"

// Hub is a running mail hub. Its methods are safe for concurrent use.
type Hub struct {
	log      *slog.Logger
	now      func() time.Time
	maxBytes int64
	lists    map[string]string // lower-case list address -> List-Id

	store   *store
	tempDir string // removed by Close
	watch   watchers

	imapSrv        *imapserver.Server
	smtpSrv        *smtp.Server
	imapLn, smtpLn net.Listener
	serving        sync.WaitGroup
	closeOnce      sync.Once
	closeErr       error
}

// Start takes the IMAP and SMTP ports, opens the mail in opts.Dir, creates
// the pre-configured mailboxes that are missing and starts serving. A port
// it cannot have is its error before anything is written. The caller prints
// IMAPAddr and SMTPAddr.
func Start(opts Options) (*Hub, error) {
	h := &Hub{
		log:      opts.Logger,
		now:      opts.Now,
		maxBytes: opts.MaxMessageBytes,
		lists:    map[string]string{},
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.maxBytes <= 0 {
		h.maxBytes = 10 << 20
	}
	// Empty addresses are skipped: they stand for settings left unset.
	for addr, id := range opts.Lists {
		if strings.TrimSpace(addr) == "" {
			continue
		}
		key := normAddr(addr)
		if key == "" || strings.ContainsAny(id, "\r\n") {
			return nil, fmt.Errorf("start mail hub: list %q: bad address or List-Id", addr)
		}
		h.lists[key] = id
	}
	// The ports first: a hub that cannot have them (another hub holds
	// them) changes nothing in its directory, nor creates it.
	var err error
	if h.imapLn, err = net.Listen("tcp", orLoopback(opts.IMAPAddr)); err != nil {
		return nil, fmt.Errorf("start mail hub: imap listen: %w", err)
	}
	if h.smtpLn, err = net.Listen("tcp", orLoopback(opts.SMTPAddr)); err != nil {
		h.imapLn.Close()
		return nil, fmt.Errorf("start mail hub: smtp listen: %w", err)
	}
	// fail closes the listeners and the store.
	fail := func(err error) (*Hub, error) {
		h.imapLn.Close()
		h.smtpLn.Close()
		h.cleanup()
		return nil, err
	}
	dir := opts.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "mailhub-"); err != nil {
			return fail(fmt.Errorf("start mail hub: %w", err))
		}
		h.tempDir = dir
	}
	if h.store, err = openStore(dir); err != nil {
		return fail(fmt.Errorf("start mail hub: %s: %w", dir, err))
	}
	for _, u := range opts.Users {
		if strings.TrimSpace(u) == "" {
			continue
		}
		if err := h.mailbox(u); err != nil {
			return fail(fmt.Errorf("start mail hub: %w", err))
		}
	}
	// The players' mailboxes are told in one line: a game of thousands
	// would otherwise open the log with a line each.
	made := 0
	for _, p := range opts.Players {
		created, err := h.makeMailbox(p)
		if err != nil {
			h.log.Warn("mail hub: no mailbox for a player", "addr", p, "err", err)
		}
		if created {
			made++
		}
	}
	if made > 0 {
		h.log.Info("mail hub created the players' mailboxes", "count", made)
	}

	errLog := slog.NewLogLogger(h.log.Handler(), slog.LevelDebug)
	h.imapSrv = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &imapSession{hub: h}, nil, nil
		},
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		InsecureAuth: true, // loopback only, no TLS
		Logger:       errLog,
	})
	h.smtpSrv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &smtpSession{hub: h}, nil
	}))
	h.smtpSrv.Domain = Hostname
	h.smtpSrv.MaxMessageBytes = h.maxBytes
	h.smtpSrv.MaxRecipients = 1000
	h.smtpSrv.ReadTimeout = 5 * time.Minute // RFC 5321 4.5.3.2.7
	h.smtpSrv.WriteTimeout = 5 * time.Minute
	h.smtpSrv.AllowInsecureAuth = true
	h.smtpSrv.EnableSMTPUTF8 = true
	h.smtpSrv.ErrorLog = errLog

	h.serving.Add(2)
	go func() { defer h.serving.Done(); h.imapSrv.Serve(h.imapLn) }()
	go func() { defer h.serving.Done(); h.smtpSrv.Serve(h.smtpLn) }()
	h.log.Debug("mail hub started", "imap", h.IMAPAddr(), "smtp", h.SMTPAddr())
	return h, nil
}

// IMAPAddr is the host:port of the IMAP server (no TLS; LOGIN accepts any
// password).
func (h *Hub) IMAPAddr() string { return h.imapLn.Addr().String() }

// SMTPAddr is the host:port of the SMTP server (no TLS; AUTH optional).
func (h *Hub) SMTPAddr() string { return h.smtpLn.Addr().String() }

// Close stops both servers, drops every connection and waits for them.
// The mail stays in Options.Dir (a temporary directory is removed).
func (h *Hub) Close() error {
	h.closeOnce.Do(func() {
		errS := h.smtpSrv.Close()
		errI := h.imapSrv.Close()
		// Close may come before Serve registered a listener.
		h.smtpLn.Close()
		h.imapLn.Close()
		h.serving.Wait()
		if errors.Is(errS, smtp.ErrServerClosed) {
			errS = nil
		}
		errD := h.cleanup()
		if errS != nil || errI != nil || errD != nil {
			h.closeErr = fmt.Errorf("close mail hub: %w", errors.Join(errS, errI, errD))
		}
	})
	return h.closeErr
}

// cleanup closes the store and removes a temporary directory.
func (h *Hub) cleanup() error {
	var err error
	if h.store != nil {
		err = h.store.close()
	}
	if h.tempDir != "" {
		err = errors.Join(err, os.RemoveAll(h.tempDir))
	}
	return err
}

// mailbox creates addr's INBOX if it has none, and logs it.
func (h *Hub) mailbox(addr string) error {
	created, err := h.makeMailbox(addr)
	if created {
		h.log.Info("mail hub created mailbox", "addr", normAddr(addr))
	}
	return err
}

// makeMailbox creates addr's INBOX if it has none, and says whether it
// did.
func (h *Hub) makeMailbox(addr string) (bool, error) {
	key := normAddr(addr)
	if key == "" {
		return false, fmt.Errorf("mailbox %q: empty address", addr)
	}
	h.store.mu.Lock()
	created, err := h.store.createUser(key)
	h.store.mu.Unlock()
	if err != nil {
		return false, fmt.Errorf("mailbox %s: %w", key, err)
	}
	return created, nil
}

// members returns every known mailbox owner, sorted.
func (h *Hub) members() []string {
	h.store.mu.Lock()
	defer h.store.mu.Unlock()
	var out []string
	for u := range h.store.users {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// normAddr is the key of an address: the part inside <> if any, trimmed,
// lower case; "" when it holds a control character or a space, which could
// otherwise break out of the Delivered-To header.
func normAddr(s string) string {
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		s = s[i+1:]
		if j := strings.IndexByte(s, '>'); j >= 0 {
			s = s[:j]
		}
	}
	s = strings.TrimSpace(s)
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return ""
		}
	}
	return strings.ToLower(s)
}

func orLoopback(addr string) string {
	if addr == "" {
		return "127.0.0.1:0"
	}
	return addr
}
