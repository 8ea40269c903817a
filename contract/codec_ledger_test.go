package contract

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// ledgerKeys are owners, currencies, players and games a YAML writer
// quotes, orders by their digits, or cannot write as a one-line key.
var ledgerKeys = []string{
	"Alice", "alice", "Bob: the second", `"Quoted" 'single'`, "ünïcödé ✓", "Ä", "- dash", "null", "~", "12", "012", "1e3",
	"yes", "a1", "a01", "a10", "a2b", "a02b", "x9", "x10", "life", "life/vial", "rumble/ticket", "#hash", "tab\there",
	"two\nlines", " leading space", "trailing space ", "", "a: b", "\u2028sep", "bom\ufeff", "[flow]", "{map}", "&anchor",
	"*alias", "!tag", "%percent", "@at", "`tick", "?q", "2026-12-01", "0x1F", ".inf", "_", "Z", "z", "0", "-1",
}

// TestLedgerTextIsTheEncoders: the ledger and the points written from
// their keys' text are what the YAML encoder writes of them, for every
// kind of key, as keys come and go; and a key the encoder cannot write
// on one line has the encoder write the whole.
func TestLedgerTextIsTheEncoders(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var k keyText
	check := func(round int, l *Ledger, points map[string]map[string]int) {
		t.Helper()
		want, err := encodeYAML(struct {
			L *Ledger                   `yaml:"ledger"`
			P map[string]map[string]int `yaml:"points"`
		}{l, points})
		if err != nil {
			t.Fatal(err)
		}
		lt, pt, err := k.renderLedger(l, points)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(lt) + string(pt); got != string(want) {
			t.Fatalf("round %d: written as\n%s\nthe YAML encoder writes\n%s", round, got, want)
		}
	}
	check(0, &Ledger{}, nil)
	check(0, &Ledger{Balances: map[string]map[string]int64{}, Supply: map[string]int64{}}, map[string]map[string]int{})
	for round := 1; round <= 60; round++ {
		pick := func() string { return ledgerKeys[r.IntN(len(ledgerKeys))] }
		l := &Ledger{Balances: map[string]map[string]int64{}, Supply: map[string]int64{}}
		points := map[string]map[string]int{}
		for range 1 + r.IntN(4) {
			cur := pick()
			owners := map[string]int64{}
			for range r.IntN(12) {
				owners[pick()] = r.Int64N(2000) - 100
			}
			if r.IntN(6) == 0 {
				owners = nil
			}
			l.Balances[cur] = owners
			l.Supply[cur] = r.Int64N(1 << 40)
		}
		for range r.IntN(12) {
			games := map[string]int{}
			for range r.IntN(4) {
				games[pick()] = r.IntN(50) - 5
			}
			points[pick()] = games
		}
		check(round, l, points)
		check(round, l, points) // from the kept text
	}
	long := strings.Repeat("a long name ", 20) // over the encoder's simple keys
	check(61, &Ledger{Balances: map[string]map[string]int64{"life/vial": {long: 3, "Alice": 2}}}, map[string]map[string]int{long: {"life": 1}})
	if _, ok := k.text[long]; ok {
		t.Errorf("a key over the encoder's simple keys' length kept as a one-line key: %q", k.text[long])
	}
	check(62, &Ledger{Balances: map[string]map[string]int64{"life/vial": {"Alice": 2}}}, nil)
	check(63, &Ledger{Supply: map[string]int64{"life/vial": 2}}, map[string]map[string]int{"not\x80utf-8": {"life": 1}}) // written in base64
	if _, ok := k.text["not\x80utf-8"]; ok {
		t.Errorf("a key that is not UTF-8 kept as a one-line key: %q", k.text["not\x80utf-8"])
	}
	check(64, &Ledger{Balances: map[string]map[string]int64{"life/vial": {"Newcomer": 2}}}, nil)
	if len(k.text) != 2 {
		t.Errorf("learnt again for a ledger of two keys, the text of %d kept", len(k.text))
	}
}

// TestKeyOrderIsTheEncoders: keys ordered by yamlKeyLess are in the order
// the YAML encoder writes a map's keys, over sets of keys such as a ledger
// holds (addresses with numbers, zero-padded or not, currencies, contests)
// and stranger ones (digits alone, non-ASCII letters and digits, signs).
// (TestLedgerTextIsTheEncoders has keys learnt as they come and go.)
func TestKeyOrderIsTheEncoders(t *testing.T) {
	parts := []string{"alice", "Alice", "bob", "a", "b", "0", "00", "007", "1", "10", "2", "60", "060", "9", "99", "@example.test", "@x.org",
		"/", "-", ".", ":", "contest:", "life", "/vials", "ä", "é", "٣", "²", "_", "Z", " ", "+", "x9y", "9x"}
	r := rand.New(rand.NewPCG(3, 5))
	for round := range 300 {
		keys := map[string]int{}
		for range 1 + r.IntN(60) {
			var k strings.Builder
			for range 1 + r.IntN(4) {
				k.WriteString(parts[r.IntN(len(parts))])
			}
			keys[k.String()] = 0
		}
		b, err := yaml.Marshal(keys)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		var doc yaml.Node
		if err := yaml.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(doc.Content[0].Content); i += 2 {
			want = append(want, doc.Content[0].Content[i].Value)
		}
		got := slices.Collect(maps.Keys(keys))
		sortYAMLKeys(got)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: ordered\n%q\nthe encoder orders\n%q", round, got, want)
		}
	}
}
