package rumble

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"referee/contract"
	"referee/internal/lazyre"
)

// Lenient readers of private submissions, as players write them: one item per
// line, or items separated by " / " and ";" ("Attack: 30 to Alice; 10 to Bob /
// Defense: 40 / Flight: 10"), with or without "I" ("I bid 30 on Flight"). A
// list is read whole: one bad item rejects it all and changes nothing. Lines
// that hold no number and no keyword (greetings, thanks) are skipped.

var (
	bullet    = lazyre.MustCompile(`^\s*(?:[-*•>]+|\d+[.)])\s+`)
	iPrefix   = lazyre.MustCompile(`(?i)^(?:i|we)\s+(?:hereby\s+|now\s+)?`)
	hasDigit  = lazyre.MustCompile(`\d`)
	wholeNum  = lazyre.MustCompile(`^` + contract.WholeNumber + `$`)
	numberish = `[-+]?\d[\d.,]*`
)

// lines splits text into cleaned lines.
func lines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(bullet().ReplaceAllString(l, ""))
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// sentenceBreak ends an item at ". " or "! " before a new one: an "I ..."
// sentence, a "#3" power reference, a number or a list keyword ("I bid 35 on
// Rage. #4: 20" is two bids). A name with a dot ("J. Random") stays whole.
var sentenceBreak = lazyre.MustCompile(`[.!]\s+((?:I|We)\s|#|\d|(?i:attack|defen[cs]e|defend|spend|burn|bids?\b|discard|no\s))`)

// itemBreak ends an item at "and" or ", " before another one: "I bid 30 on
// Flight and 20 on Rage", "I attack Bob with 30 and defend with 20", "Flight:
// 30, Rage: 20" is two items ("1,000" has no space after its comma).
var itemBreak = lazyre.MustCompile(`(?i)(?:\s*,\s+and\s+|\s+and\s+(?:then\s+)?|\s*,\s+)((?:I\s+)?(?:attack|defen[cs]e|defend|spend|burn|bid)\b|#|\d)`)

// politeEnd is a "please" or "thanks" at an item's end.
var politeEnd = lazyre.MustCompile(`(?i)[\s,]+(?:please|thanks|thank\s+you)$`)

// segments splits text into items: lines (and sentences, as sentenceBreak
// says, and items joined as itemBreak says), then " / " and ";".
func segments(text string) []string {
	var out []string
	text = sentenceBreak().ReplaceAllString(text, "\n$1")
	text = itemBreak().ReplaceAllString(text, "\n$1")
	for _, l := range lines(text) {
		for _, a := range strings.Split(l, " / ") {
			for _, b := range strings.Split(a, ";") {
				b = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(b), ".!"))
				b = strings.TrimRight(politeEnd().ReplaceAllString(b, ""), ".!")
				b = iPrefix().ReplaceAllString(b, "")
				if b != "" {
					out = append(out, b)
				}
			}
		}
	}
	return out
}

// amount reads a whole number >= 0, digits or with commas between
// thousands ("1,000", contract.WholeNumber), or rejects citing rule.
func amount(s, rule, what string) (int, error) {
	s = strings.TrimSpace(s)
	if !wholeNum().MatchString(s) {
		if strings.HasPrefix(s, "-") {
			return 0, contract.Reject(rule, "%s %q is negative; amounts are whole numbers of 0 or more", what, s)
		}
		return 0, contract.Reject(rule, "%s %q is not a whole number", what, s)
	}
	n, ok := contract.ParseWhole(s)
	if !ok || n > 1_000_000 {
		return 0, contract.Reject(rule, "%s %q is too large", what, s)
	}
	return int(n), nil
}

// Powers (Rumble 2): "Name: description", "Name - description", with an
// optional "Power:" / "Power 1:" / "I submit the power" in front.

var (
	powerLead = lazyre.MustCompile(`(?i)^(?:i\s+(?:hereby\s+)?submit\s+(?:the\s+)?(?:power\s+)?|power\s*(?:#?\d+)?\s*[:.)-]\s*)`)
	powerSep  = lazyre.MustCompile(`\s*(?::|\s[-–—]\s)\s*`)
	powerName = lazyre.MustCompile(`^[\pL\pN][\pL\pN '’-]*$`)
)

// maxPowerName is the longest power name, in characters (Rumble 2). It is
// counted apart from powerName: the same bound as a repetition inside the
// expression compiles to fifteen times the program, at every start-up.
const maxPowerName = 40

