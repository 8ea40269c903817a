package contract

import (
	"bufio"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The sentence reader skips a regular expression when a cheap test shows
// it cannot match (parse.go: mayStartSentence, startsWord with mayCond,
// mayResolve, mayPerform and mayPreface, mayTrail, mayNotAction,
// alias.mayMatch; apply.go: maySpell; correct.go: hasCorrect; claims.go:
// mayClaim; preview.go: isPreviewLine; receipt.go: isHelpLine), and finds
// sentence ends, list numbers and the plain "I <action>" without one
// (sentenceEnds, isListNumber, findPerformative). These tests hold each
// shortcut to the regular expression it stands for (later.go: mayLater
// too).

// sentenceEndRE is what sentenceEnds finds.
var sentenceEndRE = regexp.MustCompile(`[.!?;]+(\s+|$)`)

// performerRE is what namesPerformer finds: the word I or we, by \b.
var performerRE = regexp.MustCompile(`(?i)\b(?:i|we)\b`)

// shortcutSeeds are sentences of the phrasing corpus and the cases where
// case folding takes a rune that is not ASCII (ſ for s, K for k).
func shortcutSeeds(t testing.TB) []string {
	seeds := []string{"I join the Life contest. I claim cell (12, 34) in Life.", "a.b. c", "..x", "end;", "No. 3 is it!?  Next",
		"I thank you", "I transfer 2 Vials thankſ", "I join alſo", "I join, thanK you", "I claim ſix cells", "I claim siX cells in the life conteſt",
		"I join wacKy world", "I join Steemfield", "I can't", "I 'll join", "ſee above", "Kelvin", "I. claim", "1. I join", "• I claim", "(a) I claim",
		"- I claim", "Having received no objections, I do it", "WITHOUT OBJECTION, I act", "If I own 3 Vials, I pay", "We join too",
		"I join as well", "I join right away", "I wonder", "I wondered", "I do not", "I don't", "I no longer", "I ask whether", "i'm in",
		"I  join  now  please", "I join immediately.", "\u00e9t\u00e9 I join", "I join thanks", "I join \u00fcnow",
		"I correct CoE #3: message <a@b> is void", "I CORRECT coe 2", "If\tI join, I claim", "If I join; I claim", "I,Bob, join",
		"We\u00a0join", "we,", "I", "i\tjoin", "Having received none; I act", "So I join", "So:\n I join", "I \u212Aorrect", "I corr\u0130ct", "I deny CoE 3: no", "- I hereby COE: x", "Claim of ERROR: y", "CoE on x: z", "I claim an error", "corre\xffct", "correc",
		"0i", "9i", "ai", "zi", "Ai", "Zi", "i_", "_we", "we9", "Wea", "Dubai.", "ski",
		"will0", "will9", "willa", "willz", "willA", "willZ", "will_", "If", "if", "",
		"Tomorrow, I join", "\u017foon I join", "ſome day we join", "On 1 Dec I join", "next ſunday I join", "In a couple of weeks; I join", "Coming Monday I join", "this coming friday, if I own 1 Vial, I pay", "Today - I join", "Re-sent\t-I join", "Tomorrow\u2014I join", "x-y -- we join", "Tonight at 8pm, I join", "Now I join", "So tomorrow I join", "tomorrow", "ſomeday", "next thurſday", "on 1 Dec", "I, tomorrow, join", "We , tonight at 8pm, join", "\n", "\n \t\nhelp life\nI join.", " \r\n\tpreview\r\n", "PreView!", " HELP  Life. ", "helpful", "help\u00a0me", "prevIEW:", "preview please", "a\n\nb", "eRRor", "CORRECT", "cOe"}
	f, err := os.Open("testdata/phrasing/sentences.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if cols := strings.Split(sc.Text(), "\t"); len(cols) >= 2 && !strings.HasPrefix(cols[0], "#") {
			seeds = append(seeds, cols[1])
		}
	}
	return seeds
}

