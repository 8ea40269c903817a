package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"net/mail"
	"os"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Config is referee.yaml (DESIGN "Interfaces other tools rely on"). Every key is
// optional; environment variables override the keys they name. `referee check
// --help` prints this schema.
type Config struct {
	State         string      `yaml:"state"`         // REFEREE_STATE; default data/state.yaml
	Address       string      `yaml:"address"`       // REFEREE_ADDRESS; the referee's own address
	Name          string      `yaml:"name"`          // display name of the referee's mail
	Contestmaster string      `yaml:"contestmaster"` // REFEREE_CONTESTMASTER; every game's initial contestmaster
	Lists         ListsConfig `yaml:"lists"`
	IMAP          IMAPConfig  `yaml:"imap"`
	SMTP          SMTPConfig  `yaml:"smtp"`
	CAFile        string      `yaml:"ca_file"` // REFEREE_CA_FILE; extra CA certificates (PEM) trusted for IMAP and SMTP
	Auth          AuthConfig  `yaml:"auth"`
	Limits        Limits      `yaml:"limits"`
	Log           LogConfig   `yaml:"log"`
	Hub           HubConfig   `yaml:"hub"`
	Web           WebConfig   `yaml:"web"`
	// Games holds per-game settings: the parameters a fresh state starts with.
	Games map[string]GameConfig `yaml:"games"`
}

// ListsConfig names the lists (AGORA "Lists").
type ListsConfig struct {
	Public      []string `yaml:"public"`       // REFEREE_PUBLIC_LISTS; the first receives public notices
	Official    string   `yaml:"official"`     // REFEREE_OFFICIAL_LIST; reports
	Discussion  []string `yaml:"discussion"`   // REFEREE_DISCUSSION_LISTS
	PublicTag   string   `yaml:"public_tag"`   // subject tag of public notices; default "BUS:"
	OfficialTag string   `yaml:"official_tag"` // default "OFF:"
}

// IMAPConfig is the mailbox the referee reads.
type IMAPConfig struct {
	Addr          string `yaml:"addr"`          // REFEREE_IMAP_ADDR host:port; empty = the embedded hub
	TLS           string `yaml:"tls"`           // REFEREE_IMAP_TLS: tls, starttls or none
	User          string `yaml:"user"`          // REFEREE_IMAP_USER
	Password      string `yaml:"password"`      // REFEREE_IMAP_PASSWORD (prefer the file or the variable)
	PasswordFile  string `yaml:"password_file"` // REFEREE_IMAP_PASSWORD_FILE
	Mailbox       string `yaml:"mailbox"`       // default INBOX
	Processed     string `yaml:"processed"`     // folder handled mail is moved to; empty = flag it
	ForceInsecure bool   `yaml:"force_insecure"`
}

// SMTPConfig is the server the referee sends through.
type SMTPConfig struct {
	Addr         string `yaml:"addr"`          // REFEREE_SMTP_ADDR
	TLS          string `yaml:"tls"`           // REFEREE_SMTP_TLS: tls, starttls or none
	User         string `yaml:"user"`          // REFEREE_SMTP_USER
	Password     string `yaml:"password"`      // REFEREE_SMTP_PASSWORD
	PasswordFile string `yaml:"password_file"` // REFEREE_SMTP_PASSWORD_FILE
	HELO         string `yaml:"helo"`
}

// AuthConfig is the sender-authentication policy for private actions.
type AuthConfig struct {
	Policy     string `yaml:"policy"`      // REFEREE_AUTH_POLICY: none, authres or dkim
	AuthServID string `yaml:"authserv_id"` // REFEREE_AUTHSERV_ID
}

// Limits bound what one sender or one message can cost.
type Limits struct {
	MaxTextBytes    int    `yaml:"max_text_bytes"`    // default 1 MiB
	ReceiptsPerHour int    `yaml:"receipts_per_hour"` // default 30
	SeenHorizon     string `yaml:"seen_horizon"`      // default 720h
	RulingWait      string `yaml:"ruling_wait"`       // default 48h
}

// LogConfig chooses the log format.
type LogConfig struct {
	Format string `yaml:"format"` // text (default) or json
	Level  string `yaml:"level"`  // debug, info (default), warn, error
}

