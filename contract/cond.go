package contract

import (
	"strings"

	"referee/internal/lazyre"
)

var (
	condOwn       = lazyre.MustCompile(`(?i)^i\s+(?:own|have|hold)\s+(?P<cmp>more than|fewer than|less than|at least|at most|exactly|over|under)?\s*(?P<n>` + WholeNumber + `)\s+(?P<what>.+)$`)
	condPlayer    = lazyre.MustCompile(`(?i)^i\s+am\s+(?P<not>not\s+)?(?:a|an)\s+(?:contestant|player|member|party)\s*(?:(?:of|in|to)\s+(?P<game>.+))?$`)
	condSplitAnd  = lazyre.MustCompile(`(?i)\s+and\s+`)
	condOtherJoin = lazyre.MustCompile(`(?i),(?:[^0-9]|$)|\bor\b`)
	ifChain       = lazyre.MustCompile(`(?i),\s*(?:and\s+)?if\s+`)
)

// andConds reads the condition of "If A, if B, I ..." (or "If A, and if
// B, I ...") as both, "A and B", as a condition inside a condition is
// (G3); a condition without a further "if" is returned trimmed.
func andConds(cond string) string {
	return ifChain().ReplaceAllString(strings.TrimSpace(cond), " and ")
}

// evalCond decides a condition from the state at once (G3), or fails: it is
// never performed unconditionally.
func (e *Engine) evalCond(c *Ctx, cond string) (bool, error) {
	// Conditions join with "and" alone: a comma or "or" left in one would
	// be read as part of a game's or currency's name.
	if condOtherJoin().MatchString(cond) {
		return false, Reject("G3", "the condition %q joins conditions with a comma or \"or\", which the referee does not read, so the action was not performed; write \"If A and B, I ...\" or \"If A, if B, I ...\" (both must hold)", cond)
	}
	for _, part := range condSplitAnd().Split(strings.TrimSpace(cond), -1) {
		ok, err := e.evalOne(c, strings.TrimSpace(part))
		if err != nil || !ok {
			return ok, err
		}
	}
	return true, nil
}

func (e *Engine) evalOne(c *Ctx, cond string) (bool, error) {
	if m := condOwn().FindStringSubmatch(cond); m != nil {
		n, ok := ParseWhole(m[2])
		if !ok {
			return false, Reject("G3", "the condition %q counts %q, which is not a whole number; the action was not performed", cond, m[2])
		}
		what := strings.ToLower(strings.TrimSpace(m[3]))
		var have int64
		switch {
		case what == "points" || what == "point":
			have = int64(c.s.Score(c.Actor().Name, ""))
		default:
			cur, _, ok := e.currency(what)
			if !ok {
				return false, Reject("G3", "the condition %q names %q, which no game counts; the action was not performed", cond, what)
			}
			have = c.s.Ledger.Balance(cur.ID, c.Actor().Name)
		}
		switch strings.ToLower(m[1]) {
		case "more than", "over":
			return have > n, nil
		case "fewer than", "less than", "under":
			return have < n, nil
		case "at least", "":
			return have >= n, nil
		case "at most":
			return have <= n, nil
		default:
			return have == n, nil
		}
	}
	if m := condPlayer().FindStringSubmatch(cond); m != nil {
		in := false
		game := strings.TrimSpace(m[2])
		if game == "" {
			in = len(c.Actor().Member) > 0
		} else {
			g := e.gameNamed(game)
			if g == "" {
				return false, Reject("G3", "the condition %q names no game the referee runs; the action was not performed", cond)
			}
			in = c.Actor().In(g)
		}
		if m[1] != "" {
			in = !in
		}
		return in, nil
	}
	return false, Reject("G3", "the referee cannot decide the condition %q from the state, so the action was not performed (conditions it can decide: \"if I own more than N <currency>\", \"if I am a contestant of <game>\")", cond)
}
