package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"referee/internal/bridge"
	"referee/mailin"
	"referee/mailout"
)

// The mail settings, built from the configuration.

func mailinConfig(cfg *Config) *mailin.Config {
	return &mailin.Config{
		Referee: cfg.Address, PublicLists: cfg.Lists.Public, OfficialList: cfg.Lists.Official,
		DiscussionLists: cfg.Lists.Discussion, AuthPolicy: string(cfg.Auth.Policy), AuthServID: cfg.Auth.AuthServID,
		MaxTextBytes: cfg.Limits.MaxTextBytes,
	}
}

func addresses(cfg *Config) bridge.Addresses {
	return bridge.Addresses{Referee: cfg.Address, RefereeName: cfg.Name, PublicList: cfg.Lists.Public[0],
		OfficialList: cfg.Lists.Official, PublicTag: cfg.Lists.PublicTag, OfficialTag: cfg.Lists.OfficialTag}
}

func hubLists(cfg *Config) map[string]string {
	out := map[string]string{}
	id := func(addr string) string {
		local, dom, _ := strings.Cut(addr, "@")
		return fmt.Sprintf("%s <%s.%s>", local, local, dom)
	}
	for _, l := range cfg.Lists.Public {
		out[l] = id(l)
	}
	out[cfg.Lists.Official] = id(cfg.Lists.Official)
	for _, l := range cfg.Lists.Discussion {
		out[l] = id(l)
	}
	return out
}

func newLogger(cfg *Config, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	switch cfg.Log.Level {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// tlsConfig trusts ca_file's certificates besides the system's; nil when no
// ca_file is named.
func tlsConfig(cfg *Config) (*tls.Config, error) {
	if cfg.CAFile == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(cfg.CAFile)
	if err != nil {
		return nil, usagef("ca_file: %v", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, usagef("ca_file: %s holds no PEM certificate", cfg.CAFile)
	}
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}

// imapConfig is how mailin reaches the configured IMAP server: its TLS
// trusts ca_file, its password is read from the file when one is named.
func imapConfig(cfg *Config, log *slog.Logger) (*mailin.IMAPConfig, error) {
	tlsCfg, err := tlsConfig(cfg)
	if err != nil {
		return nil, err
	}
	pass, err := secretValue(cfg.IMAP.Password, cfg.IMAP.PasswordFile)
	if err != nil {
		return nil, err
	}
	return &mailin.IMAPConfig{Addr: cfg.IMAP.Addr, TLS: string(cfg.IMAP.TLS), ForceInsecure: cfg.IMAP.ForceInsecure, TLSConfig: tlsCfg,
		User: cfg.IMAP.User, Password: pass, Mailbox: cfg.IMAP.Mailbox, Processed: cfg.IMAP.Processed, Logger: log}, nil
}

// smtpConfig is how mailout reaches the configured SMTP server: its TLS
// trusts ca_file (mailout names the SMTP host as the server), its password
// is read from the file when one is named.
func smtpConfig(cfg *Config) (mailout.SMTPConfig, error) {
	tlsCfg, err := tlsConfig(cfg)
	if err != nil {
		return mailout.SMTPConfig{}, err
	}
	pass, err := secretValue(cfg.SMTP.Password, cfg.SMTP.PasswordFile)
	if err != nil {
		return mailout.SMTPConfig{}, err
	}
	return mailout.SMTPConfig{Addr: cfg.SMTP.Addr, TLS: string(cfg.SMTP.TLS), TLSConfig: tlsCfg,
		User: cfg.SMTP.User, Password: pass, HELO: cfg.SMTP.HELO}, nil
}