// HubConfig places the embedded mail hub.
type HubConfig struct {
	IMAPAddr string `yaml:"imap_addr"` // default 127.0.0.1:1143
	SMTPAddr string `yaml:"smtp_addr"` // default 127.0.0.1:2525
}

// WebConfig places the read-only status page.
type WebConfig struct {
	Addr string `yaml:"addr"` // REFEREE_WEB_ADDR; default 127.0.0.1:8025; "off" serves no page
}

// GameConfig holds one game's settings.
type GameConfig struct {
	Params map[string]string `yaml:"params"`
}

// loadConfig reads path strictly (unknown keys are errors naming the key), then
// applies the environment. A missing default file is no error.
func loadConfig(path string, explicit bool) (*Config, error) {
	cfg := &Config{}
	if path != "" {
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist) && !explicit:
		case err != nil:
			return nil, fmt.Errorf("read config: %w", err)
		default:
			dec := yaml.NewDecoder(bytes.NewReader(b))
			dec.KnownFields(true)
			if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	env := func(name string, dst *string) {
		if v, ok := os.LookupEnv(name); ok {
			*dst = v
		}
	}
	list := func(name string, dst *[]string) {
		if v, ok := os.LookupEnv(name); ok {
			*dst = nil
			for _, a := range strings.Split(v, ",") {
				if a = strings.TrimSpace(a); a != "" {
					*dst = append(*dst, a)
				}
			}
		}
	}
	env("REFEREE_STATE", &cfg.State)
	env("REFEREE_ADDRESS", &cfg.Address)
	env("REFEREE_CONTESTMASTER", &cfg.Contestmaster)
	list("REFEREE_PUBLIC_LISTS", &cfg.Lists.Public)
	env("REFEREE_OFFICIAL_LIST", &cfg.Lists.Official)
	list("REFEREE_DISCUSSION_LISTS", &cfg.Lists.Discussion)
	env("REFEREE_IMAP_ADDR", &cfg.IMAP.Addr)
	env("REFEREE_IMAP_TLS", &cfg.IMAP.TLS)
	env("REFEREE_IMAP_USER", &cfg.IMAP.User)
	env("REFEREE_IMAP_PASSWORD", &cfg.IMAP.Password)
	env("REFEREE_IMAP_PASSWORD_FILE", &cfg.IMAP.PasswordFile)
	env("REFEREE_SMTP_ADDR", &cfg.SMTP.Addr)
	env("REFEREE_SMTP_TLS", &cfg.SMTP.TLS)
	env("REFEREE_SMTP_USER", &cfg.SMTP.User)
	env("REFEREE_SMTP_PASSWORD", &cfg.SMTP.Password)
	env("REFEREE_SMTP_PASSWORD_FILE", &cfg.SMTP.PasswordFile)
	env("REFEREE_AUTH_POLICY", &cfg.Auth.Policy)
	env("REFEREE_AUTHSERV_ID", &cfg.Auth.AuthServID)
	env("REFEREE_CA_FILE", &cfg.CAFile)
	env("REFEREE_WEB_ADDR", &cfg.Web.Addr)
	cfg.defaults()
	return cfg, nil
}

// defaults fills in every key left unset.
func (c *Config) defaults() {
	c.State = cmp.Or(c.State, "data/state.yaml")
	c.Address = cmp.Or(c.Address, "referee@example.test")
	c.Contestmaster = cmp.Or(c.Contestmaster, "contestmaster@example.test")
	if len(c.Lists.Public) == 0 {
		c.Lists.Public = []string{"agora-business@example.test"}
	}
	c.Lists.Official = cmp.Or(c.Lists.Official, "agora-official@example.test")
	if c.Lists.Discussion == nil {
		c.Lists.Discussion = []string{"agora-discussion@example.test"}
	}
	c.IMAP.Mailbox = cmp.Or(c.IMAP.Mailbox, "INBOX")
	c.IMAP.TLS = cmp.Or(c.IMAP.TLS, "tls")
	c.SMTP.TLS = cmp.Or(c.SMTP.TLS, "starttls")
	c.Auth.Policy = cmp.Or(c.Auth.Policy, "none")
	c.Log.Format = cmp.Or(c.Log.Format, "text")
	c.Hub.IMAPAddr = cmp.Or(c.Hub.IMAPAddr, "127.0.0.1:1143")
	c.Hub.SMTPAddr = cmp.Or(c.Hub.SMTPAddr, "127.0.0.1:2525")
	c.Web.Addr = cmp.Or(c.Web.Addr, "127.0.0.1:8025")
}

