package contract

import (
	"fmt"
	"slices"
	"strings"

	"referee/contract/text"
	"referee/internal/lazyre"
)

// The interpreter's own verbs: intents and their resolution (G7), transfers of any
// game's transferable currency, rulings (G8), names.
func (e *Engine) coreVerbs() []*Verb {
	return []*Verb{
		{Name: "stance", Scope: PublicOnly, Rule: "G7",
			Pattern: stancePattern,
			Syntax:  "I support intent #N / I object to intent #N / I withdraw my objection to intent #N (several: I object to intents #1 and #2)",
			Help:    "support or object to a tabled intent (by number, or in a reply to it)", Do: doStance},
		{Name: "do so", Scope: PublicOnly, Rule: "G7",
			Pattern: `do so(?:\s*\(?\s*(?:intent\s*)?#\s*(?P<id>\d+)\s*\)?)?`,
			Syntax:  "I do so (in a reply to the intent) / I do so (intent #N)",
			Help:    "perform a ripe intent you tabled", Do: doDoSo},
		{Name: "transfer", Scope: PublicOnly, Rule: "assets",
			Pattern: transferPattern,
			Syntax:  "I transfer N <currency> to <player> (or give, send, hand, pay)",
			Help:    "transfer a currency a game lets players transfer", Do: e.doTransfer},
		{Name: "rule", Scope: PrivateOnly, Rule: "G8",
			Pattern: `rule\s+(?:on\s+)?(?:request\s+)?#\s*(?P<id>\d+)\s*[:,.-]?\s*(?P<answer>.+)`,
			Syntax:  "I rule on #N: <answer> (contestmasters, privately)",
			Help:    "answer the referee's request for a ruling", Do: doRule},
		{Name: "name", Scope: Anywhere, Rule: NamingRule,
			Pattern: `(?:change|set)\s+my\s+(?:nick)?name\s+to\s+(?P<name>.+)`,
			Syntax:  "I change my name to <name>",
			Help:    "choose the name the referee knows you by", Do: doName},
	}
}

// transferPattern is the transfer's: the recipient after the amount, or
// first, as people write it too ("I give Bob 3 Vials", "I transfer to Bob
// 3 Vials"; no figure in the name, and the name whole: doTransfer).
const transferPattern = `(?:transfer|give|send|hand(?:\s+over)?|pay)\s+(?:(?P<n>` + WholeNumber + `|a|an|one)\s+(?P<cur>[a-z][a-z -]*?)\s+to\s+(?P<to>.+)` +
	`|(?:to\s+)?(?P<first>[^\d\s][^\d]*?)\s+(?P<n>` + WholeNumber + `|a|an|one)\s+(?P<cur>[a-z][a-z -]*?))`

var amountWord = map[string]int64{"a": 1, "an": 1, "one": 1}

func (e *Engine) doTransfer(c *Ctx, a *Action) error {
	n, ok := amountWord[strings.ToLower(a.Arg("n"))]
	if !ok {
		v, ok := ParseWhole(a.Arg("n"))
		if !ok {
			return Reject("syntax", "the amount %q is not a whole number", a.Arg("n"))
		}
		n = v
	}
	cur, game, ok := e.currency(a.Arg("cur"))
	if !ok {
		return Reject("syntax", "no game has a currency called %q", a.Arg("cur"))
	}
	c.concerns = game
	if !cur.Transferable {
		return Reject(cur.Rule, "%s cannot be transferred by announcement", cur.Plural)
	}
	from := c.Actor()
	// A recipient before the amount ("I give Bob 3 Vials") is named whole:
	// the start of a name there is as likely a word ("I give away 3
	// Vials", "I give back 2"), and would pay the player whose name
	// begins so.
	ref, whole := a.Arg("to"), false
	if r := a.Arg("first"); r != "" {
		ref, whole = r, true
	} else if r := a.Arg("_remark"); r != "" {
		// "to Bob, because Carol asked": the recipient read with its
		// remark, which must name no other player.
		ref += ", " + r
	}
	to, err := e.entity(c.s, ref, whole)
	if err != nil {
		var ok bool
		if to, ok = e.entityBeforeAside(c.s, ref, whole); !ok {
			return err
		}
	}
	if cur.CanOwn != nil && !cur.CanOwn(c.s, to) {
		return Reject(cur.Rule, "%s cannot own %s", e.EntityName(to), cur.Plural)
	}
	if cur.CanOwn != nil && !cur.CanOwn(c.s, from.Name) {
		return Reject(cur.Rule, "you cannot own %s", cur.Plural)
	}
	if n == 0 {
		c.Did("a transfer of zero %s does nothing", cur.Plural)
		return nil
	}
	if have := c.s.Ledger.Balance(cur.ID, from.Name); have < n {
		return Reject(cur.Rule, "you own %s, fewer than %d", text.Count(int(have), cur.Singular, cur.Plural), n)
	}
	if err := c.s.Ledger.Move(cur.ID, from.Name, to, n); err != nil {
		return err
	}
	c.game, c.gs = game, c.s.Games[game]
	unit := cur.Plural
	if n == 1 {
		unit = cur.Singular
	}
	c.Did("%d %s moved from %s to %s; you now own %d", n, unit, from.Name, e.EntityName(to), c.s.Ledger.Balance(cur.ID, from.Name))
	c.Record(from.Name, "transfers %d %s to %s", n, unit, e.EntityName(to))
	c.Detail("transfer", map[string]any{"currency": cur.ID, "n": n, "to": to})
	return nil
}

