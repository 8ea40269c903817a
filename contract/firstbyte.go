package contract

import (
	"regexp/syntax"
	"unicode/utf8"
)

// A verb's regular expression is anchored at the start of the action and
// begins with its verb ("claim", "join", "transfer"), so most verbs cannot
// match a given action from its first byte on; yet running one costs
// microseconds (the backtracker clears a bit per instruction and byte of
// the text first). firstBytes is the set of bytes an expression's match
// can begin with, read from its compiled program, so that match skips the
// verbs an action's first byte rules out.

// firstBytes is the set of first bytes of the texts a regular expression
// anchored at the start can match: ascii[c] for an ASCII byte c, nonASCII
// for every byte of a rune past ASCII. A nil *firstBytes is every byte,
// and the empty text.
type firstBytes struct {
	ascii    [utf8.RuneSelf]bool
	nonASCII bool
}

// firstBytesOf reads the program of the expression expr, as
// regexp.Compile parses and compiles it (its error is regexp.Compile's):
// from its start, through the instructions that consume nothing
// (captures, alternations and assertions, each taken as passing), to the
// first that consumes a rune. Nil when expr may match the empty text, is
// not anchored at the start, or its program cannot be read as expected.
func firstBytesOf(expr string) (*firstBytes, error) {
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, err
	}
	if prog.StartCond()&syntax.EmptyBeginText == 0 {
		return nil, nil
	}
	fb := &firstBytes{}
	seen := make([]bool, len(prog.Inst))
	var walk func(pc uint32) bool
	walk = func(pc uint32) bool {
		if seen[pc] {
			return true
		}
		seen[pc] = true
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			return walk(in.Out) && walk(in.Arg)
		case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
			return walk(in.Out)
		case syntax.InstFail:
			return true
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			for c := range utf8.RuneSelf {
				if in.MatchRune(rune(c)) {
					fb.ascii[c] = true
				}
			}
			// Past ASCII: any rune at all, a range reaching it, or a fold
			// (k to K, s to ſ) may take one.
			if in.Op == syntax.InstRuneAny || in.Op == syntax.InstRuneAnyNotNL || syntax.Flags(in.Arg)&syntax.FoldCase != 0 {
				fb.nonASCII = true
			}
			for _, r := range in.Rune {
				if r >= utf8.RuneSelf {
					fb.nonASCII = true
				}
			}
			return true
		}
		return false // InstMatch: the empty text matches
	}
	if !walk(uint32(prog.Start)) {
		return nil, nil
	}
	return fb, nil
}

// mayBegin reports whether a text's first byte is one the expression's
// match can begin with (not whether it matches).
func (fb *firstBytes) mayBegin(text string) bool {
	if fb == nil {
		return true
	}
	if text == "" {
		return false
	}
	if c := text[0]; c < utf8.RuneSelf {
		return fb.ascii[c]
	}
	return fb.nonASCII
}