// Embedded reports whether the embedded mail hub stands in for IMAP and SMTP.
func (c *Config) Embedded() bool { return c.IMAP.Addr == "" }

// validate lists every problem at once, each naming its key.
func (c *Config) validate(games []string) []string {
	var p []string
	addr := func(key, v string) {
		if v == "" {
			return
		}
		if a, err := mail.ParseAddress(v); err != nil || a.Name != "" {
			p = append(p, fmt.Sprintf("%s: %q is not an email address", key, v))
		}
	}
	hostport := func(key, v string) {
		if v == "" {
			return
		}
		if _, _, err := net.SplitHostPort(v); err != nil {
			p = append(p, fmt.Sprintf("%s: %q is not host:port", key, v))
		}
	}
	mode := func(key, v string) {
		switch v {
		case "tls", "starttls", "none":
		default:
			p = append(p, fmt.Sprintf("%s: %q must be tls, starttls or none", key, v))
		}
	}
	file := func(key, v string) {
		if v == "" {
			return
		}
		if _, err := os.Stat(v); err != nil {
			p = append(p, fmt.Sprintf("%s: %v", key, err))
		}
	}
	duration := func(key, v string) {
		if v == "" {
			return
		}
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			p = append(p, fmt.Sprintf("%s: %q is not a positive duration such as 48h", key, v))
		}
	}
	addr("address", c.Address)
	addr("contestmaster", c.Contestmaster)
	for _, l := range c.Lists.Public {
		addr("lists.public", l)
	}
	addr("lists.official", c.Lists.Official)
	for _, l := range c.Lists.Discussion {
		addr("lists.discussion", l)
	}
	hostport("imap.addr", c.IMAP.Addr)
	hostport("smtp.addr", c.SMTP.Addr)
	hostport("hub.imap_addr", c.Hub.IMAPAddr)
	hostport("hub.smtp_addr", c.Hub.SMTPAddr)
	if c.Web.Addr != "off" {
		hostport("web.addr", c.Web.Addr)
	}
	mode("imap.tls", c.IMAP.TLS)
	mode("smtp.tls", c.SMTP.TLS)
	file("imap.password_file", c.IMAP.PasswordFile)
	file("smtp.password_file", c.SMTP.PasswordFile)
	file("ca_file", c.CAFile)
	if !c.Embedded() {
		if c.SMTP.Addr == "" {
			p = append(p, "smtp.addr: required when imap.addr is set")
		}
		if c.IMAP.User == "" {
			p = append(p, "imap.user: required when imap.addr is set")
		}
	}
	switch c.Auth.Policy {
	case "none", "authres", "dkim":
	default:
		p = append(p, fmt.Sprintf("auth.policy: %q must be none, authres or dkim", c.Auth.Policy))
	}
	if c.Auth.Policy == "authres" && c.Auth.AuthServID == "" {
		p = append(p, "auth.authserv_id: required with auth.policy authres")
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		p = append(p, fmt.Sprintf("log.format: %q must be text or json", c.Log.Format))
	}
	switch c.Log.Level {
	case "", "debug", "info", "warn", "error":
	default:
		p = append(p, fmt.Sprintf("log.level: %q must be debug, info, warn or error", c.Log.Level))
	}
	if c.Limits.MaxTextBytes < 0 {
		p = append(p, "limits.max_text_bytes: must not be negative")
	}
	if c.Limits.ReceiptsPerHour < 0 {
		p = append(p, "limits.receipts_per_hour: must not be negative")
	}
	duration("limits.seen_horizon", c.Limits.SeenHorizon)
	duration("limits.ruling_wait", c.Limits.RulingWait)
	known := map[string]bool{}
	for _, g := range games {
		known[g] = true
	}
	for g := range c.Games {
		if !known[g] {
			p = append(p, fmt.Sprintf("games.%s: no such game (the games are %s)", g, strings.Join(games, ", ")))
		}
	}
	return p
}

func secretValue(v, file string) (string, error) {
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("read password file: %w", err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return v, nil
}

func durationOr(v string, d time.Duration) time.Duration {
	if x, err := time.ParseDuration(v); err == nil && x > 0 {
		return x
	}
	return d
}
