package mailin

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/google/go-cmp/cmp"
)

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", " \r\n\t\n", "From x@y Sun Nov 29 10:00:00 2026\n"} {
		if _, err := Parse([]byte(in), time.Time{}, nil); !errors.Is(err, ErrEmpty) {
			t.Errorf("Parse(%q) error = %v, want ErrEmpty", in, err)
		}
	}
}

func TestParseNoHeader(t *testing.T) {
	m, err := Parse([]byte("I join the Life contest.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "I join the Life contest." || len(m.Notes) == 0 {
		t.Errorf("Text = %q, Notes = %q; want the text and a note", m.Text, m.Notes)
	}
	if !strings.HasPrefix(m.MessageID, "sha256-") || !strings.HasSuffix(m.MessageID, "@referee.invalid") {
		t.Errorf("MessageID = %q, want a synthetic id", m.MessageID)
	}
}

func TestSyntheticMessageIDStable(t *testing.T) {
	raw := []byte("From: a@example.org\nTo: referee@example.test\n\nI bid 1 on Flight.\n")
	m1, _ := Parse(raw, time.Time{}, nil)
	m2, _ := Parse(append([]byte(nil), raw...), time.Now(), nil)
	m3, _ := Parse(append(raw, '\n'), time.Time{}, nil)
	if m1.MessageID != m2.MessageID || m1.MessageID == m3.MessageID {
		t.Errorf("synthetic ids: %q %q %q; want the first two equal and the third different", m1.MessageID, m2.MessageID, m3.MessageID)
	}
}

func TestParseArrivedUTC(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	m, _ := Parse([]byte("From: a@example.org\n\nx\n"), at, nil)
	if m.Arrived.Location() != time.UTC || !m.Arrived.Equal(at) {
		t.Errorf("Arrived = %v, want %v in UTC", m.Arrived, at)
	}
}

func TestTooLarge(t *testing.T) {
	raw := "From: a@example.org\nTo: referee@example.test\nSubject: big\n\n" + strings.Repeat("I bid 1 on Flight.\n", 100)
	m, err := Parse([]byte(raw), time.Time{}, &Config{MaxTextBytes: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !m.TooLarge || m.Text != "" {
		t.Errorf("TooLarge = %v, len(Text) = %d; want true and no text", m.TooLarge, len(m.Text))
	}
	m, _ = Parse([]byte(raw), time.Time{}, &Config{MaxTextBytes: 5000})
	if m.TooLarge || m.Text == "" {
		t.Errorf("under the limit: TooLarge = %v, len(Text) = %d", m.TooLarge, len(m.Text))
	}
	if m.Size != len(raw) {
		t.Errorf("Size = %d, want %d", m.Size, len(raw))
	}
}

// Header values that are echoed in replies must not carry CR/LF or other
// control characters, however they were encoded.
func TestHeaderControlCharsNeutralised(t *testing.T) {
	raw := "From: =?utf-8?q?Eve=0D=0ABcc:_victim@example.org?= <eve@example.org>\n" +
		"To: referee@example.test\n" +
		"Subject: =?utf-8?q?hi=0D=0AX-Injected:_yes=07=1B[31m_red=E2=80=AE?=\n\nx\n"
	m, err := Parse([]byte(raw), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{m.Subject, m.FromName} {
		for _, r := range s {
			if r < 0x20 || r == 0x7f || r == 0x202e {
				t.Errorf("%q contains control character %U", s, r)
			}
		}
	}
	if m.Subject != "hi X-Injected: yes[31m red" {
		t.Errorf("Subject = %q", m.Subject)
	}
	if m.FromName != "Eve Bcc: victim@example.org" || m.From != "eve@example.org" {
		t.Errorf("From = %q %q", m.FromName, m.From)
	}
}

// A forged X-Original-From on a direct message changes nothing (AGORA
// "Lists": trust it only on a message from a list address that came through
// that list).
func TestForgedXOriginalFromChangesNothing(t *testing.T) {
	base := "From: Mallory <Mallory@Example.org>\nTo: referee@example.test\nSubject: bid\nMessage-ID: <f@example.org>\n"
	forged := base + "X-Original-From: Alice <alice@example.org>\nReply-To: alice@example.org\n"
	cfg := corpusConfig()
	plain, _ := Parse([]byte(base+"\nI bid 3 on Flight.\n"), time.Time{}, cfg)
	got, _ := Parse([]byte(forged+"\nI bid 3 on Flight.\n"), time.Time{}, cfg)
	if diff := cmp.Diff(plain, got, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Size" }, cmp.Ignore())); diff != "" {
		t.Errorf("forged X-Original-From changed the message (-plain +forged):\n%s", diff)
	}
	if got.From != "mallory@example.org" {
		t.Errorf("From = %q, want mallory@example.org", got.From)
	}
	// The same header on the list's own copy (signed by the list's domain)
	// is believed.
	viaList := "Authentication-Results: mx.example.test; dkim=pass header.d=example.test\n" +
		"From: Alice via agora-business <agora-business@example.test>\nTo: agora-business@example.test\n" +
		"List-Id: <agora-business.example.test>\nX-Original-From: Alice <alice@example.org>\n\nI bid 3 on Flight.\n"
	m, _ := Parse([]byte(viaList), time.Time{}, cfg)
	if m.From != "alice@example.org" || m.FromName != "Alice" || m.Class != Public {
		t.Errorf("list copy: From = %q %q, Class = %s; want alice@example.org Alice public", m.From, m.FromName, m.Class)
	}
}

func TestDisplayNames(t *testing.T) {
	for in, want := range map[string][2]string{
		`"=?utf-8?q?Jos=C3=A9?=" <J@X.example.org>`:                    {"j@x.example.org", "José"},
		`=?utf-8?q?Jos=C3=A9_?= =?utf-8?q?N=C3=BA=C3=B1ez?= <j@x.org>`: {"j@x.org", "José Núñez"},
		`j@x.org (Jose Comment)`:                                       {"j@x.org", "Jose Comment"},
		`"Weird, Name" <j@x.org>, other@y.org`:                         {"j@x.org", "Weird, Name"},
		`Broken <<j@x.org>`:                                            {"j@x.org", "Broken"},
		`=?iso-8859-1?q?Fran=E7ois?= <f@x.org>`:                        {"f@x.org", "François"},
	} {
		m, err := Parse([]byte("From: "+in+"\n\nx\n"), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.From != want[0] || m.FromName != want[1] {
			t.Errorf("From: %s -> %q %q, want %q %q", in, m.From, m.FromName, want[0], want[1])
		}
	}
}

func TestClassification(t *testing.T) {
	cfg := corpusConfig()
	for _, tc := range []struct {
		name, hdr string
		class     Class
		reason    string
	}{
		{"private", "From: a@example.org\nTo: referee@example.test\n", Private, ""},
		{"bcc private", "From: a@example.org\nTo: someone@example.org\n", Private, ""},
		{"public via cc", "From: a@example.org\nTo: referee@example.test\nCc: Agora-Business@Example.TEST\n", Public, ""},
		{"public via list-id", "From: a@example.org\nTo: undisclosed-recipients:;\nList-Id: \"B\" <agora-business.example.test>\n", Public, ""},
		{"official wins", "From: a@example.org\nTo: agora-business@example.test, agora-official@example.test\n", Official, ""},
		{"discussion", "From: a@example.org\nTo: agora-discussion@example.test\n", Discussion, ""},
		{"own mail", "From: Referee <REFEREE@example.test>\nTo: agora-business@example.test\n", Ignorable, ReasonOwnMail},
		{"notice header", "From: a@example.org\nTo: referee@example.test\nX-Referee-Notice: yes\n", Ignorable, ReasonOwnMail},
		{"postmaster", "From: postmaster@example.org\nTo: referee@example.test\n", Ignorable, ReasonBounce},
		{"null return path", "Return-Path: < >\nFrom: a@example.org\nTo: referee@example.test\n", Ignorable, ReasonBounce},
		{"auto-submitted no", "Auto-Submitted: no\nFrom: a@example.org\nTo: referee@example.test\n", Private, ""},
		{"auto-generated", "Auto-Submitted: auto-generated\nFrom: a@example.org\nTo: referee@example.test\n", Ignorable, ReasonAutoReply},
		{"x-autorespond", "X-Autorespond: yes\nFrom: a@example.org\nTo: referee@example.test\n", Ignorable, ReasonAutoReply},
		{"precedence auto_reply", "Precedence: auto_reply\nFrom: a@example.org\nTo: referee@example.test\n", Ignorable, ReasonAutoReply},
		{"precedence bulk alone", "Precedence: bulk\nSubject: news\nFrom: a@example.org\nTo: referee@example.test\n", Private, ""},
		{"ooo subject", "Subject: Out of Office: Re: bids\nFrom: a@example.org\nTo: referee@example.test\n", Ignorable, ReasonAutoReply},
		{"vacation in a reply subject", "Subject: Re: Vacation rules for Life\nFrom: a@example.org\nTo: referee@example.test\n", Private, ""},
		{"report", "Content-Type: multipart/report; report-type=delivery-status; boundary=x\nFrom: a@example.org\nTo: referee@example.test\n", Ignorable, ReasonBounce},
		{"unknown list", "List-Id: <other.example.net>\nFrom: a@example.org\nTo: other@example.net\n", Ignorable, ReasonUnknownList},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse([]byte(tc.hdr+"\nI bid 1 on Flight.\n"), time.Time{}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if m.Class != tc.class || m.IgnoreReason != tc.reason {
				t.Errorf("Class = %s (%q), want %s (%q)", m.Class, m.IgnoreReason, tc.class, tc.reason)
			}
		})
	}
}

func TestAuthPolicies(t *testing.T) {
	raw := "Authentication-Results: mx.example.test; dkim=pass header.d=example.org\nFrom: a@example.org\n\nx\n"
	for _, tc := range []struct {
		cfg  Config
		want bool
	}{
		{Config{}, true},
		{Config{AuthPolicy: "none"}, true},
		{Config{AuthPolicy: "authres", AuthServID: "mx.example.test"}, true},
		{Config{AuthPolicy: "authres", AuthServID: "MX.Example.Test"}, true},
		{Config{AuthPolicy: "authres", AuthServID: "other.example.test"}, false},
		{Config{AuthPolicy: "authres"}, false},
		{Config{AuthPolicy: "bogus"}, false},
	} {
		m, _ := Parse([]byte(raw), time.Time{}, &tc.cfg)
		if m.Authenticated != tc.want || m.AuthNote == "" {
			t.Errorf("%+v: Authenticated = %v (%s), want %v", tc.cfg, m.Authenticated, m.AuthNote, tc.want)
		}
	}
}

func TestAligned(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"example.org", "example.org", true},
		{"example.org", "mail.example.org", true},
		{"a.example.org", "b.example.org", true},
		{"example.org", "example.net", false},
		{"co.uk", "example.co.uk", false},
		{"example.co.uk", "mail.example.co.uk", true},
		{"other.co.uk", "example.co.uk", false},
		{"", "example.org", false},
	} {
		if got := aligned(tc.a, tc.b); got != tc.want {
			t.Errorf("aligned(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestDKIM signs messages with an in-memory Ed25519 key and verifies them
// through an injected LookupTXT: a valid aligned signature passes, a changed
// body or a foreign signing domain does not.
func TestDKIM(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{
		"s1._domainkey.example.org": "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub),
		"s1._domainkey.example.net": "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub),
	}
	lookup := func(name string) ([]string, error) {
		if k, ok := keys[name]; ok {
			return []string{k}, nil
		}
		return nil, fmt.Errorf("no key for %s", name)
	}
	sign := func(domain, msg string) string {
		var b strings.Builder
		err := dkim.Sign(&b, strings.NewReader(msg), &dkim.SignOptions{
			Domain: domain, Selector: "s1", Signer: priv,
			HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	msg := "From: Alice <alice@example.org>\r\nTo: referee@example.test\r\nSubject: bid\r\nMessage-ID: <d@example.org>\r\n\r\nI bid 3 on Flight.\r\n"
	cfg := &Config{AuthPolicy: AuthDKIM, LookupTXT: lookup}
	for _, tc := range []struct {
		name string
		raw  string
		want bool
	}{
		{"valid", sign("example.org", msg), true},
		{"valid, LF line endings", strings.ReplaceAll(sign("example.org", msg), "\r\n", "\n"), true},
		{"body changed", strings.Replace(sign("example.org", msg), "bid 3", "bid 9", 1), false},
		{"not aligned", sign("example.net", msg), false},
		{"unsigned", msg, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse([]byte(tc.raw), time.Time{}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if m.Authenticated != tc.want {
				t.Errorf("Authenticated = %v (%s), want %v", m.Authenticated, m.AuthNote, tc.want)
			}
			if tc.want && m.AuthNote != "dkim=pass header.d=example.org" {
				t.Errorf("AuthNote = %q", m.AuthNote)
			}
		})
	}
	delete(keys, "s1._domainkey.example.org")
	m, _ := Parse([]byte(sign("example.org", msg)), time.Time{}, cfg)
	if m.Authenticated {
		t.Errorf("without the key: Authenticated = true (%s)", m.AuthNote)
	}
}

func TestStripComments(t *testing.T) {
	for in, want := range map[string]string{
		`a; dkim=pass (2048-bit key; unprotected) header.d=x`: `a; dkim=pass   header.d=x`,
		`a (b (c; d) e) f`:       `a   f`,
		`a "q (not; comment)" b`: `a "q (not; comment)" b`,
		`a (unclosed; x`:         `a `,
	} {
		if got := stripComments(in); got != want {
			t.Errorf("stripComments(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAlternativeEmptyPlainLosesToHTML(t *testing.T) {
	raw := "From: a@example.org\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\n \n--b\nContent-Type: text/html\n\n<p>I bid 2 on Flight.</p>\n--b--\n"
	m, err := Parse([]byte(raw), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "I bid 2 on Flight." {
		t.Errorf("Text = %q", m.Text)
	}
}

// TestParseWorstCases feeds shapes that would be quadratic with naive
// code (long folded headers, thousands of unclosed tags or boundaries).
// Each takes milliseconds; the bound is generous so that only a quadratic
// regression (minutes) fails it.
func TestParseWorstCases(t *testing.T) {
	// Each case at n and 8n repetitions: linear work costs 8 times as much
	// CPU, quadratic 64 times. CPU time of this process, not the wall clock,
	// so that a loaded machine does not fail the test; the smaller size is
	// large enough that fixed costs do not hide a quadratic growth.
	for name, make := range map[string]func(n int) string{
		"folded header":    func(n int) string { return "Subject: a\n" + strings.Repeat(" x\n", 8*n) + "\nbody\n" },
		"unclosed scripts": func(n int) string { return "Content-Type: text/html\n\n" + strings.Repeat("<script>x", 32*n) },
		"unclosed quotes":  func(n int) string { return "Content-Type: text/html\n\n" + strings.Repeat("<a href=\"x", 8*n) },
		"from lines":       func(n int) string { return "\n" + strings.Repeat("From: x\n\n\n\n\n\n\n\n", 4*n) },
		"colon lines":      func(n int) string { return "\n" + strings.Repeat("a@b:\n\n\n\n", 4*n) },
		"boundaries": func(n int) string {
			return "Content-Type: multipart/mixed; boundary=a\n\n" + strings.Repeat("--a\n", 8*n)
		},
		"nesting": func(n int) string {
			return strings.Repeat("Content-Type: multipart/mixed; boundary=a\n\n--a\n", n)
		},
	} {
		cost := func(raw string) time.Duration { // the least of three runs
			// This goroutine on its own thread, the thread's CPU time: the
			// other tests running in parallel, and the collection of
			// earlier garbage, are not counted.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			least := time.Duration(math.MaxInt64)
			for range 3 {
				runtime.GC()
				start := cpuTime(t)
				if _, err := Parse([]byte(raw), time.Time{}, nil); err != nil {
					t.Errorf("%s: %v", name, err)
				}
				least = min(least, cpuTime(t)-start)
			}
			return least
		}
		small, large := make(3125), make(25000)
		c1, c8 := cost(small), cost(large)
		t.Logf("%s: %v, %v: %.1f", name, c1, c8, float64(c8)/float64(c1))
		if c8 > 24*max(c1, time.Millisecond) {
			t.Errorf("%s: %d bytes cost %v of CPU, %d bytes %v: %.0f times as much for 8 times the input (quadratic?)",
				name, len(small), c1, len(large), c8, float64(c8)/float64(max(c1, time.Millisecond)))
		}
	}
}

// cpuTime is the CPU time the calling thread has used
// (CLOCK_THREAD_CPUTIME_ID: precise, where the thread's rusage counts in
// scheduler ticks).
func cpuTime(t testing.TB) time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		t.Fatal(errno)
	}
	return time.Duration(ts.Nano())
}

// TestAuthResResults: under the authres policy, what our own server's
// Authentication-Results must say for a message From a@example.org to
// count as authenticated: dkim=pass with an aligned header.d (or i=), or
// dmarc=pass for the From domain; a failed or foreign result, or one from
// another server, does not count.
func TestAuthResResults(t *testing.T) {
	cfg := &Config{AuthPolicy: "authres", AuthServID: "mx.example.test"}
	for _, tc := range []struct {
		res  string
		want bool
	}{
		{"mx.example.test; dmarc=pass header.from=example.org", true},
		{"mx.example.test; dmarc=pass header.from=mail.example.org", true},
		{"mx.example.test; dmarc=pass", true},
		{"mx.example.test; dmarc=pass header.from=example.net", false},
		{"mx.example.test; dmarc=fail header.from=example.org", false},
		{"mx.example.test; dkim=pass header.d=example.net", false},
		{"mx.example.test; dkim=fail header.d=example.org", false},
		{"mx.example.test; dkim=pass header.i=@example.org", true},
		{"mx.example.test; dkim=pass header.i=@example.net", false},
		{"mx.example.test; spf=pass smtp.mailfrom=example.org", false},
		{"other.example.test; dmarc=pass header.from=example.org", false},
	} {
		raw := "Authentication-Results: " + tc.res + "\nFrom: a@example.org\n\nx\n"
		m, err := Parse([]byte(raw), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Authenticated != tc.want || m.AuthNote == "" {
			t.Errorf("%s: Authenticated = %v (%s), want %v", tc.res, m.Authenticated, m.AuthNote, tc.want)
		}
	}
}

// Which copy of a public post is the list's (ruling G4): under policy none a
// List-Id naming the list with the list's address in To/Cc; under authres
// only the list domain's own DKIM signature. Mail that puts the list's
// address in From without being its copy is forged and performs nothing.
func TestListCopy(t *testing.T) {
	none := corpusConfig()
	none.AuthPolicy = AuthNone
	authres := corpusConfig()
	const (
		direct   = "From: Alice <alice@example.org>\nTo: agora-business@example.test\nCc: referee@example.test\nMessage-ID: <p1@example.org>\n"
		listHdrs = "List-Id: Agora Business <agora-business.example.test>\n"
		signed   = "Authentication-Results: mx.example.test; dkim=pass header.d=example.test\n"
		alignedS = "Authentication-Results: mx.example.test; dkim=pass header.d=mail.example.test; dmarc=pass\n"
		forged   = "From: Alice via agora-business <agora-business@example.test>\nTo: referee@example.test\n" +
			"X-Original-From: Alice <alice@example.org>\nMessage-ID: <p2@example.org>\n" + listHdrs
		forgedTo = "From: Alice via agora-business <agora-business@example.test>\nTo: agora-business@example.test\n" +
			"X-Original-From: Alice <alice@example.org>\nMessage-ID: <p3@example.org>\n" + listHdrs
	)
	for _, c := range []struct {
		name, head string
		cfg        *Config
		class      Class
		listCopy   bool
		from       string
	}{
		{"none: direct copy", direct, none, Public, false, "alice@example.org"},
		{"none: list copy", listHdrs + direct, none, Public, true, "alice@example.org"},
		{"none: forged List-Id, list in From", forged, none, Ignorable, false, "agora-business@example.test"},
		{"none: List-Id with the list in To passes (weaker)", forgedTo, none, Public, true, "alice@example.org"},
		{"authres: List-Id alone", listHdrs + direct, authres, Public, false, "alice@example.org"},
		{"authres: list domain's signature", signed + listHdrs + direct, authres, Public, true, "alice@example.org"},
		{"authres: aligned signature and dmarc are not the list's", alignedS + listHdrs + direct, authres, Public, false, "alice@example.org"},
		{"authres: forged List-Id, list in From", forged, authres, Ignorable, false, "agora-business@example.test"},
		{"authres: forged with the list in To", forgedTo, authres, Ignorable, false, "agora-business@example.test"},
	} {
		m, err := Parse([]byte(c.head+"Subject: x\n\nI join Rumble.\n"), time.Time{}, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Class != c.class || m.ListCopy != c.listCopy {
			t.Errorf("%s: class %s, list copy %v (%s); want %s, %v", c.name, m.Class, m.ListCopy, m.ListNote, c.class, c.listCopy)
		}
		if m.Class == Ignorable && m.IgnoreReason != ReasonNotFromList {
			t.Errorf("%s: reason %q", c.name, m.IgnoreReason)
		}
		if c.class != Ignorable && m.From != c.from {
			t.Errorf("%s: from %s, want %s", c.name, m.From, c.from)
		}
	}
}

// TestAuthResNotes: a message our server's Authentication-Results does not
// authenticate carries a note saying why, for the operator's log and the
// player's refusal: no result at all, a header that does not read, or the
// results seen.
func TestAuthResNotes(t *testing.T) {
	cfg := &Config{AuthPolicy: "authres", AuthServID: "mx.example.test"}
	for _, tc := range []struct{ res, note string }{
		{"mx.example.test; none", "no dkim or dmarc result from mx.example.test"},
		{"mx.example.test; dkim", "unreadable Authentication-Results from mx.example.test"},
		{"mx.example.test; dkim=fail header.d=example.org; dmarc=fail", "dkim=fail header.d=example.org; dmarc=fail (From domain example.org)"},
		{"other.example.test; dkim=pass header.d=example.org", "no Authentication-Results from mx.example.test"},
	} {
		m, err := Parse([]byte("Authentication-Results: "+tc.res+"\nFrom: a@example.org\n\nx\n"), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Authenticated || m.AuthNote != tc.note {
			t.Errorf("%s: Authenticated %v, note %q, want %q", tc.res, m.Authenticated, m.AuthNote, tc.note)
		}
	}
}

// TestDKIMNotes: a message no DKIM signature authenticates carries a note
// saying why: none at all, a header that does not read, or each
// signature's failure.
func TestDKIMNotes(t *testing.T) {
	noKey := func(string) ([]string, error) { return nil, errors.New("no key") }
	for _, tc := range []struct{ raw, note string }{
		{"From: a@example.org\r\n\r\nx\r\n", "no DKIM signature"},
		{"From a@example.org, a header without its end", "dkim: failed to read header: EOF"},
		{"From: a@example.org\r\nDKIM-Signature: v=1; a=rsa-sha256; d=example.org; s=s; h=from; bh=x; b=y\r\n\r\nx\r\n",
			"dkim=fail header.d=example.org: dkim: no key for signature: no key"},
	} {
		if ok, note := checkDKIM([]byte(tc.raw), noKey, "example.org"); ok || note != tc.note {
			t.Errorf("%q: %v, note %q, want %q", tc.raw, ok, note, tc.note)
		}
	}
}
