package mailin

import (
	"strings"
	"testing"
	"time"
)

// TestEmptyBodyIsNotUnreadable: a mail with nothing in its body (its words
// in the subject alone, as a phone's mail app sends it, or an empty part
// of another type) is not said to have no readable text part: the sender
// would be told the referee could not read what was not there.
func TestEmptyBodyIsNotUnreadable(t *testing.T) {
	for _, raw := range []string{
		"From: a@example.org\nSubject: I join the Life contest.\n\n",
		"From: a@example.org\nSubject: I join the Life contest.\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n\n",
		"From: a@example.org\nSubject: the map\nMIME-Version: 1.0\nContent-Type: application/pdf\nContent-Transfer-Encoding: base64\n\n \n",
	} {
		m, err := Parse([]byte(raw), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Notes) != 0 {
			t.Errorf("%q: notes %q, want none", raw, m.Notes)
		}
	}
}

// TestTextAtTheLimit: a text of exactly the configured limit (63 letters
// and the line's end in 64 bytes) is read; one byte more is too large, and
// the note says by how much.
func TestTextAtTheLimit(t *testing.T) {
	cfg := &Config{MaxTextBytes: 64}
	for _, c := range []struct {
		n    int
		note string
	}{
		{63, ""},
		{64, "text of 65 bytes is over the 64-byte limit"},
	} {
		raw := "From: a@example.org\nSubject: x\n\n" + strings.Repeat("x", c.n) + "\n"
		m, err := Parse([]byte(raw), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if c.note == "" && (m.TooLarge || m.Text != strings.Repeat("x", c.n) || len(m.Notes) != 0) {
			t.Errorf("%d letters: too large %v, text of %d bytes, notes %q; want it read whole", c.n, m.TooLarge, len(m.Text), m.Notes)
		}
		if c.note != "" && (!m.TooLarge || m.Text != "" || len(m.Notes) != 1 || m.Notes[0] != c.note) {
			t.Errorf("%d letters: too large %v, notes %q; want too large, %q", c.n, m.TooLarge, m.Notes, c.note)
		}
	}
}

// TestBidiEmbeddingRemoved: the first and last of the bidirectional
// embedding controls (U+202A, U+202E) are taken out of the text like the
// rest, so the words read are the words shown.
func TestBidiEmbeddingRemoved(t *testing.T) {
	m, err := Parse([]byte("From: a@example.org\nContent-Type: text/plain; charset=utf-8\n\nI bid 1 on \u202aFlight\u202c and 2 on \u202eCrown.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "I bid 1 on Flight and 2 on Crown."; m.Text != want {
		t.Errorf("read as %q, want %q", m.Text, want)
	}
}

// TestBodyWithoutBlankLine: a script's mail whose body follows the header
// without the blank line keeps its first body line, though it holds a
// colon: a field name has no space and no DEL, so the body starts there,
// and a note says so.
func TestBodyWithoutBlankLine(t *testing.T) {
	for raw, want := range map[string]string{
		"From: a@example.org\nSubject: bids\nI bid 9 on Flight: my last bid.\n":  "I bid 9 on Flight: my last bid.",
		"From: a@example.org\nSubject: bids\nX-Bid\x7f: 9\nI bid 9 on Flight.\n": "X-Bid: 9\nI bid 9 on Flight.",
	} {
		m, err := Parse([]byte(raw), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != want || m.Subject != "bids" || len(m.Notes) != 1 || m.Notes[0] != "malformed header line; body assumed to start there" {
			t.Errorf("%q: text %q, subject %q, notes %q; want text %q", raw, m.Text, m.Subject, m.Notes, want)
		}
	}
}

// TestListRewriteWithoutOriginal: a list's DMARC-rewritten copy whose
// X-Original-From holds no address (a list that blanked it) is read, with
// the list's address as its sender, not the crash of an empty list.
func TestListRewriteWithoutOriginal(t *testing.T) {
	raw := "From: Alice via agora-business <agora-business@example.test>\nX-Original-From: undisclosed\nTo: agora-business@example.test\n" +
		"List-Id: Agora business <agora-business.example.test>\nSubject: BUS: I join\n\nI join the Life contest.\n"
	m, err := Parse([]byte(raw), time.Time{}, &Config{PublicLists: []string{"agora-business@example.test"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.From != "agora-business@example.test" || m.Text != "I join the Life contest." {
		t.Errorf("from %q, text %q; want the list's address and the text", m.From, m.Text)
	}
}
