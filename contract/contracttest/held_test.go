package contracttest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/internal/bridge"
	"referee/mailin"
)

// A public post as the author sends it: To the list, Cc the referee. The
// list's copy is the same with the headers Mailman adds (extra).
func post(id, extra string) []byte {
	return []byte(extra + "From: Alice <alice@example.test>\r\nTo: agora-business@example.test\r\nCc: referee@example.test\r\n" +
		"Subject: BUS: joining\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nMessage-ID: <" + id + ">\r\n\r\nI join the Life contest.\r\n")
}

const listHeaders = "List-Id: Agora Business <agora-business.example.test>\r\n"

// listWorld is a referee whose direct copies of public posts wait an hour for
// the list's (G4), reading mail under policy.
type listWorld struct {
	t    *testing.T
	h    *contracttest.Harness
	pipe *bridge.Pipeline
	sent []*contract.Outgoing
	ent  []contract.Entry
}

func newListWorld(t *testing.T, wait time.Duration, policy string) *listWorld {
	h := contracttest.NewConfig(t, contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster, ListWait: wait},
		"2026-12-01T09:00:00Z", life.New())
	cfg := contracttest.Config()
	cfg.AuthPolicy, cfg.AuthServID = policy, "mx.example.test"
	w := &listWorld{t: t, h: h, pipe: &bridge.Pipeline{Engine: h.E, Mail: cfg}}
	w.drain()
	return w
}

func (w *listWorld) drain() {
	w.sent = append(w.sent, w.h.S.Outbox...)
	w.h.S.Outbox = nil
}

func (w *listWorld) ingest(raw []byte, at string) {
	w.t.Helper()
	_, ent, err := w.pipe.Ingest(w.h.S, raw, contracttest.At(w.t, at))
	if err != nil {
		w.t.Fatal(err)
	}
	w.ent = append(w.ent, ent...)
	w.drain()
}

func (w *listWorld) advance(at string) {
	w.t.Helper()
	ent, err := w.h.E.Advance(w.h.S, contracttest.At(w.t, at))
	if err != nil {
		w.t.Fatal(err)
	}
	w.ent = append(w.ent, ent...)
	w.drain()
}

// restart saves the state and loads it again, as the daemon does across a
// restart.
func (w *listWorld) restart() {
	w.t.Helper()
	b, err := contract.Encode(w.h.S)
	if err != nil {
		w.t.Fatal(err)
	}
	s, err := w.h.E.Decode(b)
	if err != nil {
		w.t.Fatal(err)
	}
	w.h.S = s
}

// toAlice are the mails sent to Alice.
func (w *listWorld) toAlice() []*contract.Outgoing {
	var out []*contract.Outgoing
	for _, o := range w.sent {
		if len(o.To) == 1 && o.To[0] == "alice@example.test" {
			out = append(out, o)
		}
	}
	return out
}

// joined is when Alice joined Life, from the journal ("" if not).
func (w *listWorld) joined() []string {
	var out []string
	for _, e := range w.ent {
		if e.Outcome == "applied" && e.Game == "life" {
			out = append(out, e.Time.Format(time.RFC3339))
		}
	}
	return out
}

func TestDirectCopyWaitsForTheListCopy(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			w := newListWorld(t, time.Hour, mailin.AuthNone)
			w.ingest(post("p1@example.test", ""), "2026-12-01T10:00:05Z")
			if got := w.joined(); len(got) != 0 || len(w.toAlice()) != 0 {
				t.Fatalf("the direct copy acted before the list carried it: joined %v, mails %d", got, len(w.toAlice()))
			}
			if restart {
				w.restart()
			}
			w.ingest(post("p1@example.test", listHeaders), "2026-12-01T10:03:00Z")
			w.ingest(post("p1@example.test", ""), "2026-12-01T10:04:00Z") // the direct copy again: a duplicate
			w.advance("2026-12-01T12:00:00Z")
			if got := w.joined(); len(got) != 1 || got[0] != "2026-12-01T10:03:00Z" {
				t.Errorf("joined at %v, want once at the list copy's arrival 10:03", got)
			}
			mails := w.toAlice()
			if len(mails) != 1 || mails[0].Kind != "receipt" || !strings.Contains(mails[0].Body, "Life") {
				t.Fatalf("Alice got %d mails, want one receipt: %+v", len(mails), mails)
			}
			if strings.Contains(mails[0].Body, "never carried") {
				t.Errorf("Alice was told the list never carried it:\n%s", mails[0].Body)
			}
		})
	}
}

