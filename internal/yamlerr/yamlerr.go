// Package yamlerr turns the errors of yaml.v3's strict decoding into problems
// a person can act on: the line, the key (its dotted path in the document),
// and what the key wants, in words ("a whole number", "a list") rather than
// the Go type it is decoded into.
//
// Input: a decoding error and the document's node tree. Output: one Problem
// per fault, in the order yaml.v3 found them. It does not read files or decide
// what is a fault.
package yamlerr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"referee/internal/lazyre"
)

// Problem is one fault of a YAML document.
type Problem struct {
	Line int    // 1-based; 0 when unknown
	Key  string // dotted path ("limits.max_text_bytes", "players[2].name"); "" when unknown
	Msg  string
}

// String is "key: msg", or msg alone.
func (p Problem) String() string {
	if p.Key == "" {
		return p.Msg
	}
	return p.Key + ": " + p.Msg
}

var (
	lineRE    = lazyre.MustCompile(`(?s)^(?:yaml: )?line (\d+): (.*)$`)
	unknownRE = lazyre.MustCompile("(?s)^field (.*) not found in type ")
	goTypeRE  = lazyre.MustCompile(` (?:in type|into) \S+`)
	typeRE    = lazyre.MustCompile("(?s)^cannot unmarshal (.*?)(?: `(.*)`)? into (\\S+)$")
	dupRE     = lazyre.MustCompile(`^mapping key "(.*)" already defined at line (\d+)$`)
)

// Explain turns err, from decoding the document whose node is root, into
// problems. The error's line numbers are offset by offset (for a part of a
// document decoded on its own) and its key paths found in root under prefix.
// root may be nil (then no key is named).
func Explain(err error, root *yaml.Node, offset int, prefix string) []Problem {
	var msgs []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var out []Problem
	for _, m := range msgs {
		out = append(out, explain(m, root, offset, prefix))
	}
	return out
}

func explain(m string, root *yaml.Node, offset int, prefix string) Problem {
	sub := lineRE().FindStringSubmatch(m)
	if sub == nil {
		return Problem{Msg: goTypeRE().ReplaceAllString(strings.TrimPrefix(m, "yaml: "), "")}
	}
	line, _ := strconv.Atoi(sub[1])
	line += offset
	rest := sub[2]
	key := join(prefix, KeyAt(root, line))
	// A flow mapping ("limits: {max: lots, on: maybe}") puts several keys
	// on one line: the key the error names, or the value it quotes, tells
	// them apart.
	named := func(name, value string) string {
		if k := keyOnLine(root, line, name, value); k != "" {
			return join(prefix, k)
		}
		return key
	}
	switch {
	case unknownRE().MatchString(rest):
		u := unknownRE().FindStringSubmatch(rest)
		return Problem{Line: line, Key: named(u[1], ""), Msg: "no such key"}
	case typeRE().MatchString(rest):
		t := typeRE().FindStringSubmatch(rest)
		if t[2] != "" {
			key = named("", t[2])
		}
		got := map[string]string{"!!map": "a mapping", "!!seq": "a list", "!!null": "empty"}[t[1]]
		if got == "" {
			got = strconv.Quote(t[2])
		}
		return Problem{Line: line, Key: key, Msg: fmt.Sprintf("%s is not %s", got, Want(t[3]))}
	case dupRE().MatchString(rest):
		d := dupRE().FindStringSubmatch(rest)
		return Problem{Line: line, Key: named(d[1], ""), Msg: fmt.Sprintf("given twice (first at line %s)", d[2])}
	}
	rest = goTypeRE().ReplaceAllString(rest, "")
	if key == "" {
		return Problem{Line: line, Msg: rest + " (not valid YAML)"}
	}
	return Problem{Line: line, Key: key, Msg: rest}
}

func join(prefix, key string) string {
	switch {
	case prefix == "":
		return key
	case key == "" || strings.HasPrefix(key, "["):
		return prefix + key
	}
	return prefix + "." + key
}

// Want says in words what a Go type, as yaml.v3 names it, wants.
func Want(goType string) string {
	switch goType {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "text"
	case "time.Time":
		return "a time such as 2026-12-01T00:00:00Z"
	case "time.Duration":
		return "a duration such as 48h"
	}
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping of keys to values"
	}
	return "a mapping of keys"
}

// content is the node a document holds (n itself if n is no document),
// nil for none.
func content(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		return n.Content[0]
	}
	return n
}

// KeyAt is the dotted path of the key (or list item) on line in the tree
// under n, "" when there is none.
func KeyAt(n *yaml.Node, line int) string {
	if n = content(n); n == nil {
		return ""
	}
	path, _ := keyAt(n, line, "")
	return path
}

func keyAt(n *yaml.Node, line int, path string) (string, bool) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := join(path, k.Value)
			if k.Line == line {
				return p, true
			}
			if got, ok := keyAt(v, line, p); ok {
				return got, true
			}
		}
	case yaml.SequenceNode:
		for i, v := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			if got, ok := keyAt(v, line, p); ok {
				return got, true
			}
			if v.Line == line {
				return p, true
			}
		}
	case yaml.ScalarNode:
		if n.Line == line {
			return path, true
		}
	}
	return "", false
}

// keyOnLine is the dotted path of the first key on line under n named name
// (any name when "") whose value is the scalar value (any value when ""; a
// value yaml.v3 cut short, "10 minut...", is matched by its start), "" when
// there is none.
func keyOnLine(n *yaml.Node, line int, name, value string) string {
	if n = content(n); n == nil {
		return ""
	}
	fits := func(v *yaml.Node) bool {
		if value == "" {
			return true
		}
		if v.Kind != yaml.ScalarNode {
			return false
		}
		if start, cut := strings.CutSuffix(value, "..."); cut && strings.HasPrefix(v.Value, start) {
			return true
		}
		return v.Value == value
	}
	var walk func(n *yaml.Node, path string) string
	walk = func(n *yaml.Node, path string) string {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := join(path, k.Value)
				if k.Line == line && (name == "" || k.Value == name) && fits(v) {
					return p
				}
				if got := walk(v, p); got != "" {
					return got
				}
			}
		case yaml.SequenceNode:
			for i, v := range n.Content {
				if got := walk(v, fmt.Sprintf("%s[%d]", path, i)); got != "" {
					return got
				}
			}
		}
		return ""
	}
	return walk(n, "")
}

// LineOf is the line of the key at the dotted path under n (mappings only),
// 0 when there is none.
func LineOf(n *yaml.Node, path string) int {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, k := range strings.Split(path, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return line
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				line, next = n.Content[i].Line, n.Content[i+1]
				break
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}
