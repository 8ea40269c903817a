package mailout

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomessage "github.com/emersion/go-message/mail"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var monday = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// grid is a report line wider than 72 columns, as a Life grid with rulers can be.
var grid = "   " + strings.Repeat("0123456789", 12)

func baseMail() *Mail {
	return &Mail{
		From:      "The Referee <referee@example.test>",
		To:        []string{"agora-official@example.test"},
		Subject:   "OFF: [Life] Weekly Report",
		Body:      "Hello.\n",
		MessageID: "report.2026-W49.life@referee.example.test",
		Date:      monday,
		Kind:      "report",
	}
}

func TestComposeGolden(t *testing.T) {
	tests := []struct {
		name string
		edit func(m *Mail)
	}{
		{"receipt", func(m *Mail) {
			m.To = []string{"Goethe <goethe@example.test>"}
			m.Cc = []string{"Life Contestmaster <cm@example.test>"}
			m.Subject = "Re: BUS: I join the Life contest"
			m.Body = "Received:\n\n> I join the Life contest.\n\nApplied: Goethe joins the Life contest (Life R3).\n-- \nThe Life Contestmaster (referee)\n"
			m.MessageID = "receipt.abc123@referee.example.test"
			m.InReplyTo = "CAF00d@mail.example.test"
			m.References = []string{"root.1@mail.example.test", "<mid.2@mail.example.test>"}
			m.AutoSubmitted = "auto-replied"
			m.Kind = "receipt"
		}},
		{"report-grid", func(m *Mail) {
			m.Body = "==========\n Life report\n==========\n\n" + grid + "\n 0 ..A..B..\n.starts with a dot\n"
			m.ListID = "Life reports <life.referee.example.test>"
			m.ListPost = "agora-official@example.test"
		}},
		{"report-overlong-line", func(m *Mail) {
			m.Body = "Before.\n" + strings.Repeat("ab.", 400) + "\nRêve after.\n"
		}},
		{"utf8-subject", func(m *Mail) {
			m.Subject = "Rêve — 夢"
			m.To = []string{"Rêve Joueur <reve@example.test>"}
			m.Body = "Le rêve continue — 夢.\n"
			m.Kind = "notice"
		}},
		{"header-injection", func(m *Mail) {
			m.Subject = "Hi\r\nBcc: victim@example.test\r\n\r\nfake body"
			m.To = []string{"\"Evil\r\nBcc: x@example.test\" <evil@example.test>"}
			m.ListID = "List\nX-Injected: yes <l.example.test>"
			m.InReplyTo = "a@b\r\nX-Injected: yes"
			m.References = []string{"ok@example.test", "bad id@example.test"}
			m.Kind = "notice"
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := baseMail()
			tc.edit(m)
			got, err := Compose(m)
			if err != nil {
				t.Fatalf("Compose: %v", err)
			}
			again, err := Compose(m)
			if err != nil || !bytes.Equal(got, again) {
				t.Fatalf("Compose is not deterministic (err %v)", err)
			}
			checkWellFormed(t, got, m)
			path := filepath.Join("testdata", tc.name+".eml")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Compose mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// checkWellFormed parses raw back and checks the properties every composed
// message must have.
func checkWellFormed(t *testing.T, raw []byte, m *Mail) {
	t.Helper()
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) ||
		bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\r")) {
		t.Errorf("bare CR or LF in output")
	}
	for i, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > maxLineOctets {
			t.Errorf("line %d has %d octets", i+1, len(line))
		}
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail: %v", err)
	}
	allowed := map[string]bool{
		"Auto-Submitted": true, "Date": true, "In-Reply-To": true, "List-Id": true,
		"List-Post": true, "Mime-Version": true, "Message-Id": true, "References": true,
		"Subject": true, "X-Referee-Notice": true, "From": true, "To": true, "Cc": true,
		"Content-Transfer-Encoding": true, "Content-Type": true,
	}
	for k, v := range msg.Header {
		if !allowed[k] {
			t.Errorf("unexpected header %q", k)
		}
		if len(v) != 1 {
			t.Errorf("header %q appears %d times", k, len(v))
		}
	}
	for _, k := range []string{"User-Agent", "X-Mailer", "Bcc"} {
		if msg.Header.Get(k) != "" {
			t.Errorf("header %s present", k)
		}
	}
	if got, want := msg.Header.Get("X-Referee-Notice"), kindToken(m.Kind); got != want {
		t.Errorf("X-Referee-Notice = %q, want %q", got, want)
	}
	mr, err := gomessage.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("go-message: %v", err)
	}
	subj, err := mr.Header.Subject()
	if err != nil {
		t.Errorf("subject: %v", err)
	}
	if want := limitRunes(headerText(m.Subject), maxSubjectRunes); subj != want {
		t.Errorf("subject = %q, want %q", subj, want)
	}
	if id, _ := mr.Header.MessageID(); id != trimAngles(m.MessageID) {
		t.Errorf("message-id = %q, want %q", id, m.MessageID)
	}
	refs, err := mr.Header.MsgIDList("References")
	if err != nil {
		t.Errorf("references: %v", err)
	}
	if want := references(m.InReplyTo, m.References); !cmp.Equal(refs, want, cmp.Comparer(func(a, b []string) bool {
		return strings.Join(a, " ") == strings.Join(b, " ")
	})) {
		t.Errorf("references = %q, want %q", refs, want)
	}
	p, err := mr.NextPart()
	if err != nil {
		t.Fatalf("body part: %v", err)
	}
	body, err := io.ReadAll(p.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	want, _ := preparedBody(m.Body)
	want = strings.ReplaceAll(want, "\r\n", "\n")
	if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != want {
		t.Errorf("decoded body differs:\n got %q\nwant %q", got, want)
	}
}

func TestComposeEncoding(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"ascii", "plain\n", "7bit"},
		{"empty", "", "7bit"},
		{"utf8", "Rêve\n", "8bit"},
		{"wide grid", grid + "\n", "7bit"},
		{"998 octets", strings.Repeat("x", 998) + "\n", "7bit"},
		{"999 octets", strings.Repeat("x", 999) + "\n", "quoted-printable"},
		{"nul", "a\x00b\n", "quoted-printable"},
		{"unit separator", "a\x1fb\n", "quoted-printable"},
		{"del", "a\x7fb\n", "quoted-printable"},
		{"tab and form feed", "a\tb\fc\n", "7bit"},
		{"control before utf8", "a\x01b Rêve\n", "quoted-printable"},
		{"crlf input", "a\r\nb\r\n", "7bit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := baseMail()
			m.Body = tc.body
			raw, err := Compose(m)
			if err != nil {
				t.Fatal(err)
			}
			msg, err := mail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if got := msg.Header.Get("Content-Transfer-Encoding"); got != tc.want {
				t.Errorf("Content-Transfer-Encoding = %q, want %q", got, tc.want)
			}
			checkWellFormed(t, raw, m)
		})
	}
}

