// Package lazyre compiles a regular expression at its first use rather than
// at the program's start.
//
// A package-level regexp.MustCompile runs in every program that links the
// package, whether or not the expression is ever matched: referee replay
// paid for the corrections', the claims' and every game's sentence forms
// before reading its first message, though an archive may hold none of
// them. An expression of MustCompile is compiled once, by the first call of
// the function it returns (later calls cost an atomic load); a bad one
// panics there, as regexp.MustCompile would at the start.
//
// Input: the expression's text. Output: the compiled *regexp.Regexp. It
// does not decide which expressions are worth deferring: one used by every
// message gains nothing.
package lazyre

import (
	"regexp"
	"sync"
)

// MustCompile returns what compiles expr, as regexp.MustCompile does, at
// its first call, and returns the same *regexp.Regexp at every call.
func MustCompile(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
