package mailout

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-smtp"

	"referee/internal/mailnet"
)

// SendError is a failed delivery, classified for the caller's retry
// decision.
type SendError struct {
	Op        string // "dial", "tls", "hello", "auth", "mail", "rcpt", "data", "address"
	Rcpt      string // the recipient concerned, for "rcpt" and "address"
	Permanent bool   // retrying the same message will not help
	Err       error
}

func (e *SendError) Error() string {
	if e.Rcpt != "" {
		return fmt.Sprintf("smtp %s <%s>: %v", e.Op, e.Rcpt, e.Err)
	}
	return fmt.Sprintf("smtp %s: %v", e.Op, e.Err)
}

func (e *SendError) Unwrap() error { return e.Err }

// RecipientsError reports a message accepted for some recipients and
// refused for others. It is permanent: sending again would duplicate the
// message for those who already have it.
type RecipientsError struct {
	Delivered []string
	Refused   []*SendError
}

func (e *RecipientsError) Error() string {
	parts := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		parts[i] = r.Error()
	}
	return fmt.Sprintf("smtp: delivered to %d, refused by %d: %s",
		len(e.Delivered), len(e.Refused), strings.Join(parts, "; "))
}

func (e *RecipientsError) Unwrap() []error {
	out := make([]error, len(e.Refused))
	for i, r := range e.Refused {
		out[i] = r
	}
	return out
}

// IsPermanent reports whether err means the message will never be accepted
// as it is: a 5xx reply to MAIL, RCPT or DATA (RFC 5321 4.2.1), a bad
// address, or a partial delivery. 4xx replies, dial errors, timeouts and
// dropped connections are temporary, and so are failures before the mail
// transaction starts (greeting, EHLO, STARTTLS, AUTH): they concern the
// server or the configuration, not this message, and retrying after a fix
// must still deliver it.
func IsPermanent(err error) bool {
	if err == nil {
		return false
	}
	var re *RecipientsError
	if errors.As(err, &re) {
		return true
	}
	var se *SendError
	if errors.As(err, &se) {
		return se.Permanent
	}
	var pe *smtp.SMTPError
	if errors.As(err, &pe) {
		return pe.Code/100 == 5
	}
	return false
}

// IsAuthRefused reports whether err is the server's refusal of the
// login: a 5xx reply to AUTH (RFC 4954 §6: 535 authentication
// credentials invalid, 534, 538). It is temporary all the same (see
// IsPermanent): the operator mends smtp.user or its password, or the
// server's side, and the mail goes then.
func IsAuthRefused(err error) bool {
	var se *SendError
	if !errors.As(err, &se) || se.Op != "auth" {
		return false
	}
	var pe *smtp.SMTPError
	return errors.As(se.Err, &pe) && pe.Code/100 == 5
}

// SettingsToCheck names the settings of the configuration to look at when
// err is a failure the configuration decides: the server's refusal of the
// login (IsAuthRefused), a password the sender will not send without TLS,
// or a TLS that does not match (tlsCheck). It is ""
// for anything else (a server that could not be reached, a connection
// lost, a mail refused).
func SettingsToCheck(err error) string {
	switch {
	case IsAuthRefused(err):
		return "smtp.user and its password"
	case errors.Is(err, errPlainAuth):
		return "smtp.tls: none is for loopback, where a password may go without TLS"
	}
	return tlsCheck(err)
}

// errPlainAuth is the refusal to send a password without TLS off
// loopback.
var errPlainAuth = errors.New("refusing AUTH PLAIN without TLS")

// tlsCheck names the settings to look at when err is a failure of the TLS
// of a connection that the configuration decides: those of
// mailnet.TLSCheck (after STARTTLS the handshake comes with the next
// command, so at any step), or a server whose EHLO offers no STARTTLS
// where starttls is configured. It is "" otherwise.
func tlsCheck(err error) string {
	var se *SendError
	if !errors.As(err, &se) {
		return ""
	}
	if check := mailnet.TLSCheck(se.Err, "smtp"); check != "" {
		return check
	}
	if se.Op != "tls" {
		return ""
	}
	// go-smtp's words (NewClientStartTLS) for an EHLO without STARTTLS.
	if strings.Contains(se.Err.Error(), "server doesn't support STARTTLS") {
		return "smtp.tls: the server offers no STARTTLS on this port (tls wants a port such as 465; none is for loopback)"
	}
	return ""
}

// classify wraps err from stage op; 5xx replies are permanent only once the
// mail transaction has begun.
func classify(op, rcpt string, err error) *SendError {
	e := &SendError{Op: op, Rcpt: rcpt, Err: err}
	switch op {
	case "address":
		e.Permanent = true
	case "mail", "rcpt", "data":
		var pe *smtp.SMTPError
		if errors.As(err, &pe) && pe.Code/100 == 5 {
			e.Permanent = true
		}
	}
	return e
}
