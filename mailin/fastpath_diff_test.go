package mailin

// The shortcuts Parse takes on the common forms (a Date field by its fixed
// places, the digest test of an ASCII subject, the quote test of a line)
// are held here to the general forms they stand for, for every input, not
// only to the forms as first written.

import (
	"net/mail"
	"strings"
	"testing"
	"time"
)

// parseDateGeneral is parseDate's general path: time.Parse in RFC1123Z,
// then net/mail.
func parseDateGeneral(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC1123Z, v); err == nil {
		return t, nil
	}
	return mail.ParseDate(v)
}

// TestParseDateInLocalOffsets: a Date field written in the offset of the
// local zone at that time (Local as the read gives it), in UTC's, and in
// -0000, every 157 seconds of a year, reads as the general path reads it,
// in the same zone, with Local a zone of odd offsets and summer times:
// +1245/+1345, -0330/-0230, +0545, +1030/+11, Dublin's winter time.
func TestParseDateInLocalOffsets(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	for _, name := range []string{"Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe", "Europe/Dublin", "UTC"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		time.Local = loc
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 365 * 24 * 3600 / 157 {
			at := start.Add(time.Duration(i) * 157 * time.Second).In(loc)
			for _, v := range []string{at.Format(time.RFC1123Z), at.UTC().Format(time.RFC1123Z), at.Format("Mon, 02 Jan 2006 15:04:05 ") + "-0000"} {
				got, err := parseDate(v)
				want, werr := parseDateGeneral(v)
				if (err == nil) != (werr == nil) || !got.Equal(want) || got.String() != want.String() || (got.Location() == time.Local) != (want.Location() == time.Local) {
					t.Fatalf("Local %s: parseDate(%q) = %v, %v; the general path %v, %v", name, v, got, err, want, werr)
				}
			}
		}
	}
}

// FuzzSubjectAndLineTests: mayNameDigest is the lower-case subject holding
// "digest" (ſ read as s), and isQuoted a line whose '>' comes after at
// most three spaces and tabs, for every text.
func FuzzSubjectAndLineTests(f *testing.F) {
	for _, s := range []string{"Digest", "DIGEST", "diGeſt", "a dIgEsT, Vol 3", "d", "digesT\x80", "\x80digest", "İdigest", "dige", "  \t>x", "    >", ">", "\t\t\t\t>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := mayNameDigest(s), strings.Contains(strings.ToLower(strings.ReplaceAll(s, "ſ", "s")), "digest"); got != want {
			t.Fatalf("mayNameDigest(%q) = %v, the lower case says %v", s, got, want)
		}
		trimmed := strings.TrimLeft(s, " \t")
		if got, want := isQuoted(s), len(s)-len(trimmed) <= 3 && strings.HasPrefix(trimmed, ">"); got != want {
			t.Fatalf("isQuoted(%q) = %v, TrimLeft says %v", s, got, want)
		}
	})
}
