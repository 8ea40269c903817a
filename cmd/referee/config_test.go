package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigEnvironmentOverrides(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "referee.yaml")
	os.WriteFile(p, []byte("address: a@example.org\nlists:\n  public: [x@example.org]\n"), 0o600)
	t.Setenv("REFEREE_ADDRESS", "env@example.org")
	t.Setenv("REFEREE_PUBLIC_LISTS", "one@example.org, two@example.org")
	t.Setenv("REFEREE_IMAP_ADDR", "imap.example.org:993")
	cfg, err := loadConfig(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Address != "env@example.org" || strings.Join(cfg.Lists.Public, " ") != "one@example.org two@example.org" || cfg.IMAP.Addr != "imap.example.org:993" {
		t.Errorf("environment not applied: %+v", cfg)
	}
	probs := strings.Join(cfg.validate(gameIDs()), "\n")
	for _, want := range []string{"smtp.addr: required", "imap.user: required"} {
		if !strings.Contains(probs, want) {
			t.Errorf("validate lacks %q:\n%s", want, probs)
		}
	}
}

func TestConfigProblemsAllAtOnce(t *testing.T) {
	cfg := &Config{Address: "not an address", IMAP: IMAPConfig{Addr: "nohostport", TLS: "ssl"}, Auth: AuthConfig{Policy: "authres"},
		Games: map[string]GameConfig{"chess": {}}, Limits: Limits{SeenHorizon: "forever"}}
	cfg.defaults()
	probs := strings.Join(cfg.validate(gameIDs()), "\n")
	for _, want := range []string{"address:", "imap.addr:", "imap.tls:", "auth.authserv_id:", "games.chess:", "limits.seen_horizon:"} {
		if !strings.Contains(probs, want) {
			t.Errorf("validate lacks %q:\n%s", want, probs)
		}
	}
}

// FuzzConfig: any file is read or refused with an error, never a panic.
func FuzzConfig(f *testing.F) {
	f.Add([]byte("address: a@example.org\nimap: {addr: 'h:1', tls: none}\n"))
	f.Add([]byte("games: {life: {params: {VPP: '3'}}}\nlimits: {seen_horizon: 1h}\n"))
	f.Add([]byte("bogus: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "referee.yaml")
		os.WriteFile(p, data, 0o600)
		cfg, err := loadConfig(p, true)
		if err != nil {
			return
		}
		cfg.validate(gameIDs())
	})
}
