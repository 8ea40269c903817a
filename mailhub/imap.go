package mailhub

import (
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// imapSession is a memserver session whose LOGIN accepts any password and
// creates the user's mailbox on first use, and whose IDLE cannot miss an
// update (see Idle).
type imapSession struct {
	*imapmemserver.UserSession // nil until Login
	hub                        *Hub
	user                       string
}

var _ imapserver.SessionIMAP4rev2 = (*imapSession)(nil)

// Login accepts any password (RFC 3501 6.2.3 lets the server choose):
// the hub is for local use only.
func (s *imapSession) Login(username, password string) error {
	u, err := s.hub.mailbox(username, true)
	if err != nil {
		s.hub.log.Debug("mail hub login refused", "user", username, "err", err)
		return imapserver.ErrAuthFailed
	}
	s.UserSession = imapmemserver.NewUserSession(u)
	s.user = normAddr(username)
	return nil
}

func (s *imapSession) Close() error {
	if s.UserSession == nil {
		return nil
	}
	return s.UserSession.Close()
}

// Idle reports mailbox changes until stop (RFC 2177). The memserver's own
// IDLE (go-imap v2.0.0-beta.8) registers for updates without polling
// afterwards, so an update queued between "+ idling" and that registration
// waits for the next one. Here the session subscribes to the hub's change
// signal first, then polls, and polls again on every signal.
func (s *imapSession) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	changed, cancel := s.hub.subscribe(s.user)
	defer cancel()
	for {
		if err := s.UserSession.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-changed:
		case <-stop:
			return nil
		}
	}
}

// The commands below change mailboxes; each signals the user's IDLE
// sessions afterwards.

func (s *imapSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	defer s.hub.changed(s.user)
	return s.UserSession.Append(mailbox, r, options)
}

func (s *imapSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	defer s.hub.changed(s.user)
	return s.UserSession.Store(w, numSet, flags, options)
}

func (s *imapSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	defer s.hub.changed(s.user)
	return s.UserSession.Expunge(w, uids)
}

func (s *imapSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	defer s.hub.changed(s.user)
	return s.UserSession.Copy(numSet, dest)
}

func (s *imapSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	defer s.hub.changed(s.user)
	return s.UserSession.Move(w, numSet, dest)
}
