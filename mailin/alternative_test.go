package mailin

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAlternativeOfAnEmptyText: a multipart/alternative whose only text is
// an empty text/plain (beside a calendar invitation, say) has a text part,
// empty: the message is read as saying nothing, with no note that it has no
// readable text.
func TestAlternativeOfAnEmptyText(t *testing.T) {
	raw := strings.Join([]string{
		"From: a@example.org",
		"Subject: invitation",
		`Content-Type: multipart/alternative; boundary="b"`,
		"",
		"--b",
		"Content-Type: text/plain; charset=utf-8",
		"",
		"",
		"--b",
		"Content-Type: text/calendar; method=REQUEST",
		"",
		"BEGIN:VCALENDAR",
		"END:VCALENDAR",
		"--b--",
		"",
	}, "\r\n")
	m, err := Parse([]byte(raw), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(m.Text) != "" || slices.Contains(m.Notes, "no readable text part") {
		t.Errorf("text %q, notes %q; want no text and no note", m.Text, m.Notes)
	}
}
