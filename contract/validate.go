package contract

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"referee/internal/yamlerr"
)

// DecodeError is a state that does not decode: every problem found, each on
// its line, so that `referee check` lists them all at once.
type DecodeError struct {
	File     string // the file the state was read from, when known
	Problems []yamlerr.Problem
}

func (e *DecodeError) Error() string {
	out := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		loc := e.File
		if p.Line > 0 {
			if loc == "" {
				loc = fmt.Sprintf("line %d", p.Line)
			} else {
				loc = fmt.Sprintf("%s:%d", loc, p.Line)
			}
		}
		if loc == "" {
			out[i] = p.String()
		} else {
			out[i] = loc + ": " + p.String()
		}
	}
	return strings.Join(out, "\n")
}

// decodeProblems are the problems of a state's YAML decoding, each placed on
// its line and key in the document b.
func decodeProblems(err error, b []byte) *DecodeError {
	var root yaml.Node
	if yaml.Unmarshal(b, &root) != nil {
		return &DecodeError{Problems: yamlerr.Explain(err, nil, 0, "")}
	}
	return &DecodeError{Problems: yamlerr.Explain(err, &root, 0, "")}
}

// validate finds what a state decoded without a YAML error can still hold
// wrong, which would make every use of it fail: a master secret that is not
// 32 bytes of hex (every draw would fail), parameters that do not parse for
// their type.
func (e *Engine) validate(s *State) []yamlerr.Problem {
	var p []yamlerr.Problem
	if s.Secret != "" {
		if k, err := hex.DecodeString(s.Secret); err != nil || len(k) != 32 {
			p = append(p, yamlerr.Problem{Key: "secret", Msg: fmt.Sprintf("the master secret must be 32 bytes written as 64 hex digits, not %d characters%s; restore it from a copy of this state (a new one would contradict the published commitments)", len(s.Secret), hexHint(err))})
		}
	}
	for _, g := range e.list {
		gs := s.Games[g.Spec().ID]
		if gs == nil {
			continue
		}
		for name, v := range gs.Params {
			par, ok := e.param(g.Spec().ID, name)
			if !ok {
				continue // bind names it
			}
			if _, err := par.Validate(v); err != nil {
				msg := err.Error()
				if r, ok := AsRejection(err); ok {
					msg = r.Reason
				}
				p = append(p, yamlerr.Problem{Key: "games." + g.Spec().ID + ".params." + name, Msg: msg})
			}
		}
	}
	return p
}

// placeLines finds the line of each problem that names a key but no line,
// in the document b.
func placeLines(p []yamlerr.Problem, b []byte) {
	var root yaml.Node
	if yaml.Unmarshal(b, &root) != nil {
		return
	}
	for i := range p {
		if p[i].Line == 0 && p[i].Key != "" {
			p[i].Line = yamlerr.LineOf(&root, p[i].Key)
		}
	}
}

func hexHint(err error) string {
	var ie hex.InvalidByteError
	if errors.As(err, &ie) {
		return fmt.Sprintf(" (%q is not a hex digit)", byte(ie))
	}
	return ""
}
