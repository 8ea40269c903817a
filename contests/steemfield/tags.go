package steemfield

import (
	"regexp"
	"strconv"
	"strings"

	"referee/contract"
	"referee/internal/lazyre"
)

// The players' tags, exactly as the rules write them (Implementation Details;
// ruling S1 for the email stand-ins), spacing and case lenient.
var (
	dashLine = lazyre.MustCompile(`^\s*-{3,}\s*$`)
	// tagOpen finds the start of anything that looks like one of our tags.
	tagOpen = lazyre.MustCompile(`(?i)\{\s*(gift|(?:proposal|yes|no|referred_?by|burn|unplace|place|undelegate|delegate|roll)\b)`)

	reProposal   = lazyre.MustCompile(`(?i)^\{\s*proposal\s*:\s*(addition|subtraction|replacement)\s*\}$`)
	reVote       = lazyre.MustCompile(`(?i)^\{\s*(?:yes|no)\s*\}$`)
	reReferred   = lazyre.MustCompile(`(?i)^\{\s*referred_?by\s*:\s*["“]?\s*@?([^"”{}]+?)\s*["”]?\s*\}$`)
	reGift       = lazyre.MustCompile(`(?i)^\{\s*gift_?\s*(` + contract.WholeNumber + `)\s*_?land_?to\s*:\s*["“]?\s*@?([^"”{}]+?)\s*["”]?\s*\}$`)
	reBurn       = lazyre.MustCompile(`(?i)^\{\s*burn\s*:\s*(-?` + contract.WholeNumber + `)\s*\}$`)
	rePlace      = lazyre.MustCompile(`(?i)^\{\s*place\s*:\s*l\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*\}$`)
	reUnplace    = lazyre.MustCompile(`(?i)^\{\s*unplace\s*:\s*l\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*\}$`)
	reDelegate   = lazyre.MustCompile(`(?i)^\{\s*delegate\s*:\s*(-?` + contract.WholeNumber + `(?:\.\d+)?)\s*(?:sp|steem power)?\s*\}$`)
	reUndelegate = lazyre.MustCompile(`(?i)^\{\s*undelegate\s*\}$`)
	reRoll       = lazyre.MustCompile(`(?i)^\{\s*roll\s*\}$`)
	reKind       = lazyre.MustCompile(`(?i)^\s*(addition|subtraction|replacement)\b\s*[:,.-]?\s*(.*)$`)
)

// Syntax strings shown in rejections and the guide.
const (
	synProposal = "a block between lines of three or more dashes: {PROPOSAL:ADDITION|SUBTRACTION|REPLACEMENT}, then \"Replacement: Gameplay, Rule 4\", then the rule's text"
	synVote     = "{YES} or {NO}"
	synReferred = `{REFERRED_BY:"name"}`
	synGift     = `{GIFT_3_LAND_TO:"name"}`
	synBurn     = "{BURN:2}"
	synPlace    = "{PLACE: L(3, 4)} or {UNPLACE: L(3, 4)}"
	synDelegate = "{DELEGATE: 0.5} or {UNDELEGATE}"
	synRoll     = "{ROLL}"
)

// Extract finds the tags of a message (contract.Extractor). Proposal blocks
// come first out of the text, so that tags quoted inside a proposed rule are
// not performed; {DELEGATE: N} sorts first in its message, so that a new
// player's {REFERRED_BY} may stand anywhere in eir first message (S9).
func (g *Game) Extract(c *contract.Ctx, m *contract.Message) []*contract.Action {
	// Every tag opens with "{" (tagOpen), which most mail has none of.
	if strings.IndexByte(m.Text, '{') < 0 {
		return nil
	}
	return extractTags(m.Text)
}