// checkShortcuts fails when a shortcut disagrees with its regular
// expression on s.
func checkShortcuts(t *testing.T, s string) {
	t.Helper()
	var got [][]int
	for _, m := range sentenceEnds(nil, s) {
		got = append(got, []int{m[0], m[1]})
	}
	if want := sentenceEndRE.FindAllStringIndex(s, -1); len(got) != len(want) || len(got) > 0 && !cmp.Equal(got, want) {
		t.Errorf("sentenceEnds(%q) = %v, the regular expression finds %v", s, got, want)
	}
	if !mayStartSentence(s) && (startsAction().MatchString(s) || listItem().MatchString(s)) {
		t.Errorf("mayStartSentence(%q) is false, but it starts a sentence", s)
	}
	if got, want := namesPerformer(s), performerRE.MatchString(s); got != want {
		t.Errorf("namesPerformer(%q) = %v, the word I or we is there: %v", s, got, want)
	}
	if !mayStartList(s) && listMarker().MatchString(s) {
		t.Errorf("mayStartList(%q) is false, but listMarker matches", s)
	}
	if got, want := findPerformative(s), performative().FindStringSubmatch(s); !cmp.Equal(got, want) {
		t.Errorf("findPerformative(%q) = %q, performative finds %q", s, got, want)
	}
	for _, c := range []struct {
		may func(string) bool
		re  func() *regexp.Regexp
	}{{mayCond, condForm}, {mayResolve, resolveForm}, {mayPerform, performative}, {mayPreface, preface}, {mayLater, laterPreface}} {
		if got, want := startsWord(s, c.may, c.re), c.re().FindStringSubmatch(s); !cmp.Equal(got, want) {
			t.Errorf("startsWord(%q) = %q, the regular expression %s finds %q", s, got, c.re(), want)
		}
	}
	if !mayLater(s) && laterAlone().MatchString(s) {
		t.Errorf("mayLater(%q) is false, but laterAlone matches", s)
	}
	if !mayTrail(s) && trailingAdverb().MatchString(s) {
		t.Errorf("mayTrail(%q) is false, but trailingAdverb matches", s)
	}
	if !mayNotAction(s) && notAction().MatchString(s) {
		t.Errorf("mayNotAction(%q) is false, but notAction matches", s)
	}
	if got, want := isNotAction(s), notAction().MatchString(s); got != want {
		t.Errorf("isNotAction(%q) = %v, notAction matches: %v", s, got, want)
	}
	if got, want := hasCorrect(s), strings.Contains(strings.ToLower(s), "correct"); got != want {
		t.Errorf("hasCorrect(%q) = %v, strings.Contains of its lower case %v", s, got, want)
	}
	if got, want := isPreviewLine(s), previewRE().MatchString(s); got != want {
		t.Errorf("isPreviewLine(%q) = %v, previewRE matches: %v", s, got, want)
	}
	if got, want := isHelpLine(s), helpRE().MatchString(s); got != want {
		t.Errorf("isHelpLine(%q) = %v, helpRE matches: %v", s, got, want)
	}
	if got, want := firstLine(s), firstLineBySplit(s); got != want {
		t.Errorf("firstLine(%q) = %q, by strings.Split %q", s, got, want)
	}
	for _, w := range []string{"coe", "error", "correct", "help", "preview"} {
		if got, want := hasFoldASCII(s, w), strings.Contains(strings.ToLower(s), w); got != want {
			t.Errorf("hasFoldASCII(%q, %q) = %v, strings.Contains of its lower case %v", s, w, got, want)
		}
	}
	if !mayClaim(s) && (denyLine().MatchString(s) || claimLine().MatchString(s)) {
		t.Errorf("mayClaim(%q) is false, but a claim's or a denial's line matches", s)
	}
	if !hasCorrect(s) && correctHead().MatchString(s) {
		t.Errorf("hasCorrect(%q) is false, but correctHead matches", s)
	}
	if got, want := isListNumber(s), listNumberRE.MatchString(s); got != want {
		t.Errorf("isListNumber(%q) = %v, listNumberRE says %v", s, got, want)
	}
	if !maySpell(s) && spelled().MatchString(s) {
		t.Errorf("maySpell(%q) is false, but spelled matches", s)
	}
	lower, ascii := strings.ToLower(s), isASCII(s)
	for _, w := range []string{"life", "the life contest", "wacky world", "steemfield", "vials of primordial ooze"} {
		if a := compileAlias(w); !a.mayMatch(lower, ascii) && (a.trailing().MatchString(s) || a.anywhere.MatchString(lower)) {
			t.Errorf("alias %q: mayMatch(%q) is false, but the alias matches", w, s)
		}
	}
}

