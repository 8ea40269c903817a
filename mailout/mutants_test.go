package mailout

import (
	"bytes"
	"context"
	"errors"
	"mime"
	"net/mail"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"
)

// TestComposeBodyEnds: the composed mail, as it is saved and sent, ends its
// body with exactly one CRLF whether or not the text ended with a newline,
// and an empty body stays empty.
func TestComposeBodyEnds(t *testing.T) {
	for _, c := range []struct{ body, end string }{
		{"Your vote is counted.", "\r\n\r\nYour vote is counted.\r\n"},
		{"Your vote is counted.\n", "\r\n\r\nYour vote is counted.\r\n"},
		{"Line one\r\nline two", "\r\n\r\nLine one\r\nline two\r\n"},
		{"", "Content-Type: text/plain; charset=UTF-8\r\n\r\n"},
	} {
		m := baseMail()
		m.Body = c.body
		raw, err := Compose(m)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(raw), c.end) {
			t.Errorf("body %q: the mail ends %q, want %q", c.body, tail(raw, len(c.end)+10), c.end)
		}
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// TestRefusedRecipientNamed: the error the operator reads for a refused
// recipient names that recipient and the server's reply.
func TestRefusedRecipientNamed(t *testing.T) {
	perm := &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	r := startRecorder(t, false, func(r *recorder) { r.rcptErr["gone@example.test"] = perm })
	err := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone}, nil).Send(context.Background(), "referee@example.test",
		[]string{"gone@example.test"}, []byte("Subject: x\r\n\r\nbody\r\n"))
	if err == nil {
		t.Fatal("Send to a refused recipient succeeded")
	}
	if want := "smtp rcpt <gone@example.test>: SMTP error 550: no such user"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want it to say %q", err, want)
	}
	var se *SendError
	if !errors.As(err, &se) || se.Op != "rcpt" {
		t.Errorf("error %v is not a SendError at rcpt", err)
	}
}

// header composes m and reads back the decoded header key, as a mail
// reader shows it.
func header(t *testing.T, m *Mail, key string) string {
	t.Helper()
	raw, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	v, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get(key))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestComposeSubjectLimit: a subject longer than 250 characters is cut to
// 250 (trailing space trimmed); one of 250 or fewer is kept whole.
func TestComposeSubjectLimit(t *testing.T) {
	long := strings.Repeat("Rêve ", 60) // 300 runes
	for _, c := range []struct{ subject, want string }{
		{"Results of round 9", "Results of round 9"},
		{long[:len(strings.Repeat("Rêve ", 50))], strings.TrimSpace(strings.Repeat("Rêve ", 50))},
		{long, strings.TrimSpace(strings.Repeat("Rêve ", 50))},
		{strings.Repeat("x", 249) + " tail", strings.Repeat("x", 249)},
	} {
		m := baseMail()
		m.Subject = c.subject
		if got := header(t, m, "Subject"); got != c.want {
			t.Errorf("subject of %d runes reads %q (%d runes), want %d runes", len([]rune(c.subject)), got, len([]rune(got)), len([]rune(c.want)))
		}
	}
}

// TestComposeThread: a reply names its parent last in References, once,
// after the thread's earlier ids.
func TestComposeThread(t *testing.T) {
	for _, c := range []struct {
		parent string
		refs   []string
		want   string
	}{
		{"p@mail.example.test", []string{"root@mail.example.test"}, "<root@mail.example.test> <p@mail.example.test>"},
		{"p@mail.example.test", []string{"root@mail.example.test", "<p@mail.example.test>"}, "<root@mail.example.test> <p@mail.example.test>"},
		{"p@mail.example.test", nil, "<p@mail.example.test>"},
		{"", []string{"root@mail.example.test", "not an id"}, "<root@mail.example.test>"},
	} {
		m := baseMail()
		m.InReplyTo, m.References = c.parent, c.refs
		if got := header(t, m, "References"); got != c.want {
			t.Errorf("parent %q, refs %q: References %q, want %q", c.parent, c.refs, got, c.want)
		}
	}
}

