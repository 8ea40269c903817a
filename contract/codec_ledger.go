package contract

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"
)

// The ledger and the points are written from the text of their keys (the
// currencies, owners, players and games), as the YAML encoder writes each,
// in the order it writes them; the amounts are integers. The YAML encoder
// costs microseconds a scalar and a ledger of 2,000 players holds
// thousands, while its keys change seldom: their text and their order are
// learnt from one encoding of all of them, again only when one is new.

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
func (k *keyText) learn(keys map[string]struct{}) bool {
	known := true
	for key := range keys {
		if _, ok := k.text[key]; !ok {
			known = false
			break
		}
	}
	if known {
		return true
	}
	// Every key now needed, at once: the order of all of them is the
	// encoder's sort of all of them.
	zero := make(map[string]int, len(keys))
	for key := range keys {
		zero[key] = 0
	}
	b, err := yaml.Marshal(zero)
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
	if len(nodes) != 2*len(keys) || len(lines) != len(keys) {
		return false
	}
	text, rank := make(map[string][]byte, len(keys)), make(map[string]int, len(keys))
	for i, line := range lines {
		key := nodes[2*i].Value
		t, ok := bytes.CutSuffix(line, []byte(": 0\n"))
		if _, want := keys[key]; !ok || !want {
			return false
		}
		if _, dup := rank[key]; dup {
			return false
		}
		text[key], rank[key] = t, i
	}
	k.text, k.rank = text, rank
	return true
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