func TestReaderShortcuts(t *testing.T) {
	for _, s := range shortcutSeeds(t) {
		checkShortcuts(t, s)
		if rest := strings.TrimLeft(s, "Ii "); rest != s {
			checkShortcuts(t, rest) // what notAction and trailingAdverb read
		}
	}
}

// TestNotActionWords: every alternative of notAction, written out, passes
// mayNotAction, so that a word added to the expression and not to
// notActionWords fails here.
func TestNotActionWords(t *testing.T) {
	src := notAction().String()
	body := src[strings.Index(src, "^(")+2 : strings.LastIndex(src, `)\b`)]
	// The alternatives at the top level, split at the '|' outside groups.
	var alts []string
	depth, start := 0, 0
	for i, c := range body {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, body[start:i])
				start = i + 1
			}
		}
	}
	alts = append(alts, body[start:])
	if len(alts) < 50 {
		t.Fatalf("%d alternatives read from %s", len(alts), src)
	}
	// One text each alternative matches: \s+ a space, a group its first
	// choice, an optional group or letter left out.
	group := regexp.MustCompile(`\(\?:([^|)]*)[^)]*\)(\?)?`)
	for _, a := range alts {
		text := strings.ReplaceAll(a, `\s+`, " ")
		text = group.ReplaceAllStringFunc(text, func(g string) string {
			if strings.HasSuffix(g, "?") {
				return ""
			}
			return group.FindStringSubmatch(g)[1]
		})
		text = regexp.MustCompile(`\[(.)\]\?`).ReplaceAllString(text, "")
		for _, s := range []string{text + " it", strings.ToUpper(text) + " it"} {
			if !notAction().MatchString(s) {
				t.Fatalf("alternative %q: %q does not match notAction (the test's reading of it is wrong)", a, s)
			}
			if !mayNotAction(s) {
				t.Errorf("alternative %q: mayNotAction(%q) is false; add its first word to notActionWords", a, s)
			}
			if !isNotAction(s) {
				t.Errorf("alternative %q: isNotAction(%q) is false", a, s)
			}
		}
	}
	// A word of notActionWhole, in any case, followed by anything but a
	// letter, digit or _, is a match.
	for w := range notActionWhole {
		for _, s := range []string{w, w + " it", strings.ToUpper(w) + ".", strings.ToUpper(w[:1]) + w[1:] + ", then", w + "'s", w + "-x", w + "\u00e9"} {
			if !notAction().MatchString(s) {
				t.Errorf("%q of notActionWhole: %q does not match notAction", w, s)
			}
		}
		if isNotAction(w+"x") != notAction().MatchString(w+"x") || isNotAction(w+"_") != notAction().MatchString(w+"_") {
			t.Errorf("%q of notActionWhole: isNotAction differs from notAction on a longer word", w)
		}
	}
}

func FuzzReaderShortcuts(f *testing.F) {
	for _, s := range shortcutSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkShortcuts(t, s)
	})
}

// listNumberRE is what isListNumber reads: a list's number and the white
// space after it.
var listNumberRE = regexp.MustCompile(`^\s*\d{1,2}\.\s+$`)