// isPowerName reports whether name is a power name (Rumble 2): up to 40
// letters, digits, spaces, ' and -, beginning with a letter or digit and
// holding a letter.
func isPowerName(name string) bool {
	return utf8.RuneCountInString(name) <= maxPowerName && powerName().MatchString(name) && hasLetter(name)
}

func parsePowers(text string) ([]PowerDef, error) {
	var out []PowerDef
	for _, l := range lines(text) {
		lead := powerLead().FindString(l)
		if lead == "" && iPrefix().MatchString(l) {
			continue // another "I ..." sentence, not a power
		}
		body := strings.TrimSpace(l[len(lead):])
		loc := powerSep().FindStringIndex(body)
		if listIntro(lead, body, loc) {
			continue // "I submit the following powers:", the list's heading
		}
		if loc == nil {
			if lead != "" {
				return nil, contract.Reject("Rumble 2", "the power %q has no description; write \"Name: what it does\"", body)
			}
			continue
		}
		name := strings.Trim(strings.TrimSpace(body[:loc[0]]), `"'*`)
		desc := strings.TrimSpace(body[loc[1]:])
		if desc == "" {
			if lead != "" {
				return nil, contract.Reject("Rumble 2", "the power %q has no description; write \"Name: what it does\"", name)
			}
			continue
		}
		if !isPowerName(name) {
			return nil, contract.Reject("Rumble 2", "%q is not a power name: use up to 40 letters, digits, spaces, ' and -", name)
		}
		if len(desc) > 300 {
			return nil, contract.Reject("Rumble 2", "the description of %q is longer than 300 characters", name)
		}
		for _, p := range out {
			if equalFold(p.Name, name) {
				return nil, contract.Reject("Rumble 2", "the power %q is listed twice", name)
			}
		}
		out = append(out, PowerDef{Name: name, Text: desc, Effect: tagEffect(desc)})
	}
	return out, nil
}

// powersWord is a name that speaks of the powers rather than naming one.
var powersWord = lazyre.MustCompile(`(?i)\bpowers?\b`)

// listIntro reports whether a line led by "I submit" introduces the list
// rather than submitting a power: what follows speaks of powers ("the
// following powers", "my two powers for game 2") and gives no description.
func listIntro(lead, body string, sep []int) bool {
	if lead == "" || !strings.HasPrefix(strings.ToLower(lead), "i") {
		return false
	}
	name := body
	if sep != nil {
		if strings.TrimSpace(body[sep[1]:]) != "" {
			return false
		}
		name = body[:sep[0]]
	}
	return powersWord().MatchString(name)
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// Bids (Rumble 5, U4): "Flight: 30", "30 on Flight", "Flight 30", "bid 30 on
// Flight", "no bids".

var (
	noBids    = lazyre.MustCompile(`(?i)^(?:no\s+bids?|none|nothing|bid\s+(?:nothing|on\s+nothing)|(?:do\s+not|don't)\s+bid)$`)
	bidLead   = lazyre.MustCompile(`(?i)^(?:bids?|place\s+(?:a\s+)?bids?(?:\s+of)?)\s*[:=]?\s*`)
	amountFor = lazyre.MustCompile(`(?i)^(?P<n>` + numberish + `)\s*(?:energy\s+|points?\s+|stamina\s+)?(?:to|on|at|against|for|into)\s+(?:the\s+power\s+|power\s+)?(?P<x>.+)$`)
	nameAmt   = lazyre.MustCompile(`(?i)^(?:on\s+|for\s+)?(?P<x>.+?)\s*(?:[:=]|\bwith\b|\bfor\b|\bby\b|\bat\b)?\s*(?P<n>` + numberish + `)(?:\s*(?:energy|points?|stamina))?$`)
)

// amountIn is nameAndAmount of an item, or of the item with its numbers in
// words written in figures ("I bid thirty on Flight", "Attack Bob with
// twenty"), as the interpreter reads them (contract.NumberDigits). A power
// named with a number word is found as written first.
func amountIn(s string) (name, num string, ok bool) {
	if name, num, ok = nameAndAmount(s); ok {
		return name, num, ok
	}
	return nameAndAmount(contract.NumberDigits(s))
}

// nameAndAmount splits "30 to Alice", "Alice: 30", "Alice with 30".
func nameAndAmount(s string) (name, num string, ok bool) {
	if m := amountFor().FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[2]), m[1], true
	}
	if m := nameAmt().FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1]), m[2], true
	}
	return "", "", false
}

