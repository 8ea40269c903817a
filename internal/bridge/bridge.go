// Package bridge translates between the mail packages and the interpreter: a
// parsed mailin.Message becomes a contract.Message, and a contract.Notice becomes a
// mailout.Mail with its list, subject tag and deterministic Message-ID. It holds
// no state and does no I/O; cmd/referee and the test harness share it.
package bridge

import (
	"strings"

	"referee/contract"
	"referee/mailin"
	"referee/mailout"
)

// Message converts a parsed mail for the interpreter.
func Message(m *mailin.Message) *contract.Message {
	ch := contract.ChanPrivate
	switch m.Class {
	case mailin.Public:
		ch = contract.ChanPublic
	case mailin.Official:
		ch = contract.ChanOfficial
	case mailin.Discussion:
		ch = contract.ChanDiscussion
	case mailin.Ignorable:
		ch = contract.ChanIgnore
	}
	return &contract.Message{
		ID: m.MessageID, From: m.From, Name: m.FromName, Date: m.Date, Arrived: m.Arrived,
		Subject: m.Subject, InReplyTo: m.InReplyTo, References: m.References, Channel: ch, ListCopy: m.ListCopy,
		IgnoreReason: m.IgnoreReason, Authenticated: m.Authenticated, AuthNote: m.AuthNote,
		Text: m.Text, TooLarge: m.TooLarge, Unreadable: Unreadable(m.Notes),
	}
}

// unreadableNote marks mailin's notes about text that could not be read, as
// against those about text read another way ("read as windows-1252").
var unreadableNote = []string{"nested too deep", "unknown charset", "no readable text part", "cannot be read",
	"unknown transfer encoding", "invalid UTF-8", "cut at"}

// Unreadable picks from mailin's notes those that say some text could not be
// read, for the reply that tells the sender.
func Unreadable(notes []string) []string {
	var out []string
	for _, n := range notes {
		for _, k := range unreadableNote {
			if strings.Contains(n, k) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// Addresses is what the mail layer needs to address notices.
type Addresses struct {
	Referee      string // the referee's address
	RefereeName  string // display name; "" = "The Referee"
	PublicList   string // where public (business) notices go
	OfficialList string
	// Tags are the subject tags per channel: "BUS:" and "OFF:" by default.
	PublicTag, OfficialTag string
}

// Mail renders a notice as an outgoing mail.
func Mail(n *contract.Notice, a Addresses) *mailout.Mail {
	name := a.RefereeName
	if name == "" {
		name = "The Referee"
	}
	m := &mailout.Mail{
		From:       name + " <" + a.Referee + ">",
		Subject:    n.Subject,
		Body:       n.Body,
		MessageID:  contract.MessageID(n.ID, contract.Domain(a.Referee)),
		InReplyTo:  n.InReplyTo,
		References: n.References,
		Date:       n.Time,
		Kind:       n.Kind,
	}
	if n.Kind == "receipt" {
		m.AutoSubmitted = "auto-replied"
	} else {
		m.AutoSubmitted = "auto-generated"
	}
	switch n.Channel {
	case contract.ChanOfficial:
		m.To = []string{a.OfficialList}
		m.Subject = tag(a.OfficialTag, "OFF:", n.Subject)
	case contract.ChanPublic:
		m.To = []string{a.PublicList}
		m.Subject = tag(a.PublicTag, "BUS:", n.Subject)
	default:
		m.To = n.To
	}
	return m
}

func tag(t, dflt, subject string) string {
	if t == "" {
		t = dflt
	}
	if t == "-" || strings.HasPrefix(subject, t) {
		return subject
	}
	return t + " " + subject
}

// Recipients are the envelope recipients of a mail.
func Recipients(m *mailout.Mail) []string {
	var out []string
	for _, list := range [][]string{m.To, m.Cc} {
		for _, a := range list {
			if i := strings.LastIndex(a, "<"); i >= 0 {
				a = strings.TrimSuffix(a[i+1:], ">")
			}
			out = append(out, strings.ToLower(strings.TrimSpace(a)))
		}
	}
	return out
}
