package rumble

import (
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestPowerNamedExactly: of two powers whose names lower-case alike
// ("Iron Skin" and "İron Skin", both accepted, Rumble 2), a bid naming one
// exactly reaches that one; a name in another case that matches one power
// only still reaches it; one that matches both is refused, naming both and
// the rule, and changes nothing.
func TestPowerNamedExactly(t *testing.T) {
	h := lookalikeBids(t)
	number := map[string]string{}
	for i, p := range data2(h).Powers {
		number[p.Name] = "#" + itoa(i+1)
	}

	for _, c := range []struct{ list, want string }{
		{"İron Skin: 10", "bid: İron Skin: 10"},
		{"Iron Skin: 10", "bid: Iron Skin: 10"},
		{"I bid 10 on İron Skin", "bid: İron Skin: 10"},
		{"the power İron Skin: 10", "bid: İron Skin: 10"},
		{"flight: 10", "bid: Flight: 10"},
		{"FLIGHT: 10\nİron Skin: 5", "bid: Flight: 10 / bid: İron Skin: 5"},
	} {
		r := h.Private("2026-12-02T10:00:00Z", carol, c.list)
		mustDone(t, r)
		if !strings.Contains(norm(r.Body), c.want) {
			t.Errorf("%q: the receipt does not say %q:\n%s", c.list, c.want, r.Body)
		}
	}

	for _, ref := range []string{"iron skin", "IRON SKIN", "power iron skin"} {
		before := snapshot(t, h)
		r := h.Private("2026-12-02T11:00:00Z", carol, ref+": 10")
		want := `could be the power "Iron Skin" (` + number["Iron Skin"] + `) or "İron Skin" (` + number["İron Skin"] + `), whose names differ only in case; write the name exactly as listed, or its number (Rumble 5)`
		if !failed(r) || !strings.Contains(norm(r.Body), want) {
			t.Errorf("%q: the receipt does not refuse with %q:\n%s", ref, want, r.Body)
		}
		if after := snapshot(t, h); after != before {
			t.Errorf("%q: a refused bid changed the state", ref)
		}
	}
}

// lookalikeBids is a game at its bids whose powers are "Iron Skin"
// (Alice's), "İron Skin" (Bob's) and Flight (Carol's).
func lookalikeBids(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob, carol} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, "Iron Skin: my skin turns to iron",
		bob, "İron Skin: my skin turns to Turkish iron",
		carol, "Flight: I fly")
	return h
}
