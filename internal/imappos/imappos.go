// Package imappos is the position in an IMAP mailbox, one type shared by
// mailin, which reports it, and contract, which saves it in the state. It
// holds no code.
package imappos

// Checkpoint is how far a mailbox has been applied: the mailbox's
// UIDVALIDITY and the last UID applied. It is saved only in the state that
// includes those messages, and passed back to mailin to read on from there.
type Checkpoint struct {
	UIDValidity uint32 `yaml:"uidvalidity" json:"uidvalidity"`
	LastUID     uint32 `yaml:"last_uid" json:"last_uid"`
}
