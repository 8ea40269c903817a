package contract_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"referee/contract"
	"referee/contract/contracttest"
)

// indentedTexts begin with a space and hold a line break: the YAML encoder
// writes each as a block scalar with an indentation indicator, which it
// misplaces in an item of a list when it indents by 4 (codec_text.go).
var indentedTexts = []string{
	" a\nb",
	"  a\nb",
	"  a\n  b",
	"    a\n    b",
	"      deep\n      lines\n",
	" \n",
	"  \n  b",
	" a\n\n\n",
	"   quoted from a mail:\n   > - item\n   > # heading\n",
	" \u2028 a\nb",
}

// separatedTexts hold a line feed and a line or paragraph separator
// within a line: the YAML encoder writes the separator as it is in a
// block scalar, and the decoder reads it as a line break, so the rest of
// the line is not indented with the block's other lines where a game's
// section is indented under "games:" (codec_text.go).
var separatedTexts = []string{
	"a\u2028b\nc",
	"x\n\u2028",
	"x\ny\u2029",
	"a\u2028\u2028b\nc",
	"a\n\u2029 b",
	"ſ K é 漢字\n\u2028",
	"  a\u2028  b\n  c",
}

// readsBack: b is YAML, and each text of v (but the empty ones and those
// not UTF-8, written in base64) is one of its scalars, as many times as v
// holds it.
func readsBack(b []byte, v any) error {
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return err
	}
	have := map[string]int{}
	var scalars func(*yaml.Node)
	scalars = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			have[n.Value]++
		}
		for _, c := range n.Content {
			scalars(c)
		}
	}
	scalars(&n)
	want := map[string]string{}
	texts(reflect.ValueOf(v), "", want)
	need := map[string]int{}
	for _, w := range want {
		if w != "" && utf8.ValidString(w) {
			need[w]++
		}
	}
	for w, k := range need {
		if have[w] < k {
			return fmt.Errorf("%q is written %d times, not %d", w, have[w], k)
		}
	}
	return nil
}

// textStates are toy states with their texts set to each of texts, then,
// each, with an indented text where no list holds it (the last message's
// ID, a held message's text, a game's contestmaster) and every other text
// one that begins with a line break (a text written through a node).
func textStates(t *testing.T, texts []string) map[string]*contract.State {
	out := map[string]*contract.State{}
	for _, text := range texts {
		out[fmt.Sprintf("all %q", text)] = textState(t, text)
	}
	for _, text := range indentedTexts {
		s := textState(t, "")
		s.LastMsgID = text
		for _, h := range s.Held {
			h.Message.Text = text
		}
		for _, g := range s.Games {
			g.Contestmaster = text
		}
		out[fmt.Sprintf("breaking, %q out of lists", text)] = s
	}
	return out
}

// TestIndentedTextsWrittenAsBefore: every text is read back from the
// state file's writer and the state hash's; and where the writers as they
// were read back every text of a state (the texts that begin with a line
// break or a tab, an indented text where no list holds it, the texts the
// state hash's tests try), they write the same bytes as before, so that
// the state files and the state hashes of those states are as they were.
func TestIndentedTextsWrittenAsBefore(t *testing.T) {
	corpus := append(append([]string{"plain", "a\nb", "ends with spaces  \nx"}, leadingBreaks...), indentedTexts...)
	corpus = append(corpus, " leading space", "trailing space ", "two\nlines", "\nstarts with one", "tab\there", "null", "# hash", "- 12", "a: b")
	corpus = append(corpus, separatedTexts...)
	corpus = append(corpus, "a\u2028b", "a\u2028\nb", "a\nb\u2029\n", "a\u2028\u2028\nb", "\u2028 a", "a\u2028 b\nc")
	same := map[int]int{}
	for name, s := range textStates(t, corpus) {
		for _, v := range []struct {
			what string
			v    any
		}{{"state", s}, {"hashed", contract.Hashed(s)}} {
			for _, indent := range []int{2, 4} {
				got, err := contract.WriteText(v.v, indent)
				if err != nil {
					t.Errorf("%s, %s, indent %d: %v", name, v.what, indent, err)
					continue
				}
				if err := readsBack(got, v.v); err != nil {
					t.Errorf("%s, %s, indent %d: %v\n%s", name, v.what, indent, err, got)
				}
				before, err := contract.WriteTextBefore(v.v, indent)
				if err != nil || readsBack(before, v.v) != nil {
					continue // the writer as it was lost a text
				}
				same[indent]++
				if !bytes.Equal(got, before) {
					t.Errorf("%s, %s, indent %d: written\n%s\nwas\n%s", name, v.what, indent, got, before)
				}
			}
		}
	}
	// A game's section as the state file writes it, indented under
	// "games:".
	for name, s := range textStates(t, corpus) {
		for id, g := range s.Games {
			got, before, err := contract.WriteSection(g)
			if err != nil {
				t.Fatalf("%s, game %s: %v", name, id, err)
			}
			v := map[string]map[string]*contract.GameState{"games": {"g": g}}
			if err := readsBack(got, v); err != nil {
				t.Errorf("%s, game %s: %v\n%s", name, id, err, got)
			}
			if readsBack(before, v) != nil {
				continue
			}
			same[0]++
			if !bytes.Equal(got, before) {
				t.Errorf("%s, game %s: written\n%s\nwas\n%s", name, id, got, before)
			}
		}
	}
	if same[0] < len(corpus) {
		t.Errorf("%d sections compared, want %d or more", same[0], len(corpus))
	}
	// The texts of lists a state written indented by 2 always read back;
	// indented by 4, only the states without an indented text (and some
	// with one out of lists).
	if n := 2 * len(corpus); same[2] < n || same[4] < n-2*len(indentedTexts) {
		t.Errorf("%d states compared indented by 2 (want %d or more), %d by 4", same[2], n, same[4])
	}
}

