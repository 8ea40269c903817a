package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MessageID derives the Message-ID (without <>) of the mail that carries a notice:
// a readable form of the notice ID, a hash of it, and the referee's domain. It
// depends on nothing else, so a resend after a crash carries the same Message-ID
// and a game can recognise replies to its own posts.
func MessageID(noticeID, domain string) string {
	h := sha256.Sum256([]byte(noticeID))
	var b strings.Builder
	for _, r := range noticeID {
		readable := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-'
		if !readable {
			r = '.'
		}
		b.WriteRune(r)
		if b.Len() >= 48 {
			break
		}
	}
	readable := strings.Trim(b.String(), ".")
	for strings.Contains(readable, "..") {
		readable = strings.ReplaceAll(readable, "..", ".")
	}
	if domain == "" {
		domain = "referee.invalid"
	}
	return readable + "." + hex.EncodeToString(h[:6]) + "@" + domain
}

// Domain is the domain part of an address.
func Domain(addr string) string {
	if i := strings.LastIndex(addr, "@"); i >= 0 {
		return strings.TrimRight(addr[i+1:], ">")
	}
	return ""
}

// MessageID is the Message-ID the mail carrying the notice with this ID will have.
func (c *Ctx) MessageID(noticeID string) string {
	return MessageID(noticeID, Domain(c.e.cfg.Referee))
}
