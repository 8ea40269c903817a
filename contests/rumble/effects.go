package rumble

import (
	"strconv"
	"strings"

	"referee/internal/lazyre"
)

// Machine-readable power effects (ruling U5). S is the power's strength, the
// highest bid on it (Rumble 5). An effect works in a round when its holder
// allocates at least 1 energy to it; each power works once a round.
//
//	ward    Spend: add S to your Defense.
//	fury    Spend: add S to each of your Attacks.
//	mend    Spend: regain S stamina at the end of the round.
//	thorns  Spend: each contestant who Attacks you loses S/2 stamina (rounded down).
//	blood   Burn: add twice the energy Burnt to your Defense.
//
// A power without one of these is adjudicated by the contestmaster: eir ruling
// (private, "I rule on #N: ...") is read with the same words plus a number, or
// "strike <player> N" (that contestant loses N stamina, counted as an Attack of
// the power's holder), or "none".
type effect struct {
	Name string
	Kind string // spend or burn
	Help string
}

var effects = []effect{
	{"ward", "spend", "Spend: add S to your Defense."},
	{"fury", "spend", "Spend: add S to each of your Attacks."},
	{"mend", "spend", "Spend: regain S stamina at the end of the round."},
	{"thorns", "spend", "Spend: each contestant who Attacks you loses S/2 stamina, rounded down."},
	{"blood", "burn", "Burn: add twice the energy Burnt to your Defense."},
}

func effectByName(name string) (effect, bool) {
	for _, e := range effects {
		if e.Name == strings.ToLower(name) {
			return e, true
		}
	}
	return effect{}, false
}

// powerKind is how energy goes into a power with an effect: "spend" or "burn".
// It is "" for an adjudicated power, which takes whichever the player names.
func powerKind(p *Power) string {
	if e, ok := effectByName(p.Effect); ok {
		return e.Kind
	}
	return ""
}

var effectTag = lazyre.MustCompile(`(?i)(?:[\[(]\s*(?:effect\s*[:=]?\s*)?(ward|fury|mend|thorns|blood)\s*[\])]|\beffect\s*[:=]\s*(ward|fury|mend|thorns|blood)\b)`)

// tagEffect finds an effect tag in a power's description: "(ward)", "[fury]",
// "effect: mend".
func tagEffect(text string) string {
	m := effectTag().FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	if m[1] != "" {
		return strings.ToLower(m[1])
	}
	return strings.ToLower(m[2])
}

// ruled is a contestmaster's ruling on a use of a power, read as an effect.
type ruled struct {
	Effect string // ward, fury, mend, thorns, strike; "" for none
	N      int
	Target string
}

var (
	ruleNone   = lazyre.MustCompile(`(?i)^(?:none|no effect|nothing|it (?:has|does) no effect|no)\b`)
	ruleEffect = lazyre.MustCompile(`(?i)^(ward|fury|mend|thorns)\s*[:=]?\s*\+?(\d+)\b`)
	ruleStrike = lazyre.MustCompile(`(?i)^strike\s+(.+?)\s*[:=]?\s+(\d+)\b`)
)

// readRuling reads a ruling answer; ok is false when it says none of the forms.
func readRuling(answer string) (ruled, bool) {
	a := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(answer), "."))
	switch {
	case ruleNone().MatchString(a):
		return ruled{}, true
	case ruleEffect().MatchString(a):
		m := ruleEffect().FindStringSubmatch(a)
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return ruled{}, false
		}
		return ruled{Effect: strings.ToLower(m[1]), N: n}, true
	case ruleStrike().MatchString(a):
		m := ruleStrike().FindStringSubmatch(a)
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return ruled{}, false
		}
		return ruled{Effect: "strike", N: n, Target: m[1]}, true
	}
	return ruled{}, false
}

func (r ruled) String() string {
	switch r.Effect {
	case "":
		return "none"
	case "strike":
		return "strike " + r.Target + " " + strconv.Itoa(r.N)
	}
	return r.Effect + " " + strconv.Itoa(r.N)
}
