package contract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"referee/internal/lazyre"
)

// Sentence is one candidate action found in a message's text.
type Sentence struct {
	Text   string // as written, whitespace folded
	Offset int    // byte offset of its start in the text
}

var (
	// Lines that start a new sentence even when the previous line did not end one.
	startsAction = lazyre.MustCompile(`(?i)^(?:(?:[-*•]|\d{1,2}[.)])\s+)?(i|we|if|having|with|without)\b`)
	// A list item ("- ", "* ", "1. ", "2) ") always starts a new sentence.
	listItem = lazyre.MustCompile(`^(?:[-*•]|\d{1,2}[.)])\s+\S`)
)

// Sentences splits unquoted text into sentences: paragraphs are separated by blank
// lines; a line that begins like an action ("I ...", "If ...") starts a new
// sentence; other lines continue the sentence before them; inside a chunk,
// sentences end at . ! ? or ; followed by a space (so "(12, 34)" and "1.5" stay
// whole). The Subject is never part of the text (G3).
func Sentences(text string) []Sentence {
	// The chunks are kept by value, cur indexing the last: a message's
	// sentences cost a few slices, not an object per chunk and per end.
	var chunks []chunk
	cur := -1
	off := 0
	for rest := text; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		lineOff := off
		off += len(line)
		t := strings.TrimSpace(line)
		if t == "" {
			cur = -1
			continue
		}
		lead := len(line) - len(strings.TrimLeftFunc(line, unicode.IsSpace))
		if cur < 0 || endsSentence(chunks[cur].text()) || mayStartSentence(t) && (startsAction().MatchString(t) || listItem().MatchString(t)) {
			chunks = append(chunks, chunk{off: lineOff + lead})
			cur = len(chunks) - 1
		}
		chunks[cur].add(t)
	}
	if len(chunks) == 0 {
		return nil
	}
	// A chunk has at most one sentence more than it has stops: the
	// sentences of most texts fit in len(chunks) plus the text's stops.
	// The stops counted are capped: a run of them ends one sentence, and
	// a text of a million dots is one sentence, not room for a million.
	out := make([]Sentence, 0, len(chunks)+min(countStops(text), maxStopsAhead))
	var buf [16][2]int
	for i := range chunks {
		c := &chunks[i]
		s := c.text()
		start := 0
		for _, m := range sentenceEnds(buf[:0], s) {
			// Do not split "No. 3" style abbreviations before a digit, nor a
			// list number ("1. I join") from its item, nor a time phrase
			// ending "a.m." from the action it puts off. A stop that ends the
			// chunk ends its sentence (startsNewSentence of nothing).
			if !startsNewSentence(s[m[1]:]) || isListNumber(s[start:m[1]]) || timeOnly(s[start:m[1]]) {
				continue
			}
			if t := strings.TrimSpace(s[start:m[1]]); t != "" {
				out = append(out, Sentence{Text: t, Offset: c.off + start})
			}
			start = m[1]
		}
		if t := strings.TrimSpace(s[start:]); t != "" {
			out = append(out, Sentence{Text: t, Offset: c.off + start})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// countStops is how many bytes of s are stops (isStop).
// maxStopsAhead caps the sentences Sentences makes room for from the
// text's stops before it reads them (most actions have a few; append grows
// the rest).
const maxStopsAhead = 64

func countStops(s string) int {
	return strings.Count(s, ".") + strings.Count(s, "!") + strings.Count(s, "?") + strings.Count(s, ";")
}

// chunk is lines of a paragraph read as one run of text, joined by a
// space, and the offset of its first: most are one line, which is the
// text itself, no copy.
type chunk struct {
	one string           // the text while it is one line
	b   *strings.Builder // the text from its second line on
	off int
}

// joinChunks: every chunk is built by joining, even of one line (a test
// compares).
var joinChunks = false

func (c *chunk) text() string {
	if c.b != nil {
		return c.b.String()
	}
	return c.one
}

// add adds a line, not empty, to the chunk.
func (c *chunk) add(t string) {
	if c.b == nil && c.one == "" && !joinChunks {
		c.one = t
		return
	}
	if c.b == nil {
		c.b = new(strings.Builder)
		c.b.WriteString(c.one)
	}
	if c.b.Len() > 0 {
		c.b.WriteByte(' ')
	}
	c.b.WriteString(t)
}

// isListNumber reports whether s is a list's number and the white space
// after it ("1. ", " 12.\t"): white space, one or two ASCII digits, a dot,
// and white space to the end (TestIsListNumber holds it to
// `^\s*\d{1,2}\.\s+$`).
func isListNumber(s string) bool {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	d := i
	for i < len(s) && i-d < 2 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == d || i+1 >= len(s) || s[i] != '.' { // a third digit is not a dot
		return false
	}
	for i++; i < len(s); i++ {
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

// endsSentence reports whether a chunk's text so far ends in . ! ? ; or :
// (all ASCII, so the last byte tells).
func endsSentence(s string) bool {
	return s != "" && strings.IndexByte(".!?;:", s[len(s)-1]) >= 0
}

// mayStartSentence reports whether a line can match startsAction or
// listItem, which need it to start with a list mark (- * • or a digit) or
// with the first letter of startsAction's words (i, we, if, having, with,
// without), in either case: no other rune folds to i, w or h.
func mayStartSentence(t string) bool {
	if t == "" {
		return false
	}
	switch t[0] {
	case '-', '*', 0xe2, 'i', 'I', 'w', 'W', 'h', 'H':
		return true
	}
	return t[0] >= '0' && t[0] <= '9'
}

// sentenceEnds finds where sentences end in s: each run of . ! ? ; followed
// by white space (taken with it) or by the end of s, as [start, end) pairs;
// the regular expression [.!?;]+(\s+|$) without its cost, appended to dst.
func sentenceEnds(dst [][2]int, s string) [][2]int {
	out := dst
	next := byteFinder{set: stops}
	for i := 0; i < len(s); {
		if i = next.from(s, i); i == len(s) {
			break
		}
		j := i
		for j < len(s) && isStop(s[j]) {
			j++
		}
		k := j
		for k < len(s) && isSpace(s[k]) {
			k++
		}
		if k > j || j == len(s) {
			out = append(out, [2]int{i, k})
		}
		i = k
	}
	return out
}

func isStop(c byte) bool { return c == '.' || c == '!' || c == '?' || c == ';' }

// stops are the bytes isStop holds.
const stops = ".!?;"

// byteFinder finds the bytes of a set of four in a text from left to
// right by strings.IndexByte of each, its place kept until passed: a text
// costs each byte's scan once, not a test of every byte.
type byteFinder struct {
	set  string // four bytes
	at   [4]int // each byte's next place, len(s) for none
	init bool   // at is found
}

// from is the place of the first byte of the set in s at or after i,
// len(s) when there is none; i never decreases from one call to the next.
func (f *byteFinder) from(s string, i int) int {
	first := len(s)
	for k := range len(f.at) {
		if !f.init || f.at[k] < i {
			f.at[k] = len(s)
			if j := strings.IndexByte(s[i:], f.set[k]); j >= 0 {
				f.at[k] = i + j
			}
		}
		first = min(first, f.at[k])
	}
	f.init = true
	return first
}

// isSpace is the regular expressions' \s: ASCII white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// startsNewSentence reports whether rest, what follows a stop, begins a new
// sentence: a capital, a brace or a quotation mark, or nothing at all.
func startsNewSentence(rest string) bool {
	for _, r := range rest {
		return unicode.IsUpper(r) || r == '{' || r == '"'
	}
	return true
}

// Performative is a sentence read as an action: the action text with its
// performative removed, the condition of a conditional, and the kind.
type Performative struct {
	Kind   string // "act", "intent", "not" (future tense, question, hypothetical)
	Action string // e.g. "claim cell (12, 34) in Life"
	Cond   string // "I own more than 5 Vials" for "If I own more than 5 Vials, I ..."
	// Method, N and Notice describe an intent ("without objection" -> objection, 1).
	Method string
	N      int
	Notice string
	// Resolves is set for "Having received no objections, I ..." style forms.
	Resolves bool
	// Whole is the action with the condition written after it, when one
	// was read off it ("transfer 2 Vials to Bob if I own more than 5
	// Vials"), and WholeCond the condition without it: a verb that takes a
	// text (Verb.Text) reads the action whole.
	Whole, WholeCond string
	// Later is the time phrase before the performative ("Tomorrow",
	// "next week", "on Friday"), or after the action with LaterAfter
	// ("... to Bob tomorrow"): the action is put off, and performed only
	// when the phrase names the day it arrives (later.go, G3).
	Later      string
	LaterAfter bool
	// Remark is a remark after a comma at the end of the action, read
	// off it (", as discussed", ", because she asked"): Whole is then the
	// action with it, which a verb that takes a text reads whole, and a
	// transfer's recipient is read with it (entityBeforeAside).
	Remark string
	// We is set for an action written "We ...": a group's, as Agora
	// writes it, and as often a sentence of talk ("We celebrate in
	// Life"), which no reply answers when no verb reads it.
	We bool
}

var (
	condForm     = lazyre.MustCompile(`(?i)^if\s+(.+?),\s*(?:then\s+)?(i\b.*)$`)
	resolveForm  = lazyre.MustCompile(`(?i)^(?:having\s+received\s+[^,]+|having\s+given\s+[^,]+|with\s+(?:\d+\s+)?support|without\s+(?:\d+\s+)?objections?|with\s+agoran\s+consent|with\s+notice)\s*,\s*(i\b.*)$`)
	performative = lazyre.MustCompile(`(?i)^(?:i|we)\s*(?:,\s*[^,]{1,40},)?\s+(?:(?:hereby|now|also|too|therefore|then|thus|hence|additionally|officially|formally|simply|just|do\s+hereby)\s+)*(.+)$`)
	notAction    = lazyre.MustCompile(`(?i)^(will|shall|would|could|should|might|may|must|can|cannot|can't|won't|wouldn't|don't|do not|didn't|did|does|doesn't|never|not|no longer|refuse|decline|'ll|'d|think|guess|wonder|hope|want|wish|plan|believe|suppose|feel|am|was|were|have|has|had|'m|'ve|agree|disagree|like|love|see|know|mean|suggest that|propose that|was going|expect|intended|need|needed|forgot|remember|recall|tried|try|meant|prefer|imagine|assume|doubt|regret|used to|keep meaning|'s|is|are|be|being|been|say|said|wrote|write|read|thought|heard|reckon|figure|gather|understand|agreed|asked|ask\s+(?:whether|if|why|how|what)|wonder(?:ed)?|get|got|am going|was going|'re)\b`)
	// pastTense is an action written in the past: "I joined", "I gave".
	pastTense = lazyre.MustCompile(`(?i)^(?:[a-z]+ed|took|gave|sent|paid|made|left|won|lost|went|spent|sold|bought|held|chose|came|told|began|drew|ran|threw|grabbed|handed|became)\b`)
	presentEd = lazyre.MustCompile(`(?i)^(?:need|proceed|exceed|succeed|feed|seed|heed|speed|breed|bleed|shred|embed|shed)\b`)
	// preface is what people write before the performative: "For the
	// record, I ...", "So: I ...", "In satisfaction of my pledge, I ...".
	// A dash may end it too ("Today - I ...").
	preface = lazyre.MustCompile(`(?i)^([^.!?;:,]{1,60}?)(?:\s*[,:;]\s*(?:[-–—]+\s*)?|\s+-+\s*|\s*[–—]+\s*)(?:(?:and|so|also|then|but)\s+)?((?:i|we)\b.*)$`)
	// prefaceNot marks a preface after which the "I" sentence is not an
	// action: time clauses the referee cannot decide ("When Bob joins, I
	// ..."), reported speech ("Alice said: I ..."), and the past.
	prefaceNot = lazyre.MustCompile(`(?i)(?:^(?:when|whenever|once|unless|until|after\s+(?:\w+\s+)?(?:join|leave|send|post|answer|reply|does|do|has|have|is|are)\w*|before|as\s+soon\s+as|in\s+case|provided|assuming|suppose|supposing|if|what\s+if|maybe|perhaps|hypothetically|in\s+theory|imagine|say|otherwise|or|but\s+if|and\s+if|ideally)\b|\b(?:said|says|wrote|writes|asked|asks|replied|quote|quoting|told|last\s+(?:week|year|month|night|time|round|game|turn)|ago|yesterday|previously|back\s+then|in\s+\d{4})\b)`)
	// listMarker is a list item's mark before the sentence.
	listMarker = lazyre.MustCompile(`^(?:[-*•]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+`)
	// trailingAdverb is a word people put after the action: "too", "as
	// well", "also", "now", "please".
	trailingAdverb = lazyre.MustCompile(`(?i)(?:\s*,)?\s+(?:too|as\s+well|also|now|please|then|again|hereby|thanks|thank\s+you|for\s+now|at\s+once|right\s+away|immediately)$`)
	// intentAfterForm is intentForm with the method after the action; its
	// groups are the action, then intentForm's first four.
	intentAfterForm = lazyre.MustCompile(`(?i)^intend\s+to\s+(.+?)\s*,?\s+(without\s+(?:(\d+|one|two|three|four|five)\s+)?objections?|with\s+(?:(\d+|one|two|three|four|five)\s+)?support(?:ers?)?|with\s+agoran\s+consent|with\s+(?:(\d+)\s+days?'?\s+)?notice)$`)
	intentForm      = lazyre.MustCompile(`(?i)^intend\s*,?\s*(without\s+(?:(\d+|one|two|three|four|five)\s+)?objections?|with\s+(?:(\d+|one|two|three|four|five)\s+)?support(?:ers?)?|with\s+agoran\s+consent|with\s+(?:(\d+)\s+days?'?\s+)?notice)\s*,?\s*to\s+(.+)$`)
)

// trimStop drops the white space and stops at the end of s (the regular
// expression [\s.!;:]+$, \s being ASCII white space, without its cost on
// long sentences).
func trimStop(s string) string { return strings.TrimRight(s, "\t\n\f\r .!;:") }

// namesPerformer reports whether s has the word "I" or "we" (any case, as
// a whole word by the regular expressions' \b) somewhere: every form of
// ReadPerformative needs one, so a sentence without is no action, and its
// regular expressions need not run.
func namesPerformer(s string) bool {
	word := func(i int) bool {
		if i < 0 || i >= len(s) {
			return false
		}
		c := s[i]
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	next := byteFinder{set: "iIwW"}
	for i := 0; i < len(s); i++ {
		if i = next.from(s, i); i == len(s) {
			break
		}
		n := 0
		if s[i] == 'i' || s[i] == 'I' {
			n = 1
		} else if (s[i] == 'w' || s[i] == 'W') && i+1 < len(s) && (s[i+1] == 'e' || s[i+1] == 'E') {
			n = 2
		}
		if n > 0 && !word(i-1) && !word(i+n) {
			return true
		}
	}
	return false
}

var numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}

func atoiWord(s string) int {
	if n, ok := numberWords[strings.ToLower(s)]; ok {
		return n
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// ReadPerformative reads one sentence (AGORA "What performs an action"; G3).
// ok is false when the sentence is not an "I ..." sentence at all.
func ReadPerformative(s string) (p Performative, ok bool) {
	s = strings.TrimSpace(s)
	if mayStartList(s) {
		s = strings.TrimSpace(listMarker().ReplaceAllString(s, ""))
	}
	if !namesPerformer(s) {
		return p, false
	}
	if strings.HasSuffix(s, "?") {
		if findPerformative(s) != nil {
			return Performative{Kind: "not", Action: s}, true
		}
		return p, false
	}
	if m := startsWord(s, mayCond, condForm); m != nil {
		inner, ok := ReadPerformative(m[2])
		if !ok {
			return p, false
		}
		if inner.Cond != "" {
			inner.Cond = andConds(m[1]) + " and " + inner.Cond
		} else {
			inner.Cond = andConds(m[1])
		}
		if inner.Whole != "" {
			if inner.WholeCond != "" {
				inner.WholeCond = andConds(m[1]) + " and " + inner.WholeCond
			} else {
				inner.WholeCond = andConds(m[1])
			}
		}
		return inner, true
	}
	if m := startsWord(s, mayResolve, resolveForm); m != nil {
		inner, ok := ReadPerformative(m[1])
		if ok && inner.Kind == "act" {
			inner.Resolves = true
		}
		return inner, ok
	}
	m := findPerformative(s)
	if m == nil {
		if when, rest, ok := readLater(s); ok {
			return putOffBy(when, rest)
		}
		if rest, ok := afterLeadWord(s); ok {
			// "Now I transfer ...", "So tomorrow I transfer ...".
			if inner, ok := ReadPerformative(rest); ok {
				return inner, ok
			}
		}
		if pm := startsWord(s, mayPreface, preface); pm != nil && startsWord(s, mayResolve, resolveForm) == nil {
			inner, ok := Performative{}, false
			if _, when, later := readLaterAfter(pm[1]); later {
				// "Early tomorrow, I ...", "Sometime next week - I ...":
				// put off (G3).
				inner, ok = putOffBy(when, pm[2])
			} else {
				inner, ok = ReadPerformative(pm[2])
			}
			return afterPreface(pm[1], inner, ok)
		}
		if pre, when, rest, ok := readLaterPrefaced(s); ok {
			// "So, tomorrow, I transfer ...": put off (G3).
			inner, ok := putOffBy(when, rest)
			return afterPreface(pre, inner, ok)
		}
		return p, false
	}
	p, ok = readAction(s, m[1])
	if ok && p.Kind != "not" && s[0]|0x20 == 'w' {
		p.We = true // findPerformative: s starts with "I" or "we"
	}
	return p, ok
}

// readAction reads the action of s, a sentence that starts with "I" or
// "we": action is what follows them (findPerformative).
func readAction(s, action string) (p Performative, ok bool) {
	rest := dropTrailing(trimStop(strings.TrimSpace(action)))
	if r, ok := afterDash(rest); ok {
		// "I  Then - claim ...", an item of a list of the following
		// actions whose preface is one of the words "I" may take: the
		// dash the word leaves is the preface's mark, as in "Then, ...".
		rest = r
	}
	if when, ok := readLaterVocative(s); ok {
		// "I, tomorrow, transfer 3 Vials to Bob": put off (G3), not a
		// name.
		return putOffBy(when, "I "+rest)
	}
	if when, sentence, ok := readLaterLead(rest); ok {
		// "I  Tomorrow, transfer 3 Vials to Bob": an item of a list of
		// the following actions put off as "Tomorrow, I ..." is (G3).
		return putOffBy(when, sentence)
	}
	if action, ok := afterItemPreface(rest); ok {
		// "I  Today, transfer 1 Vial to Bob": an item of a list of the
		// following actions with a plain preface, read as "Today, I
		// transfer ..." is.
		return ReadPerformative("I " + action)
	}
	if isNotAction(rest) || mayPastTense(rest) && pastTense().MatchString(rest) && !presentEd().MatchString(rest) {
		return Performative{Kind: "not", Action: rest}, true
	}
	im := intentForm().FindStringSubmatch(rest)
	if im == nil {
		// "I intend to end the current game of Rumble without objection":
		// the method after the action, in the groups' order of intentForm.
		am := startsWord(rest, mayIntendAfter, intentAfterForm)
		if am == nil && len(rest) > len("intend to ") && strings.EqualFold(rest[:len("intend to ")], "intend to ") {
			// "I intend to end the current game of Rumble without
			// objection, as discussed": the method before a remark or
			// two, which are no part of the action.
			for a, n := rest, 0; am == nil && n < 3; n++ {
				var remark string
				if a, remark = readRemark(a); remark == "" {
					break
				}
				am = startsWord(a, mayIntendAfter, intentAfterForm)
			}
		}
		if am != nil {
			im = append([]string{am[0]}, am[2:]...)
			im = append(im, am[1])
		}
	}
	if im != nil {
		p = Performative{Kind: "intent", Action: trimStop(im[5])}
		method := strings.ToLower(im[1])
		switch {
		case strings.HasPrefix(method, "without"):
			p.Method, p.N = "objection", 1
			if im[2] != "" {
				p.N = atoiWord(im[2])
			}
		case strings.Contains(method, "support"):
			p.Method, p.N = "support", 1
			if im[3] != "" {
				p.N = atoiWord(im[3])
			}
		case strings.Contains(method, "consent"):
			p.Method = "consent"
		default:
			p.Method = "notice"
			p.Notice = im[4]
		}
		return p, true
	}
	if strings.HasPrefix(strings.ToLower(rest), "intend") {
		return Performative{Kind: "not", Action: rest}, true
	}
	whole := rest
	action, remark := readRemark(rest)
	if m := trailingCondOf(action); m != nil {
		// G3: "I transfer 2 Vials to Bob if I own more than 5 Vials" is the
		// condition written after the action; "unless ..." is kept whole,
		// and no condition the referee decides reads it.
		cond := strings.TrimSpace(m[3])
		if strings.EqualFold(m[2], "unless") {
			cond = "unless " + cond
		}
		return Performative{Kind: "act", Action: strings.TrimSpace(m[1]), Cond: andConds(cond), Whole: whole, Remark: remark}, true
	}
	if action, when, ok := readLaterAfter(action); ok {
		// G3: "I transfer 2 Vials to Bob tomorrow." puts the action off,
		// as "Tomorrow, I ..." does; a verb that takes a text reads the
		// phrase as its text's ("I suggest we end the game next week").
		return Performative{Kind: "act", Action: action, Later: when, LaterAfter: true, Whole: whole, Remark: remark}, true
	}
	if remark != "" {
		return Performative{Kind: "act", Action: action, Whole: whole, Remark: remark}, true
	}
	return Performative{Kind: "act", Action: rest}, true
}

// remarkLeads are the words a remark after the action starts with, after
// a comma (", as discussed", ", because she asked", ", thanks for the
// cell"), in lower case, with the white space after each but the last
// word's.
var remarkLeads = []string{"as ", "per ", "because ", "since ", "thanks", "thank you", "please", "cheers", "for the record",
	"with thanks", "in return", "in exchange", "in thanks"}

// remarkAs are the words after "as" that make a remark (", as a gift",
// ", as I said"), besides a word ending in "ed" (", as discussed", ", as
// promised"); "as well as", "as of", "as soon as" and the like are none.
var remarkAs = map[string]bool{"said": true, "told": true, "written": true, "wrote": true, "per": true, "usual": true, "always": true,
	"before": true, "a": true, "an": true, "i": true, "we": true, "you": true, "he": true, "she": true, "they": true, "thanks": true,
	"previously": true, "already": true, "earlier": true}

// readRemark reads a remark after the last comma of an action (AGORA
// "What performs an action": the action is what is announced, not the
// reason given for it): the action without it and the remark; the
// action as it was and "" when its last comma starts no remark, or the
// remark joins another action (" and ", " then "), makes the action hang
// on something or takes it back (asideInDoubt: ", as a joke", ",
// because I am not sure"). The words after the last comma are looked at
// before any expression runs.
func readRemark(action string) (rest, remark string) {
	i := strings.LastIndexByte(action, ',')
	if i <= 0 {
		return action, ""
	}
	remark = strings.TrimSpace(action[i+1:])
	lower := strings.ToLower(remark)
	lead := ""
	for _, w := range remarkLeads {
		if strings.HasPrefix(lower, w) && (len(lower) == len(w) || w[len(w)-1] == ' ' || !isWordByte(lower[len(w)])) {
			lead = w
			break
		}
	}
	if lead == "" {
		return action, ""
	}
	if lead == "as " {
		next, _, _ := strings.Cut(lower[len(lead):], " ")
		if !remarkAs[next] && !(len(next) > 3 && strings.HasSuffix(next, "ed")) {
			return action, ""
		}
	}
	if strings.Contains(lower, " and ") || strings.Contains(lower, " then ") || strings.ContainsAny(lower, ";:\"") ||
		asideInDoubt().MatchString(remark) {
		return action, ""
	}
	rest = strings.TrimRight(action[:i], " \t\n\f\r")
	if rest == "" {
		return action, ""
	}
	return rest, remark
}

// remarkAfterGame reads a remark written without a comma after the
// mention of game that ends an action ("claim cell (40, 40) in Life as
// discussed", "... in the Life contest because Bob asked"): the action up
// to the mention and the remark, when the words after the game's last
// mention are one readRemark reads after a comma, and the action up to
// them names the game at its end. The game's name ends the action's own
// words, so nothing the verb reads is taken for the remark.
func (e *Engine) remarkAfterGame(action, game string) (rest, remark string, ok bool) {
	for _, a := range e.aliases[game] {
		locs := a.anywhere.FindAllStringIndex(action, -1)
		if locs == nil {
			continue
		}
		end := locs[len(locs)-1][1]
		after := strings.TrimLeft(action[end:], " \t")
		for _, w := range mentionAfter {
			if len(after) > len(w) && strings.EqualFold(after[:len(w)], w) && !isWordByte(after[len(w)]) {
				end += len(action[end:]) - len(after) + len(w)
				break
			}
		}
		if i := end + len(action[end:]) - len(strings.TrimLeft(action[end:], " \t")); i < len(action) && action[i] == ')' {
			end = i + 1
		}
		head, tail := action[:end], strings.TrimSpace(action[end:])
		if tail == "" {
			continue
		}
		if r, rm := readRemark(head + ", " + tail); rm != "" && r == head {
			if r, g := e.gameRef(head); g == game && r != head {
				return head, tail, true
			}
		}
	}
	return action, "", false
}

// afterPreface is the reading (inner, ok) of a sentence after the
// preface pre: no action after one of prefaceNot ("When Bob joins, I ...").
func afterPreface(pre string, inner Performative, ok bool) (Performative, bool) {
	if ok && prefaceNot().MatchString(pre) {
		inner = Performative{Kind: "not", Action: inner.Action}
	}
	return inner, ok
}

// putOffBy reads the sentence that follows the time phrase when ("Tomorrow,
// I transfer ...") as an action put off by it (G3): the future tense and
// the other forms that are no action stay so, and a phrase before the
// performative takes the place of one after the action.
func putOffBy(when, sentence string) (Performative, bool) {
	inner, ok := ReadPerformative(sentence)
	if ok && inner.Kind != "not" && (inner.Later == "" || inner.LaterAfter) {
		inner.Later, inner.LaterAfter = when, false
	}
	return inner, ok
}

// trailingCond is a condition written after the action: "..., if I own
// more than 5 Vials", "... (if I have them)", "... unless Bob objects",
// "... provided that ...", "... as long as ...". An action with a colon or
// a quotation mark before it is left whole: its text (a suggestion, an
// amendment, a ruling) may say "if" in its own words.
var trailingCond = lazyre.MustCompile(`(?i)^([^:"“”]*?[^\s,(])\s*,?\s+\(?\s*(if|only\s+if|unless|provided(?:\s+that)?|providing(?:\s+that)?|as\s+long\s+as|so\s+long\s+as|on\s+(?:the\s+)?condition\s+that)\s+([^()]+?)\s*\)?$`)

// trailingCondWords are the words trailingCond starts a condition with,
// in lower case, followed by a space.
var trailingCondWords = []string{"if ", "unless ", "provided ", "providing ", "long as ", "condition that "}

// trailingCondOf is trailingCond's match of an action, nil for none; an
// action holding none of trailingCondWords is not matched against it.
func trailingCondOf(rest string) []string {
	lower := strings.ToLower(rest)
	for _, w := range trailingCondWords {
		if strings.Contains(lower, w) {
			return trailingCond().FindStringSubmatch(rest)
		}
	}
	return nil
}

// notActionWords are the first words of notAction's alternatives, up to
// the first character that is not a letter: "can" for "can't".
var notActionWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`will shall would could should might may must can cannot won wouldn don do didn did
		does doesn never not no refuse decline think guess wonder hope want wish plan believe suppose feel am was were
		have has had agree disagree like love see know mean suggest propose expect intended need needed forgot remember
		recall tried try meant prefer imagine assume doubt regret used keep is are be being been say said wrote write
		read thought heard reckon figure gather understand agreed asked ask wondered get got`) {
		notActionWords[w] = true
	}
}

// mayNotAction reports whether notAction can match s: s starts with an
// apostrophe, or with one of notActionWords as a whole word in some case;
// a word that runs into a character not ASCII is left to the regular
// expression (folding takes ſ for s and K for k).
func mayNotAction(s string) bool {
	i := 0
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	switch {
	case i == 0:
		return s != "" && (s[0] == '\'' || s[0]&0x80 != 0)
	case i < len(s) && s[i]&0x80 != 0:
		return true
	}
	return notActionWords[strings.ToLower(s[:i])]
}

// notActionWhole are the words of notAction that are an alternative by
// themselves: a sentence whose first word is one of them, followed by
// anything but a letter, digit or _, is matched.
var notActionWhole = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`will shall would could should might may must can cannot did does never not refuse
		decline think guess wonder wondered hope want wish plan believe suppose feel am was were have has had agree disagree
		like love see know mean expect intended need needed forgot remember recall tried try meant prefer imagine assume
		doubt regret is are be being been say said wrote write read thought heard reckon figure gather understand agreed
		asked get got`) {
		notActionWhole[w] = true
	}
}

// isNotAction is notAction().MatchString(s), without the regular expression
// (some 5 µs a sentence) when s starts with a whole ASCII word followed by
// an ASCII character or nothing: then it matches if the word is one of
// notActionWhole, not at all if it is none of notActionWords.
func isNotAction(s string) bool {
	if !mayNotAction(s) {
		return false
	}
	i := 0
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	if i > 0 && (i == len(s) || s[i]&0x80 == 0) && notActionWhole[strings.ToLower(s[:i])] {
		return true
	}
	return notAction().MatchString(s)
}

// isWordByte is the regular expressions' \w: an ASCII letter, digit or _.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// mayPastTense reports whether pastTense can match s: its first word, the
// run of ASCII letters it starts with, ends in "ed" or is one of
// pastIrregular, in some case, unless the run is empty or a byte past
// ASCII ends it ((?i)[a-z] takes the Kelvin sign and ſ too). Nearly every
// action is in the present ("I claim", "I join"): the expression was
// tried on each.
func mayPastTense(s string) bool {
	n := 0
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
		n++
	}
	if n == 0 || n < len(s) && s[n] >= utf8.RuneSelf {
		return true
	}
	w := s[:n]
	if n >= 3 && w[n-2]|0x20 == 'e' && w[n-1]|0x20 == 'd' {
		return true
	}
	for _, p := range pastIrregular {
		if len(p) == n && strings.EqualFold(p, w) {
			return true
		}
	}
	return false
}

// pastIrregular are the words of pastTense that do not end in "ed".
var pastIrregular = []string{"took", "gave", "sent", "paid", "made", "left", "won", "lost", "went", "spent", "sold", "bought", "held",
	"chose", "came", "told", "began", "drew", "ran", "threw", "became"}

// mayStartList reports whether s can start with a listMarker: a list mark,
// a digit, "(" or a lower-case ASCII letter.
func mayStartList(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c == '-' || c == '*' || c == 0xe2 || c == '(' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z'
}

// startsWord is re.FindStringSubmatch(s), nil at once when may(s) says
// re cannot match s.
func startsWord(s string, may func(string) bool, re func() *regexp.Regexp) []string {
	if !may(s) {
		return nil
	}
	return re().FindStringSubmatch(s)
}

// mayIntendAfter reports whether intentAfterForm can match s: s starts
// with "intend to " and ends with a word of a method (objection(s),
// support(ers), consent, notice).
func mayIntendAfter(s string) bool {
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, "intend to ") {
		return false
	}
	for _, w := range []string{"objection", "objections", "support", "supporter", "supporters", "consent", "notice"} {
		if strings.HasSuffix(lower, " "+w) {
			return true
		}
	}
	return false
}

