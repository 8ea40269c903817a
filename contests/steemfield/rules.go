package steemfield

import (
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"referee/contract"
	"referee/contract/text"
	"referee/internal/lazyre"
)

// rules.txt is the starting rule set: the meta rules and the base rules of the
// Steemfield text, one rule a line, "# Section" lines starting each section.
//
//go:embed rules.txt
var rulesText string

// Sections in the order of the source text (ruling S3).
var sections = []string{"Meta", "Participation", "Voting and Proposals", "Totem Behavior", "Gameplay", "Rewards Allocation"}

// steemOnly are the starting rules with no email counterpart (ruling S12).
var steemOnly = []string{
	"The totem account may accept rewards from comments and posts.",
	"The totem account must set all comments and posts to 50% SP / 50% SBD.",
	"The winner of the game shall receive all liquid currency the totem has accumulated as a result of the game when they win.",
}

// mechanics are the starting rules the referee performs, by section and
// number: subtracting one switches its mechanic off (S11).
var mechanics = map[string]string{
	"Voting and Proposals 5": "burn",
	"Voting and Proposals 9": "passland",
	"Gameplay 1":             "roundland",
	"Gameplay 5":             "win",
	"Gameplay 6":             "gift",
	"Gameplay 7":             "denial",
	"Gameplay 8":             "penalty",
	"Gameplay 9":             "referral",
	"Gameplay 11":            "place",
	"Gameplay 12":            "growth",
	"Gameplay 13":            "unplace",
	"Gameplay 14":            "death",
	"Gameplay 15":            "returns",
}

func initialRules() []Rule {
	var out []Rule
	sec := ""
	for _, l := range strings.Split(rulesText, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case strings.HasPrefix(l, "# "):
			sec = strings.TrimPrefix(l, "# ")
		default:
			r := Rule{Section: sec, Text: l}
			for _, s := range steemOnly {
				if s == l {
					r.NA = true
				}
			}
			out = append(out, r)
			out[len(out)-1].Key = mechanics[fmt.Sprintf("%s %d", sec, number(out, len(out)-1))]
		}
	}
	return out
}

// number returns the rule's position within its section, 1-based (S3).
func number(rules []Rule, i int) int {
	n := 0
	for j := 0; j <= i; j++ {
		if rules[j].Section == rules[i].Section {
			n++
		}
	}
	return n
}

// find returns the index of rule "Section N", or -1.
func find(rules []Rule, section string, n int) int {
	k := 0
	for i, r := range rules {
		if r.Section == section {
			k++
			if k == n {
				return i
			}
		}
	}
	return -1
}

var sectionAliases = []struct {
	re  func() *regexp.Regexp
	sec string
}{
	{lazyre.MustCompile(`(?i)\bmeta\b`), "Meta"},
	{lazyre.MustCompile(`(?i)\bparticipation\b`), "Participation"},
	{lazyre.MustCompile(`(?i)\bvoting\b`), "Voting and Proposals"},
	{lazyre.MustCompile(`(?i)\btotem\s+behaviou?r\b`), "Totem Behavior"},
	{lazyre.MustCompile(`(?i)\bgame\s*play\b`), "Gameplay"},
	{lazyre.MustCompile(`(?i)\brewards?\b`), "Rewards Allocation"},
}

var ruleNumber = lazyre.MustCompile(`(?i)(?:rule\s*)?#?\s*(\d+)`)

// parseRef reads a rule reference ("Gameplay, Rule 4", "Gameplay 4", "Rule #5
// of Gameplay", or the quoted text of a rule) against the current rules.
// Without a number it returns the section alone (n = 0).
func parseRef(rules []Rule, ref string) (sec string, n int, ok bool) {
	ref = strings.TrimSpace(ref)
	if q := quoted(ref); q != "" {
		for i, r := range rules {
			if strings.EqualFold(strings.TrimSpace(r.Text), q) {
				return r.Section, number(rules, i), true
			}
		}
	}
	for _, a := range sectionAliases {
		if a.re().MatchString(ref) {
			sec = a.sec
			break
		}
	}
	if sec == "" {
		return "", 0, false
	}
	if m := ruleNumber().FindStringSubmatch(ref); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	return sec, n, true
}

func quoted(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		i := strings.Index(s, q[0])
		j := strings.LastIndex(s, q[1])
		if i >= 0 && j > i+len(q[0]) {
			return strings.TrimSpace(s[i+len(q[0]) : j])
		}
	}
	return ""
}