// TestComposeMessageIDLength: a Message-ID of 250 octets is used; one of
// 251 is refused as invalid.
func TestComposeMessageIDLength(t *testing.T) {
	const domain = "@referee.example.test"
	m := baseMail()
	m.MessageID = strings.Repeat("n", 250-len(domain)) + domain
	if got := header(t, m, "Message-Id"); got != "<"+m.MessageID+">" {
		t.Errorf("Message-ID of 250 octets: %q", got)
	}
	m.MessageID = "n" + m.MessageID
	if _, err := Compose(m); !errors.Is(err, ErrInvalid) {
		t.Errorf("Message-ID of 251 octets: %v, want ErrInvalid", err)
	}
}

// TestComposeSubjectNamingEncoding: a subject that reads like the
// Content-Transfer-Encoding header is left as written.
func TestComposeSubjectNamingEncoding(t *testing.T) {
	m := baseMail()
	m.Subject = "Content-Transfer-Encoding: 8bit"
	if got := header(t, m, "Subject"); got != m.Subject {
		t.Errorf("subject %q reads %q", m.Subject, got)
	}
}

// TestComposeKindDigits: the notice kind keeps a-z, 0-9 and '-'.
func TestComposeKindDigits(t *testing.T) {
	m := baseMail()
	m.Kind = "az09-round"
	if got := header(t, m, HeaderNotice); got != "az09-round" {
		t.Errorf("kind %q: header %q", m.Kind, got)
	}
}

// TestComposeMessageIDParts: a Message-ID needs text on both sides of its
// "@", and no byte that is not atext (RFC 5322 3.2.3: here, one just outside
// the ranges of letters and digits, or past ASCII): the referee's own is
// refused, and a parent's is left out of the reply's References.
func TestComposeMessageIDParts(t *testing.T) {
	ids := []string{"@referee.example.test", "notice.1@", "@"}
	for _, b := range []string{"(", ":", "[", "\x7f", "é"} {
		ids = append(ids, "a"+b+"b@referee.example.test")
	}
	for _, id := range ids {
		m := baseMail()
		m.MessageID = id
		if _, err := Compose(m); !errors.Is(err, ErrInvalid) {
			t.Errorf("Message-ID %q: %v, want ErrInvalid", id, err)
		}
		m = baseMail()
		m.InReplyTo, m.References = id, []string{"root@mail.example.test"}
		if got := header(t, m, "References"); got != "<root@mail.example.test>" {
			t.Errorf("parent %q: References %q, want only the root", id, got)
		}
		if got := header(t, m, "In-Reply-To"); got != "" {
			t.Errorf("parent %q: In-Reply-To %q, want none", id, got)
		}
	}
}

// TestComposeMessageIDAtext: every atext character of RFC 5322 3.2.3 is
// allowed in a Message-ID, '!' (the first of the specials list) among them.
func TestComposeMessageIDAtext(t *testing.T) {
	for _, id := range []string{"a!b@referee.example.test", "x#$%&'*+-/=?^_`{|}~y@referee.example.test", "AZaz09@referee.example.test"} {
		m := baseMail()
		m.MessageID = id
		if got := header(t, m, "Message-Id"); got != "<"+id+">" {
			t.Errorf("Message-ID %q reads %q", id, got)
		}
	}
}

// TestSendHelloName: the name the referee gives in EHLO is the configured
// one, else the envelope sender's domain.
func TestSendHelloName(t *testing.T) {
	for _, c := range []struct {
		helo, from, want string
	}{
		{"", "referee@example.test", "EHLO example.test\r\n"},
		{"", "The Referee <referee@mail.example.test>", "EHLO mail.example.test\r\n"},
		{"mx.referee.example.test", "referee@example.test", "EHLO mx.referee.example.test\r\n"},
	} {
		r := startRecorder(t, false, nil)
		NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone, HELO: c.helo}, nil).Send(context.Background(), c.from,
			[]string{"a@example.test"}, []byte("Subject: x\r\n\r\nbody\r\n"))
		if got := r.transcript(); !strings.Contains(got, c.want) {
			t.Errorf("HELO %q, from %q: the server saw\n%s\nwant %q", c.helo, c.from, got, c.want)
		}
	}
}

// TestSendNoRecipients: with no address to send to, the error names the
// first address refused, or says there were none; nothing is dialled.
func TestSendNoRecipients(t *testing.T) {
	r := startRecorder(t, false, nil)
	s := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone}, nil)
	msg := []byte("Subject: x\r\n\r\nbody\r\n")
	err := s.Send(context.Background(), "referee@example.test", []string{"not an address", "nor this"}, msg)
	if err == nil || !strings.Contains(err.Error(), "smtp address <not an address>: ") || !IsPermanent(err) {
		t.Errorf("only bad addresses: %v", err)
	}
	err = s.Send(context.Background(), "referee@example.test", nil, msg)
	if err == nil || err.Error() != "smtp address: no recipients" {
		t.Errorf("no recipients: %v", err)
	}
	if got := r.transcript(); got != "" {
		t.Errorf("the server was dialled:\n%s", got)
	}
}

