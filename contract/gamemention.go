package contract

import "strings"

// A game named at the end of an action ("I claim cell (1, 2) in Life",
// "... (Rumble)", "... for the Life contest") is found by reading the
// action back from its end, when the game's name is plain (ASCII letters
// and single spaces) and the action is ASCII, rather than by the alias's
// trailing expression (compileAlias), which is tried at every position of
// the action. mentionAt finds the position the expression finds;
// TestMentionAt and FuzzMentionAt hold it to it.

// mentionBefore are the words a mention may have before a game's name
// ("in Life"), and mentionAfter those after it ("Life contest"): the
// trailing expression's (compileAlias) and mentionAt's.
var (
	mentionBefore = []string{"in", "for", "of", "on", "to", "at", "from", "with"}
	mentionAfter  = []string{"contest", "game", "contract"}
)

// isPlainName reports whether mentionAt can look for a game's name: ASCII
// letters and single spaces, a letter at each end.
func isPlainName(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i] | 0x20
		if c >= 'a' && c <= 'z' {
			continue
		}
		if w[i] != ' ' || i == 0 || i == len(w)-1 || w[i-1] == ' ' {
			return false
		}
	}
	return w != ""
}

// mentionAt is where a mention of the game named w (isPlainName) begins at
// the end of s, an ASCII text, or -1: what
// compileAlias(w).trailing().FindStringIndex(s) gives as its start, the
// leftmost position from which the rest of s is, in any case, white space,
// an optional "," or "(", white space, one of mentionBefore (at a word's
// start), white space, an optional "the" and white space, the name, an
// optional white space and one of mentionAfter, white space and an
// optional ")".
func mentionAt(s, w string) int {
	end := len(s)
	if end > 0 && s[end-1] == ')' {
		end--
	}
	end = spaceStart(s, end)
	best := mentionLead(s, end, w)
	for _, k := range mentionAfter {
		if ke := end - len(k); ke >= 0 && strings.EqualFold(s[ke:end], k) {
			if e := spaceStart(s, ke); e < ke {
				if i := mentionLead(s, e, w); i >= 0 && (best < 0 || i < best) {
					best = i
				}
			}
			break // the words of mentionAfter do not end one another
		}
	}
	return best
}

// mentionLead is where a mention whose name w ends at e begins, or -1:
// the leftmost start of what may come before the name.
func mentionLead(s string, e int, w string) int {
	ws := e - len(w)
	if ws < 0 || !strings.EqualFold(s[ws:e], w) {
		return -1
	}
	best := -1
	keep := func(p int) {
		if i := mentionOpen(s, p); best < 0 || i < best {
			best = i
		}
	}
	// r: where what comes before "the" (or the name, without "the") ends.
	ends := []int{ws}
	if t := spaceStart(s, ws); t < ws && t >= 3 && strings.EqualFold(s[t-3:t], "the") {
		ends = append(ends, t-3)
	}
	for _, r := range ends {
		run := spaceStart(s, r)
		// No word before: a word's edge anywhere in the white space.
		if wordEdge(s, run) || wordEdge(s, r) {
			keep(run)
		}
		for _, pw := range mentionBefore {
			if p := run - len(pw); p >= 0 && strings.EqualFold(s[p:run], pw) && wordEdge(s, p) {
				keep(p)
			}
		}
	}
	return best
}

// mentionOpen is the leftmost start of white space, an optional "," or "("
// and white space that end at p.
func mentionOpen(s string, p int) int {
	i := spaceStart(s, p)
	if i > 0 && (s[i-1] == ',' || s[i-1] == '(') {
		i = spaceStart(s, i-1)
	}
	return i
}

// spaceStart is the start of the white space (isSpace) that ends at e.
func spaceStart(s string, e int) int {
	for e > 0 && isSpace(s[e-1]) {
		e--
	}
	return e
}

// wordEdge reports whether \b holds at p, a position of s before the name
// mentionLead reads: a word byte on one side only.
func wordEdge(s string, p int) bool {
	return (p > 0 && isWordByte(s[p-1])) != isWordByte(s[p])
}
