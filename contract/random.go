package contract

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"time"
)

// Committed randomness (ruling G5, DESIGN "Randomness").
//
// A week's seed is HMAC-SHA256(master secret, "referee/seed/" + week label). Its
// SHA-256 is published before the week begins and the seed itself after it ends.
// A draw labelled L in that week uses HMAC-SHA256(seed, L + "#" + k) for k = 0, 1,
// ... read as a big-endian uint64 v; the first v below the largest multiple of n
// gives v mod n. Anyone can recompute a draw from the revealed seed and its label.

// Randomness is the state of the weekly commitments.
type Randomness struct {
	// Weeks are the weeks committed, oldest first; the oldest are dropped once
	// revealed and a few weeks old (the journal keeps them all).
	Weeks []WeekSeed `yaml:"weeks"`
	// NextNotice is when the next Randomness notice is due.
	NextNotice time.Time `yaml:"next_notice,omitempty"`
}

// WeekSeed is one week's commitment and, once the week has ended, its seed.
type WeekSeed struct {
	Week       string `yaml:"week"`
	Commitment string `yaml:"commitment"`
	Seed       string `yaml:"seed,omitempty"` // revealed seed, hex
}

// Draw is one recorded random draw.
type Draw struct {
	Label string `json:"label"`
	N     int    `json:"n"`
	Value int    `json:"value"`
}

// SeedFor derives the seed of a week from the master secret.
func SeedFor(secret []byte, week string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("referee/seed/" + week))
	return m.Sum(nil)
}

// Commitment is the published SHA-256 of a seed, hex.
func Commitment(seed []byte) string {
	h := sha256.Sum256(seed)
	return hex.EncodeToString(h[:])
}

// Intn draws a number in [0, n) for label from seed (see the package comment).
func Intn(seed []byte, label string, n int) int {
	un := uint64(max(n, 1)) // n of 1 or less: every value is 0 modulo 1
	limit := math.MaxUint64 - math.MaxUint64%un
	for k := 0; ; k++ {
		m := hmac.New(sha256.New, seed)
		fmt.Fprintf(m, "%s#%d", label, k)
		v := binary.BigEndian.Uint64(m.Sum(nil)[:8])
		if v < limit {
			return int(v % un)
		}
	}
}

// KeyFor derives a 32-byte key for label from seed, for games that feed a fast
// keyed function with many small draws (ruling L3).
func KeyFor(seed []byte, label string) []byte {
	m := hmac.New(sha256.New, seed)
	m.Write([]byte("key/" + label))
	return m.Sum(nil)
}

func (s *State) secret() ([]byte, error) {
	if s.Secret == "" {
		return nil, fmt.Errorf("randomness: the state has no master secret")
	}
	b, err := hex.DecodeString(s.Secret)
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("randomness: the master secret is not 32 bytes of hex")
	}
	return b, nil
}

// commitWeek records the commitment for week unless already there.
func (s *State) commitWeek(seed []byte, week string) (string, bool) {
	for _, w := range s.Randomness.Weeks {
		if w.Week == week {
			return w.Commitment, false
		}
	}
	c := Commitment(seed)
	s.Randomness.Weeks = append(s.Randomness.Weeks, WeekSeed{Week: week, Commitment: c})
	return c, true
}

// CommitmentFor returns the published commitment for a week, "" if none.
func (s *State) CommitmentFor(week string) string {
	for _, w := range s.Randomness.Weeks {
		if w.Week == week {
			return w.Commitment
		}
	}
	return ""
}

// RevealedSeed returns the revealed seed of a week, "" if not revealed (or dropped).
func (s *State) RevealedSeed(week string) string {
	for _, w := range s.Randomness.Weeks {
		if w.Week == week {
			return w.Seed
		}
	}
	return ""
}
