package mailout

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-smtp"
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
