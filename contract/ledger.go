package contract

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Currency is an asset a game keeps in the ledger.
type Currency struct {
	// ID is the ledger key, "<game>/<name>": "life/vial".
	ID string
	// Singular and Plural name the unit for players: "Vial", "Vials".
	Singular, Plural string
	// Aliases are other words players use for it, lower case: "vials of primordial ooze".
	Aliases []string
	// CanOwn says whether an entity may own the currency (Life R13). Nil: anyone.
	CanOwn func(s *State, owner string) bool
	// Transferable says whether players may transfer it by announcement with the
	// generic "I transfer N <currency> to <entity>".
	Transferable bool
	// Rule cites the rule that defines the currency.
	Rule string
}

// Entities that are not players own assets too. A contest is "contest:<game>", a
// game's contestmaster "contestmaster:<game>".
func ContestEntity(game string) string       { return "contest:" + game }
func ContestmasterEntity(game string) string { return "contestmaster:" + game }

// EntityName is how a ledger owner is named to players: "the Life contest",
// "the Life contestmaster", or the player's name.
func (e *Engine) EntityName(owner string) string {
	for _, p := range []struct{ prefix, format string }{{"contest:", "the %s contest"}, {"contestmaster:", "the %s contestmaster"}} {
		if strings.HasPrefix(owner, p.prefix) {
			game := strings.TrimPrefix(owner, p.prefix)
			title := game
			if g := e.games[game]; g != nil {
				title = g.Spec().Title
			}
			return fmt.Sprintf(p.format, title)
		}
	}
	return owner
}

// Ledger holds every game's currencies: balances per owner, and the supply (minted
// less destroyed) against which conservation is checked after every action.
type Ledger struct {
	Balances map[string]map[string]int64 `yaml:"balances"` // currency -> owner -> amount
	Supply   map[string]int64            `yaml:"supply"`   // currency -> minted - destroyed
	// undo is the state's undo log (State.Begin): every entry is recorded
	// before it changes.
	undo *undoLog
}

// Balance is what owner holds of currency.
func (l *Ledger) Balance(currency, owner string) int64 {
	return l.Balances[currency][owner]
}

func (l *Ledger) add(currency, owner string, n int64) {
	if l.Balances == nil {
		l.Balances = map[string]map[string]int64{}
	}
	b := l.Balances[currency]
	if b == nil {
		b = map[string]int64{}
		logKey(l.undo, l.Balances, currency)
		l.Balances[currency] = b
	}
	logKey(l.undo, b, owner)
	l.undo.touch(currency, owner)
	b[owner] += n
	if b[owner] == 0 {
		delete(b, owner)
	}
}

// Mint creates n units owned by owner.
func (l *Ledger) Mint(currency, owner string, n int64) error {
	if n < 0 {
		return fmt.Errorf("mint %d %s: negative amount", n, currency)
	}
	if l.Supply == nil {
		l.Supply = map[string]int64{}
	}
	logKey(l.undo, l.Supply, currency)
	l.Supply[currency] += n
	l.add(currency, owner, n)
	return nil
}

// Destroy removes n units owned by owner.
func (l *Ledger) Destroy(currency, owner string, n int64) error {
	if n < 0 || l.Balance(currency, owner) < n {
		return fmt.Errorf("destroy %d %s of %s: holds %d", n, currency, owner, l.Balance(currency, owner))
	}
	if l.Supply == nil {
		l.Supply = map[string]int64{} // none made yet: n is 0
	}
	logKey(l.undo, l.Supply, currency)
	l.Supply[currency] -= n
	l.add(currency, owner, -n)
	return nil
}

// Move transfers n units from one owner to another. Callers check the rules;
// Move refuses only what no rule could allow (negative amounts, overdrafts).
func (l *Ledger) Move(currency, from, to string, n int64) error {
	if n < 0 {
		return fmt.Errorf("move %d %s: negative amount", n, currency)
	}
	if l.Balance(currency, from) < n {
		return fmt.Errorf("move %d %s from %s: holds %d", n, currency, from, l.Balance(currency, from))
	}
	l.add(currency, from, -n)
	l.add(currency, to, n)
	return nil
}

// Owners lists the owners of a currency, sorted.
func (l *Ledger) Owners(currency string) []string {
	var out []string
	for o := range l.Balances[currency] {
		out = append(out, o)
	}
	sort.Strings(out)
	return out
}