// TestIsListNumber: isListNumber answers as listNumberRE does, on a table
// of edges and on 20,000 texts drawn as white space, digits, a dot and
// white space, each part perhaps left out or followed by something else.
func TestIsListNumber(t *testing.T) {
	inputs := []string{"", "1", "1.", "1. ", " 1. ", "12. ", "123. ", "1.  \t", "1.\n", "1.\r\n", "\t\f1.\v", "1. x", "1 . ", ".1 ", "a. ", "01. ",
		"99.\t", "1.. ", "1.,", "١. ", "1.\u00a0", "\u00a01. ", "  ", ". ", "1,2. ", "1\n. ", "\n\n12.\n"}
	pieces := []string{"1", "9", "0", "12", ".", " ", "\t", "\n", "\r", "\f", "\v", "a", ",", "\u00a0", "١", "-"}
	r := rand.New(rand.NewPCG(14, 2))
	spaces := []string{" ", "\t", "\n", "\r", "\f", "\v", "\u00a0"}
	for range 20000 {
		var b strings.Builder
		// white space, digits, a dot and white space, each perhaps
		// left out or followed by a piece of anything
		for range r.IntN(3) {
			b.WriteString(spaces[r.IntN(len(spaces))])
		}
		for range r.IntN(4) {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		if r.IntN(5) > 0 {
			b.WriteByte('.')
		}
		for range r.IntN(3) {
			b.WriteString(spaces[r.IntN(len(spaces))])
		}
		if r.IntN(4) == 0 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	yes := 0
	for _, s := range inputs {
		got, want := isListNumber(s), listNumberRE.MatchString(s)
		if got != want {
			t.Errorf("isListNumber(%q) = %v, listNumberRE says %v", s, got, want)
		}
		if want {
			yes++
		}
	}
	if yes < 100 {
		t.Errorf("only %d of the inputs are list numbers: the draws test too little", yes)
	}
}

// TestFindPerformative: findPerformative finds what performative finds,
// on the shortcut seeds and on 20,000 sentences drawn as "I" or another
// start, white space, perhaps one of performative's adverbs, and words.
func TestFindPerformative(t *testing.T) {
	check := func(s string) bool {
		t.Helper()
		got, want := findPerformative(s), performative().FindStringSubmatch(s)
		if !cmp.Equal(got, want) {
			t.Errorf("findPerformative(%q) = %q, performative finds %q", s, got, want)
		}
		return want != nil
	}
	for _, s := range shortcutSeeds(t) {
		check(s)
	}
	for _, s := range []string{"I", "I ", "I  ", "I x", "i x", "I\tx", "I\nx", "I \n x", "I x\ny", "I x\r", "I ,x", "I , Bob, join", "I hereby join",
		"I HEREBY join", "I hereby", "I now", "I nowhere", "I now,", "I do hereby join", "I do join", "I don't", "I thuſ join", "I thus\tjoin",
		"I additionally join", "I additionallyx join", "I \u212Aeep", "İ join", "ı join", "I\u00a0join", "I\vjoin", "I\xffjoin", "I \xff", "We join"} {
		check(s)
	}
	starts := []string{"I", "i", "We", "İ", "I,", "x"}
	spaces := []string{" ", "  ", "\t", "\n", "\r", "\f", "\v", "\u00a0", ""}
	words := []string{"join", "claim", "hereby", "HEREBY", "now", "Now,", "do", "do hereby", "thuſ", "too", "simply", ",", ", Bob,", "cell (1, 2)", "x\ny", "\xff", "additionally", "just"}
	r := rand.New(rand.NewPCG(14, 6))
	read := 0
	for range 20000 {
		var b strings.Builder
		b.WriteString(starts[r.IntN(len(starts))])
		for range 1 + r.IntN(4) {
			b.WriteString(spaces[r.IntN(len(spaces))])
			b.WriteString(words[r.IntN(len(words))])
		}
		if check(b.String()) {
			read++
		}
	}
	if read < 5000 {
		t.Errorf("only %d of the sentences are performatives: the draws test too little", read)
	}
}

// firstLineBySplit is firstLine as it was written, on strings.Split's lines.
func firstLineBySplit(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}