func TestDirectCopyWithoutListCopyPerformsNothing(t *testing.T) {
	for _, restart := range []bool{false, true} {
		t.Run(fmt.Sprintf("restart=%v", restart), func(t *testing.T) {
			w := newListWorld(t, 90*time.Minute, mailin.AuthNone)
			w.ingest(post("p2@example.test", ""), "2026-12-01T10:00:00Z")
			if restart {
				w.restart()
			}
			w.advance("2026-12-01T11:29:00Z")
			if n := len(w.toAlice()); n != 0 {
				t.Fatalf("Alice was answered before the wait ended: %d mails", n)
			}
			w.advance("2026-12-01T11:31:00Z")
			if got := w.joined(); len(got) != 0 {
				t.Errorf("the direct copy acted: joined at %v", got)
			}
			mails := w.toAlice()
			if len(mails) != 1 {
				t.Fatalf("Alice got %d mails, want the one saying the list never carried it", len(mails))
			}
			m := mails[0]
			if !strings.Contains(m.Body, "never carried it") || !strings.Contains(m.Body, "nothing in it was performed") ||
				!strings.Contains(m.Body, "90 minutes") || m.InReplyTo != "p2@example.test" || !m.Time.Equal(contracttest.At(t, "2026-12-01T11:30:00Z")) {
				t.Errorf("the reply at %s, in reply to %s:\n%s", m.Time, m.InReplyTo, m.Body)
			}
			if len(w.h.S.Held) != 0 {
				t.Errorf("still held: %v", w.h.S.Held)
			}
			// The direct copy fetched again: not held again, Alice not
			// told twice.
			w.ingest(post("p2@example.test", ""), "2026-12-01T10:00:00Z")
			w.advance("2026-12-01T11:45:00Z")
			if len(w.h.S.Held) != 0 || len(w.toAlice()) != 1 {
				t.Errorf("the direct copy read again: held %v, %d more mails to Alice", w.h.S.Held, len(w.toAlice())-1)
			}
			// And again after a restart (the memory of it saved and loaded).
			w.restart()
			w.ingest(post("p2@example.test", ""), "2026-12-01T10:00:00Z")
			w.advance("2026-12-01T11:50:00Z")
			if len(w.h.S.Held) != 0 || len(w.toAlice()) != 1 {
				t.Errorf("the direct copy read again after a restart: held %v, %d more mails to Alice", w.h.S.Held, len(w.toAlice())-1)
			}
			// The list carries it after all, late: it counts then.
			w.ingest(post("p2@example.test", listHeaders), "2026-12-01T12:00:00Z")
			if got := w.joined(); len(got) != 1 || got[0] != "2026-12-01T12:00:00Z" {
				t.Errorf("the late list copy: joined at %v, want once at 12:00", got)
			}
		})
	}
}

// A mail with the list's address in From and a List-Id it wrote itself is not
// the list's: under policy none because the list's address is not among its
// recipients, under authres because the list's domain did not sign it.
func TestForgedListCopy(t *testing.T) {
	forged := []byte("From: Alice via agora-business <agora-business@example.test>\r\nX-Original-From: Alice <alice@example.test>\r\n" +
		"To: referee@example.test\r\n" + listHeaders + "Subject: BUS: joining\r\nMessage-ID: <f1@example.test>\r\n\r\nI join the Life contest.\r\n")
	forgedTo := []byte("From: Alice via agora-business <agora-business@example.test>\r\nX-Original-From: Alice <alice@example.test>\r\n" +
		"To: agora-business@example.test\r\n" + listHeaders + "Subject: BUS: joining\r\nMessage-ID: <f2@example.test>\r\n\r\nI join the Life contest.\r\n")
	signed := "Authentication-Results: mx.example.test; dkim=pass header.d=example.test\r\n"
	for _, c := range []struct {
		name, policy string
		raw          []byte
		joins        bool
	}{
		{"none", mailin.AuthNone, forged, false},
		{"authres", mailin.AuthAuthRes, forgedTo, false},
		{"authres, the list's signature", mailin.AuthAuthRes, append([]byte(signed), forgedTo...), true},
		{"authres, a direct copy then the signed list copy", mailin.AuthAuthRes, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newListWorld(t, time.Hour, c.policy)
			if c.raw == nil {
				w.ingest(post("p3@example.test", listHeaders), "2026-12-01T10:00:00Z") // List-Id alone is not enough here
				w.ingest(post("p3@example.test", signed+listHeaders), "2026-12-01T10:05:00Z")
			} else {
				w.ingest(c.raw, "2026-12-01T10:00:00Z")
			}
			w.advance("2026-12-01T12:00:00Z")
			if got := w.joined(); (len(got) == 1) != c.joins || len(got) > 1 {
				t.Errorf("joined at %v, want joined: %v", got, c.joins)
			}
			if c.joins && w.joined()[0] != map[bool]string{true: "2026-12-01T10:05:00Z", false: "2026-12-01T10:00:00Z"}[c.raw == nil] {
				t.Errorf("joined at %v", w.joined())
			}
		})
	}
}

// With the wait off (a referee that does not receive the list), a direct copy
// counts at its own arrival, as before.
func TestDirectCopyCountsWhenTheWaitIsOff(t *testing.T) {
	w := newListWorld(t, 0, mailin.AuthNone)
	w.ingest(post("p4@example.test", ""), "2026-12-01T10:00:05Z")
	w.ingest(post("p4@example.test", listHeaders), "2026-12-01T10:03:00Z")
	if got := w.joined(); len(got) != 1 || got[0] != "2026-12-01T10:00:05Z" {
		t.Errorf("joined at %v, want once at the direct copy's arrival", got)
	}
	if n := len(w.toAlice()); n != 1 {
		t.Errorf("Alice got %d mails, want one receipt", n)
	}
}