// mayCond reports whether condForm can match s: s starts with "if" (no
// rune but I folds to i, nor but F to f) and white space, and has a comma.
func mayCond(s string) bool {
	return len(s) > 2 && s[0]|0x20 == 'i' && s[1]|0x20 == 'f' && isSpace(s[2]) && strings.Contains(s, ",")
}

// mayResolve reports whether resolveForm can match s: s starts with h or
// w (having, with, without) and has a comma.
func mayResolve(s string) bool {
	return s != "" && (s[0]|0x20 == 'h' || s[0]|0x20 == 'w') && strings.Contains(s, ",")
}

// mayPerform reports whether performative can match s: s starts with "I"
// or "we", followed by white space or a comma.
func mayPerform(s string) bool {
	var n int
	switch {
	case s != "" && s[0]|0x20 == 'i':
		n = 1
	case len(s) > 1 && s[0]|0x20 == 'w' && s[1]|0x20 == 'e':
		n = 2
	default:
		return false
	}
	return len(s) > n && (isSpace(s[n]) || s[n] == ',')
}

// performativeAdverbs are the words performative reads between "I" and
// the action ("I hereby join"; "do" of "I do hereby").
var performativeAdverbs = map[string]bool{"hereby": true, "now": true, "also": true, "too": true, "therefore": true, "then": true, "thus": true,
	"hence": true, "additionally": true, "officially": true, "formally": true, "simply": true, "just": true, "do": true}

