package contract_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"referee/contract"
)

// TestTransferThousands: an amount written with commas between thousands,
// as Agora writes numbers ("1,000"), is read as the whole number; a comma
// that does not group three digits after the first one to three ("1,5",
// "1,00", "1,0000", "0,500") is no whole number, and the transfer is
// refused with the form expected.
func TestTransferThousands(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Public("2026-12-01T10:06:00Z", bob, "I join the Toy game.")
	if err := h.S.Ledger.Mint("toy/coin", "Alice", 1_234_562); err != nil {
		t.Fatal(err)
	}
	r := h.Public("2026-12-01T10:07:00Z", alice, "I transfer 1,000 coins to Bob. I give 1,233,000 coins to Bob. I transfer 9,999,999 coins to Bob.")
	receiptHas(t, r.Body,
		"> I transfer 1,000 coins to Bob. Done: 1000 coins moved from Alice to Bob; you now own 1233567",
		"> I give 1,233,000 coins to Bob. Done: 1233000 coins moved from Alice to Bob; you now own 567",
		"> I transfer 9,999,999 coins to Bob. Not done: you own 567 coins, fewer than 9999999",
	)
	r = h.Public("2026-12-01T10:08:00Z", alice, "I transfer 1,5 coins to Bob. I transfer 1,00 coins to Bob. I transfer 1,0000 coins to Bob. I transfer 0,500 coins to Bob. I transfer 1000,000 coins to Bob.")
	form := `Not done: not understood; the form is: I transfer N <currency> to <player> (or give, send, hand, pay), N a whole number, 0 or more`
	for _, n := range []string{"1,5", "1,00", "1,0000", "0,500", "1000,000"} {
		receiptHas(t, r.Body, "> I transfer "+n+" coins to Bob. "+form)
	}
	if got := h.S.Ledger.Balance("toy/coin", "Bob"); got != 5+1000+1_233_000 {
		t.Errorf("Bob owns %d coins, want %d", got, 5+1000+1_233_000)
	}
	if strings.Contains(r.Body, "Done:") {
		t.Errorf("a malformed amount was read:\n%s", r.Body)
	}

	// A condition counts in thousands too (G3).
	r = h.Public("2026-12-01T10:09:00Z", bob, "If I own more than 1,234,004 coins, I transfer 1 coin to Alice. If I own at least 1,234,005 coins, I transfer 1,000 coins to Alice.")
	receiptHas(t, r.Body,
		`> If I own more than 1,234,004 coins, I transfer 1 coin to Alice. Done: condition "I own more than 1,234,004 coins" holds 1 coin moved from Bob to Alice; you now own 1234004`,
		`> If I own at least 1,234,005 coins, I transfer 1,000 coins to Alice. Not done: the condition "I own at least 1,234,005 coins" is false`,
	)
}

// TestParseWhole: ParseWhole reads what WholeNumber matches, and nothing
// else.
func TestParseWhole(t *testing.T) {
	re := regexp.MustCompile(`^` + contract.WholeNumber + `$`)
	for _, c := range []struct {
		in string
		n  int64
		ok bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"1000", 1000, true}, {"1,000", 1000, true}, {"12,500", 12500, true},
		{"999,999,999", 999999999, true}, {"007", 7, true},
		{"", 0, false}, {"1,5", 0, false}, {"1,00", 0, false}, {"1,0000", 0, false}, {"0,500", 0, false},
		{"1000,000", 0, false}, {",000", 0, false}, {"1,", 0, false}, {"1,,000", 0, false}, {"1,000,00", 0, false},
		{"-5", 0, false}, {"+5", 0, false}, {"1.000", 0, false}, {"1 000", 0, false}, {"٣", 0, false},
		{"9,223,372,036,854,775,808", 0, false},
	} {
		n, ok := contract.ParseWhole(c.in)
		if n != c.n || ok != c.ok {
			t.Errorf("ParseWhole(%q) = %d, %v; want %d, %v", c.in, n, ok, c.n, c.ok)
		}
		if m := re.MatchString(c.in); m != c.ok && c.in != "9,223,372,036,854,775,808" {
			t.Errorf("WholeNumber matches %q: %v, want %v", c.in, m, c.ok)
		}
	}
}

// TestParamThousands: an int parameter's value may be written with commas
// between thousands, as Agora writes numbers, after a sign or none (G9):
// it is kept without them; what is no whole number is refused as before.
func TestParamThousands(t *testing.T) {
	p := contract.Param{Name: "Xmin", Type: "int", Min: -4096, Max: 4096, Rule: "Life R6"}
	for _, c := range []struct{ in, want, refusal string }{
		{"1,000", "1000", ""}, {"-1,000", "-1000", ""}, {"+1,000", "1000", ""}, {"4,096", "4096", ""}, {"-12", "-12", ""},
		{"4,097", "", "Xmin must be between -4096 and 4096, not 4097 (Life R6)"},
		{"1,00", "", `Xmin must be a whole number, not "1,00" (Life R6)`},
		{"-1,5", "", `Xmin must be a whole number, not "-1,5" (Life R6)`},
		{"--1,000", "", `Xmin must be a whole number, not "--1,000" (Life R6)`},
		{"+-1,000", "", `Xmin must be a whole number, not "+-1,000" (Life R6)`},
		{"-", "", `Xmin must be a whole number, not "-" (Life R6)`},
	} {
		got, err := p.Validate(c.in)
		refusal := ""
		if err != nil {
			refusal = err.Error()
		}
		if got != c.want || refusal != c.refusal {
			t.Errorf("Validate(%q) = %q, %q; want %q, %q", c.in, got, refusal, c.want, c.refusal)
		}
	}
}

// FuzzParseWhole: whatever a player writes, ParseWhole takes exactly what
// WholeNumber matches (within an int64), and a number it reads, written
// again with commas between its thousands, is read as the same number.
func FuzzParseWhole(f *testing.F) {
	for _, s := range []string{"0", "1,000", "12,500", "1,5", "1,00", "0,500", "007", "-5", "9,223,372,036,854,775,807"} {
		f.Add(s)
	}
	re := regexp.MustCompile(`^` + contract.WholeNumber + `$`)
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := contract.ParseWhole(s)
		if ok && !re.MatchString(s) {
			t.Fatalf("ParseWhole(%q) = %d, but WholeNumber does not match it", s, n)
		}
		if !ok && re.MatchString(s) && len(strings.ReplaceAll(s, ",", "")) < 19 {
			t.Fatalf("WholeNumber matches %q, but ParseWhole refuses it", s)
		}
		if !ok {
			return
		}
		d := strconv.FormatInt(n, 10)
		var b strings.Builder
		for i, c := range d {
			if i > 0 && (len(d)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		if m, ok := contract.ParseWhole(b.String()); !ok || m != n {
			t.Fatalf("%q read as %d, written %q, read again as %d, %v", s, n, b.String(), m, ok)
		}
	})
}
