package mailin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAuthResCommentEscapes: a mail server's comment with an escaped
// parenthesis or a quoted string with an escaped quote does not hide or
// invent a result: the sender is authenticated by the results as written.
func TestAuthResCommentEscapes(t *testing.T) {
	cfg := &Config{AuthPolicy: "authres", AuthServID: "mx.example.test"}
	for _, c := range []struct {
		res  string
		want bool
	}{
		{`mx.example.test; dkim=pass (key \) 2048; tested) header.d=example.org`, true},
		{`mx.example.test; dkim=fail (a \) b; dkim=pass) header.d=example.org`, false},
		{`mx.example.test; dkim=pass (outer (inner \( x) y; z) header.d=example.org`, true},
	} {
		raw := "Authentication-Results: " + c.res + "\nFrom: a@example.org\n\nI join the Life contest.\n"
		m, err := Parse([]byte(raw), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Authenticated != c.want {
			t.Errorf("%s: Authenticated = %v (%s), want %v", c.res, m.Authenticated, m.AuthNote, c.want)
		}
	}
	for in, want := range map[string]string{
		`a (b \) c; d) e`:     `a   e`,
		`a "q \" (x; y" b`:    `a "q \" (x; y" b`,
		`a (b "c) d`:          `a   d`,
		`a (b (c) d) e (f) g`: `a   e   g`,
		`x\y (z) w`:           `x\y   w`,
		`a) b (c) d`:          `a) b   d`,
	} {
		if got := stripComments(in); got != want {
			t.Errorf("stripComments(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHeaderStartsWithContinuation: a mail whose first line is a folded
// header line is read as all body, and the note says why.
func TestHeaderStartsWithContinuation(t *testing.T) {
	m, err := Parse([]byte(" folded: x\nFrom: a@example.org\n\nI join the Life contest.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "header starts with a continuation line; whole message taken as body") {
		t.Errorf("notes %q", m.Notes)
	}
	if !strings.Contains(m.Text, "I join the Life contest.") || m.From != "" {
		t.Errorf("text %q, from %q: want the whole mail as body and no sender", m.Text, m.From)
	}
}

// TestBodyTextCleaned: what the interpreter reads of a body has "\n" line
// endings, a no-break space as a space, and no control or bidi characters.
func TestBodyTextCleaned(t *testing.T) {
	for body, want := range map[string]string{
		"I bid 1\u00a0on Flight.":             "I bid 1 on Flight.",
		"I bid 1 on\rFlight.":                 "I bid 1 on\nFlight.",
		"I bid 1\x07 on \u202eFlight.\u200f":  "I bid 1 on Flight.",
		"I bid\t1 on \u2066Flight\u2069.\x7f": "I bid\t1 on Flight.",
		"I bid 1 on Flight.":                  "I bid 1 on Flight.",
	} {
		m, err := Parse([]byte("From: a@example.org\nContent-Type: text/plain; charset=utf-8\n\n"+body+"\n"), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != want {
			t.Errorf("body %q read as %q, want %q", body, m.Text, want)
		}
	}
}

// TestReplyIDsWithoutAngles: ids written without angle brackets still tie
// a reply to the message it answers; words without "@" are not ids.
func TestReplyIDsWithoutAngles(t *testing.T) {
	m, err := Parse([]byte("From: a@example.org\nIn-Reply-To: intent.7@referee.example.test, see above\nReferences: root@example.org notanid\n\nI support.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.InReplyTo, " ") != "intent.7@referee.example.test" || strings.Join(m.References, " ") != "root@example.org" {
		t.Errorf("In-Reply-To %q, References %q", m.InReplyTo, m.References)
	}
}

// TestMaildirSameSecond: mails delivered in the same second are read in
// the order of their unique names.
func TestMaildirSameSecond(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cur"), 0o700)
	os.MkdirAll(filepath.Join(dir, "new"), 0o700)
	// new/ is listed first: the name, not the listing, orders a tie.
	for _, n := range []string{"new/1764583200.P2.host", "cur/1764583200.P1.host", "cur/1764583100.M9P1.host", "new/1764583200.M5P1.host"} {
		os.WriteFile(filepath.Join(dir, n), []byte("From: a@example.org\nSubject: "+filepath.Base(n)+"\n\nx\n"), 0o600)
	}
	a, err := OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var got []string
	for {
		r, err := a.Next()
		if err != nil {
			break
		}
		m, _ := Parse(r.Data, time.Time{}, nil)
		got = append(got, m.Subject)
	}
	if want := "1764583100.M9P1.host 1764583200.P1.host 1764583200.P2.host 1764583200.M5P1.host"; strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", got, want)
	}
}