// findPerformative is performative().FindStringSubmatch(s), with the
// sentence most actions are read by hand: "I", white space and the action,
// on one line, whose first word is ASCII and none of performativeAdverbs
// ("I claim cell (1, 2)"). TestFindPerformative holds it to the
// expression.
func findPerformative(s string) []string {
	if len(s) > 2 && s[0]|0x20 == 'i' && isSpace(s[1]) {
		i := 2
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if rest := s[i:]; rest != "" && rest[0] != ',' && !strings.Contains(rest, "\n") && !adverbFirst(rest) {
			return []string{s, rest}
		}
	}
	return startsWord(s, mayPerform, performative)
}

// adverbFirst reports whether the first word of s (up to white space) may
// be one of performativeAdverbs: it is, in some case, or it is not ASCII
// (case folding takes ſ for s).
func adverbFirst(s string) bool {
	end := 0
	for end < len(s) && !isSpace(s[end]) {
		if s[end]&0x80 != 0 {
			return true
		}
		end++
	}
	if end > len("additionally") {
		return false
	}
	var low [len("additionally")]byte
	for i := 0; i < end; i++ {
		low[i] = s[i] | 0x20
	}
	return performativeAdverbs[string(low[:end])]
}

// mayPreface reports whether preface can match s: s has one of the
// marks that end a preface (, : ;), an en or em dash, or a hyphen after
// white space.
func mayPreface(s string) bool {
	if strings.ContainsAny(s, ",:;") || strings.Contains(s, "\u2013") || strings.Contains(s, "\u2014") {
		return true
	}
	for i := strings.IndexByte(s, '-'); i >= 0; {
		if i > 0 && isSpace(s[i-1]) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '-')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// leadWords are the words an action may follow without a comma ("Now I
// transfer ...", "So I claim ...", "Today I join ..."), in lower case.
var leadWords = map[string]bool{"now": true, "today": true, "so": true, "and": true, "also": true, "ok": true, "okay": true,
	"well": true, "anyway": true, "hereby": true}

// afterLeadWord is s after its first word and the white space after it,
// when that word is one of leadWords in some case and "I" or "we" may
// follow (s names a performer after it).
func afterLeadWord(s string) (rest string, ok bool) {
	var buf [len("anyway")]byte
	w, n := firstWordLower(s, buf[:])
	if w == nil || n == len(s) || !isSpace(s[n]) || !leadWords[string(w)] {
		return "", false
	}
	return strings.TrimLeft(s[n:], " \t\n\f\r"), true
}

// firstWordLower is s's first word of ASCII letters in lower case, written
// into buf, and its length in s; nil when s starts with no letter or the
// word is longer than buf (no word of the caller's list is). The word is
// made in buf and looked up as string(word), which allocates nothing: the
// readers that ask it look at every action's first word.
func firstWordLower(s string, buf []byte) (word []byte, n int) {
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
		n++
	}
	if n == 0 || n > len(buf) {
		return nil, n
	}
	for i := range n {
		buf[i] = s[i] | 0x20
	}
	return buf[:n], n
}