// parseBids reads a bid list against the listed powers; explicit says the list
// says "no bids".
func parseBids(text string, st *State) (bids []Bid, explicit bool, err error) {
	for _, seg := range segments(text) {
		if noBids().MatchString(seg) {
			explicit = true
			continue
		}
		item := seg
		seg = bidLead().ReplaceAllString(seg, "")
		name, num, ok := amountIn(seg)
		if !ok {
			if hasDigit().MatchString(seg) || seg != item {
				return nil, false, contract.Reject("Rumble 5", "%q is not a bid; write \"Power: amount\" or \"I bid 30 on Power\"", item)
			}
			if p := st.mentionedPower(seg, nil); p != nil {
				return nil, false, contract.Reject("Rumble 5", "%q names the power %s but no amount; write \"%s: 30\" or \"I bid 30 on %s\"", item, p.Name, p.Name, p.Name)
			}
			continue // a greeting or a remark
		}
		p, err := st.lookupPower(name, "Rumble 5")
		if err != nil {
			return nil, false, err
		}
		if p == nil {
			return nil, false, contract.Reject("Rumble 5", "%q is not a power on the list of game %d", name, st.Game)
		}
		n, err := amount(num, "Rumble 5", "the bid on "+p.Name)
		if err != nil {
			return nil, false, err
		}
		if n < 1 {
			return nil, false, contract.Reject("U4", "the bid on %s is %d; a bid is a whole number of 1 or more", p.Name, n)
		}
		for _, b := range bids {
			if b.Power == p.Name {
				return nil, false, contract.Reject("U4", "two bids on %s; send one bid per power", p.Name)
			}
		}
		bids = append(bids, Bid{Power: p.Name, N: n})
	}
	return bids, explicit, nil
}

// lookupPower finds a listed power by "#k" or by name, in a bid, discard
// or action list whose rule is rule: the name as listed, else the one
// power whose name it matches in another case. Rumble 2 lists two names
// that lower-case alike ("Iron Skin", "İron Skin"), so a name in another
// case may match two: that is refused, naming both. No power is nil, nil.
func (s *State) lookupPower(ref, rule string) (*Power, error) {
	p, alike := s.matchPower(ref)
	if len(alike) > 1 {
		return nil, contract.Reject(rule, "%q could be the power %q (#%d) or %q (#%d), whose names differ only in case; write the name exactly as listed, or its number",
			strings.TrimSpace(ref), alike[0].Name, s.powerNumber(alike[0]), alike[1].Name, s.powerNumber(alike[1]))
	}
	return p, nil
}

// namesPower says whether ref names a listed power, or two alike.
func (s *State) namesPower(ref string) bool {
	p, alike := s.matchPower(ref)
	return p != nil || len(alike) > 1
}

// matchPower finds the power ref names (the name as written first, then
// without a leading "the power" or "power"); when only names in another
// case match and more than one does, p is nil and alike lists them. The
// names are looked up in the list's index (powerIndex), not compared with
// each power.
func (s *State) matchPower(ref string) (p *Power, alike []*Power) {
	if lookupCheck != nil {
		defer func() { lookupCheck.match(s, ref, p, alike) }()
	}
	numbered, byNumber, names := s.powerRef(ref)
	if byNumber {
		return numbered, nil
	}
	p, alike, ok := s.powers().match(names)
	if !ok {
		p, alike, _ = s.reindexPowers().match(names)
	}
	return p, alike
}

// powerRef reads a reference to a power: "#k", the k-th power of the list
// (byNumber; p nil when there is none), or a name, to be looked up as
// written first, then without a leading "the power" or "power" (names);
// quotes, asterisks and the spaces around are not part of it.
func (s *State) powerRef(ref string) (p *Power, byNumber bool, names []string) {
	ref = strings.Trim(strings.TrimSpace(ref), `"'*`)
	if strings.HasPrefix(ref, "#") {
		k, err := strconv.Atoi(strings.TrimSpace(ref[1:]))
		if err == nil && k >= 1 && k <= len(s.Powers) {
			return s.Powers[k-1], true, nil
		}
		return nil, true, nil
	}
	return nil, false, []string{ref, powerPrefix().ReplaceAllString(ref, "")}
}

// match is matchPower's search of each of names in turn; ok is false when
// the list does not hold what the index names (a list changed: index it
// again).
func (ix *powerIndex) match(names []string) (p *Power, alike []*Power, ok bool) {
	for _, r := range names {
		if p, ok := ix.named(r); !ok || p != nil {
			return p, nil, ok
		}
		alike, ok := ix.alike(r)
		switch {
		case !ok:
			return nil, nil, false
		case len(alike) == 1:
			return alike[0], nil, true
		case len(alike) > 1:
			return nil, alike, true
		}
	}
	return nil, nil, true
}

