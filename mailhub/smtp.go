package mailhub

import (
	"bytes"
	"errors"
	"io"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// smtpSession takes one SMTP transaction at a time and hands it to Deliver.
type smtpSession struct {
	hub   *Hub
	from  string
	rcpts []string
}

var _ smtp.AuthSession = (*smtpSession)(nil)

// AuthMechanisms offers PLAIN (RFC 4616) and LOGIN; both accept anything.
func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain, sasl.Login} }

func (s *smtpSession) Auth(mech string) (sasl.Server, error) {
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error { return nil }), nil
	case sasl.Login:
		return &loginServer{}, nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from, s.rcpts = from, nil
	return nil
}

func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if normAddr(to) == "" {
		// RFC 5321 4.2.2: 553 mailbox name not allowed.
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: "bad recipient address"}
	}
	s.rcpts = append(s.rcpts, to)
	return nil
}

// Data reads the whole message (the server enforces MaxMessageBytes) and
// delivers it.
func (s *smtpSession) Data(r io.Reader) error {
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, r); err != nil {
		return err
	}
	if err := s.hub.Deliver(s.from, s.rcpts, buf.Bytes()); err != nil {
		s.hub.log.Warn("mail hub delivery failed", "from", s.from, "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "delivery failed"}
	}
	return nil
}

func (s *smtpSession) Reset()        { s.from, s.rcpts = "", nil }
func (s *smtpSession) Logout() error { return nil }

// loginServer is the server side of the obsolete but common LOGIN
// mechanism (draft-murchison-sasl-login): it asks for a user name and a
// password, and accepts any.
type loginServer struct{ step int }

func (l *loginServer) Next(response []byte) (challenge []byte, done bool, err error) {
	l.step++
	switch l.step {
	case 1:
		if len(response) > 0 { // initial response: the user name
			l.step++
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 2:
		return []byte("Password:"), false, nil
	case 3:
		return nil, true, nil
	}
	return nil, false, errors.New("sasl login: unexpected response")
}