// itemPrefaceWords are the words of a plain preface an item of a list of
// the following actions may start with, before a comma, colon or dash
// ("2. Today, transfer ...", "3. Then: claim ..."), in lower case: those
// an action may follow without a comma (leadWords) and the words that
// order a list. None is the first word of a verb.
var itemPrefaceWords = func() map[string]bool {
	m := map[string]bool{}
	for w := range leadWords {
		m[w] = true
	}
	for _, w := range strings.Fields("then first firstly second secondly third thirdly next finally lastly additionally furthermore moreover meanwhile again") {
		m[w] = true
	}
	return m
}()

// afterItemPreface is an action that starts with a plain preface ("Today,
// transfer 1 Vial to Bob", "So - claim ...", "Now transfer ...") without
// it: one of itemPrefaceWords and a comma, colon, semicolon or dash after
// it, or one of leadWords and white space. ok is false for an action
// whose first word is none of them, nearly every action (its verb).
func afterItemPreface(action string) (rest string, ok bool) {
	var buf [len("additionally")]byte
	w, n := firstWordLower(action, buf[:])
	if w == nil || n == len(action) || !itemPrefaceWords[string(w)] {
		return "", false
	}
	after := strings.TrimLeft(action[n:], " \t")
	if after != "" && strings.IndexByte(",:;-", after[0]) >= 0 || strings.HasPrefix(after, "\u2013") || strings.HasPrefix(after, "\u2014") {
		rest = strings.TrimLeft(after, ",:;-\u2013\u2014 \t")
	} else if leadWords[string(w)] && isSpace(action[n]) {
		rest = after
	}
	if rest == "" || performerFirst(rest) {
		return "", false
	}
	return rest, true
}

