package rumble

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// TestPowerNameLength: a power name of 40 characters is taken and one of 41
// is refused with the reason a player has always read (Rumble 2), whether
// its characters take one byte or two.
func TestPowerNameLength(t *testing.T) {
	for _, c := range []struct {
		name  string
		taken bool
	}{
		{strings.Repeat("a", 40), true},
		{strings.Repeat("a", 41), false},
		{strings.Repeat("é", 40), true},
		{strings.Repeat("é", 41), false},
		{"Iron " + strings.Repeat("s", 34) + "’", true},
		{"Iron " + strings.Repeat("s", 35) + "’", false},
	} {
		h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
		for _, p := range []string{alice, bob} {
			mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
		}
		mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
		before := snapshot(t, h)
		r := h.Private("2026-12-01T12:00:00Z", alice, c.name+": it is long")
		if c.taken {
			mustDone(t, r)
			continue
		}
		want := `"` + c.name + `" is not a power name: use up to 40 letters, digits, spaces, ' and - (Rumble 2)`
		if !failed(r) || !strings.Contains(norm(r.Body), want) {
			t.Errorf("%d characters: the receipt does not refuse with %q:\n%v", len([]rune(c.name)), want, r)
		}
		if after := snapshot(t, h); after != before {
			t.Errorf("%d characters: a refused power changed the state", len([]rune(c.name)))
		}
	}
}

// TestPowerNameAsExpression: isPowerName answers as the expression that
// held the 40-character bound inside it did, on a table of edges and on
// random names drawn from letters, digits, the allowed marks and others.
func TestPowerNameAsExpression(t *testing.T) {
	bounded := regexp.MustCompile(`^[\pL\pN][\pL\pN '’-]{0,39}$`)
	want := func(s string) bool { return bounded.MatchString(s) && hasLetter(s) }
	names := []string{"", "a", "1", "12", "1a", " a", "-a", "'a", "a-b", "a b", "a’s", "a\tb", "a\nb", "a.b", "Ω",
		strings.Repeat("a", 39), strings.Repeat("a", 40), strings.Repeat("a", 41), strings.Repeat("é", 40), strings.Repeat("é", 41),
		strings.Repeat("9", 40), "a" + strings.Repeat(" ", 39), "a" + strings.Repeat(" ", 40), "\xff", "a\xff", strings.Repeat("a", 39) + "\xff",
		strings.Repeat("a", 40) + "\n", "٣a", "a\u0301"}
	pieces := []string{"a", "Z", "é", "Ω", "字", "1", "٣", " ", "'", "’", "-", ".", ":", "\t", "\n", "\u0301", "\xff", "\xe2\x80", "_"}
	r := rand.New(rand.NewPCG(14, 40))
	for range 20000 {
		var b strings.Builder
		n := r.IntN(45)
		if r.IntN(4) == 0 {
			b.WriteString(strings.Repeat("b", 36+r.IntN(4)))
			n = r.IntN(5)
		}
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		names = append(names, b.String())
	}
	for _, s := range names {
		if got, w := isPowerName(s), want(s); got != w {
			t.Errorf("isPowerName(%q) = %v, the expression says %v", s, got, w)
		}
	}
}
