package contract

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Param is a parameter a game declares (name, type, default, valid range, the rule
// it comes from). Parameters change only through the game's amendment mechanism
// (G9: "SET <parameter> = <value>") and are listed in its report.
type Param struct {
	Name    string // "VPP"
	Type    string // "int", "string", "bool", "duration", "choice"
	Default string // "10"
	Min     int64  // for int (inclusive), when Min < Max
	Max     int64
	Choices []string // for choice (variants)
	Rule    string   // "R6"
	Help    string
}

// Validate checks a value against the declaration and returns it normalised.
func (p Param) Validate(v string) (string, error) {
	v = strings.TrimSpace(v)
	switch p.Type {
	case "int":
		n, ok := paramInt(v)
		if !ok {
			return "", Reject(p.Rule, "%s must be a whole number, not %q", p.Name, v)
		}
		if p.Min < p.Max && (n < p.Min || n > p.Max) {
			return "", Reject(p.Rule, "%s must be between %d and %d, not %d", p.Name, p.Min, p.Max, n)
		}
		return strconv.FormatInt(n, 10), nil
	case "bool":
		b, err := strconv.ParseBool(strings.ToLower(v))
		if err != nil {
			return "", Reject(p.Rule, "%s must be true or false, not %q", p.Name, v)
		}
		return strconv.FormatBool(b), nil
	case "duration":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return "", Reject(p.Rule, "%s must be a duration such as 72h, not %q", p.Name, v)
		}
		return d.String(), nil
	case "choice":
		for _, c := range p.Choices {
			if strings.EqualFold(c, v) {
				return c, nil
			}
		}
		return "", Reject(p.Rule, "%s must be one of %s, not %q", p.Name, strings.Join(p.Choices, ", "), v)
	default:
		return v, nil
	}
}

// paramInt reads the value of an int parameter: digits after an optional
// sign, or, as Agora writes amounts, with commas between thousands
// ("SET VPP = 1,000", "SET Xmin = -1,000": WholeNumber). "1,00" and "1,5"
// are no whole numbers.
func paramInt(v string) (int64, bool) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n, true
	}
	digits, neg := strings.CutPrefix(v, "-")
	if !neg {
		digits = strings.TrimPrefix(v, "+")
	}
	n, ok := ParseWhole(digits)
	if neg {
		n = -n
	}
	return n, ok
}

func (e *Engine) param(game, name string) (Param, bool) {
	g := e.games[game]
	if g == nil {
		return Param{}, false
	}
	for _, p := range g.Spec().Params {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	for _, p := range coreParams {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Param{}, false
}

// Param returns the current value of one of the game's parameters (its default
// when unset).
func (c *Ctx) Param(name string) string {
	p, ok := c.e.param(c.game, name)
	if !ok {
		panic(fmt.Sprintf("contract: game %s has no parameter %s", c.game, name))
	}
	if v, ok := c.gs.Params[p.Name]; ok {
		return v
	}
	return p.Default
}

// IntParam returns an int parameter.
func (c *Ctx) IntParam(name string) int {
	n, err := strconv.Atoi(c.Param(name))
	if err != nil {
		panic(fmt.Sprintf("contract: parameter %s of %s is not a number: %v", name, c.game, err))
	}
	return n
}

// DurationParam returns a duration parameter.
func (c *Ctx) DurationParam(name string) time.Duration {
	d, err := time.ParseDuration(c.Param(name))
	if err != nil {
		panic(fmt.Sprintf("contract: parameter %s of %s is not a duration: %v", name, c.game, err))
	}
	return d
}

// SetParam changes a parameter after validating it; only amendment mechanisms
// call it (G9).
func (c *Ctx) SetParam(name, value string) error {
	p, v, err := c.checkParam(name, value)
	if err != nil {
		return err
	}
	c.s.touchParam(c.gs, p.Name)
	if c.gs.Params == nil {
		c.gs.Params = map[string]string{}
	}
	c.gs.Params[p.Name] = v
	c.Detail("set "+p.Name, v)
	return nil
}

// CheckParam refuses what SetParam would refuse, changing nothing: a
// parameter the game does not have, or a value it cannot take. An
// amendment's intent is checked so when it is announced (G7, G9).
func (c *Ctx) CheckParam(name, value string) error {
	_, _, err := c.checkParam(name, value)
	return err
}

// checkParam is the declaration of the game's parameter name and value
// validated against it.
func (c *Ctx) checkParam(name, value string) (Param, string, error) {
	p, ok := c.e.param(c.game, name)
	if !ok {
		return Param{}, "", Reject("G9", "%s has no parameter %q", c.e.games[c.game].Spec().Title, name)
	}
	v, err := p.Validate(value)
	if err != nil {
		return Param{}, "", err
	}
	return p, v, nil
}

// ParseChange reads a machine-readable change of G9: "SET <parameter> = <value>"
// or "SELECT <variant>". ok is false when text holds neither.
func ParseChange(text string) (kind, name, value string, ok bool) {
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		u := strings.ToUpper(l)
		switch {
		case strings.HasPrefix(u, "SET "):
			rest := l[4:]
			i := strings.Index(rest, "=")
			if i < 0 {
				continue
			}
			return "set", strings.TrimSpace(rest[:i]), strings.TrimSpace(strings.TrimRight(rest[i+1:], ".")), true
		case strings.HasPrefix(u, "SELECT "):
			return "select", "", strings.TrimSpace(strings.TrimRight(l[7:], ".")), true
		}
	}
	return "", "", "", false
}