// asideMark is where a remark after a recipient begins: "Bob (as
// promised)", "Bob - thanks!", "Bob, for the cell", "Bob. (As agreed.)".
var asideMark = lazyre.MustCompile(`\s*(?:\(|\s[-–—]+(?:\s|$)|,\s|\.\s)`)

// asideInDoubt is a word of a remark that takes the action back, puts it
// off or makes it hang on something ("to Bob (not really)", "to Bob - just
// kidding", "to Bob, or not", "to Bob (when he joins)"): the action is in
// doubt (G3), and the recipient is not read.
var asideInDoubt = lazyre.MustCompile(`(?i)(?:\b(?:not|no|never|nope|or|kidding|joking|joke|jk|fools?|if|unless|when|whenever|once|until|till|after|before|later|tomorrow|soon|eventually|provided|assuming|pending|subject|conditional(?:ly)?|provisional(?:ly)?|maybe|perhaps|possibly|probably|hypothetical(?:ly)?|theory|wait|lol|haha|sarcas\w*)\b|n['’]t\b|/s\b)`)

// entityBeforeAside resolves a recipient written with a remark after it
// ("to Bob (as promised)"), when the words before the remark name a
// recipient and the remark names no other player ("to Bob (no, Carol)" is
// not read as Bob) nor puts the action in doubt (asideInDoubt). A remark
// without a mark before it ("to Alice as a gift", "to Bob because he
// asked") starts with one of remarkWords: the longest name before such a
// word that is a player's is read, so that a player called "Bob As" is
// never paid as Bob.
func (e *Engine) entityBeforeAside(s *State, ref string, whole bool) (string, bool) {
	if loc := asideMark().FindStringIndex(ref); loc != nil && loc[0] > 0 {
		if to, ok := e.entityAt(s, ref, loc[0], whole); ok {
			return to, true
		}
	}
	cuts := remarkCuts(ref)
	for i := len(cuts) - 1; i >= 0; i-- {
		if to, ok := e.entityAt(s, ref, cuts[i], whole); ok {
			return to, true
		}
	}
	return "", false
}

// entityAt resolves ref[:at] as a recipient whose remark is ref[at:]: ok
// is false when it names none, the remark is in doubt, or another
// player's name or nickname stands in ref past at (in the remark, or
// begun before it: "to Bob as a gift" where Bob As plays).
func (e *Engine) entityAt(s *State, ref string, at int, whole bool) (string, bool) {
	if asideInDoubt().MatchString(ref[at:]) {
		return "", false
	}
	to, err := e.entity(s, ref[:at], whole)
	if err != nil {
		return "", false
	}
	lower := " " + strings.ToLower(ref) + " "
	end := at + 1 // at in lower
	for _, p := range s.Players {
		if p.Name == to {
			continue
		}
		for _, n := range append([]string{p.Name}, p.Nicknames...) {
			n = strings.ToLower(n)
			for i, j := 0, 0; n != "" && i < len(lower); i = j + 1 {
				k := strings.Index(lower[i:], n)
				if k < 0 {
					break
				}
				j = i + k
				if j+len(n) > end && !isWordByte(lower[j-1]) && j+len(n) < len(lower) && !isWordByte(lower[j+len(n)]) {
					return "", false
				}
			}
		}
	}
	return to, true
}

// remarkWords are the words a remark after a recipient may start with
// where no mark stands before it ("to Alice as a gift", "to Bob for the
// cell"), in lower case; "as" only before a word of remarkAs or one
// ending in "ed" ("as promised").
var remarkWords = map[string]bool{"as": true, "because": true, "since": true, "for": true, "per": true, "thanks": true,
	"with": true, "cheers": true, "please": true}

// remarkCuts are the places in ref, left to right, where a word of
// remarkWords starts after white space.
func remarkCuts(ref string) []int {
	var cuts []int
	for i := 1; i < len(ref); i++ {
		if !isSpace(ref[i-1]) || isSpace(ref[i]) {
			continue
		}
		j := i
		for j < len(ref) && isWordByte(ref[j]) {
			j++
		}
		w := strings.ToLower(ref[i:j])
		if !remarkWords[w] {
			continue
		}
		if w == "as" {
			next, _, _ := strings.Cut(strings.ToLower(strings.TrimLeft(ref[j:], " \t")), " ")
			if !remarkAs[next] && !(len(next) > 3 && strings.HasSuffix(next, "ed")) {
				continue
			}
		}
		cuts = append(cuts, i)
	}
	return cuts
}

