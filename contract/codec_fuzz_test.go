package contract_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/store"
)

// textStateOf is the toy game's state after a join with every string the
// state file holds (as textState fills them: fields, items of lists,
// maps' keys and values, the game's data) set to texts in turn, a third
// of them as they are, the others with a letter or two after them, so
// that the keys of a map differ.
func textStateOf(t testing.TB, texts ...string) *contract.State {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	i := 0
	fillText(reflect.ValueOf(h.S), func() string {
		i++
		return texts[i%len(texts)] + fmt.Sprint(i%2 == 0)[:i/len(texts)%3]
	}, 0)
	return h.S
}

// FuzzTextRoundTrip: a state whose texts are any three texts, in every
// place a text can be in (a field, an item of a list, a map's key and its
// value, a game's data), is saved and loaded back by the store (as
// referee check loads it) with every text as it was, encodes to the same
// bytes, has the same state hash, and the text that hash covers is YAML
// that reads back every text.
func FuzzTextRoundTrip(f *testing.F) {
	seeds := append(append([]string{"", "plain", "a\nb", "x\x00y", "\x00", "# not a comment\n", "a: b\n- c", "'\"", "ſ K é 漢字\n\u2028",
		"trailing  \n", "\xff\xfe", "\t\n\t", "- \n- ", "\r\n  \r\n"}, leadingBreaks...), indentedTexts...)
	for i, s := range seeds {
		f.Add(s, seeds[(i+1)%len(seeds)], seeds[(i+7)%len(seeds)])
	}
	at := contracttest.At(f, "2026-12-01T11:00:00Z")
	path := filepath.Join(f.TempDir(), "state.yaml")
	e := newToy(f).E
	f.Fuzz(func(t *testing.T, a, b, c string) {
		s := textStateOf(t, a, b, c)
		checkTextRoundTrip(t, s)
		// As store.Save writes it, without its syncs.
		saved, err := contract.Encode(s)
		if err != nil {
			t.Fatalf("the state is not saved: %v", err)
		}
		if err := os.WriteFile(path, saved, 0o600); err != nil {
			t.Fatal(err)
		}
		back, err := store.Load(e, path)
		if err != nil {
			t.Fatalf("the state saved does not load: %v", err)
		}
		want, got := map[string]string{}, map[string]string{}
		texts(reflect.ValueOf(s), "", want)
		texts(reflect.ValueOf(back), "", got)
		if !reflect.DeepEqual(got, want) {
			for p, w := range want {
				if got[p] != w {
					t.Errorf("%s: %q loaded as %q", p, w, got[p])
				}
			}
			t.Fatalf("%d texts loaded, %d saved", len(got), len(want))
		}
		for _, game := range []string{"", "toy"} {
			b, err := contract.HashedText(s, game, 3, at)
			if err != nil {
				t.Fatalf("state hash of %q: %v", game, err)
			}
			var v any = contract.Hashed(s)
			if game != "" {
				v = s.Games[game]
			}
			if err := readsBack(b, v); err != nil {
				t.Errorf("the text the state hash of %q covers: %v\n%s", game, err, b)
			}
		}
	})
}
