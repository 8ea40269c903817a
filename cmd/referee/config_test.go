package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contract/store"
	"referee/internal/daemon"
	"referee/internal/testdeadline"
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
		Games: map[string]GameConfig{"chess": {}}, Limits: Limits{SeenHorizon: -time.Hour}}
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

// TestBadDurationRefusedByEveryCommand: a malformed duration is an error
// naming the key in every command that reads the configuration, never
// silently replaced by the default.
func TestBadDurationRefusedByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("limits:\n  ruling_wait: two days\n"), 0o600)
	for _, args := range [][]string{{"init"}, {"report", "life"}, {"verify"}, {"check"}, {"replay", "x.mbox"}} {
		code, out, errs := runCmd(t, dir, args...)
		if args[0] == "check" {
			errs = out // check lists its problems on stdout
		}
		if code != 2 || !strings.Contains(errs, "two days") {
			t.Errorf("%v: exit %d, want 2 and the bad value named; stderr %q", args, code, errs)
		}
	}
	os.WriteFile(filepath.Join(dir, "referee.yaml"), []byte("limits:\n  ruling_wait: -48h\n"), 0o600)
	for _, args := range [][]string{{"init"}, {"report", "life"}, {"verify"}} {
		code, _, errs := runCmd(t, dir, args...)
		if code != 2 || !strings.Contains(errs, "limits.ruling_wait:") {
			t.Errorf("%v: exit %d, want 2 naming limits.ruling_wait; stderr %q", args, code, errs)
		}
	}
}

// TestSchemaPrinted: referee config prints every key of the schema, with
// its environment variable and its default, and check --help the same.
func TestSchemaPrinted(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := runCmd(t, dir, "config")
	if code != 0 {
		t.Fatalf("referee config: exit %d", code)
	}
	_, help, _ := runCmd(t, dir, "check", "--help")
	if !strings.Contains(help, out) {
		t.Errorf("check --help does not hold the schema:\n%s", help)
	}
	// The printed schema is itself a configuration file: read back, it
	// gives the defaults.
	p := filepath.Join(dir, "printed.yaml")
	os.WriteFile(p, []byte(out), 0o600)
	printed, err := loadConfig(p, true)
	if err != nil {
		t.Fatalf("the printed schema does not load: %v\n%s", err, out)
	}
	def, _ := loadConfig("", false)
	if printed.State != def.State || printed.Limits != def.Limits || printed.IMAP.TLS != def.IMAP.TLS || printed.Auth.Policy != def.Auth.Policy {
		t.Errorf("the printed defaults differ from the defaults: %+v vs %+v", printed, def)
	}
	walkSchema(reflect.ValueOf(def).Elem(), "", func(key string, f reflect.StructField, _ reflect.Value) {
		last := key[strings.LastIndex(key, ".")+1:]
		if !regexp.MustCompile(`(?m)^ *` + regexp.QuoteMeta(last) + `:`).MatchString(out) {
			t.Errorf("%s is not printed", key)
		}
		if env := f.Tag.Get("env"); env != "" && !strings.Contains(out, "("+env+")") {
			t.Errorf("%s's variable %s is not printed", key, env)
		}
	})
}

// TestREADMEConfigTable ties the README's configuration table to the schema:
// each row's keys exist, with the variables and the default it names, and
// every environment variable of the schema is in the table.
func TestREADMEConfigTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	type field struct {
		env, def string
		hasDef   bool
	}
	schema := map[string]field{}
	envs := map[string]bool{}
	walkSchema(reflect.ValueOf(&Config{}).Elem(), "", func(key string, f reflect.StructField, _ reflect.Value) {
		d, ok := f.Tag.Lookup("default")
		schema[key] = field{f.Tag.Get("env"), d, ok}
		if e := f.Tag.Get("env"); e != "" {
			envs[e] = true
		}
	})
	_, table, ok := bytes.Cut(readme, []byte("| key | environment | default |"))
	if !ok {
		t.Fatal("README has no configuration table")
	}
	tick := regexp.MustCompile("`([^`]*)`")
	seen := map[string]bool{}
	rows := 0
	for _, line := range strings.Split(string(table), "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cols := strings.Split(line, "|")
		if len(cols) < 5 {
			t.Fatalf("malformed row %q", line)
		}
		rows++
		var keys, vars []string
		for _, m := range tick.FindAllStringSubmatch(cols[1], -1) {
			keys = append(keys, m[1])
		}
		for _, m := range tick.FindAllStringSubmatch(cols[2], -1) {
			vars = append(vars, m[1])
			seen[m[1]] = true
			if !envs[m[1]] {
				t.Errorf("README names %s, which no key reads", m[1])
			}
		}
		for i, k := range keys {
			f, ok := schema[k]
			if !ok {
				t.Errorf("README names the key %s, which the schema lacks", k)
				continue
			}
			if i < len(vars) && f.env != vars[i] {
				t.Errorf("README: %s is read from %s; the schema says %q", k, vars[i], f.env)
			}
		}
		if m := tick.FindStringSubmatch(cols[3]); m != nil && len(keys) > 0 {
			if f := schema[keys[0]]; !f.hasDef || f.def != m[1] {
				t.Errorf("README: %s defaults to %q; the schema says %q", keys[0], m[1], f.def)
			}
		}
	}
	if rows == 0 {
		t.Fatal("the README's configuration table has no rows")
	}
	for e := range envs {
		if !seen[e] {
			t.Errorf("the schema reads %s, which the README's table does not name", e)
		}
	}
}

