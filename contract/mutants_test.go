package contract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestNoticeMessageID: the Message-ID a notice's mail carries is a
// readable form of the notice's ID (letters, digits and '-' kept, anything
// else one dot, at most 48 characters), a hash that tells apart IDs the
// readable form confuses, and the referee's domain; the same ID always gets
// the same Message-ID, so a resend is recognised as the same mail.
func TestNoticeMessageID(t *testing.T) {
	for _, c := range []struct{ id, readable string }{
		{"life/report/2026-W49", "life.report.2026-W49"},
		{"receipt/CAF00d@mail.example.test", "receipt.CAF00d.mail.example.test"},
		{"AZaz09-_/ ", "AZaz09-"},
		{"//x  y//", "x.y"},
		{"~{}", ""},
		{strings.Repeat("a", 47) + "/bcdef", strings.Repeat("a", 47)},
		{strings.Repeat("b", 60), strings.Repeat("b", 48)},
		{strings.Repeat("c", 48), strings.Repeat("c", 48)},
	} {
		got := contract.MessageID(c.id, "example.test")
		readable, rest, ok := strings.Cut(got, "@")
		if !ok || rest != "example.test" {
			t.Errorf("MessageID(%q) = %q: not at the referee's domain", c.id, got)
			continue
		}
		i := strings.LastIndexByte(readable, '.')
		hash := readable[i+1:]
		readable = strings.TrimSuffix(readable[:max(i, 0)], ".")
		if i < 0 || readable != c.readable {
			t.Errorf("MessageID(%q) = %q: readable part %q, want %q", c.id, got, readable, c.readable)
		}
		if len(hash) != 12 || strings.Trim(hash, "0123456789abcdef") != "" {
			t.Errorf("MessageID(%q) = %q: hash %q is not 12 hex digits", c.id, got, hash)
		}
		if again := contract.MessageID(c.id, "example.test"); again != got {
			t.Errorf("MessageID(%q) is %q, then %q", c.id, got, again)
		}
	}
	// IDs that read alike differ by their hash.
	a, b := contract.MessageID("life/x", "example.test"), contract.MessageID("life.x", "example.test")
	if a == b || strings.SplitN(a, ".", 2)[0] != strings.SplitN(b, ".", 2)[0] {
		t.Errorf("life/x and life.x: %q and %q", a, b)
	}
	if got := contract.MessageID("life/x", ""); !strings.HasSuffix(got, "@referee.invalid") {
		t.Errorf("no domain: %q, want it @referee.invalid", got)
	}
	// A referee's address gives its domain, with or without angle brackets.
	for addr, want := range map[string]string{
		"referee@example.test":               "example.test",
		"The Referee <referee@example.test>": "example.test",
		"a@b@example.test":                   "example.test",
		"referee":                            "",
		"@example.test":                      "example.test",
	} {
		if got := contract.Domain(addr); got != want {
			t.Errorf("Domain(%q) = %q, want %q", addr, got, want)
		}
	}
}

// directCopy is Alice's public post as it reaches the referee without the
// list: a direct copy, held for the list's (G4).
func directCopy(t *testing.T, at, id string) *contract.Message {
	tm := contracttest.At(t, at)
	return &contract.Message{ID: id, From: "alice@example.test", Name: "Alice", Date: tm, Arrived: tm, Subject: "joining",
		Channel: contract.ChanPublic, Authenticated: true, Text: "I join the Toy game."}
}

