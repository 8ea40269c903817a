package mailin

// Behaviour held where a shortcut was made simpler: mayNameDigest is one
// fold-aware search, with no test for bytes outside ASCII, and the mbox
// reader's end no longer asks whether a From_ line is pending.

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestDigestSubjectsAnyCase: a list's digest is ignored as one whatever
// the case of "digest", with ſ for its s, and whatever else of its subject
// is outside ASCII; a subject that only looks like it stays a message of
// the list.
func TestDigestSubjectsAnyCase(t *testing.T) {
	cfg := corpusConfig()
	for _, c := range []struct {
		subject string
		digest  bool
	}{
		{"agora-business Digest, Vol 12, Issue 3", true},
		{"AGORA-BUSINESS DIGEST VOL. 12", true},
		{"agora-business diGeſt, Vol 1, Issue 2", true},
		{"Ägora-Geschäft Digest, Vol 3, Issue 1", true},
		{"Résumé of the week: digest, volume 4", true},
		{"DİGEST Vol 3", false}, // İ does not fold to i
		{"Ägora digestion, vol 3", false},
		{"digeſts vol 3", false},
		{"Ägora: the digest I promised", false}, // no volume
	} {
		raw := "From: a@example.org\nTo: agora-business@example.test\nList-Id: <agora-business.example.test>\nSubject: " + c.subject + "\n\nI bid 1 on Flight.\n"
		m, err := Parse([]byte(raw), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != c.subject {
			t.Fatalf("subject read %q, want %q", m.Subject, c.subject)
		}
		want, reason := Public, ""
		if c.digest {
			want, reason = Ignorable, ReasonDigest
		}
		if m.Class != want || m.IgnoreReason != reason {
			t.Errorf("%q: Class = %s (%q), want %s (%q)", c.subject, m.Class, m.IgnoreReason, want, reason)
		}
	}
}

// TestMboxEndIsFinal: once an mbox has given io.EOF it gives io.EOF again,
// however the file ends: after a message's blank line, without a line end,
// or with a dated From_ line (with or without its line end) read last, which
// starts no message.
func TestMboxEndIsFinal(t *testing.T) {
	msg := "From a Mon Nov 30 10:00:00 2026\nSubject: one\n\nx\n"
	for _, c := range []struct {
		body string
		want []string
	}{
		{msg, []string{"one"}},
		{msg + "\n", []string{"one"}},
		{msg + "y", []string{"one"}},
		{msg + "\nFrom b Mon Nov 30 11:00:00 2026", []string{"one"}},
		{msg + "\nFrom b Mon Nov 30 11:00:00 2026\n", []string{"one"}},
		{msg + "\nFrom b Mon Nov 30 11:00:00 2026\nSubject: two\n\ny", []string{"one", "two"}},
	} {
		path := filepath.Join(t.TempDir(), "box")
		writeFile(t, path, c.body)
		a, err := OpenArchive(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			r, err := a.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%q: %v", c.body, err)
			}
			m, err := Parse(r.Data, r.Arrived, nil)
			if err != nil {
				t.Fatalf("%q: %v", c.body, err)
			}
			got = append(got, m.Subject)
		}
		for range 2 {
			if r, err := a.Next(); r != nil || !errors.Is(err, io.EOF) {
				t.Errorf("%q: Next after the end gives %v, %v; want nil, io.EOF", c.body, r, err)
			}
		}
		a.Close()
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: subjects %q, want %q", c.body, got, c.want)
		}
	}
}