var powerPrefix = lazyre.MustCompile(`(?i)^(?:the\s+)?power\s+`)

// powerNumber is p's number on the power list, as "#k" names it.
func (s *State) powerNumber(p *Power) int { return slices.Index(s.Powers, p) + 1 }

// Discards (Rumble 6): "Discard: Flight", "I discard Flight", "no discard".

var (
	noDiscard   = lazyre.MustCompile(`(?i)^(?:no\s+discards?|none|nothing|discard\s*[:=]?\s*(?:none|nothing|no\s+power)|keep\s+(?:all|everything|all\s+my\s+powers|my\s+powers)|(?:do\s+not|don't)\s+discard(?:\s+anything)?)$`)
	discardLead = lazyre.MustCompile(`(?i)^(?:discard(?:s|ing)?|drop)\s*[:=]?\s*(?:the\s+power\s+|power\s+)?(?P<p>.+)$`)
)

func parseDiscard(text string, st *State, f *Fighter) (discard string, found bool, err error) {
	for _, seg := range segments(text) {
		if noDiscard().MatchString(seg) {
			found = true
			continue
		}
		m := discardLead().FindStringSubmatch(seg)
		if m == nil {
			continue
		}
		if discard != "" {
			return "", false, contract.Reject("Rumble 6", "only one power can be discarded")
		}
		p, err := st.lookupPower(m[1], "Rumble 6")
		if err != nil {
			return "", false, err
		}
		if p == nil {
			return "", false, contract.Reject("Rumble 6", "%q is not a power on the list", m[1])
		}
		if !holds(f, p.Name) {
			return "", false, contract.Reject("Rumble 6", "you do not hold %s", p.Name)
		}
		discard, found = p.Name, true
	}
	return discard, found, nil
}

