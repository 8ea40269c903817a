package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/mail"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"referee/internal/yamlerr"
)

// Config is referee.yaml (DESIGN "Interfaces other tools rely on"), and its
// schema: each key's environment variable (env), default (default), an
// example value where there is no default (example) and its documentation
// (doc) are the field's tags, read by loadConfig, defaults and printSchema,
// and checked against the README by a test. Every key is optional;
// environment variables override the keys they name.
type Config struct {
	State         string      `yaml:"state" env:"REFEREE_STATE" default:"data/state.yaml" doc:"the state file; journal.jsonl beside it"`
	Address       string      `yaml:"address" env:"REFEREE_ADDRESS" default:"referee@example.test" doc:"the referee's own address"`
	Name          string      `yaml:"name" default:"The Referee" doc:"display name of the referee's mail"`
	Contestmaster string      `yaml:"contestmaster" env:"REFEREE_CONTESTMASTER" default:"contestmaster@example.test" doc:"every game's first contestmaster"`
	Lists         ListsConfig `yaml:"lists" doc:"the lists (AGORA \"Lists\")"`
	IMAP          IMAPConfig  `yaml:"imap" doc:"empty addr: the embedded mail hub"`
	SMTP          SMTPConfig  `yaml:"smtp" doc:"the server the referee sends through"`
	CAFile        string      `yaml:"ca_file" env:"REFEREE_CA_FILE" doc:"extra trusted CA certificates (PEM) for IMAP and SMTP"`
	Auth          AuthConfig  `yaml:"auth" doc:"sender authentication of private actions"`
	Limits        Limits      `yaml:"limits" doc:"what one sender or one message can cost"`
	Snapshots     Snapshots   `yaml:"snapshots" doc:"when the state file is written whole; between, each change is one journal append and sync"`
	Log           LogConfig   `yaml:"log"`
	Hub           HubConfig   `yaml:"hub" doc:"the embedded mail hub"`
	Web           WebConfig   `yaml:"web" doc:"the read-only status page, feeds and /metrics"`
	// Games holds per-game settings: the parameters a fresh state starts with.
	Games map[string]GameConfig `yaml:"games" example:"life: {params: {VPP: \"10\"}}" doc:"parameters a fresh state starts with"`

	// Where each key was set, for the problems: the file and its tree,
	// and the environment variables by key.
	file string
	root *yaml.Node
	env  map[string]string
}

// configProblems is a configuration file that did not decode: every
// problem, each on its line and key.
type configProblems []string

func (p configProblems) Error() string { return strings.Join(p, "\n") }

// ListsConfig names the lists (AGORA "Lists").
type ListsConfig struct {
	Public      []string `yaml:"public" env:"REFEREE_PUBLIC_LISTS" default:"agora-business@example.test" doc:"comma-separated in the variable; the first gets notices"`
	Official    string   `yaml:"official" env:"REFEREE_OFFICIAL_LIST" default:"agora-official@example.test" doc:"reports"`
	Discussion  []string `yaml:"discussion" env:"REFEREE_DISCUSSION_LISTS" default:"agora-discussion@example.test" empty:"ok" doc:"never an action channel"`
	PublicTag   string   `yaml:"public_tag" default:"BUS:" doc:"subject tag of public notices"`
	OfficialTag string   `yaml:"official_tag" default:"OFF:" doc:"subject tag of reports"`
	// Public actions count from the list's copy (G4); a direct copy waits
	// for it. An operator whose referee does not receive the list turns
	// DirectCopies on: a direct copy then counts at once (weaker: the list
	// may never carry it).
	ListWait     time.Duration `yaml:"list_wait" env:"REFEREE_LIST_WAIT" default:"1h" doc:"how long a direct copy of a public post waits for the list's copy"`
	DirectCopies bool          `yaml:"direct_copies" env:"REFEREE_DIRECT_COPIES" default:"false" doc:"true: a direct copy counts at once, without the list's (weaker; for a referee that does not receive the list)"`
}

// TLSMode is how a mail connection is secured.
type TLSMode string

// The TLS modes; none is for loopback only, unless force_insecure.
const (
	TLSImplicit TLSMode = "tls"
	TLSStart    TLSMode = "starttls"
	TLSNone     TLSMode = "none"
)

// AuthPolicy is how the sender of a private action is authenticated.
type AuthPolicy string

