package mailout

import (
	"fmt"
	"math/rand/v2"
	"net/mail"
	"strings"
	"testing"
)

// addressByNetMail is how Compose took an address before it kept those
// parsed lately: parsed each time. The tests hold address to it.
func addressByNetMail(s string) (*mail.Address, error) {
	clean := headerText(s)
	if clean == "" {
		return nil, fmt.Errorf("empty address: %w", ErrInvalid)
	}
	a, err := mail.ParseAddress(clean)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w: %w", clean, ErrInvalid, err)
	}
	a.Name = headerText(a.Name)
	return a, nil
}

// randomAddressText is an address as a caller may give it: one of the
// random mails', or one with odd bytes put in (controls, CRLF, brackets,
// quotes, commas, invalid UTF-8), or one of many players' (more than
// addrCache holds).
func randomAddressText(r *rand.Rand) string {
	s := randomAddress(r)
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("Player %d <p%d@example.test>", r.IntN(20000), r.IntN(20000))
	case 1:
		odd := []string{"\r\n", "\x00", "\t", "<", ">", ",", `"`, "\\", "@", " ", "\xff", "\u2028", "(c)", ";", ":"}
		for range 1 + r.IntN(3) {
			i := r.IntN(len(s) + 1)
			s = s[:i] + pick(r, odd) + s[i:]
		}
	}
	return s
}

// TestAddressIsNetMails: an address, taken first from net/mail and then
// again from addrCache, is net/mail's parse of it and its text
// net/mail's, or the same error, over random addresses, well and badly
// formed, more than the cache holds.
func TestAddressIsNetMails(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 4))
	reached := map[string]int{}
	for i := range 30000 {
		s := randomAddressText(r)
		want, wantErr := addressByNetMail(s)
		for _, when := range []string{"parsed", "kept"} {
			got, err := address(s)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("address %d %q (%s): error %v, net/mail's %v", i, s, when, err, wantErr)
			}
			if err != nil {
				reached["refused"]++
				break
			}
			if *got.parsed != *want || got.text != want.String() {
				t.Fatalf("address %d %q (%s): %q %q, written %q; net/mail's %q %q, written %q", i, s, when, got.parsed.Name, got.parsed.Address, got.text, want.Name, want.Address, want.String())
			}
			reached[when]++
			if strings.HasPrefix(got.text, `"`) {
				reached["quoted name"]++
			}
			if strings.HasPrefix(got.text, "=?") {
				reached["encoded name"]++
			}
		}
	}
	for _, shape := range []string{"refused", "parsed", "kept", "quoted name", "encoded name"} {
		if reached[shape] == 0 {
			t.Errorf("no address %s", shape)
		}
	}
	if n := len(addrCache.m); n == 0 || n > maxCachedAddrs {
		t.Errorf("%d addresses kept, want 1 to %d", n, maxCachedAddrs)
	}
}

// TestHeaderTextIsByRunes: a header's text is what taking it a rune at a
// time made, over random texts of printable ASCII, spaces at the ends,
// controls, DEL, line separators, other UTF-8 and invalid bytes.
func TestHeaderTextIsByRunes(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 5))
	pieces := []string{"a", "Z", "0", " ", "  ", "~", "!", "\x1f", "\x20", "\x7e", "\x7f", "\x80", "\t", "\r\n", "\x00", "é", "\u2028", "\u2029", "\u0085", "夢", "\xff", "\xe2\x80"}
	ascii := 0
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			if r.IntN(3) == 0 {
				b.WriteString(pick(r, pieces))
			} else {
				b.WriteString(pick(r, pieces[:7]))
			}
		}
		s := b.String()
		if got, want := headerText(s), headerTextByRune(s); got != want {
			t.Fatalf("headerText(%q) = %q, a rune at a time %q", s, got, want)
		}
		if strings.Trim(s, " !~aZ0") == "" {
			ascii++
		}
	}
	if ascii == 0 {
		t.Error("no text of printable ASCII only")
	}
}

// TestAtextIsRFC5322s: the atext table marks the characters RFC 5322
// 3.2.3 lists, every byte compared.
func TestAtextIsRFC5322s(t *testing.T) {
	for c := range 256 {
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", rune(c))
		if isAtext(byte(c)) != want {
			t.Errorf("isAtext(%q) = %v", rune(c), !want)
		}
	}
}

// TestAddressesKept: the addresses taken lately are kept, each once, up
// to maxCachedAddrs: the cache of a referee mailing ten players holds ten.
func TestAddressesKept(t *testing.T) {
	addrCache.Lock()
	clear(addrCache.m)
	addrCache.Unlock()
	for round := range 3 {
		for i := range 10 {
			if _, err := address(fmt.Sprintf("Player %d <p%d@example.test>", i, i)); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(addrCache.m); n != 10 {
			t.Errorf("round %d: %d addresses kept, want 10", round, n)
		}
	}
}

// TestLongAddressNotKept: an address longer than any a player writes (a
// sender's display name of 100,000 bytes) is parsed and written as
// before but not kept, so that 4,096 of them do not hold hundreds of
// megabytes; the cache holds at most maxCachedAddrs texts of at most
// maxCachedAddrLen bytes.
func TestLongAddressNotKept(t *testing.T) {
	addrCache.Lock()
	clear(addrCache.m)
	addrCache.Unlock()
	long := "\"" + strings.Repeat("x", 100000) + "\" <mallory@example.test>"
	got, err := address(long)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := parseAddress(long)
	if got.text != want.text {
		t.Errorf("long address written %d bytes, want %d", len(got.text), len(want.text))
	}
	if n := len(addrCache.m); n != 0 {
		t.Errorf("%d long addresses kept, want none", n)
	}
	if _, err := address("Player 1 <p1@example.test>"); err != nil {
		t.Fatal(err)
	}
	if n := len(addrCache.m); n != 1 {
		t.Errorf("%d short addresses kept, want 1", n)
	}
}