// TestHashedTextIsYAML: the text a state hash covers is YAML that reads
// back every text of the state, and of a game's section, whatever list of
// it holds one that begins with a space and a line break.
func TestHashedTextIsYAML(t *testing.T) {
	at := contracttest.At(t, "2026-12-01T11:00:00Z")
	for _, text := range indentedTexts {
		s := textState(t, text)
		for _, game := range []string{"", "toy"} {
			b, err := contract.HashedText(s, game, 3, at)
			if err != nil {
				t.Fatalf("%q, game %q: %v", text, game, err)
			}
			v := contract.Hashed(s)
			if game != "" {
				v = s.Games[game]
			}
			if err := readsBack(b, v); err != nil {
				t.Errorf("%q, game %q: %v\n%s", text, game, err, b)
			}
		}
	}
}

// TestTextIndentedRoundTrip: a state whose every text (in every list,
// map and game's data) begins with a space and holds a line break is
// saved and loaded back identical, its state hash unchanged, by Encode and
// by an Encoder's kept text alike.
func TestTextIndentedRoundTrip(t *testing.T) {
	for _, text := range indentedTexts {
		checkTextRoundTrip(t, textState(t, text))
	}
}

// TestTextSeparatedRoundTrip: a state whose every text holds a line
// separator within a line, in a game's section and elsewhere, is saved
// and loaded back identical.
func TestTextSeparatedRoundTrip(t *testing.T) {
	for _, text := range separatedTexts {
		checkTextRoundTrip(t, textState(t, text))
	}
}

// deepTexts holds texts in lists and maps at several depths, as the state
// does (a list of a map, a list of a map of a map, a list of a list).
type deepTexts struct {
	A []string             `yaml:"a"`
	B struct{ C []string } `yaml:"b"`
	D []struct {
		E string   `yaml:"e"`
		F []string `yaml:"f"`
	} `yaml:"d"`
	G [][]string          `yaml:"g"`
	H map[string][]string `yaml:"h"`
}

// TestMisplacedTextsEveryDepth: yaml.Marshal's text (the state hash's) of
// a value holding a text that begins with a space and holds a line break,
// in lists and maps nested in any order, and in several of them at once,
// reads back every text.
func TestMisplacedTextsEveryDepth(t *testing.T) {
	text := "  a\n  b"
	var each []deepTexts
	var v deepTexts
	v.A = []string{text}
	each = append(each, v)
	v = deepTexts{}
	v.B.C = []string{text}
	each = append(each, v)
	v.A = []string{text} // two depths at once
	each = append(each, v)
	v = deepTexts{}
	v.D = append(v.D, struct {
		E string   `yaml:"e"`
		F []string `yaml:"f"`
	}{E: text, F: []string{text, "x"}})
	each = append(each, v)
	v = deepTexts{G: [][]string{{text}, {"x", text}}, H: map[string][]string{text: {text}}}
	each = append(each, v)
	for i, v := range each {
		b, err := contract.WriteText(v, 4)
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		if err := readsBack(b, v); err != nil {
			t.Errorf("value %d: %v\n%s", i, err, b)
		}
	}
}
