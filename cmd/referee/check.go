package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"referee/contract/store"
)

const checkUsage = `Usage: referee check [--state F] [--config F]

Validates the configuration and the state and prints every problem, each naming
the file and key at fault. Exit status 2 when there is any.

The configuration, referee.yaml (every key optional; environment variables in
parentheses override it):

  state: data/state.yaml            # (REFEREE_STATE) the state file; journal.jsonl beside it
  address: referee@example.test     # (REFEREE_ADDRESS) the referee's own address
  name: The Referee                 # display name of the referee's mail
  contestmaster: cm@example.test    # (REFEREE_CONTESTMASTER) every game's first contestmaster
  lists:
    public: [agora-business@...]    # (REFEREE_PUBLIC_LISTS, comma-separated) the first gets notices
    official: agora-official@...    # (REFEREE_OFFICIAL_LIST) reports
    discussion: [agora-discussion@...]  # (REFEREE_DISCUSSION_LISTS) never an action channel
    public_tag: "BUS:"              # subject tag of public notices
    official_tag: "OFF:"            # subject tag of reports
  imap:                             # empty addr: the embedded mail hub
    addr: imap.example.org:993      # (REFEREE_IMAP_ADDR)
    tls: tls                        # (REFEREE_IMAP_TLS) tls, starttls or none (none: loopback only)
    user: referee@example.org       # (REFEREE_IMAP_USER)
    password_file: /run/secrets/imap  # (REFEREE_IMAP_PASSWORD_FILE, or REFEREE_IMAP_PASSWORD)
    password: ""                    # (REFEREE_IMAP_PASSWORD) prefer password_file
    mailbox: INBOX
    processed: ""                   # move handled mail to this folder; empty: flag it
    force_insecure: false           # allow tls: none off loopback
  smtp:
    addr: smtp.example.org:587      # (REFEREE_SMTP_ADDR)
    tls: starttls                   # (REFEREE_SMTP_TLS) tls, starttls or none
    user: referee@example.org       # (REFEREE_SMTP_USER)
    password_file: /run/secrets/smtp  # (REFEREE_SMTP_PASSWORD_FILE, or REFEREE_SMTP_PASSWORD)
    password: ""                    # (REFEREE_SMTP_PASSWORD) prefer password_file
    helo: referee.example.org
  ca_file: ""                       # (REFEREE_CA_FILE) extra trusted CA certificates, PEM
  auth:
    policy: none                    # (REFEREE_AUTH_POLICY) none, authres or dkim
    authserv_id: mx.example.org     # (REFEREE_AUTHSERV_ID) trusted Authentication-Results
  limits:
    max_text_bytes: 1048576         # larger mail is not read for actions
    receipts_per_hour: 30           # per sender
    seen_horizon: 720h              # processed-message memory
    ruling_wait: 48h                # how long a game waits for its contestmaster
  log:
    format: text                    # text or json
    level: info
  hub:                              # the embedded mail hub
    imap_addr: 127.0.0.1:1143
    smtp_addr: 127.0.0.1:2525
  web:                              # the read-only status page, feeds and /metrics
    addr: 127.0.0.1:8025            # (REFEREE_WEB_ADDR) host:port; off: no page
  games:                            # parameters a fresh state starts with
    life: {params: {VPP: "10"}}
`

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs, c := newFlags("check", checkUsage, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg, err := c.load()
	if err != nil {
		return err
	}
	problems := cfg.validate(gameIDs())
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	s, err := store.Load(e, cfg.State)
	switch {
	case errors.Is(err, os.ErrNotExist):
		problems = append(problems, fmt.Sprintf("%s: no state yet (referee init or referee run creates it)", cfg.State))
	case err != nil:
		problems = append(problems, err.Error())
	default:
		for _, p := range e.Check(s) {
			problems = append(problems, cfg.State+": "+p)
		}
		if len(s.Outbox) > 0 {
			fmt.Fprintf(stdout, "%s: %d notice(s) waiting in the outbox\n", cfg.State, len(s.Outbox))
		}
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	if len(problems) > 0 {
		return errProblems
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}