// A direct copy of a public post waits an hour for the list's copy (G4),
// unless the operator says direct copies count.
func TestConfigListWait(t *testing.T) {
	p := filepath.Join(t.TempDir(), "referee.yaml")
	os.WriteFile(p, []byte("address: a@example.org\n"), 0o600)
	cfg, err := loadConfig(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := listWait(cfg); got != time.Hour {
		t.Errorf("default wait %v, want 1h", got)
	}
	t.Setenv("REFEREE_DIRECT_COPIES", "true")
	if cfg, err = loadConfig(p, true); err != nil {
		t.Fatal(err)
	}
	if got := listWait(cfg); got != 0 {
		t.Errorf("direct copies count, yet a direct copy waits %v", got)
	}
	t.Setenv("REFEREE_DIRECT_COPIES", "yes please")
	if _, err := loadConfig(p, true); err == nil || !strings.Contains(err.Error(), "REFEREE_DIRECT_COPIES") {
		t.Errorf("a bad switch: %v", err)
	}
}

// TestConfigSnapshots: the snapshot cadence keys default to the daemon's
// and the store's defaults, a bad value is refused naming its key, and
// snapshots.every reaches the daemon: with every: 2, a snapshot is on
// disk after the second message, while the referee runs (by default none
// would be before a thousand changes or the stop).
func TestConfigSnapshots(t *testing.T) {
	def, err := loadConfig("", false)
	if err != nil {
		t.Fatal(err)
	}
	if def.Snapshots.Every != daemon.DefaultSnapshotEvery || def.Snapshots.Interval != daemon.DefaultSnapshotInterval || def.Snapshots.Keep != store.SnapshotKeep {
		t.Errorf("snapshot defaults %+v, want %d, %v, %v", def.Snapshots, daemon.DefaultSnapshotEvery, daemon.DefaultSnapshotInterval, store.SnapshotKeep)
	}
	p := filepath.Join(t.TempDir(), "referee.yaml")
	os.WriteFile(p, []byte("snapshots:\n  every: -5\n  interval: -1m\n  keep: -1h\n"), 0o600)
	cfg, err := loadConfig(p, true)
	if err != nil {
		t.Fatal(err)
	}
	probs := strings.Join(cfg.validate(gameIDs()), "\n")
	for _, want := range []string{"snapshots.every: -5 is not a positive number", "snapshots.interval: -1m0s is not a positive duration", "snapshots.keep: -1h0m0s is not a positive duration"} {
		if !strings.Contains(probs, want) {
			t.Errorf("validate lacks %q:\n%s", want, probs)
		}
	}

	d := startHubDaemon(t, "snapshots:\n  every: 2\n")
	alice := openMailbox(t, d.imapAddr, "alice@example.test")
	for i := 1; i <= 2; i++ {
		id := fmt.Sprintf("alice-%d@example.test", i)
		submitTo(t, d.smtpAddr, "alice@example.test", "referee@example.test", []string{"referee@example.test"}, "joining", id, "I join the Life contest.")
		alice.waitFor(t, func(m string) bool { return strings.Contains(m, "In-Reply-To: <"+id+">") })
	}
	state := filepath.Join(d.dir, "data/state.yaml")
	deadline := time.Now().Add(testdeadline.Left(t))
	for {
		snaps, _ := store.Snapshots(state)
		if len(snaps) > 0 && snaps[len(snaps)-1].Inputs >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no snapshot after the second message with snapshots.every 2: %+v", snaps)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stopReferee(t, d.runningReferee)
}
