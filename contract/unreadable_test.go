package contract_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/contracttest"
	"referee/internal/bridge"
	"referee/mailin"
)

// mail is a raw message from alice to the public list with the given
// Content-Type and body.
func mail(id, ctype, body string) []byte {
	return []byte(fmt.Sprintf("From: Alice <alice@example.test>\r\nTo: %s\r\nSubject: actions\r\nMessage-ID: <%s>\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: %s\r\n\r\n%s",
		contracttest.PublicList, id, ctype, body))
}

// nested wraps a text part in depth multiparts.
func nested(depth int, text string) (ctype, body string) {
	body = "Content-Type: text/plain; charset=utf-8\r\n\r\n" + text + "\r\n"
	for i := depth; i > 0; i-- {
		b := fmt.Sprintf("b%d", i)
		body = fmt.Sprintf("Content-Type: multipart/mixed; boundary=%s\r\n\r\n--%s\r\n%s--%s--\r\n", b, b, body, b)
	}
	ctype, body, _ = strings.Cut(body, "\r\n\r\n")
	return strings.TrimPrefix(ctype, "Content-Type: "), body
}

// Every message that could not be read gets a reply saying what and what to
// send instead; bounces still get nothing.
func TestUnreadableMailIsAnswered(t *testing.T) {
	deepType, deepBody := nested(40, "I join the Life contest.")
	cases := []struct {
		name, ctype, body string
		want              string // in the reply
	}{
		{"nesting deeper than the limit", deepType, deepBody, "nested too deep"},
		{"utf-7", "text/plain; charset=utf-7", "I join the Life contest+AC4-", "unknown charset utf-7"},
		{"EBCDIC", "text/plain; charset=x-ebcdic-unknown", "\xc9\x40\x91\x96\x89\x95", "unknown charset x-ebcdic-unknown"},
		{"binary body", "application/octet-stream", "\x00\x01\x02\xff\xfe", "no readable text part"},
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := contracttest.New(t, "2026-12-01T09:00:00Z", life.New())
			m, err := mailin.Parse(mail(fmt.Sprintf("u%d@example.test", i), c.ctype, c.body), at.Add(time.Minute), contracttest.Config())
			if err != nil {
				t.Fatal(err)
			}
			r := contracttest.Receipt(h.Send(bridge.Message(m)))
			if r == nil {
				t.Fatalf("no reply; notes %q", m.Notes)
			}
			body := flat(r.Body)
			if !strings.Contains(body, "Not done: could not be read whole: ") || !strings.Contains(body, c.want) ||
				!strings.Contains(body, "send any other again as plain text (text/plain, UTF-8)") {
				t.Errorf("reply:\n%s", r.Body)
			}
			var journaled bool
			for _, e := range h.Entries {
				journaled = journaled || e.MsgID == m.MessageID && strings.HasPrefix(e.Reason, "unreadable: ")
			}
			if !journaled {
				t.Errorf("the unreadable message is not in the journal")
			}
		})
	}
	t.Run("too large, journaled", func(t *testing.T) {
		h := contracttest.New(t, "2026-12-01T09:00:00Z", life.New())
		cfg := contracttest.Config()
		cfg.MaxTextBytes = 100
		m, err := mailin.Parse(mail("big@example.test", "text/plain", strings.Repeat("I join the Life contest.\r\n", 20)), at, cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := contracttest.Receipt(h.Send(bridge.Message(m)))
		if r == nil || !strings.Contains(r.Body, "too large") {
			t.Fatalf("reply: %v", r)
		}
		var journaled bool
		for _, e := range h.Entries {
			journaled = journaled || e.MsgID == "big@example.test" && e.Reason == "too large"
		}
		if !journaled {
			t.Errorf("the message over the size limit is not in the journal")
		}
	})
	t.Run("bounce", func(t *testing.T) {
		h := contracttest.New(t, "2026-12-01T09:00:00Z", life.New())
		raw := "From: MAILER-DAEMON@example.test\r\nTo: referee@example.test\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <bounce@example.test>\r\nAuto-Submitted: auto-replied\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01"
		m, err := mailin.Parse([]byte(raw), at, contracttest.Config())
		if err != nil {
			t.Fatal(err)
		}
		if ns := h.Send(bridge.Message(m)); len(ns) != 0 {
			t.Errorf("a bounce got %d notices", len(ns))
		}
	})
}

// TestHelpWithUnreadableParts: a request for help whose other parts could
// not be read gets the help, and the journal records what was not read, as
// for any unreadable message; a plain request for help, or one on the
// discussion list, records no refusal.
func TestHelpWithUnreadableParts(t *testing.T) {
	h := newToy(t)
	pdf := []string{"an attachment (application/pdf)"}
	for _, c := range []struct {
		ch         contract.Channel
		unreadable []string
		refused    bool
	}{
		{contract.ChanPrivate, pdf, true},
		{contract.ChanPrivate, nil, false},
		{contract.ChanDiscussion, pdf, false},
	} {
		n := len(h.Entries)
		ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: h.S.Clock.Add(time.Minute), Channel: c.ch, Text: "help", Unreadable: c.unreadable})
		if len(ns) != 1 || !strings.Contains(ns[0].Body, "How the referee reads your mail") {
			t.Errorf("%s, unreadable %q: no help: %+v", c.ch, c.unreadable, ns)
		}
		var refused []string
		for _, en := range h.Entries[n:] {
			if en.Outcome == "rejected" {
				refused = append(refused, en.Reason)
			}
		}
		if want := []string{"unreadable: an attachment (application/pdf)"}; c.refused && !slices.Equal(refused, want) || !c.refused && len(refused) != 0 {
			t.Errorf("%s, unreadable %q: the journal's refusals %q", c.ch, c.unreadable, refused)
		}
	}
}

// TestRawBytesActionsPerformed: a part in an unknown charset is read as its
// raw bytes, and an action in them that reads is performed; the note on the
// part says so, and does not tell the sender that nothing there was done.
func TestRawBytesActionsPerformed(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", life.New())
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	m, err := mailin.Parse(mail("raw@example.test", "text/plain; charset=x-nonsense", "I join the Life contest.\r\n"), at, contracttest.Config())
	if err != nil {
		t.Fatal(err)
	}
	r := contracttest.Receipt(h.Send(bridge.Message(m)))
	if r == nil {
		t.Fatalf("no receipt; notes %q", m.Notes)
	}
	body := flat(r.Body)
	receiptHas(t, r.Body,
		"Not done: could not be read whole: unknown charset x-nonsense; raw bytes used in the body. Only the actions read below were performed; send any other again as plain text (text/plain, UTF-8)",
		"Done: you are a contestant of Life",
	)
	if strings.Contains(body, "was not performed") {
		t.Errorf("the receipt says an action was not performed beside one done:\n%s", r.Body)
	}
}