// The policies: none trusts From, authres a trusted Authentication-Results,
// dkim a DKIM signature.
const (
	AuthNone    AuthPolicy = "none"
	AuthAuthres AuthPolicy = "authres"
	AuthDKIM    AuthPolicy = "dkim"
)

// IMAPConfig is the mailbox the referee reads.
type IMAPConfig struct {
	Addr          string  `yaml:"addr" env:"REFEREE_IMAP_ADDR" example:"imap.example.org:993" doc:"host:port; empty: the embedded hub"`
	TLS           TLSMode `yaml:"tls" env:"REFEREE_IMAP_TLS" default:"tls" doc:"tls, starttls or none (none: loopback only)"`
	User          string  `yaml:"user" env:"REFEREE_IMAP_USER" example:"referee@example.org"`
	Password      string  `yaml:"password" env:"REFEREE_IMAP_PASSWORD" doc:"prefer the file"`
	PasswordFile  string  `yaml:"password_file" env:"REFEREE_IMAP_PASSWORD_FILE" example:"/run/secrets/imap"`
	Mailbox       string  `yaml:"mailbox" default:"INBOX"`
	Processed     string  `yaml:"processed" doc:"move handled mail to this folder; empty: flag it \\Seen and $RefereeDone in the mailbox (the embedded hub moves it to Processed)"`
	ForceInsecure bool    `yaml:"force_insecure" doc:"allow tls: none off loopback"`
}

// SMTPConfig is the server the referee sends through.
type SMTPConfig struct {
	Addr         string  `yaml:"addr" env:"REFEREE_SMTP_ADDR" example:"smtp.example.org:587" doc:"host:port; required with imap.addr for referee run (a replay sends nothing and needs none)"`
	TLS          TLSMode `yaml:"tls" env:"REFEREE_SMTP_TLS" default:"starttls" doc:"tls, starttls or none"`
	User         string  `yaml:"user" env:"REFEREE_SMTP_USER" example:"referee@example.org"`
	Password     string  `yaml:"password" env:"REFEREE_SMTP_PASSWORD" doc:"prefer the file"`
	PasswordFile string  `yaml:"password_file" env:"REFEREE_SMTP_PASSWORD_FILE" example:"/run/secrets/smtp"`
	HELO         string  `yaml:"helo" example:"referee.example.org"`
}

// AuthConfig is the sender-authentication policy for private actions.
type AuthConfig struct {
	Policy     AuthPolicy `yaml:"policy" env:"REFEREE_AUTH_POLICY" default:"none" doc:"none, authres or dkim"`
	AuthServID string     `yaml:"authserv_id" env:"REFEREE_AUTHSERV_ID" example:"mx.example.org" doc:"whose Authentication-Results are trusted"`
}

// Limits bound what one sender or one message can cost.
type Limits struct {
	MaxTextBytes    int           `yaml:"max_text_bytes" default:"1048576" doc:"larger mail is not read for actions"`
	ReceiptsPerHour int           `yaml:"receipts_per_hour" default:"30" doc:"per sender"`
	SeenHorizon     time.Duration `yaml:"seen_horizon" default:"720h" doc:"processed-message memory"`
	RulingWait      time.Duration `yaml:"ruling_wait" default:"48h" doc:"how long a game waits for its contestmaster"`
}

// Snapshots is the cadence of the state's snapshots (DESIGN "State"): the
// state file written whole after so many changes or so long, whichever
// comes first (and before a report, at every start and stop), each kept
// under snapshots/ for corrections within keep.
type Snapshots struct {
	Every    int           `yaml:"every" default:"1000" doc:"changes journaled between two snapshots; start-up re-does at most about this many"`
	Interval time.Duration `yaml:"interval" default:"10m" doc:"longest time between two snapshots while changes come in"`
	Keep     time.Duration `yaml:"keep" default:"720h" doc:"every snapshot this recent (on the game clock) is kept for corrections"`
}

// LogConfig chooses the log format.
type LogConfig struct {
	Format string `yaml:"format" default:"text" doc:"text or json"`
	Level  string `yaml:"level" default:"info" doc:"debug, info, warn or error"`
}

// HubConfig places the embedded mail hub.
type HubConfig struct {
	IMAPAddr string `yaml:"imap_addr" default:"127.0.0.1:1143"`
	SMTPAddr string `yaml:"smtp_addr" default:"127.0.0.1:2525"`
}

// WebConfig places the read-only status page.
type WebConfig struct {
	Addr string `yaml:"addr" env:"REFEREE_WEB_ADDR" default:"127.0.0.1:8025" doc:"host:port; off: no page"`
}

