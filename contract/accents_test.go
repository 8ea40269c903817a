package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
)

// A player is found by eir name written without its accents: "I transfer
// 2 coins to Carol Unal." was refused with "no player is known as "Carol
// Unal"" while the player is Carol Ünal, and "to Carol" (a prefix) found
// her. Names are compared with their combining marks taken off (Ü as U, é
// as e; ß stays ß) when no name matches as written.
func TestRecipientWithoutAccents(t *testing.T) {
	checkTransfersTo(t, "Carol \u00dcnal <carol@example.test>", []transferCase{
		{"I transfer 2 coins to Carol Unal.", "Done: 2 coins moved from Alice to Carol \u00dcnal", 7},
		{"I transfer 2 coins to carol unal.", "Done: 2 coins moved from Alice to Carol \u00dcnal", 7},
		{"I transfer 2 coins to Carol \u00dcnal.", "Done: 2 coins moved from Alice to Carol \u00dcnal", 7},
		{"I give Carol Unal 2 coins.", "Done: 2 coins moved from Alice to Carol \u00dcnal", 7},
		{"I transfer 2 coins to Carol Un.", "Done: 2 coins moved from Alice to Carol \u00dcnal", 7},
		{"I transfer 2 coins to Carol Uenal.", `Not done: no player is known as "Carol Uenal"`, 5},
	})
}

// checkTransfersTo is checkTransfers with the recipient who: each case's
// mail is sent in a Toy game Alice and who have just joined (5 coins
// each), and its receipt and who's coins are held to it.
func checkTransfersTo(t *testing.T, who string, cases []transferCase) {
	t.Helper()
	name := strings.TrimSpace(who[:strings.Index(who, "<")])
	for _, c := range cases {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:05:00Z", who, "I join the Toy game.")
		r := h.Public("2026-12-01T10:06:00Z", alice, c.text)
		if r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%q: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
		if got := h.S.Ledger.Balance("toy/coin", name); got != c.bob {
			t.Errorf("%q: %s owns %d coins, want %d", c.text, name, got, c.bob)
		}
	}
}

// TestResolveWithoutAccents holds Resolve and ResolveWhole to the order
// of their readings: a name as written wins over one without its accents
// (Rene over René for "Rene"), which wins over the start of a name (Zoë
// over Zoey for "Zoe"); a reference written with accents is the start of
// a name as written before another name without them (André Martin over
// Andre for "André": the transfer went to Andre); two players whose names
// lose their accents to the same name are both named, and nobody is
// chosen.
func TestResolveWithoutAccents(t *testing.T) {
	s := &contract.State{}
	for _, who := range []string{"Zo\u00eb <zoe@example.test>", "Zoey <zoey@example.test>", "Ren\u00e9 <rene1@example.test>",
		"Rene <rene2@example.test>", "J\u00f6rg Strau\u00df <jorg@example.test>", "Ana\u00efs <anais@example.test>",
		"Ana\u00ecs <anais2@example.test>", "Carol \u00dcnal <carol@example.test>", "Andr\u00e9 Martin <andre@example.test>",
		"Andre <andre2@example.test>"} {
		addr := who[strings.Index(who, "<")+1 : len(who)-1]
		s.Register(addr, who[:strings.Index(who, "<")])
	}
	for _, c := range []struct{ ref, whole, prefix string }{
		{"Zoe", "Zo\u00eb", "Zo\u00eb"},
		{"ZOE", "Zo\u00eb", "Zo\u00eb"},
		{"Zo\u00e9", "Zo\u00eb", "Zo\u00eb"}, // another accent, the same letter
		{"Zo", `no player is known as "Zo"`, `"Zo" is ambiguous: it could be Zoey, Zoë; name one`},
		{"Rene", "Rene", "Rene"},
		{"Ren\u00e9", "Ren\u00e9", "Ren\u00e9"},
		{"Ren\u00e8", `"Renè" is ambiguous: it could be Rene, René; name one`, `"Renè" is ambiguous: it could be Rene, René; name one`},
		{"Jorg Strau\u00df", "J\u00f6rg Strau\u00df", "J\u00f6rg Strau\u00df"},
		{"Jorg Strauss", `no player is known as "Jorg Strauss"`, `no player is known as "Jorg Strauss"`},
		{"Jorg", `no player is known as "Jorg"`, "J\u00f6rg Strau\u00df"},
		{"Anais", `"Anais" is ambiguous: it could be Anaìs, Anaïs; name one`, `"Anais" is ambiguous: it could be Anaìs, Anaïs; name one`},
		{"Ana\u00efs", "Ana\u00efs", "Ana\u00efs"},
		{"Carol Unal", "Carol \u00dcnal", "Carol \u00dcnal"},
		{"Carol U", `no player is known as "Carol U"`, "Carol \u00dcnal"},
		// Written with its accent, the start of André Martin's name is
		// his, not Andre's, whose name reads alike without it.
		{"Andr\u00e9", "Andre", "Andr\u00e9 Martin"},
		{"Andre", "Andre", "Andre"},
		{"Andr", `no player is known as "Andr"`, `"Andr" is ambiguous: it could be Andre, André Martin; name one`},
	} {
		for _, r := range []struct {
			f    func(string) (*contract.Player, error)
			name string
			want string
		}{{s.ResolveWhole, "ResolveWhole", c.whole}, {s.Resolve, "Resolve", c.prefix}} {
			p, err := r.f(c.ref)
			got := ""
			if p != nil {
				got = p.Name
			}
			if err != nil {
				got = strings.TrimSuffix(err.Error(), " (guide: Naming players)")
			}
			if got != r.want {
				t.Errorf("%s(%q) = %q, want %q", r.name, c.ref, got, r.want)
			}
		}
	}
}