var contestRef = lazyre.MustCompile(`(?i)^(?:the\s+)?(.+?)\s+(?:contest|game)$`)

// entity resolves a recipient: a player, or a contest named by its game;
// whole, a player by eir whole name, nickname or address (ResolveWhole).
func (e *Engine) entity(s *State, ref string, whole bool) (string, error) {
	ref = strings.TrimSpace(ref)
	if m := contestRef().FindStringSubmatch(ref); m != nil {
		for _, g := range e.list {
			if strings.EqualFold(g.Spec().Title, m[1]) || strings.EqualFold(g.Spec().ID, m[1]) {
				return ContestEntity(g.Spec().ID), nil
			}
		}
	}
	resolve := s.Resolve
	if whole {
		resolve = s.ResolveWhole
	}
	p, err := resolve(ref)
	if err != nil {
		return "", err
	}
	return p.Name, nil
}

func doName(c *Ctx, a *Action) error {
	// Curly quotation marks around the name are no part of it, as
	// straight ones are not (cleanName leaves them out too).
	asked := strings.TrimSpace(strings.Trim(strings.Join(strings.Fields(a.Arg("name")), " "), "“”«»"))
	// So are straight ones, double or single, around the whole name
	// ("to "Alicia"", "to 'Alicia'"): a reference leaves them out too.
	if n := len(asked); n > 2 && (asked[0] == '"' || asked[0] == '\'') && asked[n-1] == asked[0] {
		asked = strings.TrimSpace(asked[1 : n-1])
	}
	name := cleanName(asked)
	if name == "" || strings.HasPrefix(name, "contest") {
		return Reject(NamingRule, "choose a name of letters and spaces")
	}
	// A name is kept as chosen or refused, never cut or stripped: the
	// reports and the status page would show a name nobody chose.
	if name != asked {
		if strings.ContainsAny(asked, "\"<>,;") {
			return Reject(NamingRule, "a name may not hold quotation marks, angle brackets, commas or semicolons")
		}
		if len(asked) > maxName {
			return Reject(NamingRule, "a name is at most %d bytes long; \"%s\" has %d", maxName, asked, len(asked))
		}
		return Reject(NamingRule, "choose a name of letters and spaces")
	}
	if other := c.s.PlayerByName(name); other != nil && other != c.Actor() {
		return Reject(NamingRule, "the name %q is taken", name)
	}
	p := c.Actor()
	old := p.Name
	if name != old {
		if err := c.e.renamable(c, p); err != nil {
			return err
		}
	}
	c.s.touchPlayer(p)
	c.s.undoLog().touch("", old)
	c.s.undoLog().touch("", name)
	p.Name = name
	renames.Add(1)
	renamePlayer(c.s, old, name)
	c.Did("you are now known as %s (before: %s)", name, old)
	return nil
}

// renamable asks each game that keeps players' names (NameKeeper) whether
// p may change eir name now: the first refusal is the answer.
func (e *Engine) renamable(c *Ctx, p *Player) error {
	for _, g := range e.list {
		k, ok := g.(NameKeeper)
		id := g.Spec().ID
		if !ok || c.s.Games[id] == nil {
			continue
		}
		gc := e.ctxOf(c.s, id, c.now, c.msg, p)
		gc.ro = true
		if err := k.Renamable(gc, p); err != nil {
			if _, ok := AsRejection(err); ok {
				return err
			}
			return fmt.Errorf("%s: renamable: %w", id, err)
		}
	}
	return nil
}

// renamePlayer follows a name change through the ledgers and intents.
func renamePlayer(s *State, old, name string) {
	u := s.undoLog()
	for _, b := range s.Ledger.Balances {
		if n, ok := b[old]; ok {
			u.touch("", old)
			u.touch("", name)
			logKey(u, b, old)
			logKey(u, b, name)
			delete(b, old)
			b[name] = n
		}
	}
	if p, ok := s.Points[old]; ok {
		logKey(u, s.Points, old)
		logKey(u, s.Points, name)
		delete(s.Points, old)
		s.Points[name] = p
	}
	for _, in := range s.Intents {
		if in.Sponsor != old && !slices.Contains(in.Supporters, old) && !slices.Contains(in.Objectors, old) {
			continue
		}
		s.touchIntent(in)
		if in.Sponsor == old {
			in.Sponsor = name
		}
		in.Supporters = slices.Clone(in.Supporters)
		for i, x := range in.Supporters {
			if x == old {
				in.Supporters[i] = name
			}
		}
		in.Objectors = slices.Clone(in.Objectors)
		for i, x := range in.Objectors {
			if x == old {
				in.Objectors[i] = name
			}
		}
	}
}
