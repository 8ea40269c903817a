package contract_test

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// joinAs sends "I join the Toy game." from addr with the display name
// display, and returns the name the referee gave the sender.
func joinAs(t *testing.T, h *contracttest.Harness, n int, addr, display string) string {
	t.Helper()
	h.Send(&contract.Message{ID: fmt.Sprintf("join%d@example.test", n), From: addr, Name: display,
		Arrived: contracttest.At(t, "2026-12-01T10:05:00Z"), Channel: contract.ChanPublic, Authenticated: true, Text: "I join the Toy game."})
	p := h.S.PlayerByAddress(addr)
	if p == nil {
		t.Fatalf("%s (%q) is not a player", addr, display)
	}
	return p.Name
}

// TestOneNameThreeTimes: a name already taken gets the next free number,
// so the third "Alice" is Alice3, and other players can name em so.
func TestOneNameThreeTimes(t *testing.T) {
	h := newToy(t)
	var got []string
	for i, addr := range []string{"alice@example.test", "alice@example.org", "alice@example.net"} {
		got = append(got, joinAs(t, h, i, addr, "Alice"))
	}
	if strings.Join(got, " ") != "Alice Alice2 Alice3" {
		t.Errorf("three players named Alice were called %q", got)
	}
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	r := h.Public("2026-12-01T10:07:00Z", bob, "I poke Alice3 in Toy.")
	if r == nil || !strings.Contains(flat(r.Body), "Not done: Alice3 cannot be poked (T4)") {
		t.Errorf("poking Alice3:\n%v", r)
	}
}

// TestNameOfMaxLength: a display name of exactly 40 bytes, the most kept,
// is kept whole; one byte more is cut to 40.
func TestNameOfMaxLength(t *testing.T) {
	h := newToy(t)
	forty := strings.Repeat("Abcdefghij", 4)
	if got := joinAs(t, h, 1, "long@example.test", forty); got != forty {
		t.Errorf("a 40-byte name became %q", got)
	}
	if got := joinAs(t, h, 2, "longer@example.test", "Z"+forty); got != "Z"+forty[:39] {
		t.Errorf("a 41-byte name became %q, want %q", got, "Z"+forty[:39])
	}
	// A character the 40th byte splits is dropped whole, and a space the
	// cut leaves last is trimmed.
	split := forty[:39] + "Ȼmore"
	if got := joinAs(t, h, 3, "split@example.test", split); got != forty[:39] {
		t.Errorf("a name whose 40th byte splits Ȼ became %q, want %q", got, forty[:39])
	}
	spaced := "B" + forty[1:39] + " Zed"
	if got := joinAs(t, h, 4, "spaced@example.test", spaced); got != "B"+forty[1:39] {
		t.Errorf("a name cut after a space became %q, want %q", got, "B"+forty[1:39])
	}
}

// TestNameOfAndAddress: a player's name and first address, and for an
// address no player has, the address itself and no player.
func TestNameOfAndAddress(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	if got := h.S.NameOf("Alice@Example.test"); got != "Alice" {
		t.Errorf("NameOf a player's address = %q, want Alice", got)
	}
	if got := h.S.NameOf("nobody@example.test"); got != "nobody@example.test" {
		t.Errorf("NameOf an unknown address = %q, want the address", got)
	}
	if got := h.S.PlayerByName("alice").Address(); got != "alice@example.test" {
		t.Errorf("Alice's address = %q", got)
	}
	if got := (&contract.Player{Name: "Ghost"}).Address(); got != "" {
		t.Errorf("the address of a player without one = %q, want none", got)
	}
}

// TestPlayerByAddressFollowsTheList: the address lookup answers from the
// state's list of players as it is now, also when the list was replaced by
// another (a player put first, the last one swapped, players dropped).
func TestPlayerByAddressFollowsTheList(t *testing.T) {
	mk := func(name string) *contract.Player {
		return &contract.Player{Name: name, Addresses: []string{strings.ToLower(name) + "@example.test"}}
	}
	a, b, c, d, x := mk("Ann"), mk("Ben"), mk("Cal"), mk("Dot"), mk("Xan")
	for _, tc := range []struct {
		name        string
		before, now []*contract.Player
	}{
		{"one put first", []*contract.Player{a, b, c}, []*contract.Player{d, b, c}},
		{"one put first, one added", []*contract.Player{a, b, c}, []*contract.Player{d, b, c, x}},
		{"the last swapped", []*contract.Player{a, b, c}, []*contract.Player{a, b, x}},
		{"the last swapped, one added", []*contract.Player{a, b, c}, []*contract.Player{a, b, x, d}},
		{"the first dropped", []*contract.Player{a, b, c}, []*contract.Player{b, c}},
		{"cut back", []*contract.Player{a, b, c}, []*contract.Player{a}},
		{"another list", []*contract.Player{a, b}, []*contract.Player{c, d, x}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &contract.State{Players: tc.before}
			for _, p := range tc.before {
				if got := s.PlayerByAddress(p.Addresses[0]); got != p {
					t.Fatalf("before: %s found %v", p.Addresses[0], got)
				}
			}
			s.Players = tc.now
			in := map[*contract.Player]bool{}
			for _, p := range tc.now {
				in[p] = true
				if got := s.PlayerByAddress(p.Addresses[0]); got != p {
					t.Errorf("%s found %v, want %s", p.Addresses[0], got, p.Name)
				}
			}
			for _, p := range []*contract.Player{a, b, c, d, x} {
				if !in[p] {
					if got := s.PlayerByAddress(p.Addresses[0]); got != nil {
						t.Errorf("%s, no longer a player, found %s", p.Addresses[0], got.Name)
					}
				}
			}
		})
	}
}

// TestNameCutBeforeVia: a list's " via <list>" is cut from a display name
// at its place in the name, also where lower-casing changes a letter's
// length in bytes (Ⱥ is two bytes, ⱥ three; the Kelvin sign K three, k
// one): the name keeps every letter before " via ", whole.
func TestNameCutBeforeVia(t *testing.T) {
	h := newToy(t)
	for i, c := range []struct{ display, want string }{
		{"Alice via agora-business", "Alice"},
		{"ȺȺȺ via agora-business", "ȺȺȺ"},
		{"ȺȺȺȺȺȺȺ via x", "ȺȺȺȺȺȺȺ"},
		{"\u212a\u212a\u212a\u212a via x", "\u212a\u212a\u212a\u212a"},
		{"Bo VIA list", "Bo"},
		{"Via Appia", "Via Appia"},
	} {
		if got := joinAs(t, h, i, fmt.Sprintf("p%d@example.test", i), c.display); got != c.want {
			t.Errorf("display name %q became %q, want %q", c.display, got, c.want)
		}
	}
}