// afterDash is s after a dash (a hyphen, an en or em dash) and the white
// space after it that s starts with; ok is false when s starts with none,
// or nothing follows it.
func afterDash(s string) (rest string, ok bool) {
	var n int
	switch {
	case strings.HasPrefix(s, "-"):
		n = 1
	case strings.HasPrefix(s, "\u2013"), strings.HasPrefix(s, "\u2014"):
		n = len("\u2013")
	default:
		return "", false
	}
	if n >= len(s) || !isSpace(s[n]) {
		return "", false
	}
	rest = strings.TrimLeft(s[n:], " \t\n\f\r")
	return rest, rest != ""
}

// trailingWords are the last words trailingAdverb can match.
var trailingWords = map[string]bool{"too": true, "well": true, "also": true, "now": true, "please": true, "then": true,
	"again": true, "hereby": true, "thanks": true, "you": true, "once": true, "away": true, "immediately": true}

// mayTrail reports whether trailingAdverb can match s: s ends with one of
// trailingWords, in any case, or is not ASCII (where the case folding of
// s and k takes other runes).
func mayTrail(s string) bool {
	i := len(s)
	for i > 0 && (s[i-1]|0x20 >= 'a' && s[i-1]|0x20 <= 'z') {
		i--
	}
	if i > 0 && s[i-1]&0x80 != 0 {
		return true
	}
	return trailingWords[strings.ToLower(s[i:])]
}