// extractTags is Extract of a text.
func extractTags(t string) []*contract.Action {
	var acts []*contract.Action
	mask := make([]bool, len(t))
	// Proposal blocks: the tag on a line after a dash line, its content up to
	// the next dash line or the end.
	lines := splitLines(t)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		loc := tagOpen().FindStringSubmatchIndex(l.text)
		if loc == nil || !strings.EqualFold(l.text[loc[2]:loc[3]], "proposal") {
			continue
		}
		inBlock := false
		for j := i - 1; j >= 0; j-- {
			if dashLine().MatchString(lines[j].text) {
				inBlock = true
				break
			}
			if strings.TrimSpace(lines[j].text) != "" {
				break
			}
		}
		end := len(lines)
		for j := i + 1; j < len(lines); j++ {
			if dashLine().MatchString(lines[j].text) {
				end = j
				break
			}
		}
		var body []string
		for j := i + 1; j < end; j++ {
			body = append(body, lines[j].text)
		}
		endOff := len(t)
		if end < len(lines) {
			endOff = lines[end].off
		}
		for k := l.off; k < endOff; k++ {
			mask[k] = true
		}
		tag := strings.TrimSpace(l.text[loc[0]:])
		if head, _, ok := strings.Cut(tag, "}"); ok {
			tag = tag[:len(head)+1]
		}
		a := &contract.Action{Line: tag, Offset: l.off + loc[0], Verb: verb("propose"), Args: map[string]string{}, Body: strings.TrimSpace(strings.Join(body, "\n"))}
		pm := reProposal().FindStringSubmatch(tag)
		switch {
		case pm == nil:
			a.Reject = contract.Reject("syntax", "a proposal is written as %s", synProposal)
		case !inBlock:
			a.Reject = contract.Reject("Implementation Details, Proposals", "the proposal must stand between lines of three or more dashes; the text outside them is discussion")
		default:
			a.Args["type"] = strings.ToUpper(pm[1])
			readProposalBody(a)
		}
		acts = append(acts, a)
		i = end - 1
	}
	// The other tags, outside proposal blocks.
	for _, loc := range tagOpen().FindAllStringSubmatchIndex(t, -1) {
		if mask[loc[0]] {
			continue
		}
		name := strings.ToLower(t[loc[2]:loc[3]])
		rest := t[loc[0]:]
		// The tag runs to its "}", if one closes it on its line.
		head, _, closed := strings.Cut(firstLine(rest), "}")
		tag := strings.TrimSpace(head)
		if closed {
			tag = rest[:len(head)+1]
		}
		if name == "proposal" {
			// Implementation Details, Proposals: a proposal's tag is the first
			// tag of its line; one after another tag is refused with the
			// form, not ignored.
			acts = append(acts, &contract.Action{Line: tag, Offset: loc[0], Verb: verb("propose"), Args: map[string]string{},
				Reject: contract.Reject("Implementation Details, Proposals", "a proposal's tag is the first tag of its line, in %s", synProposal)})
			continue
		}
		a := readTag(name, tag)
		a.Offset = loc[0]
		if !closed {
			a.Reject = contract.Reject("syntax", "the tag is not closed with \"}\"; write %s", a.Verb.Syntax)
		}
		acts = append(acts, a)
	}
	for _, a := range acts {
		if a.Verb.Name == "delegate" && a.Reject == nil {
			a.Offset = -1
		}
	}
	return acts
}

type line struct {
	text string
	off  int
}

func splitLines(t string) []line {
	var out []line
	off := 0
	for _, l := range strings.SplitAfter(t, "\n") {
		if l == "" {
			continue
		}
		out = append(out, line{strings.TrimRight(l, "\r\n"), off})
		off += len(l)
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// readProposalBody reads "TYPE, AFFECTED RULES IF APPLICABLE" and the rule's
// text from the block.
func readProposalBody(a *contract.Action) {
	// The body is trimmed (Extract), so its first line is the type line if
	// there is one.
	lines := strings.Split(a.Body, "\n")
	if m := reKind().FindStringSubmatch(lines[0]); m != nil {
		a.Args["ref"] = strings.TrimSpace(m[2])
		if !strings.EqualFold(m[1], a.Args["type"]) {
			a.Args["kind_mismatch"] = strings.ToUpper(m[1])
		}
		lines = lines[1:]
	}
	var rest []string
	for _, l := range lines {
		rest = append(rest, strings.TrimSpace(l))
	}
	a.Args["text"] = strings.TrimSpace(strings.Join(strings.Fields(strings.Join(rest, " ")), " "))
}

// readTag parses one tag into an action; broken syntax becomes a rejection
// naming the syntax expected.
func readTag(name, tag string) *contract.Action {
	a := &contract.Action{Line: tag, Args: map[string]string{}}
	// read matches the tag against re and stores its groups as args, in order.
	read := func(re func() *regexp.Regexp, verbName, syn string, args ...string) *contract.Action {
		a.Verb = verb(verbName)
		m := re().FindStringSubmatch(tag)
		if m == nil {
			a.Reject = contract.Reject("syntax", "write %s", syn)
			return a
		}
		for i, k := range args {
			a.Args[k] = m[i+1]
		}
		return a
	}
	switch name {
	case "yes", "no":
		read(reVote, "vote", synVote)
		if a.Reject == nil {
			a.Args["vote"] = name
		}
		return a
	case "referred_by", "referredby":
		return read(reReferred, "referral", synReferred, "name")
	case "gift":
		return read(reGift, "gift", synGift, "n", "name")
	case "burn":
		return read(reBurn, "burn", synBurn, "n")
	case "place":
		return read(rePlace, "place", synPlace, "x", "y")
	case "unplace":
		return read(reUnplace, "unplace", synPlace, "x", "y")
	case "delegate":
		return read(reDelegate, "delegate", synDelegate, "n")
	case "undelegate":
		return read(reUndelegate, "undelegate", synDelegate)
	case "roll":
		return read(reRoll, "roll", synRoll)
	}
	return a
}

// parsePower reads a declared power as thousandths (ruling S1), its
// whole part digits or with commas between thousands (contract.WholeNumber).
func parsePower(s string) (int64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	w, ok := contract.ParseWhole(whole)
	if !ok || w > 1_000_000 {
		return 0, false
	}
	frac = (frac + "000")[:3]
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, false
	}
	return w*1000 + f, true
}