// GameConfig holds one game's settings.
type GameConfig struct {
	Params map[string]string `yaml:"params"`
}

// loadConfig reads path strictly (unknown keys and malformed values are
// errors naming the key), then applies the environment and the defaults. A
// missing default file is no error.
func loadConfig(path string, explicit bool) (*Config, error) {
	cfg := &Config{env: map[string]string{}}
	var problems configProblems
	if path != "" {
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist) && !explicit:
		case err != nil:
			return nil, fmt.Errorf("read config: %w", err)
		default:
			cfg.file = path
			var root yaml.Node
			if yaml.Unmarshal(b, &root) == nil {
				cfg.root = &root
			}
			dec := yaml.NewDecoder(bytes.NewReader(b))
			dec.KnownFields(true)
			if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
				for _, p := range yamlerr.Explain(err, cfg.root, 0, "") {
					problems = append(problems, cfg.where(p.Line)+p.String())
				}
			}
		}
	}
	walkSchema(reflect.ValueOf(cfg).Elem(), "", func(key string, f reflect.StructField, v reflect.Value) {
		name := f.Tag.Get("env")
		if name == "" {
			return
		}
		if s, ok := os.LookupEnv(name); ok {
			cfg.env[key] = name
			if err := setValue(v, s); err != nil {
				problems = append(problems, fmt.Sprintf("%s (set by %s): %v", key, name, err))
			}
		}
	})
	cfg.defaults()
	if problems != nil {
		return cfg, problems
	}
	return cfg, nil
}

// where is "file:line: " for a line of the configuration file, "" when
// there is none.
func (c *Config) where(line int) string {
	if c.file == "" || line == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", c.file, line)
}

// locate says where each problem's key was set: the environment variable
// the user set (which overrides the file), or the file and line.
func (c *Config) locate(problems []string) []string {
	out := make([]string, len(problems))
	for i, p := range problems {
		key, msg, ok := strings.Cut(p, ": ")
		switch {
		case !ok || strings.Contains(key, " "):
			out[i] = p
		case c.env[key] != "":
			out[i] = fmt.Sprintf("%s (set by %s): %s", key, c.env[key], msg)
		default:
			out[i] = c.where(yamlerr.LineOf(c.root, key)) + p
		}
	}
	return out
}

// defaults fills in every key left unset with its default tag.
func (c *Config) defaults() {
	walkSchema(reflect.ValueOf(c).Elem(), "", func(_ string, f reflect.StructField, v reflect.Value) {
		def, ok := f.Tag.Lookup("default")
		if !ok {
			return
		}
		unset := v.IsZero()
		if v.Kind() == reflect.Slice && f.Tag.Get("empty") != "ok" {
			unset = v.Len() == 0 // an empty list is no list
		}
		if unset {
			if err := setValue(v, def); err != nil {
				panic(fmt.Sprintf("config: the default of %s: %v", f.Name, err))
			}
		}
	})
}

// walkSchema calls leaf for every key of the schema below v (a struct), with
// its dotted name.
func walkSchema(v reflect.Value, prefix string, leaf func(key string, f reflect.StructField, v reflect.Value)) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key := prefix + strings.Split(f.Tag.Get("yaml"), ",")[0]
		if f.Type.Kind() == reflect.Struct && f.Type != durationType {
			walkSchema(v.Field(i), key+".", leaf)
			continue
		}
		leaf(key, f, v.Field(i))
	}
}

var durationType = reflect.TypeFor[time.Duration]()

// setValue sets a key from its text: the environment's or the default tag's.
// A list is comma-separated.
func setValue(v reflect.Value, s string) error {
	switch {
	case v.Type() == durationType:
		d, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration such as 48h", s)
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		v.SetString(s)
	case v.Kind() == reflect.Int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		v.SetInt(int64(n))
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
		v.SetBool(b)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String:
		var l []string
		for _, a := range strings.Split(s, ",") {
			if a = strings.TrimSpace(a); a != "" {
				l = append(l, a)
			}
		}
		v.Set(reflect.ValueOf(l))
	default:
		return fmt.Errorf("no text form for %s", v.Type())
	}
	return nil
}

// printSchema writes the configuration's schema, from the tags, as an
// annotated referee.yaml: each key with its default (or an example), its
// environment variable in parentheses and its documentation.
func printSchema(w io.Writer) {
	printStruct(w, reflect.TypeFor[Config](), "  ")
}