// dropTrailing removes up to three trailing adverbs ("too", "as well",
// "please"), looking only at the end of the action so that a long sentence
// costs no more than a short one.
func dropTrailing(rest string) string {
	for range 3 {
		cut := max(0, len(rest)-64)
		for cut > 0 && !utf8.RuneStart(rest[cut]) {
			cut--
		}
		tail := rest[cut:]
		if mayTrail(tail) {
			tail = trailingAdverb().ReplaceAllString(tail, "")
		}
		tail = trimStop(tail)
		if tail == rest[cut:] || cut == 0 && tail == "" {
			break
		}
		rest = rest[:cut] + tail
	}
	return rest
}

// gameRef removes a trailing reference to a game ("in Life", "for the Life
// contest", "(Rumble)") and reports which game a sentence names anywhere.
func (e *Engine) gameRef(action string) (rest string, game string) {
	rest = action
	lower := strings.ToLower(action)
	ascii := isASCII(action)
	for _, g := range e.list {
		for _, a := range e.aliases[g.Spec().ID] {
			if !a.mayMatch(lower, ascii) {
				continue
			}
			if i := a.trailingAt(rest, ascii); i >= 0 {
				return strings.TrimSpace(rest[:i]), g.Spec().ID
			}
		}
	}
	for _, g := range e.list {
		for _, a := range e.aliases[g.Spec().ID] {
			if a.mayMatch(lower, ascii) && a.anywhere.MatchString(lower) {
				return rest, g.Spec().ID
			}
		}
	}
	return rest, ""
}

