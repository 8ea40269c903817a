package mailhub

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-smtp"
)

// Options configures a Hub. The zero value is a working hub on ephemeral
// loopback ports.
type Options struct {
	IMAPAddr, SMTPAddr string            // "" = 127.0.0.1:0
	Lists              map[string]string // list address -> List-Id value ("Agora Business <agora-business.example.test>")
	Users              []string          // pre-created mailboxes (the referee, the contestmasters)
	Now                func() time.Time  // nil = time.Now; INTERNALDATE and Received dates
	Logger             *slog.Logger      // nil = discard
	MaxMessageBytes    int64             // 0 = 10 MiB
}

// Hostname is the name the hub gives itself in SMTP and Received headers.
const Hostname = "mailhub.localhost"

// Hub is a running mail hub. Its methods are safe for concurrent use.
type Hub struct {
	log      *slog.Logger
	now      func() time.Time
	maxBytes int64
	lists    map[string]string // lower-case list address -> List-Id

	mu    sync.Mutex
	users map[string]*imapmemserver.User // lower-case address -> mailbox owner
	order []string                       // addresses in creation order: fan-out order
	watch watchers

	imapSrv        *imapserver.Server
	smtpSrv        *smtp.Server
	imapLn, smtpLn net.Listener
	serving        sync.WaitGroup
	closeOnce      sync.Once
	closeErr       error
}

// Start creates the pre-configured mailboxes and starts serving IMAP and
// SMTP. The caller prints IMAPAddr and SMTPAddr.
func Start(opts Options) (*Hub, error) {
	h := &Hub{
		log:      opts.Logger,
		now:      opts.Now,
		maxBytes: opts.MaxMessageBytes,
		lists:    map[string]string{},
		users:    map[string]*imapmemserver.User{},
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
	for _, u := range opts.Users {
		if strings.TrimSpace(u) == "" {
			continue
		}
		if _, err := h.mailbox(u, true); err != nil {
			return nil, fmt.Errorf("start mail hub: %w", err)
		}
	}

	var err error
	if h.imapLn, err = net.Listen("tcp", orLoopback(opts.IMAPAddr)); err != nil {
		return nil, fmt.Errorf("start mail hub: imap listen: %w", err)
	}
	if h.smtpLn, err = net.Listen("tcp", orLoopback(opts.SMTPAddr)); err != nil {
		h.imapLn.Close()
		return nil, fmt.Errorf("start mail hub: smtp listen: %w", err)
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
// Mail in the hub is lost.
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
		if errS != nil || errI != nil {
			h.closeErr = fmt.Errorf("close mail hub: %w", errors.Join(errS, errI))
		}
	})
	return h.closeErr
}

// mailbox returns the owner of addr's mailboxes, creating it (with an
// INBOX) when create is set.
func (h *Hub) mailbox(addr string, create bool) (*imapmemserver.User, error) {
	key := normAddr(addr)
	if key == "" {
		return nil, fmt.Errorf("mailbox %q: empty address", addr)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if u := h.users[key]; u != nil || !create {
		return u, nil
	}
	// The memserver password is never checked: imapSession.Login skips it.
	u := imapmemserver.NewUser(key, "")
	if err := u.Create("INBOX", nil); err != nil {
		return nil, fmt.Errorf("mailbox %s: create inbox: %w", key, err)
	}
	h.users[key] = u
	h.order = append(h.order, key)
	h.log.Info("mail hub created mailbox", "addr", key)
	return u, nil
}

// members returns every known mailbox, in creation order.
func (h *Hub) members() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.order...)
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
