package contract

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode"

	"gopkg.in/yaml.v3"
)

// The ledger and the points are written from the text of their keys (the
// currencies, owners, players and games), as the YAML encoder writes each,
// in the order it writes them; the amounts are integers. The YAML encoder
// costs microseconds a scalar and a ledger of 2,000 players holds
// thousands, while its keys change seldom: each key's text is learnt from
// one encoding, when it is new, and their order is the encoder's.

// Ledger and points as the YAML encoder writes them empty in the state.
const (
	emptyLedger = "ledger:\n  balances: {}\n  supply: {}\n"
	emptyPoints = "points: {}\n"
)

// keyText keeps how the YAML encoder writes map keys and in which order.
type keyText struct {
	text map[string][]byte // each key as written before its colon
	rank map[string]int    // its place in the encoder's order of the keys of text
}

// learn makes sure each of keys has its text and rank. It is false when
// the YAML encoder writes one of them other than as a one-line key (over
// its simple keys' length, say): the caller then has the encoder write
// the whole.
//
// A key's text does not depend on the others: only the keys not yet
// learnt are encoded (a player joining, a new currency), and the order of
// all of them is the encoder's order of map keys (yamlKeyLess), not
// learnt again from an encoding of all of them, which cost a state of 200
// players 2 ms at each new key and one of 2,000 players 20.
func (k *keyText) learn(keys map[string]struct{}) bool {
	var fresh map[string]int
	for key := range keys {
		if _, ok := k.text[key]; !ok {
			if fresh == nil {
				fresh = map[string]int{}
			}
			fresh[key] = 0
		}
	}
	if fresh == nil {
		return true
	}
	b, err := yaml.Marshal(fresh)
	if err != nil {
		return false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	nodes := doc.Content[0].Content
	lines := bytes.SplitAfter(b, []byte("\n")) // never empty: [b] at least
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(nodes) != 2*len(fresh) || len(lines) != len(fresh) {
		return false
	}
	text := make(map[string][]byte, len(keys))
	for i, line := range lines {
		key := nodes[2*i].Value
		t, ok := bytes.CutSuffix(line, []byte(": 0\n"))
		if _, want := fresh[key]; !ok || !want {
			return false
		}
		if _, dup := text[key]; dup {
			return false
		}
		text[key] = t
	}
	all := make([]string, 0, len(keys))
	for key := range keys {
		if _, ok := text[key]; !ok {
			text[key] = k.text[key]
		}
		all = append(all, key)
	}
	sortYAMLKeys(all)
	rank := make(map[string]int, len(all))
	for i, key := range all {
		rank[key] = i
	}
	k.text, k.rank = text, rank
	return true
}

// sortYAMLKeys sorts keys in the YAML encoder's order of a map's keys.
func sortYAMLKeys(keys []string) {
	slices.SortFunc(keys, func(a, b string) int {
		switch {
		case yamlKeyLess(a, b):
			return -1
		case yamlKeyLess(b, a):
			return 1
		}
		return 0
	})
}

// yamlKeyLess orders two map keys as the YAML encoder orders a map's
// string keys (gopkg.in/yaml.v3's keyList.Less, for strings): rune by
// rune, a letter before any other character after a letter and after one
// after a digit, and runs of digits compared as numbers.
// TestKeyOrderIsTheEncoders holds this to the encoder.
func yamlKeyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	digits := false
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			digits = unicode.IsDigit(ar[i])
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			if digits {
				return al
			}
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

// sortedKeys lists the keys of m in the order learnt.
func sortedKeys[V any](k *keyText, m map[string]V) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(k.rank[a], k.rank[b]) })
	return keys
}

// renderLedger writes the state's "ledger:" and "points:" keys, as the
// YAML encoder writes them (TestLedgerTextIsTheEncoders).
func (k *keyText) renderLedger(l *Ledger, points map[string]map[string]int) ([]byte, []byte, error) {
	keys := keysOfLedger(l, points)
	if !k.learn(keys) {
		return yamlLedger(l, points)
	}
	b := []byte("ledger:\n")
	b = appendNested(b, k, "  balances:", "    ", "  ", l.Balances)
	b = appendAmounts(b, k, "  supply:", "    ", l.Supply)
	return b, appendNested(nil, k, "points:", "  ", "  ", points), nil
}

// keysOfLedger lists every key the ledger and the points write: the
// currencies, their owners, the players and their games.
func keysOfLedger(l *Ledger, points map[string]map[string]int) map[string]struct{} {
	keys := map[string]struct{}{}
	for cur, owners := range l.Balances {
		keys[cur] = struct{}{}
		for o := range owners {
			keys[o] = struct{}{}
		}
	}
	for cur := range l.Supply {
		keys[cur] = struct{}{}
	}
	for p, games := range points {
		keys[p] = struct{}{}
		for g := range games {
			keys[g] = struct{}{}
		}
	}
	return keys
}

// appendNested writes a key holding a map of maps of amounts, its entries
// at indent and theirs step further.
func appendNested[V int | int64](b []byte, k *keyText, head, indent, step string, m map[string]map[string]V) []byte {
	if len(m) == 0 {
		return append(append(b, head...), " {}\n"...)
	}
	b = append(append(b, head...), '\n')
	for _, key := range sortedKeys(k, m) {
		b = appendAmounts(b, k, indent+string(k.text[key])+":", indent+step, m[key])
	}
	return b
}

// appendAmounts writes a key holding a map of amounts, its entries at
// indent.
func appendAmounts[V int | int64](b []byte, k *keyText, head, indent string, m map[string]V) []byte {
	if len(m) == 0 {
		return append(append(b, head...), " {}\n"...)
	}
	b = append(append(b, head...), '\n')
	for _, key := range sortedKeys(k, m) {
		b = append(b, indent...)
		b = append(b, k.text[key]...)
		b = append(b, ": "...)
		b = strconv.AppendInt(b, int64(m[key]), 10)
		b = append(b, '\n')
	}
	return b
}

// yamlLedger has the YAML encoder write the ledger and the points.
func yamlLedger(l *Ledger, points map[string]map[string]int) ([]byte, []byte, error) {
	lt, err := encodeYAML(struct {
		L *Ledger `yaml:"ledger"`
	}{l})
	if err != nil {
		return nil, nil, fmt.Errorf("encode state: ledger: %w", err)
	}
	pt, err := encodeYAML(struct {
		P map[string]map[string]int `yaml:"points"`
	}{points})
	if err != nil {
		return nil, nil, fmt.Errorf("encode state: points: %w", err)
	}
	return lt, pt, nil
}