// gameNamed is the game a name such as "Life" or "the Rumble contest" means,
// "" for none.
func (e *Engine) gameNamed(name string) string {
	_, game := e.gameRef("x in " + name)
	return game
}

type alias struct {
	lower    string                // the word in lower case
	plain    bool                  // isPlainName: mentionAt finds it at the end of an ASCII text
	trailing func() *regexp.Regexp // compiled at its first use: a plain alias in an ASCII text needs none
	anywhere *regexp.Regexp
}

// trailingAt is where a mention of the alias ends s (see gameRef), as
// a.trailing finds it, or -1; ascii: s is ASCII.
func (a alias) trailingAt(s string, ascii bool) int {
	if ascii && a.plain {
		return mentionAt(s, a.lower)
	}
	if m := a.trailing().FindStringIndex(s); m != nil {
		return m[0]
	}
	return -1
}

// mayMatch reports whether the alias's patterns can match a text, given
// in lower case: an ASCII text must contain the word, an ASCII word
// (folding another rune to s or k needs a text that is not ASCII).
func (a alias) mayMatch(lower string, ascii bool) bool {
	return !ascii || !isASCII(a.lower) || strings.Contains(lower, a.lower)
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i]&0x80 != 0 {
			return false
		}
	}
	return true
}

func compileAlias(word string) alias {
	w := regexp.QuoteMeta(word)
	return alias{
		lower:    strings.ToLower(word),
		plain:    isPlainName(word),
		trailing: lazyre.MustCompile(`(?i)\s*[,(]?\s*\b(?:` + strings.Join(mentionBefore, "|") + `)?\s*(?:the\s+)?` + w + `(?:\s+(?:` + strings.Join(mentionAfter, "|") + `))?\s*\)?$`),
		anywhere: regexp.MustCompile(`(?i)\b` + w + `\b`),
	}
}
