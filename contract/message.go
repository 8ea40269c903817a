package contract

import "time"

// Channel is where a message came through, or where a notice goes (ruling G4).
type Channel string

const (
	ChanPublic     Channel = "public"     // the business list: game actions, notices
	ChanOfficial   Channel = "official"   // the official list: reports (counts as public)
	ChanDiscussion Channel = "discussion" // talk: performs nothing
	ChanPrivate    Channel = "private"    // mail to or from the referee alone
	ChanIgnore     Channel = "ignore"     // bounces, auto-replies, our own mail
)

// IsPublic reports whether public actions count from the channel.
func (ch Channel) IsPublic() bool { return ch == ChanPublic || ch == ChanOfficial }

// Message is what the interpreter reads: the parts of a mail that matter to the
// games, already classified and stripped of quotes and signatures (G3).
type Message struct {
	ID         string    // Message-ID without <>
	From       string    // the real sender, lower case
	Name       string    // the sender's display name
	Date       time.Time // the Date header, recorded, never moving an action earlier (G2)
	Arrived    time.Time // arrival time: when the action happens (G2)
	Subject    string
	InReplyTo  []string
	References []string
	Channel    Channel
	// ListCopy: a public list distributed this copy (mailin decides how,
	// by the policy); a public message that is not is a direct copy, held
	// for the list's (G4) when Config.ListWait is set.
	ListCopy      bool
	IgnoreReason  string
	Authenticated bool
	AuthNote      string
	Text          string // the unquoted text that counts
	TooLarge      bool
	// Unreadable says what of the message could not be read ("part 2
	// nested too deep; skipped", "unknown charset utf-7; raw bytes used"):
	// the sender is told, with what to send instead.
	Unreadable []string
	// preview: the message is being previewed, each action read as if
	// sent where it counts (preview.go).
	preview bool

	// ahead is the text's sentences read before Apply (Engine.ReadAhead),
	// taken by the first Apply that reads them.
	ahead *readAhead
}

// RepliesTo reports whether the message replies to (or references) the message id.
func (m *Message) RepliesTo(id string) bool {
	if id == "" {
		return false
	}
	for _, r := range m.InReplyTo {
		if r == id {
			return true
		}
	}
	for _, r := range m.References {
		if r == id {
			return true
		}
	}
	return false
}
