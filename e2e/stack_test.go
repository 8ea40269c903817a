//go:build e2e

package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// stack describes the running mail stack, read from the MS_* variables that
// scripts/mailstack.sh writes to STATE_DIR/env.
type stack struct {
	dir          string // MS_DIR, the stack's state dir
	script       string // MS_SCRIPT, mailstack.sh itself (dovecot-stop, dovecot-start)
	imapAddr     string // IMAP with STARTTLS
	imapsAddr    string // IMAP over TLS
	submitAddr   string // submission: STARTTLS + AUTH
	smtpAddr     string // plain SMTP, no auth from loopback
	password     string // every user's password
	caFile       string // PEM certificate the stack's TLS uses
	referee      string
	cm           string
	players      []string
	businessList string
	officialList string
	discussList  string
	tls          *tls.Config
}

// ms is the stack every test uses; TestMain fills it.
var ms *stack

func TestMain(m *testing.M) {
	s, err := loadStack()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n(run scripts/e2e.sh, which starts the mail stack and exports its MS_* variables)\n", err)
		os.Exit(2)
	}
	ms = s
	code := m.Run()
	cleanupBinary()
	os.Exit(code)
}

func loadStack() (*stack, error) {
	var missing []string
	get := func(k string) string {
		v := os.Getenv(k)
		if v == "" {
			missing = append(missing, k)
		}
		return v
	}
	s := &stack{
		dir:          get("MS_DIR"),
		script:       get("MS_SCRIPT"),
		imapAddr:     get("MS_IMAP_ADDR"),
		imapsAddr:    get("MS_IMAPS_ADDR"),
		submitAddr:   get("MS_SUBMIT_ADDR"),
		smtpAddr:     get("MS_SMTP_ADDR"),
		password:     get("MS_PASSWORD"),
		caFile:       get("MS_CA_CERT"),
		referee:      get("MS_REFEREE"),
		cm:           get("MS_CONTESTMASTER"),
		businessList: get("MS_BUSINESS_LIST"),
		officialList: get("MS_OFFICIAL_LIST"),
		discussList:  get("MS_DISCUSSION_LIST"),
	}
	if p := get("MS_PLAYERS"); p != "" {
		s.players = strings.Split(p, ",")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("load stack: missing %s", strings.Join(missing, ", "))
	}
	if len(s.players) < 6 {
		return nil, fmt.Errorf("load stack: MS_PLAYERS has %d players, want 6", len(s.players))
	}
	pem, err := os.ReadFile(s.caFile)
	if err != nil {
		return nil, fmt.Errorf("load stack: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("load stack: no certificate in %s", s.caFile)
	}
	s.tls = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return s, nil
}

// everyone is every user of the stack: the referee, the contestmaster and the
// players, each a member of every list.
func (s *stack) everyone() []string {
	return append([]string{s.referee, s.cm}, s.players...)
}

// dovecotStop stops Dovecot only; Postfix keeps accepting and queues.
func (s *stack) dovecotStop(t testing.TB) {
	t.Helper()
	s.run(t, "dovecot-stop")
}

// dovecotStart starts Dovecot again with the same configuration and mail.
func (s *stack) dovecotStart(t testing.TB) {
	t.Helper()
	s.run(t, "dovecot-start")
}

func (s *stack) run(t testing.TB, verb string) {
	t.Helper()
	out, err := exec.Command("bash", s.script, verb, s.dir).CombinedOutput()
	if err != nil {
		t.Fatalf("mailstack.sh %s: %v\n%s", verb, err, out)
	}
}