// checkTouched is checkLedger for what the transaction changed: the right to
// own, and a holding not negative, of each owner whose holding, membership or
// name it changed. An action costs what it touches, not the size of the
// ledger. Conservation holds by construction: Mint, Destroy and Move change a
// currency's balances and its supply by the same amount, and nothing else
// changes them (a write behind them, a game's fault, is what the checks of
// undo find). With the checks of undo on, the whole ledger is checked too, and
// must agree.
func (s *State) checkTouched(currencies []Currency, t *Txn) error {
	l := &s.Ledger
	owners := map[ledgerTouch]bool{} // each currency's owners to check
	for _, x := range t.log.touched[t.tmark:] {
		if x.cur != "" {
			owners[x] = true
			continue
		}
		for _, cur := range currencies {
			owners[ledgerTouch{cur.ID, x.owner}] = true
		}
	}
	errs := map[string]bool{}
	canOwn := map[string]func(*State, string) bool{}
	for _, cur := range currencies {
		canOwn[cur.ID] = cur.CanOwn
	}
	for o := range owners {
		n, ok := l.Balances[o.cur][o.owner]
		if !ok {
			continue
		}
		if n < 0 {
			errs[fmt.Sprintf("%s: %s holds %d", o.cur, o.owner, n)] = true
		}
		if f := canOwn[o.cur]; f != nil && !f(s, o.owner) {
			errs[fmt.Sprintf("%s: %s may not own it", o.cur, o.owner)] = true
		}
	}
	var err error
	if len(errs) > 0 {
		list := slices.Sorted(maps.Keys(errs))
		err = fmt.Errorf("ledger invariant violated: %s", strings.Join(list, "; "))
	}
	if verifyUndo.Load() {
		if full := s.checkLedger(currencies); (full == nil) != (err == nil) {
			panic(fmt.Sprintf("contract: the check of the touched ledger entries says %v, the whole ledger's %v", err, full))
		}
	}
	return err
}

// Check verifies conservation (the balances add up to the supply, none is
// negative) and that every owner may own what it holds. A failure is a fault of
// ours: the message that caused it is not acknowledged.
func (s *State) checkLedger(currencies []Currency) error {
	l := &s.Ledger
	ids := map[string]bool{}
	for c := range l.Balances {
		ids[c] = true
	}
	for c := range l.Supply {
		ids[c] = true
	}
	if errs := s.ledgerProblems(currencies, ids); len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("ledger invariant violated: %s", strings.Join(errs, "; "))
	}
	return nil
}

// ledgerProblems lists the breaches of conservation of the currencies ids
// and of the right to own of every owner of currencies.
func (s *State) ledgerProblems(currencies []Currency, ids map[string]bool) []string {
	l := &s.Ledger
	var errs []string
	for c := range ids {
		var sum int64
		for o, n := range l.Balances[c] {
			if n < 0 {
				errs = append(errs, fmt.Sprintf("%s: %s holds %d", c, o, n))
			}
			sum += n
		}
		if sum != l.Supply[c] {
			errs = append(errs, fmt.Sprintf("%s: balances add up to %d but the supply is %d", c, sum, l.Supply[c]))
		}
	}
	for _, cur := range currencies {
		if cur.CanOwn == nil {
			continue
		}
		for o := range l.Balances[cur.ID] {
			if !cur.CanOwn(s, o) {
				errs = append(errs, fmt.Sprintf("%s: %s may not own it", cur.ID, o))
			}
		}
	}
	return errs
}

// Award adds points to a player's score in the points ledger (G6). The journal
// keeps the history (game, reason, date); the state keeps the totals.
func (c *Ctx) Award(player string, points int, reason string) {
	c.reads |= readBeyond
	s := c.s
	if s.Points == nil {
		s.Points = map[string]map[string]int{}
	}
	u := s.undoLog()
	if s.Points[player] == nil {
		logKey(u, s.Points, player)
		s.Points[player] = map[string]int{}
	}
	logKey(u, s.Points[player], c.game)
	s.Points[player][c.game] += points
	c.Detail("points", map[string]any{"player": player, "points": points, "reason": reason})
}

// Score is a player's points from one game ("" for all games).
func (s *State) Score(player, game string) int {
	if game != "" {
		return s.Points[player][game]
	}
	t := 0
	for _, n := range s.Points[player] {
		t += n
	}
	return t
}