func printStruct(w io.Writer, t reflect.Type, indent string) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key := strings.Split(f.Tag.Get("yaml"), ",")[0]
		var note []string
		if env := f.Tag.Get("env"); env != "" {
			note = append(note, "("+env+")")
		}
		if doc := f.Tag.Get("doc"); doc != "" {
			note = append(note, doc)
		}
		line := indent + key + ":"
		sub := f.Type.Kind() == reflect.Struct && f.Type != durationType
		if !sub {
			val, ok := f.Tag.Lookup("default")
			if !ok {
				val = f.Tag.Get("example")
			}
			if f.Type.Kind() == reflect.Map {
				val = ""
			}
			line += " " + yamlScalar(f.Type, val)
		}
		if len(note) > 0 {
			line = fmt.Sprintf("%-34s # %s", line, strings.Join(note, " "))
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		switch {
		case sub:
			printStruct(w, f.Type, indent+"  ")
		case f.Type.Kind() == reflect.Map:
			fmt.Fprintf(w, "%s  %s\n", indent, f.Tag.Get("example"))
		}
	}
}

// yamlScalar shows a value as it is written in referee.yaml.
func yamlScalar(t reflect.Type, v string) string {
	switch {
	case t.Kind() == reflect.Map:
		return ""
	case t.Kind() == reflect.Slice:
		return "[" + v + "]"
	case t.Kind() == reflect.Bool:
		return "false"
	case v == "" || strings.ContainsAny(v, ":#{}") && t.Kind() == reflect.String:
		return strconv.Quote(v)
	}
	return v
}

// Embedded reports whether the embedded mail hub stands in for IMAP and SMTP.
func (c *Config) Embedded() bool { return c.IMAP.Addr == "" }

// mailUse says which of the configured mail servers a command uses: the
// keys a server needs are required, and its password file checked, only
// for a command that uses it.
type mailUse struct{ imap, smtp bool }

// usesMail is the use of referee run, which reads and sends, and of
// referee check, which checks the configuration for it.
var usesMail = mailUse{imap: true, smtp: true}

// validate lists every problem at once, each naming its key, for a command
// that reads over IMAP and sends over SMTP.
func (c *Config) validate(games []string) []string { return c.validateFor(games, usesMail) }

// validateFor is validate for a command that uses the mail servers use
// says (a replay sends nothing, and reads over IMAP only an imap:FOLDER).
func (c *Config) validateFor(games []string, use mailUse) []string {
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
	mode := func(key string, v TLSMode) {
		switch v {
		case TLSImplicit, TLSStart, TLSNone:
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
	duration := func(key string, d time.Duration) {
		if d <= 0 {
			p = append(p, fmt.Sprintf("%s: %v is not a positive duration such as 48h", key, d))
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
	if use.imap {
		file("imap.password_file", c.IMAP.PasswordFile)
	}
	if use.smtp {
		file("smtp.password_file", c.SMTP.PasswordFile)
	}
	file("ca_file", c.CAFile)
	if !c.Embedded() {
		if use.smtp && c.SMTP.Addr == "" {
			p = append(p, "smtp.addr: required when imap.addr is set")
		}
		if use.imap && c.IMAP.User == "" {
			p = append(p, "imap.user: required when imap.addr is set")
		}
	}
	switch c.Auth.Policy {
	case AuthNone, AuthAuthres, AuthDKIM:
	default:
		p = append(p, fmt.Sprintf("auth.policy: %q must be none, authres or dkim", c.Auth.Policy))
	}
	if c.Auth.Policy == AuthAuthres && c.Auth.AuthServID == "" {
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
	if c.Snapshots.Every <= 0 {
		p = append(p, fmt.Sprintf("snapshots.every: %d is not a positive number of changes such as 1000", c.Snapshots.Every))
	}
	duration("snapshots.interval", c.Snapshots.Interval)
	duration("snapshots.keep", c.Snapshots.Keep)
	duration("limits.seen_horizon", c.Limits.SeenHorizon)
	duration("limits.ruling_wait", c.Limits.RulingWait)
	duration("lists.list_wait", c.Lists.ListWait)
	known := map[string]bool{}
	for _, g := range games {
		known[g] = true
	}
	for g := range c.Games {
		if !known[g] {
			p = append(p, fmt.Sprintf("games.%s: no such game (the games are %s)", g, strings.Join(games, ", ")))
		}
	}
	return c.locate(p)
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