func TestComposeHeaders(t *testing.T) {
	m := baseMail()
	m.AutoSubmitted = ""
	m.Kind = ""
	m.Date = time.Date(2026, 11, 30, 1, 0, 0, 0, time.FixedZone("CET", 3600))
	raw, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Auto-Submitted":   "auto-generated",
		"X-Referee-Notice": "notice",
		"Date":             "Mon, 30 Nov 2026 00:00:00 +0000",
		"From":             `"The Referee" <referee@example.test>`,
		"Message-Id":       "<report.2026-W49.life@referee.example.test>",
	}
	for k, v := range want {
		if got := msg.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

func TestComposeInvalid(t *testing.T) {
	tests := []struct {
		name string
		edit func(m *Mail)
	}{
		{"no message-id", func(m *Mail) { m.MessageID = "" }},
		{"message-id without @", func(m *Mail) { m.MessageID = "abc" }},
		{"message-id with space", func(m *Mail) { m.MessageID = "a b@c" }},
		{"zero date", func(m *Mail) { m.Date = time.Time{} }},
		{"no recipients", func(m *Mail) { m.To = nil }},
		{"bad to", func(m *Mail) { m.To = []string{"not an address"} }},
		{"bad from", func(m *Mail) { m.From = "" }},
		{"bad auto-submitted", func(m *Mail) { m.AutoSubmitted = "no" }},
		{"bad list-post", func(m *Mail) { m.ListPost = "@@" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := baseMail()
			tc.edit(m)
			_, err := Compose(m)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Compose error = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestKindToken(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "notice",
		"report":                "report",
		"Report\r\nBcc: x":      "report--bcc--x",
		strings.Repeat("a", 50): strings.Repeat("a", 40),
		"rêve":                  "r-ve",
	} {
		if got := kindToken(in); got != want {
			t.Errorf("kindToken(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReferencesTrimmed(t *testing.T) {
	var refs []string
	for i := range 30 {
		refs = append(refs, "r"+strings.Repeat("x", i)+"@example.test")
	}
	got := references("parent@example.test", refs)
	if len(got) != maxReferences {
		t.Fatalf("len = %d, want %d", len(got), maxReferences)
	}
	if got[0] != refs[0] || got[len(got)-1] != "parent@example.test" {
		t.Errorf("got %q: want the root first and the parent last", got)
	}
}

func FuzzCompose(f *testing.F) {
	f.Add("Rêve — 夢", "body\n.dot\n", "Goethe", "a@b", "x\r\nBcc: y", "report")
	f.Add("Hi\r\nBcc: v@example.test", "", "\"q\"", "<p@q>", "\x00", "X\r\nBcc: y")
	f.Add(strings.Repeat("long ", 100), strings.Repeat("x", 1200), "名前", "a@b@c", "=?utf-8?q?x?=", "")
	f.Fuzz(func(t *testing.T, subject, body, name, parent, listID, kind string) {
		m := baseMail()
		m.Subject = subject
		m.Body = body
		m.To = []string{name + " <player@example.test>"}
		m.InReplyTo = parent
		m.References = []string{parent, "root@example.test"}
		m.ListID = listID
		m.Kind = kind
		raw, err := Compose(m)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Compose: unclassified error %v", err)
			}
			return
		}
		checkWellFormed(t, raw, m)
	})
}

// TestComposeNeutralisesControls: every control character and line
// separator in caller text (C0, DEL, C1 such as NEL, U+2028, U+2029), and in
// a display name that only decoding reveals, reaches the recipient as one
// space: never a line break or a control inside a header.
func TestComposeNeutralisesControls(t *testing.T) {
	m := baseMail()
	m.Subject = "Receipt\x00for\x1b\x1bAlice\u0085x\u2028y\u2029z\x7fend\tok\r\nBcc: evil@example.test"
	m.To = []string{
		"=?utf-8?q?Alice=0D=0ABcc=3A_evil=40example.test?= <alice@example.test>",
		"=?utf-8?q?Bob=C2=85Smith=E2=80=A8Jr?= <bob@example.test>",
	}
	m.ListID = "Agora\u2029business <business.agora.example.test>"
	raw, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	mr, err := gomessage.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := must(mr.Header.Subject()), "Receipt for Alice x y z end ok Bcc: evil@example.test"; got != want {
		t.Errorf("subject as read: %q, want %q", got, want)
	}
	to, err := mr.Header.AddressList("To")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range to {
		names = append(names, a.Name+" <"+a.Address+">")
	}
	if got, want := strings.Join(names, ", "), "Alice Bcc: evil@example.test <alice@example.test>, Bob Smith Jr <bob@example.test>"; got != want {
		t.Errorf("To as read: %q, want %q", got, want)
	}
	if got, want := mr.Header.Get("List-Id"), "Agora business <business.agora.example.test>"; got != want {
		t.Errorf("List-Id as read: %q, want %q", got, want)
	}
	if mr.Header.Get("Bcc") != "" {
		t.Error("caller text started a Bcc header")
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}
