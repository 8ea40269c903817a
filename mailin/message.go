package mailin

import (
	"sync/atomic"
	"time"
)

// Class says where a message counts (ruling G4, AGORA "Lists").
type Class string

// The classes of a message.
const (
	// Public: a configured public (business) list is among To/Cc, or the
	// message came through one (List-Id).
	Public Class = "public"
	// Official: it came through or was addressed to the official list. It
	// counts as public for actions but is reported as Official.
	Official Class = "official"
	// Discussion: its only lists are discussion lists; it performs nothing.
	Discussion Class = "discussion"
	// Private: no list; addressed to the referee (or Bcc'd to it).
	Private Class = "private"
	// Ignorable: bounces, auto-replies, the referee's own mail, digests and
	// mail from lists that are not configured; see Message.IgnoreReason.
	Ignorable Class = "ignorable"
)

// Reasons given in Message.IgnoreReason.
const (
	ReasonBounce      = "bounce"
	ReasonAutoReply   = "auto-reply"
	ReasonOwnMail     = "own mail"
	ReasonDigest      = "digest"       // a list digest repeats messages already received one by one
	ReasonUnknownList = "unknown list" // came through a list that is not configured
	// ReasonNotFromList: From is a public list's address, but the list did
	// not distribute this copy (Message.ListCopy): a forgery.
	ReasonNotFromList = "not from the list"
)

// Authentication policies for Config.AuthPolicy.
const (
	AuthNone    = "none"
	AuthAuthRes = "authres"
	AuthDKIM    = "dkim"
)

// DefaultMaxTextBytes is the text size limit used when Config.MaxTextBytes is 0.
const DefaultMaxTextBytes = 1 << 20

// Config tells Parse who the referee is and which lists matter. A nil
// *Config is treated as the zero Config.
type Config struct {
	Referee         string   // the referee's own address
	PublicLists     []string // business/public lists
	OfficialList    string
	DiscussionLists []string
	AuthPolicy      string                              // "none" (default), "authres", "dkim"
	AuthServID      string                              // for authres
	LookupTXT       func(name string) ([]string, error) // for dkim; nil = net.LookupTXT
	MaxTextBytes    int                                 // 0 = 1 MiB

	listsRead atomic.Value // *listSet: the lists above, read (Config.lists); a Config copied keeps it, and it is checked against them
}

// Message is one parsed, classified message.
type Message struct {
	MessageID  string    // without <>, as in the header; if absent, "sha256-<hex of raw>@referee.invalid"
	From       string    // real sender address, lower-case
	FromName   string    // decoded display name (may be empty)
	Date       time.Time // Date header (zero if missing/bad)
	Arrived    time.Time // arrival time (INTERNALDATE, From_ line, ...), UTC
	Subject    string    // decoded, control chars removed
	InReplyTo  []string  // ids without <>
	References []string
	To, Cc     []string // lower-case addresses
	Lists      []string // configured lists it came through
	Class      Class
	// ListCopy: a configured public or official list distributed this copy
	// (ruling G4: the list's copy is the one that counts), as the policy can
	// tell: under "authres" and "dkim" by the list domain's authenticated
	// DKIM signature (Mailman re-signs what it distributes); under "none" by
	// a List-Id naming the list together with the list's address in To/Cc,
	// which anyone can write. A Public or Official message that is not the
	// list's copy is a direct copy.
	ListCopy      bool
	ListNote      string   // how ListCopy was decided, e.g. "dkim=pass header.d=example.test"
	IgnoreReason  string   // for Ignorable: one of the Reason constants
	Authenticated bool     // the policy's verdict; true under policy "none" (nothing checked)
	AuthNote      string   // e.g. "dkim=pass header.d=example.org" or why not
	Text          string   // the unquoted text that counts (G3), "\n" line endings
	Quoted        string   // what was removed (quotes, attribution, signature)
	Notes         []string // degradations ("unknown charset x-foo in part 2; raw bytes used")
	TooLarge      bool
	Size          int // raw size in bytes
}
