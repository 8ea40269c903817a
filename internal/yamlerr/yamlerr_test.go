package yamlerr

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type limits struct {
	Max   int      `yaml:"max"`
	On    bool     `yaml:"on"`
	Lists []string `yaml:"lists"`
}

type conf struct {
	Name   string            `yaml:"name"`
	Limits limits            `yaml:"limits"`
	Params map[string]string `yaml:"params"`
	Items  []limits          `yaml:"items"`
}

// decode decodes doc strictly and explains the error.
func decode(doc string) []string {
	var c conf
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	err := dec.Decode(&c)
	if err == nil || errors.Is(err, io.EOF) {
		return nil
	}
	var root yaml.Node
	yaml.Unmarshal([]byte(doc), &root)
	var out []string
	for _, p := range Explain(err, &root, 0, "") {
		out = append(out, strconv.Itoa(p.Line)+" "+p.String())
	}
	return out
}

func TestExplain(t *testing.T) {
	cases := []struct{ doc, want string }{
		{"name: x\nlimits:\n  max: lots\n  on: maybe\n  colour: red\n",
			"3 limits.max: \"lots\" is not a whole number|4 limits.on: \"maybe\" is not true or false|5 limits.colour: no such key"},
		{"nmae: x\n", "1 nmae: no such key"},
		{"limits:\n  lists: a\nparams: [1]\n", "2 limits.lists: \"a\" is not a list|3 params: a list is not a mapping of keys to values"},
		{"items:\n  - max: 1\n  - max: x\n", "3 items[1].max: \"x\" is not a whole number"},
		{"name: [x\n", "1 did not find expected ',' or ']' (not valid YAML)"},
		{"name: a\nname: b\n", "2 name: given twice (first at line 1)"},
		{"limits: 3\n", "1 limits: \"3\" is not a mapping of keys"},
		// A flow mapping: several keys on one line, each named.
		{"limits: {max: lots, on: maybe, colour: red}\n",
			"1 limits.max: \"lots\" is not a whole number|1 limits.on: \"maybe\" is not true or false|1 limits.colour: no such key"},
		{"limits: {on: true, max: a long number}\n", "1 limits.max: \"a long ...\" is not a whole number"},
		{"limits: {max: 1, max: 2}\n", "1 limits.max: given twice (first at line 1)"},
		{"items: [{max: 1}, {on: true, max: x}]\n", "1 items[1].max: \"x\" is not a whole number"},
	}
	for _, c := range cases {
		got := strings.Join(decode(c.doc), "|")
		if got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.doc, got, c.want)
		}
		for _, goName := range []string{"yamlerr.", "int", "[]string", "map[", "!!"} {
			if strings.Contains(got, goName) && !strings.Contains(c.want, goName) {
				t.Errorf("%q: a Go or YAML type name %q in %s", c.doc, goName, got)
			}
		}
	}
}

func TestLineOf(t *testing.T) {
	doc := "a:\n  b:\n    c: 1\n  d: 2\n"
	var root yaml.Node
	yaml.Unmarshal([]byte(doc), &root)
	for path, want := range map[string]int{"a": 1, "a.b.c": 3, "a.d": 4, "a.x": 1, "z": 0} {
		if got := LineOf(&root, path); got != want {
			t.Errorf("LineOf(%s) = %d, want %d", path, got, want)
		}
	}
}

// FuzzExplain: any document's decoding error is explained without a panic,
// and never in Go's words.
func FuzzExplain(f *testing.F) {
	f.Add([]byte("name: x\nlimits: {max: y}\n"))
	f.Add([]byte("items: [{max: 1}, {on: 2}]\nbogus: 1\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		var c conf
		dec := yaml.NewDecoder(bytes.NewReader(doc))
		dec.KnownFields(true)
		err := dec.Decode(&c)
		if err == nil || errors.Is(err, io.EOF) {
			return
		}
		var root yaml.Node
		yaml.Unmarshal(doc, &root)
		for _, p := range Explain(err, &root, 0, "") {
			if strings.Contains(p.Msg, "yamlerr.") {
				t.Errorf("a Go type name in %q", p.Msg)
			}
		}
	})
}