// mentionedPower is a listed power whose name an item without an amount
// holds as whole words, in any case ("I use Iron Skin", "bid on Flight"):
// such an item is an allocation or a bid whose amount is missing, not a
// remark to skip, which would leave it out of the sealed list unseen. With
// f, only the powers f holds count. Nil for none.
func (s *State) mentionedPower(item string, f *Fighter) *Power {
	lower := strings.ToLower(item)
	for _, p := range s.Powers {
		if f != nil && !holds(f, p.Name) {
			continue
		}
		name := strings.ToLower(p.Name)
		for i := strings.Index(lower, name); i >= 0; {
			end := i + len(name)
			if !wordRuneBefore(lower, i) && !wordRuneAt(lower, end) {
				return p
			}
			j := strings.Index(lower[i+1:], name)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return nil
}

// wordRuneBefore reports whether the rune before byte i of s is a letter or
// a digit; wordRuneAt, the rune at byte i.
func wordRuneBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func wordRuneAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return i < len(s) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func holds(f *Fighter, power string) bool { return slices.Contains(f.Powers, power) }

// Action lists (Rumble 8): "Attack: 30 to Alice; 10 to Bob", "attack Alice 30",
// "Defense: 40", "defend with 40", "Spend 10 on Flight", "Burn 5 on Rage",
// "Flight: 10".

var (
	actKeyword = lazyre.MustCompile(`(?i)^(attacks?|attacking|defen[cs]es?|defend(?:ing)?|spend(?:ing)?|burn(?:ing)?)\b\s*[:=]?\s*(.*)$`)
	withAmount = lazyre.MustCompile(`(?i)^(?:with\s+|by\s+)?(` + numberish + `)(?:\s*(?:energy|points?))?$`)
	noActions  = lazyre.MustCompile(`(?i)^(?:none|nothing|no\s+actions?|pass|rest)$`)
)

func parseActions(text string, st *State, self *Fighter, resolve func(string) (string, error)) (acts []Alloc, explicit bool, err error) {
	last := ""
	for _, seg := range segments(text) {
		if noActions().MatchString(seg) {
			explicit = true
			continue
		}
		kind, rest := "", seg
		if name, _, ok := nameAndAmount(seg); ok && st.namesPower(name) {
			// A listed power, even one named like a keyword ("Attack Dog: 4").
		} else if m := actKeyword().FindStringSubmatch(seg); m != nil {
			kind, rest = strings.ToLower(m[1]), strings.TrimSpace(m[2])
			switch {
			case strings.HasPrefix(kind, "attack"):
				kind = "attack"
			case strings.HasPrefix(kind, "defen"):
				kind = "defend"
			case strings.HasPrefix(kind, "spend"):
				kind = "spend"
			default:
				kind = "burn"
			}
		} else if name, _, ok := nameAndAmount(seg); last == "attack" && !(ok && st.namesPower(name)) {
			kind = "attack" // "10 to Bob" after "Attack: 30 to Alice"
		}
		switch kind {
		case "attack":
			name, num, ok := amountIn(rest)
			if !ok {
				return nil, false, contract.Reject("Rumble 8", "%q is not an Attack; write \"Attack: 30 to Alice\"", seg)
			}
			n, err := amount(num, "Rumble 8", "the Attack on "+name)
			if err != nil {
				return nil, false, err
			}
			target, err := resolve(name)
			if err != nil {
				return nil, false, err
			}
			if target == self.Name {
				return nil, false, contract.Reject("Rumble 8", "you cannot Attack yourself")
			}
			acts = addAlloc(acts, Alloc{Kind: "attack", Target: target, N: n})
		case "defend":
			m := withAmount().FindStringSubmatch(rest)
			if m == nil {
				m = withAmount().FindStringSubmatch(contract.NumberDigits(rest))
			}
			if m == nil {
				return nil, false, contract.Reject("Rumble 8", "%q is not a Defense; write \"Defense: 40\"", seg)
			}
			n, err := amount(m[1], "Rumble 8", "the Defense")
			if err != nil {
				return nil, false, err
			}
			acts = addAlloc(acts, Alloc{Kind: "defend", N: n})
		case "spend", "burn", "":
			name, num, ok := amountIn(rest)
			if !ok {
				if kind == "" && !hasDigit().MatchString(seg) {
					if p := st.mentionedPower(seg, nil); p != nil {
						return nil, false, contract.Reject("Rumble 8", "%q names the power %s but no energy; write \"Spend 10 on %s\" (or \"Burn 10 on %s\")", seg, p.Name, p.Name, p.Name)
					}
					continue // a greeting or a remark
				}
				return nil, false, contract.Reject("Rumble 8", "%q is not understood; write \"Attack: 30 to Alice\", \"Defense: 40\" or \"Spend 10 on <power>\"", seg)
			}
			p, err := st.lookupPower(name, "Rumble 8")
			if err != nil {
				return nil, false, err
			}
			if p == nil {
				if kind == "" {
					return nil, false, contract.Reject("Rumble 8", "%q is not understood: %q is not a power on the list", seg, name)
				}
				return nil, false, contract.Reject("Rumble 8", "%q is not a power on the list", name)
			}
			if !holds(self, p.Name) {
				return nil, false, contract.Reject("Rumble 8", "you do not hold %s", p.Name)
			}
			n, err := amount(num, "Rumble 8", "the energy on "+p.Name)
			if err != nil {
				return nil, false, err
			}
			need := powerKind(p)
			if kind == "" {
				kind = need
				if kind == "" {
					kind = "spend"
				}
			}
			if need != "" && need != kind {
				return nil, false, contract.Reject("Rumble 8", "%s requires you to %s energy, not %s it", p.Name, capital(need), kind)
			}
			acts = addAlloc(acts, Alloc{Kind: kind, Power: p.Name, N: n})
		}
		last = kind
	}
	return acts, explicit, nil
}

// addAlloc merges an allocation into the list (two Attacks on one target add up).
func addAlloc(acts []Alloc, a Alloc) []Alloc {
	for i := range acts {
		if acts[i].Kind == a.Kind && acts[i].Target == a.Target && acts[i].Power == a.Power {
			acts[i].N += a.N
			return acts
		}
	}
	return append(acts, a)
}

// sniff guesses which phase a private text is meant for, "" when it cannot say.
func sniff(text string) string {
	for _, seg := range segments(text) {
		l := strings.ToLower(seg)
		switch {
		case actKeyword().MatchString(seg):
			return PhaseRound
		case strings.HasPrefix(l, "discard") || strings.HasPrefix(l, "no discard") || strings.HasPrefix(l, "keep "):
			return PhaseDiscard
		case strings.HasPrefix(l, "bid") || strings.HasPrefix(l, "no bid"):
			return PhaseBids
		case powerLead().MatchString(seg):
			return PhasePowers
		}
	}
	return ""
}

func equalFold(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

func itoa(n int) string { return strconv.Itoa(n) }

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