// TestSendUTF8Envelope: SMTPUTF8 is asked for exactly when an envelope
// address is not ASCII.
func TestSendUTF8Envelope(t *testing.T) {
	for _, c := range []struct {
		from, to string
		utf8     bool
	}{
		{"referee@example.test", "a@example.test", false},
		{"referee@example.test", "josé@example.test", true},
		{"arbitre@exemple.fr", "a@example.test", false},
		{"arbitré@example.test", "a@example.test", true},
	} {
		r := startRecorder(t, false, nil)
		if err := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone}, nil).Send(context.Background(), c.from, []string{c.to}, []byte("Subject: x\r\n\r\nbody\r\n")); err != nil {
			t.Fatalf("%s to %s: %v", c.from, c.to, err)
		}
		got := false
		for _, l := range strings.Split(r.transcript(), "\n") {
			got = got || strings.HasPrefix(l, "MAIL FROM:") && strings.Contains(l, "SMTPUTF8")
		}
		if got != c.utf8 {
			t.Errorf("%s to %s: SMTPUTF8 %v, want %v:\n%s", c.from, c.to, got, c.utf8, r.transcript())
		}
	}
}

// TestSendKeptConnectionRefusesMail: on the connection kept from the last
// Send, a 421 to MAIL (the server closing it) means a new connection and
// the mail delivered once; any other refusal is the answer, given without a
// second connection.
func TestSendKeptConnectionRefusesMail(t *testing.T) {
	raw := []byte("Subject: x\r\n\r\nbody\r\n")
	for _, c := range []struct {
		reply     *smtp.SMTPError
		sessions  int
		delivered int
		err       string
	}{
		{&smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "idle too long"}, 2, 2, ""},
		{&smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "sender blocked"}, 1, 1, "smtp mail: SMTP error 550: sender blocked"},
	} {
		r := startRecorder(t, false, nil)
		s := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone}, nil)
		ctx := context.Background()
		if err := s.Send(ctx, "referee@example.test", []string{"a@example.test"}, raw); err != nil {
			t.Fatal(err)
		}
		r.mu.Lock()
		r.mailErrs = []error{c.reply}
		r.mu.Unlock()
		err := s.Send(ctx, "referee@example.test", []string{"a@example.test"}, raw)
		if c.err == "" && err != nil || c.err != "" && (err == nil || err.Error() != c.err) {
			t.Errorf("MAIL answered %d on the kept connection: %v, want %q", c.reply.Code, err, c.err)
		}
		r.mu.Lock()
		sessions := r.sessions
		r.mu.Unlock()
		if sessions != c.sessions || len(r.deliveries()) != c.delivered {
			t.Errorf("MAIL answered %d on the kept connection: %d connections, %d delivered; want %d and %d",
				c.reply.Code, sessions, len(r.deliveries()), c.sessions, c.delivered)
		}
		s.Close()
	}
}

// TestSendAllRefusedKeepsConnection: a mail every recipient of which is
// refused ends with RSET, and the next mail goes on the same connection.
func TestSendAllRefusedKeepsConnection(t *testing.T) {
	perm := &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	r := startRecorder(t, false, func(r *recorder) { r.rcptErr["gone@example.test"] = perm })
	s := NewSender(SMTPConfig{Addr: r.addr, TLS: TLSNone}, nil)
	defer s.Close()
	ctx := context.Background()
	raw := []byte("Subject: x\r\n\r\nbody\r\n")
	if err := s.Send(ctx, "referee@example.test", []string{"gone@example.test"}, raw); err == nil || !IsPermanent(err) {
		t.Fatalf("every recipient refused: %v, want a permanent error", err)
	}
	if err := s.Send(ctx, "referee@example.test", []string{"a@example.test"}, raw); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	sessions := r.sessions
	r.mu.Unlock()
	if sessions != 1 || len(r.deliveries()) != 1 {
		t.Errorf("%d connections, %d delivered; want 1 and 1:\n%s", sessions, len(r.deliveries()), r.transcript())
	}
}
