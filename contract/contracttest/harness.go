// Package contracttest drives the interpreter in tests as the mail would: messages
// in (built by hand or replayed from an mbox through the real parser), scheduled
// events up to a time, and the notices out, compared with golden transcripts.
package contracttest

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/internal/bridge"
	"referee/mailin"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Addresses used by every harness.
const (
	Referee       = "referee@example.test"
	Contestmaster = "cm@example.test"
	PublicList    = "agora-business@example.test"
	OfficialList  = "agora-official@example.test"
	Discussion    = "agora-discussion@example.test"
)

// Harness holds an engine, a state and everything sent so far.
type Harness struct {
	T       testing.TB
	E       *contract.Engine
	S       *contract.State
	Sent    []*contract.Outgoing // every notice, in order
	Entries []contract.Entry     // every journal entry
	n       int
	rec     *record // the inputs since Record, for corrections (rerun.go)
}

// Secret is the fixed master secret of harness states.
var Secret = sha256.Sum256([]byte("referee test secret"))

// New makes a fresh state at start (RFC 3339) for the games. Its public
// messages are the list's copies (G4): Public sends them so, and the archives
// Mbox replays hold them as the list distributed them, with its List-Id; a
// direct copy waits an hour for the list's.
func New(t testing.TB, start string, games ...contract.Game) *Harness {
	t.Helper()
	return NewConfig(t, contract.Config{Referee: Referee, Contestmaster: Contestmaster, ListWait: time.Hour}, start, games...)
}

// NewConfig is New with the engine's configuration given.
func NewConfig(t testing.TB, cfg contract.Config, start string, games ...contract.Game) *Harness {
	t.Helper()
	e, err := contract.NewEngine(cfg, games...)
	if err != nil {
		t.Fatal(err)
	}
	s, ent, err := e.NewState(Secret[:], At(t, start))
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{T: t, E: e, S: s, Entries: ent}
	h.drain()
	return h
}

// At parses an RFC 3339 time or fails the test.
func At(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("bad time %q: %v", s, err)
	}
	return v.UTC()
}

func (h *Harness) drain() []*contract.Notice {
	var out []*contract.Notice
	for _, o := range h.S.Outbox {
		h.Sent = append(h.Sent, o)
		h.input(contract.Input{Kind: contract.InSent, At: h.S.Clock, Notice: o.ID})
		n := o.Notice
		out = append(out, &n)
	}
	h.S.Outbox = nil
	return out
}

// Send applies a message and returns the notices it caused (the receipt among
// them). A public message is sent as the list's copy (G4).
func (h *Harness) Send(m *contract.Message) []*contract.Notice {
	h.T.Helper()
	if m.Channel.IsPublic() {
		m.ListCopy = true
	}
	if m.ID == "" {
		h.n++
		m.ID = fmt.Sprintf("m%d@example.test", h.n)
	}
	ent, err := h.E.Apply(h.S, m)
	if err != nil {
		h.T.Fatalf("apply %q: %v", m.Text, err)
	}
	h.input(contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m})
	return h.applied(ent)
}

// applied records what applying a message made, checks the state still encodes, and
// returns the notices.
func (h *Harness) applied(ent []contract.Entry) []*contract.Notice {
	h.T.Helper()
	h.Entries = append(h.Entries, ent...)
	h.checkRoundTrip()
	return h.drain()
}

// checkRoundTrip makes sure the state survives its encoding after every step.
func (h *Harness) checkRoundTrip() {
	h.T.Helper()
	b, err := contract.Encode(h.S)
	if err != nil {
		h.T.Fatalf("encode state: %v", err)
	}
	s2, err := h.E.Decode(b)
	if err != nil {
		h.T.Fatalf("decode state: %v\n%s", err, b)
	}
	b2, err := contract.Encode(s2)
	if err != nil || string(b2) != string(b) {
		h.T.Fatalf("the state does not survive encoding: %v", err)
	}
}

func (h *Harness) msg(at, from string, ch contract.Channel, text string) *contract.Message {
	h.T.Helper()
	a, err := mail.ParseAddress(from)
	if err != nil {
		h.T.Fatalf("bad sender %q: %v", from, err)
	}
	t := At(h.T, at)
	return &contract.Message{From: strings.ToLower(a.Address), Name: a.Name, Date: t, Arrived: t,
		Subject: "actions", Channel: ch, Authenticated: true, Text: text}
}

// Receipt picks the receipt among notices, or nil.
func Receipt(ns []*contract.Notice) *contract.Notice {
	for _, n := range ns {
		if n.Kind == "receipt" {
			return n
		}
	}
	return nil
}

// Public sends text to the public list from `from` ("Alice <alice@example.test>")
// at `at` and returns the receipt (nil when none).
func (h *Harness) Public(at, from, text string) *contract.Notice {
	h.T.Helper()
	return Receipt(h.Send(h.msg(at, from, contract.ChanPublic, text)))
}

