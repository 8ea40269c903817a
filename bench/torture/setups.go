package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"referee/mailhub"
)

// The referee's configuration in every live series: receipts without the
// hourly limit (the players mail fast), Vials enough for every claim.
const liveConfig = "contestmaster: cm@example.test\nlimits:\n  receipts_per_hour: 1000000\ngames:\n  life: {params: {VPP: \"10000\"}}\nweb:\n  addr: \"off\"\n"

// hubSetup: `referee run` over its embedded hub on ports of its choosing.
type hubSetup struct{ ps []string }

func hubMail(n int) *hubSetup {
	h := &hubSetup{}
	for i := range n {
		h.ps = append(h.ps, fmt.Sprintf("p%d@example.test", i))
	}
	return h
}

func (h *hubSetup) name() string                           { return "the embedded hub" }
func (h *hubSetup) players() []string                      { return h.ps }
func (h *hubSetup) list() string                           { return "agora-business@example.test" }
func (h *hubSetup) settled(string, map[string]string) bool { return true }
func (h *hubSetup) inProcess() bool                        { return true }

func (h *hubSetup) command(bin, dir string, at time.Time, rate float64) *exec.Cmd {
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte(liveConfig+"hub:\n  imap_addr: 127.0.0.1:0\n  smtp_addr: 127.0.0.1:0\n"), 0o600)
	cmd := exec.Command(bin, "run", "--clock-start", at.Format(time.RFC3339Nano), "--clock-rate", fmt.Sprint(rate))
	cmd.Dir = dir
	return cmd
}

var hubLine = regexp.MustCompile(`embedded mail hub: IMAP (\S+), SMTP (\S+) `)

func (h *hubSetup) smtpAddr(sc *bufio.Scanner) string {
	for sc.Scan() {
		if m := hubLine.FindStringSubmatch(sc.Text()); m != nil {
			return m[2]
		}
	}
	return ""
}

// mailboxes opens the hub's mail store, as the referee left it.
func (h *hubSetup) mailboxes(dir string) (map[string][][]byte, error) {
	hub, err := mailhub.Start(mailhub.Options{Dir: filepath.Join(dir, "data/hub")})
	if err != nil {
		return nil, err
	}
	defer hub.Close()
	out := map[string][][]byte{}
	for _, p := range h.ps {
		out[p] = hub.Mailbox(p)
	}
	return out, nil
}

// stackSetup: `referee run` over the real Postfix + Dovecot that
// scripts/mailstack.sh started (its MS_* variables).
type stackSetup struct {
	env map[string]string
	ps  []string
	tls *tls.Config
}

func stackMail() (*stackSetup, error) {
	s := &stackSetup{env: map[string]string{}}
	for _, k := range []string{"MS_IMAP_ADDR", "MS_SUBMIT_ADDR", "MS_SMTP_ADDR", "MS_PASSWORD", "MS_CA_CERT", "MS_REFEREE", "MS_CONTESTMASTER",
		"MS_BUSINESS_LIST", "MS_OFFICIAL_LIST", "MS_DISCUSSION_LIST", "MS_PLAYERS"} {
		v := os.Getenv(k)
		if v == "" {
			return nil, fmt.Errorf("the stack series needs %s (run it through scripts/torture.sh, which starts the mail stack)", k)
		}
		s.env[k] = v
	}
	s.ps = strings.Split(s.env["MS_PLAYERS"], ",")
	pem, err := os.ReadFile(s.env["MS_CA_CERT"])
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	s.tls = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
	return s, nil
}

func (s *stackSetup) name() string      { return "Postfix + Dovecot" }
func (s *stackSetup) players() []string { return s.ps }
func (s *stackSetup) list() string      { return s.env["MS_BUSINESS_LIST"] }
func (s *stackSetup) inProcess() bool   { return false }

// pace: Postfix fans each list post out to eight mailboxes over LMTP, a
// few dozen deliveries a second on a busy machine; faster players fill its
// queue and the referee reads their mail minutes late.
func (s *stackSetup) pace() (time.Duration, time.Duration) { return time.Second, 4 * time.Second }

func (s *stackSetup) command(bin, dir string, at time.Time, rate float64) *exec.Cmd {
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte(liveConfig), 0o600)
	cmd := exec.Command(bin, "run", "--clock-start", at.Format(time.RFC3339Nano), "--clock-rate", fmt.Sprint(rate))
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "REFEREE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	e := s.env
	cmd.Env = append(cmd.Env,
		"REFEREE_ADDRESS="+e["MS_REFEREE"], "REFEREE_CONTESTMASTER="+e["MS_CONTESTMASTER"],
		"REFEREE_PUBLIC_LISTS="+e["MS_BUSINESS_LIST"], "REFEREE_OFFICIAL_LIST="+e["MS_OFFICIAL_LIST"],
		"REFEREE_DISCUSSION_LISTS="+e["MS_DISCUSSION_LIST"],
		"REFEREE_IMAP_ADDR="+e["MS_IMAP_ADDR"], "REFEREE_IMAP_TLS=starttls", "REFEREE_IMAP_USER="+e["MS_REFEREE"], "REFEREE_IMAP_PASSWORD="+e["MS_PASSWORD"],
		"REFEREE_SMTP_ADDR="+e["MS_SUBMIT_ADDR"], "REFEREE_SMTP_TLS=starttls", "REFEREE_SMTP_USER="+e["MS_REFEREE"], "REFEREE_SMTP_PASSWORD="+e["MS_PASSWORD"],
		"REFEREE_AUTH_POLICY=none", "REFEREE_CA_FILE="+e["MS_CA_CERT"])
	return cmd
}

// smtpAddr: the players submit to Postfix, up whether the referee is or
// not; the referee is taken as up once it has started.
func (s *stackSetup) smtpAddr(*bufio.Scanner) string { return s.env["MS_SMTP_ADDR"] }

func (s *stackSetup) mailboxes(string) (map[string][][]byte, error) {
	out := map[string][][]byte{}
	for _, p := range s.ps {
		raws, err := s.fetch(p)
		if err != nil {
			return nil, err
		}
		out[p] = raws
	}
	return out, nil
}

// settled: every action's receipt has reached its sender's mailbox
// (Postfix delivers after the referee's submission is accepted).
func (s *stackSetup) settled(_ string, want map[string]string) bool {
	got := map[string]bool{}
	for _, p := range s.ps {
		raws, err := s.fetch(p)
		if err != nil {
			return false
		}
		for _, raw := range raws {
			if m, err := parseMail(raw); err == nil && m.inReplyTo != "" {
				got[m.inReplyTo] = true
			}
		}
	}
	for id := range want {
		if !got[id] {
			return false
		}
	}
	return true
}

// fetch reads a player's INBOX over IMAP with STARTTLS, leaving it as it is.
func (s *stackSetup) fetch(user string) ([][]byte, error) {
	c, err := imapclient.DialStartTLS(s.env["MS_IMAP_ADDR"], &imapclient.Options{TLSConfig: s.tls})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Login(user, s.env["MS_PASSWORD"]).Wait(); err != nil {
		return nil, err
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil, err
	}
	var set imap.SeqSet
	set.AddRange(1, sel.NumMessages)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, m := range msgs {
		out = append(out, m.FindBodySection(body))
	}
	return out, nil
}

// pace: a mail every 0.5-2 s from each player, about what a referee
// restarted every second keeps up with on a busy two-core machine (faster,
// the backlog at the end is more than the last run reads in its time).
func (h *hubSetup) pace() (time.Duration, time.Duration) {
	return 500 * time.Millisecond, 2 * time.Second
}