// TestListCopyMissing: a direct copy whose list copy never comes gets no
// receipt while it waits; when the wait ends its sender is told, naming the
// wait as people say it, that nothing was performed; a list copy within the
// wait is performed once.
func TestListCopyMissing(t *testing.T) {
	for _, c := range []struct {
		wait time.Duration
		says string
	}{
		{time.Hour, "within 1 hour,"},
		{2 * time.Hour, "within 2 hours,"},
		{90 * time.Minute, "within 90 minutes,"},
		{90 * time.Second, "within 1m30s,"},
	} {
		h := contracttest.NewConfig(t, contract.Config{Referee: contracttest.Referee, Contestmaster: contracttest.Contestmaster, ListWait: c.wait},
			"2026-12-01T10:00:00Z", &toy{})
		ent, err := h.E.Apply(h.S, directCopy(t, "2026-12-01T10:05:00Z", "held1@example.test"))
		if err != nil {
			t.Fatal(err)
		}
		if len(h.S.Outbox) != 0 || len(ent) != 1 || ent[0].Outcome != "held" {
			t.Fatalf("wait %v: the direct copy: entries %+v, outbox %d", c.wait, ent, len(h.S.Outbox))
		}
		// The same direct copy again is not held twice.
		if ent, _ := h.E.Apply(h.S, directCopy(t, "2026-12-01T10:05:30Z", "held1@example.test")); len(ent) != 0 {
			t.Errorf("wait %v: the same direct copy again: %+v", c.wait, ent)
		}
		before := h.Advance(contracttest.At(t, "2026-12-01T10:05:00Z").Add(c.wait - time.Second).Format(time.RFC3339))
		if len(before) != 0 {
			t.Errorf("wait %v: told before the wait ended: %v", c.wait, before[0].Body)
		}
		ns := h.Advance("2026-12-01T13:00:00Z")
		if len(ns) != 1 || len(ns[0].To) != 1 || ns[0].To[0] != "alice@example.test" {
			t.Fatalf("wait %v: %d notices when the wait ended, want one to Alice", c.wait, len(ns))
		}
		body := flat(ns[0].Body)
		for _, want := range []string{"Your message of 2026-12-01 10:05 UTC named a public list", "did not reach the referee " + c.says, "nothing in it was performed", "(G4)"} {
			if !strings.Contains(body, want) {
				t.Errorf("wait %v: the reply lacks %q:\n%s", c.wait, want, body)
			}
		}
		if p := h.S.PlayerByName("Alice"); p != nil && p.In("toy") {
			t.Errorf("wait %v: the copy the list never carried was performed", c.wait)
		}
	}

	// The list's copy within the wait is performed, once, and the wait's end
	// says nothing.
	h := newToy(t)
	if _, err := h.E.Apply(h.S, directCopy(t, "2026-12-01T10:05:00Z", "held2@example.test")); err != nil {
		t.Fatal(err)
	}
	listCopy := directCopy(t, "2026-12-01T10:20:00Z", "held2@example.test")
	r := contracttest.Receipt(h.Send(listCopy))
	if r == nil || !strings.Contains(r.Body, "Done") {
		t.Fatalf("the list's copy: receipt %v", r)
	}
	if ns := h.Advance("2026-12-01T13:00:00Z"); len(ns) != 0 {
		t.Errorf("after the list's copy, the wait's end said: %s", ns[0].Body)
	}
	// A direct copy of a message already performed is not held.
	if ent, _ := h.E.Apply(h.S, directCopy(t, "2026-12-01T13:05:00Z", "held2@example.test")); len(ent) != 0 || len(h.S.Held) != 0 {
		t.Errorf("a direct copy of a performed message: entries %+v, held %d", ent, len(h.S.Held))
	}
}