// ruleSet renders the numbered rule set (S3), marking the Steem-only rules
// (S12) and the rules awaiting a ruling (G9).
func ruleSet(rules []Rule) string {
	var b strings.Builder
	for _, sec := range sections {
		title := sec
		if sec == "Meta" {
			title = "Steemfield Meta Rules (Meta; not changed by proposals)"
		}
		b.WriteString("\n")
		b.WriteString(text.Heading(title))
		for i, r := range rules {
			if r.Section != sec {
				continue
			}
			t := r.Text
			if r.NA {
				t += " [not applicable by email]"
			}
			if r.Needs != "" {
				t += " [needs the totem controller's ruling]"
			}
			head := fmt.Sprintf("%s %d. ", sec, number(rules, i))
			b.WriteString(text.WrapIndent(t, 0, head, "    "))
		}
	}
	return b.String()
}

// applyChange changes the rule set for a passed proposal (S11); it returns the
// index of the new or replaced rule (-1 for a subtraction).
func applyChange(rules []Rule, p *Proposal) ([]Rule, int, error) {
	switch p.Type {
	case "ADDITION":
		sec := p.Section
		if sec == "" {
			sec = "Gameplay"
		}
		at := len(rules)
		for i, r := range rules {
			if r.Section == sec {
				at = i + 1
			}
		}
		out := append([]Rule(nil), rules[:at]...)
		out = append(out, Rule{Section: sec, Text: p.Text})
		return append(out, rules[at:]...), at, nil
	case "SUBTRACTION", "REPLACEMENT":
		i := find(rules, p.Section, p.Number)
		if i < 0 {
			return rules, -1, fmt.Errorf("apply %s: no rule %s %d", strings.ToLower(p.Type), p.Section, p.Number)
		}
		out := append([]Rule(nil), rules...)
		if p.Type == "SUBTRACTION" {
			return append(out[:i], out[i+1:]...), -1, nil
		}
		// The replaced rule's mechanic goes on until the new text says
		// otherwise (a parameter it sets, or the controller's ruling, G9).
		out[i] = Rule{Section: p.Section, Text: p.Text, Key: rules[i].Key}
		return out, i, nil
	}
	return rules, -1, fmt.Errorf("apply: unknown proposal type %q", p.Type)
}

// Natural-language forms of the parameters a rule may set (ruling S11), read
// when a passed rule carries no "SET X = v" line (G9). The number is read
// whole, with the commas a writer puts between thousands ("The cap on total
// LAND is 1,000."): formNumber takes every digit and comma of it, so that
// "1,000" is never read as 1.
var paramForms = []struct {
	re    func() *regexp.Regexp
	param string
	unit  string
}{
	{lazyre.MustCompile(`(?i)\bcap on (?:the )?total land is ` + formNumber + `\b`), PLandCap, ""},
	{lazyre.MustCompile(`(?i)\btotal of ` + formNumber + ` land\b`), PLandCap, ""},
	{lazyre.MustCompile(`(?i)\bany player to (?:get|reach|own|have) ` + formNumber + ` (?:or more )?land wins\b`), PWin, ""},
	{lazyre.MustCompile(`(?i)\bproposal period is ` + formNumber + ` hours?\b`), PProposalPeriod, "h"},
	{lazyre.MustCompile(`(?i)\bvoting period (?:for a proposal )?is ` + formNumber + ` hours?\b`), PVotingPeriod, "h"},
	{lazyre.MustCompile(`(?i)\b` + formNumber + `\s*x\s*\d+ grid\b`), PGrid, ""},
	{lazyre.MustCompile(`(?i)\bminimum of ` + formNumber + ` days\b`), PRoundMinimum, "d"},
}

// formNumber is a number in a rule's natural-language form: digits, and the
// commas between them, read by contract.ParseWhole (one that is no whole
// number, "1,5", is kept as written, for the parameter to refuse).
const formNumber = `(\d(?:[\d,]*\d)?)`

// readChange finds the machine-readable change of a rule text: "SET X = v"
// (G9) or one of the natural forms above.
func readChange(t string) (param, value string, ok bool) {
	if kind, name, v, ok := contract.ParseChange(t); ok && kind == "set" {
		return name, v, true
	}
	for _, f := range paramForms {
		if m := f.re().FindStringSubmatch(t); m != nil {
			v := m[1]
			n, whole := contract.ParseWhole(v)
			switch {
			case !whole:
				// Refused by the parameter, naming the value as written.
			case f.unit == "h":
				v = strconv.FormatInt(n, 10) + "h"
			case f.unit == "d":
				v = strconv.FormatInt(24*n, 10) + "h"
			default:
				v = strconv.FormatInt(n, 10)
			}
			return f.param, v, true
		}
	}
	return "", "", false
}