// Private sends text privately to the referee and returns the receipt.
func (h *Harness) Private(at, from, text string) *contract.Notice {
	h.T.Helper()
	return Receipt(h.Send(h.msg(at, from, contract.ChanPrivate, text)))
}

// Quietly applies a message as Public and Private do, for the setup of a
// large game: without the checks they make after each (the state's
// encoding, the undo's verification), which would make a game of a
// thousand players cost minutes. It fails the test unless each receipt the
// message made says its one action was done, and drops the notices.
func (h *Harness) Quietly(at, from string, ch contract.Channel, text string) {
	h.T.Helper()
	defer contract.SetVerifyUndo(contract.SetVerifyUndo(false))
	m := h.msg(at, from, ch, text)
	m.ListCopy = ch.IsPublic()
	h.n++
	m.ID = fmt.Sprintf("m%d@example.test", h.n)
	ent, err := h.E.Apply(h.S, m)
	if err != nil {
		h.T.Fatalf("apply %q: %v", text, err)
	}
	h.input(contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m})
	h.Entries = append(h.Entries, ent...)
	for _, o := range h.S.Outbox {
		if o.Kind == "receipt" && !strings.Contains(o.Body, "\n1 done, 0 not done") {
			h.T.Fatalf("%s's %q:\n%s", from, text, o.Body)
		}
	}
	h.S.Outbox = nil
}

// Advance runs the scheduled events up to at and returns the notices they made.
func (h *Harness) Advance(at string) []*contract.Notice {
	h.T.Helper()
	ent, err := h.E.Advance(h.S, At(h.T, at))
	if err != nil {
		h.T.Fatalf("advance to %s: %v", at, err)
	}
	h.input(contract.Input{Kind: contract.InAdvance, At: At(h.T, at)})
	h.Entries = append(h.Entries, ent...)
	h.checkRoundTrip()
	return h.drain()
}

// Data is a game's own state.
func (h *Harness) Data(game string) any { return h.S.Games[game].Data }

// Config is the mail configuration of harness replays.
func Config() *mailin.Config {
	return &mailin.Config{Referee: Referee, PublicLists: []string{PublicList}, OfficialList: OfficialList,
		DiscussionLists: []string{Discussion}}
}

// Mbox replays an archive (mbox, maildir or .eml) through the real mail parser,
// running scheduled events between messages, and returns the notices it caused.
func (h *Harness) Mbox(path string) []*contract.Notice {
	h.T.Helper()
	a, err := mailin.OpenArchive(path)
	if err != nil {
		h.T.Fatalf("open %s: %v", path, err)
	}
	defer a.Close()
	pipe := &bridge.Pipeline{Engine: h.E, Mail: Config(), Adjust: func(m *contract.Message) {
		if m.Channel == contract.ChanPrivate {
			m.Authenticated = true // the harness's policy is "none"
		}
	}}
	var out []*contract.Notice
	for {
		raw, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			h.T.Fatalf("read %s: %v", path, err)
		}
		m, ent, err := pipe.Ingest(h.S, raw.Data, raw.Arrived)
		if err != nil {
			h.T.Fatalf("a message of %s: %v", path, err)
		}
		if m != nil {
			h.input(contract.Input{Kind: contract.InMessage, At: m.Arrived, Msg: m})
		}
		out = append(out, h.applied(ent)...)
	}
	return out
}

// Transcript renders notices as a reader would see them, for golden files.
func Transcript(ns []*contract.Outgoing) string {
	var b strings.Builder
	for _, o := range ns {
		fmt.Fprintf(&b, "=== %s  [%s %s]", o.ID, o.Kind, o.Channel)
		if len(o.To) > 0 {
			fmt.Fprintf(&b, " to %s", strings.Join(o.To, ", "))
		}
		fmt.Fprintf(&b, "\nDate: %s\nSubject: %s\n", o.Time.UTC().Format(time.RFC3339), o.Subject)
		if o.InReplyTo != "" {
			fmt.Fprintf(&b, "In-Reply-To: %s\n", o.InReplyTo)
		}
		b.WriteString("\n")
		b.WriteString(o.Body)
		if !strings.HasSuffix(o.Body, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Golden compares the transcript of every notice sent so far with a golden file
// (rewritten with -update).
func (h *Harness) Golden(path string) {
	h.T.Helper()
	Golden(h.T, path, Transcript(h.Sent))
}

// Golden compares got with the file at path, or rewrites it with -update.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs from the output (run with -update and review the diff) (-want +got):\n%s", path, d)
	}
}

// Every test that uses the harness checks each undo against a deep copy, and
// runs every message and event once, undoes it, and runs it again (see
// contract.SetVerifyUndo): a change a game makes behind the undo log fails
// the test that makes it.
func init() { contract.SetVerifyUndo(true) }