// TestCheckLists: what `referee check` prints for a state the operator
// edited by hand: each problem names the key at fault, and a sound state
// has none.
func TestCheckLists(t *testing.T) {
	h := joined(t)
	if p := h.E.Check(h.S); len(p) != 0 {
		t.Fatalf("a sound state: %q", p)
	}
	h.S.Games["ghost"] = &contract.GameState{Contestmaster: "cm@example.test"}
	h.S.Games["toy"].Contestmaster = "nobody"
	h.S.Intents = append(h.S.Intents, &contract.Intent{ID: 7, Game: "gone", Verb: "x", Sponsor: "Alice", Method: "objection", Created: h.S.Clock})
	h.S.Failed = append(h.S.Failed, &contract.Outgoing{Notice: contract.Notice{ID: "toy/report/2026-W49", Subject: "[Toy] Weekly Report", To: []string{"cm@example.test"}}, LastError: "550 no such user"})
	got := strings.Join(h.E.Check(h.S), "\n")
	for _, want := range []string{
		"games.ghost: no such game",
		`games.toy.contestmaster: "nobody" is not an address`,
		`intents: #7 names no game "gone"`,
		"failed: notice toy/report/2026-W49 ([Toy] Weekly Report) to cm@example.test could not be delivered: 550 no such user",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("check lacks %q:\n%s", want, got)
		}
	}
	for _, wrong := range []string{"games.toy: no such game", "ghost.contestmaster", `#7 names no game "toy"`, "secret:"} {
		if strings.Contains(got, wrong) {
			t.Errorf("check says %q:\n%s", wrong, got)
		}
	}

	// A started state whose secret was lost: no week's seed can be drawn.
	h = joined(t)
	h.S.Secret = ""
	got = strings.Join(h.E.Check(h.S), "\n")
	if !strings.Contains(got, "secret: missing from a started state (journal_seq ") || strings.Contains(got, "report cannot be made") {
		t.Errorf("check of a state without its secret:\n%s", got)
	}
	if _, ok, _ := h.E.GameNext(h.S, "toy"); ok {
		t.Error("a next event computed without the secret")
	}

	// A report of a game that does not exist names the games there are.
	h = joined(t)
	if _, err := h.E.Report(h.S, "lyfe", h.S.Clock); err == nil || !strings.Contains(err.Error(), `report: no game "lyfe" (the games are toy)`) {
		t.Errorf("report of no game: %v", err)
	}
	if n, err := h.E.Report(h.S, "toy", h.S.Clock); err != nil || n == nil || !strings.Contains(n.Body, "Toy") {
		t.Errorf("report of toy: %v %v", n, err)
	}
	if ev, ok, err := h.E.GameNext(h.S, "toy"); err != nil || !ok || ev.Name != "round" {
		t.Errorf("toy's next event: %+v %v %v", ev, ok, err)
	}
	if _, ok, _ := h.E.GameNext(h.S, "lyfe"); ok {
		t.Error("a next event for no game")
	}
}

// drawing is the toy game with a report that draws from the week's seed.
type drawing struct{ toy }

func (g *drawing) Report(c *contract.Ctx) (*contract.Notice, error) {
	n, err := g.toy.Report(c)
	if err == nil {
		n.Body += fmt.Sprintf("Today's number: %d\n", c.Intn("report/n", 6)+1)
	}
	return n, err
}

// TestCheckNotStarted: the starting state as committed (no secret, nothing
// journalled yet) is not a problem, and its reports, which would draw from
// no seed, are not tried.
func TestCheckNotStarted(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &drawing{})
	if p := h.E.Check(h.S); len(p) != 0 {
		t.Fatalf("a started state: %q", p)
	}
	h.S.Secret, h.S.JournalSeq = "", 0
	if p := h.E.Check(h.S); len(p) != 0 {
		t.Errorf("the starting state as committed: %q", p)
	}
}

// TestParseChangeNeedsEquals: a change of G9 is "SET <parameter> = <value>"
// or "SELECT <variant>"; a SET line without "=" is not one, and the next
// line that is counts.
func TestParseChangeNeedsEquals(t *testing.T) {
	for _, c := range []struct {
		text              string
		kind, name, value string
		ok                bool
	}{
		{"SET Width 20", "", "", "", false},
		{"SET Width 20\nset Width = 21.", "set", "Width", "21", true},
		{"  SET =5", "set", "", "5", true},
		{"select Variant B.", "select", "", "Variant B", true},
		{"I set Width = 3", "", "", "", false},
	} {
		kind, name, value, ok := contract.ParseChange(c.text)
		if kind != c.kind || name != c.name || value != c.value || ok != c.ok {
			t.Errorf("ParseChange(%q) = %q %q %q %v, want %q %q %q %v", c.text, kind, name, value, ok, c.kind, c.name, c.value, c.ok)
		}
	}
}
