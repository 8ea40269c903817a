package contract_test

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// leadingBreaks are texts that begin with a line break or a tab and hold a
// line feed: the YAML library writes such a text as a block scalar that
// loses its first line break when read (go-yaml issue #963), or, for a tab,
// that it cannot read at all. A notice's body, a held message's text, a
// player's name can be any of them.
var leadingBreaks = []string{
	"\n",
	"\n\n",
	"\nPlease note:\nthe round ends on Monday.",
	"\n\n  indented\nnot\n",
	"\n  x\ny",
	"\n#not a comment\n- not an item\n",
	"\r\nCRLF\r\n",
	"\u0085next line\n",
	"\u2028line separator\nx",
	"\u2029paragraph separator\nx",
	"\ttabbed\nline",
	"\t\n",
	"\n\t\n",
	"\n\n\n",
}

// fillText sets every string the state file holds (but the master secret,
// the games' parameters and the games' IDs, which are checked when read)
// to the next of texts, in every kind of place: a field, a list item, a
// map's key and its value, a game's section and its own data. An empty
// list or map gets an item first, so that every place is filled.
func fillText(v reflect.Value, next func() string, depth int) {
	if depth > 10 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(next())
	case reflect.Pointer:
		if v.IsNil() {
			if v.Type().Elem().Kind() != reflect.Struct {
				return
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillText(v.Elem(), next, depth+1)
	case reflect.Interface:
		if !v.IsNil() && v.Elem().Kind() == reflect.Pointer {
			fillText(v.Elem(), next, depth+1)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			return
		}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Name == "Secret" || f.Name == "Params" || (f.Tag.Get("yaml") == "-" && f.Name != "Data") {
				continue
			}
			fillText(v.Field(i), next, depth+1)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		if v.Len() == 0 {
			v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
		}
		for i := range v.Len() {
			fillText(v.Index(i), next, depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		games := v.Type().Elem() == reflect.TypeFor[*contract.GameState]()
		for _, k := range v.MapKeys() {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(v.MapIndex(k))
			fillText(val, next, depth+1)
			v.SetMapIndex(k, val)
		}
		if games || v.Type().Key().Kind() != reflect.String {
			return
		}
		val := reflect.New(v.Type().Elem()).Elem()
		fillText(val, next, depth+1)
		v.SetMapIndex(reflect.ValueOf(next()).Convert(v.Type().Key()), val)
	}
}

// texts lists every string under v by its path, map keys too.
func texts(v reflect.Value, path string, out map[string]string) {
	switch v.Kind() {
	case reflect.String:
		out[path] = v.String()
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			texts(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				texts(v.Field(i), path+"."+f.Name, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			texts(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpString(fmt.Sprint(a), fmt.Sprint(b)) })
		for i, k := range keys {
			kp := fmt.Sprintf("%s{%d}", path, i)
			texts(k, kp, out)
			texts(v.MapIndex(k), kp+":", out)
		}
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// textState is the toy game's state after a join, with every string the
// state file holds set to one of leadingBreaks, or to text where given.
func textState(t testing.TB, text string) *contract.State {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	i := 0
	fillText(reflect.ValueOf(h.S), func() string {
		i++
		if text != "" {
			// Distinct, for the maps' keys.
			return text + fmt.Sprint(i%2 == 0)[:i%3]
		}
		return leadingBreaks[i%len(leadingBreaks)] + fmt.Sprint(i)[:i%2]
	}, 0)
	return h.S
}

// TestTextLeadingLineBreak: a state whose every text begins with a line
// break or a tab is saved and loaded back identical, its state hash
// unchanged, by Encode and by an Encoder's kept text alike.
func TestTextLeadingLineBreak(t *testing.T) {
	s := textState(t, "")
	checkTextRoundTrip(t, s)
}

// checkTextRoundTrip: s saved and loaded back holds the same strings,
// encodes to the same bytes, and has the same state hash; an Encoder, and
// a state taken to encode later, write what Encode writes.
func checkTextRoundTrip(t *testing.T, s *contract.State) {
	t.Helper()
	b, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	back := encodeDecode(t, s)
	want, got := map[string]string{}, map[string]string{}
	texts(reflect.ValueOf(s), "", want)
	texts(reflect.ValueOf(back), "", got)
	for path, w := range want {
		if g, ok := got[path]; !ok || g != w {
			t.Errorf("%s: %q read back as %q", path, w, g)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d strings read back, want %d", len(got), len(want))
	}
	if b2, err := contract.Encode(back); err != nil || !bytes.Equal(b2, b) {
		t.Errorf("the state loaded encodes otherwise (%v):\n%s\nwant\n%s", err, b2, b)
	}
	at := contracttest.At(t, "2026-12-01T11:00:00Z")
	for _, game := range []string{"", "toy"} {
		h1, err1 := contract.StateHash(s, game, 3, at)
		h2, err2 := contract.StateHash(back, game, 3, at)
		if err1 != nil || err2 != nil || h1 != h2 {
			t.Errorf("state hash of %q: %s (%v) before saving, %s (%v) after loading", game, h1, err1, h2, err2)
		}
	}
	var enc contract.Encoder
	sameEncoding(t, &enc, s)
	sameEncoding(t, &enc, back)
	if tb, err := enc.Take(s).Encode(); err != nil || !bytes.Equal(tb, b) {
		t.Errorf("a taken state encodes otherwise (%v):\n%s\nwant\n%s", err, tb, b)
	}
}

// TestSectionDataInPlace: a game's data written in place under "state"
// is the text it had when it went through a node first, in the state file
// and in the state hash alike, whether its texts are plain or every one
// begins with a line break or a tab.
func TestSectionDataInPlace(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	for name, s := range map[string]*contract.State{"plain": h.S, "breaking": textState(t, "")} {
		for id, g := range s.Games {
			if g.Data == nil {
				t.Fatalf("%s: game %s has no data to write", name, id)
			}
			inPlace, throughNode, err := contract.SectionTexts(g)
			if err != nil {
				t.Fatalf("%s: game %s: %v", name, id, err)
			}
			for i, what := range []string{"state file", "state hash"} {
				if !bytes.Equal(inPlace[i], throughNode[i]) {
					t.Errorf("%s: game %s's section in the %s:\n%s\nthrough a node:\n%s", name, id, what, inPlace[i], throughNode[i])
				}
			}
		}
	}
}
