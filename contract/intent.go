package contract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"referee/contract/text"
)

// Dependent actions (ruling G7, AGORA "Dependent actions").

// Method is how a dependent action is made.
type Method struct {
	Kind   string        // "objection", "support", "consent" or "notice"
	N      int           // objections that stop it, or supporters it needs
	Notice time.Duration // for "notice"; 0 = 4 days
	// Eligible says who may support or object (Rumble: contestants only). Nil:
	// any player but the sponsor.
	Eligible func(c *Ctx, p *Player) bool
	// Who describes Eligible for players: "contestants".
	Who string
	// Intendable, when set, refuses an intent at its announcement when the
	// action could not be done in the state as it is then, whatever
	// happens in the days before it is resolved (Rumble: "the current
	// game" when no game is going on names none): a rejection refuses the
	// intent and nothing is tabled (G7). What may become true by the time
	// the action is done (who is the contestmaster, who is a party) is
	// checked when it is done, by Do, as Agora lets an intent be
	// announced before its sponsor can do the action. Nil: everything is
	// checked then.
	Intendable func(c *Ctx, a *Action) error
	// Object, when set, names the thing the action acts on as things stand,
	// "" for none (Rumble: "the current game" is "game 3"). An intent
	// keeps the name Object gave when it was announced: it is an intent to
	// act on that thing. Once Object names another thing or none (game 3
	// ended, and game 4 may be going on), the intent can never be
	// resolved: the thing it spoke of is gone, and the one there now is
	// not the one it announced (G7). It is closed then, at the end of the
	// action or event of its game that made it so (closeGone), and an
	// intent of a state written before that, still open, is closed when
	// it is tried, its action not done. Gone says why for the receipt,
	// given the name kept and the name now ("" for none); nil, a plain
	// sentence naming both. Nil Object: an intent keeps nothing, and its
	// action acts on whatever it names when it is done.
	Object func(c *Ctx, a *Action) string
	Gone   func(c *Ctx, was, now string) *Rejection
}

// Describe writes the method as players do: "without 2 objections".
func (m *Method) Describe() string {
	switch m.Kind {
	case "objection":
		if m.N <= 1 {
			return "without objection"
		}
		return fmt.Sprintf("without %d objections", m.N)
	case "support":
		return fmt.Sprintf("with %d support", m.N)
	case "consent":
		return "with Agoran consent"
	default:
		return fmt.Sprintf("with %d days notice", int(m.notice()/(24*time.Hour)))
	}
}

func (m *Method) notice() time.Duration {
	if m.Notice == 0 {
		return intentWait
	}
	return m.Notice
}

// Intent is a tabled intent to perform a dependent action.
type Intent struct {
	ID         int       `yaml:"id"`
	Game       string    `yaml:"game"`
	Verb       string    `yaml:"verb"`
	Text       string    `yaml:"text"` // the action as announced
	Sponsor    string    `yaml:"sponsor"`
	Method     string    `yaml:"method"`
	N          int       `yaml:"n,omitempty"`
	Notice     string    `yaml:"notice,omitempty"`
	MsgID      string    `yaml:"msgid"`
	Created    time.Time `yaml:"created"`
	Supporters []string  `yaml:"supporters,omitempty"`
	Objectors  []string  `yaml:"objectors,omitempty"`
	// Object is the thing the action acted on when the intent was announced
	// (Method.Object: "game 3"); "" when the game names none, and in a state
	// written before intents kept it, whose intents act, as then, on
	// whatever their action names when it is done.
	Object string `yaml:"object,omitempty"`
}

const intentLife = 14 * 24 * time.Hour
const intentWait = 4 * 24 * time.Hour

// Describe writes the intent's method as the sponsor announced it, which is
// how it is judged: "without objection" stays that, though the game would
// have allowed "without 3 objections".
func (in *Intent) Describe() string {
	m := Method{Kind: in.Method, N: in.N}
	if n, err := strconv.Atoi(in.Notice); err == nil {
		m.Notice = time.Duration(n) * 24 * time.Hour
	}
	return m.Describe()
}

// Expires is when the intent can no longer be resolved.
func (in *Intent) Expires() time.Time { return in.Created.Add(intentLife) }

// ripeFrom is the earliest time the intent can be resolved: 4 days after it
// (G7), or after its notice; zero for "with N support", ripe once supported.
func (in *Intent) ripeFrom() time.Time {
	switch in.Method {
	case "support":
		return time.Time{}
	case "objection", "consent":
		return in.Created.Add(intentWait)
	}
	d := intentWait
	if n, err := strconv.Atoi(in.Notice); err == nil {
		d = time.Duration(n) * 24 * time.Hour
	}
	return in.Created.Add(d)
}

// RipeFrom is the earliest time the intent can be resolved (G7); zero for
// one "with N support", which can be resolved once supported.
func (in *Intent) RipeFrom() time.Time { return in.ripeFrom() }

// Ripe says whether the intent can be resolved at t, and if not, why. An
// expired intent is not here to ask: its expiry event (coreNext) drops it
// before any message at or after Expires is performed.
func (in *Intent) Ripe(t time.Time) (bool, string) {
	if from := in.ripeFrom(); t.Before(from) {
		why := "4 days after it"
		if in.Method != "objection" && in.Method != "consent" {
			why = "after its notice"
		}
		return false, fmt.Sprintf("intent #%d can be resolved from %s (%s)", in.ID, Stamp(from), why)
	}
	switch in.Method {
	case "support":
		if len(in.Supporters) < in.N {
			return false, fmt.Sprintf("intent #%d has %d of the %s it needs", in.ID, len(in.Supporters), text.Count(in.N, "supporter", "supporters"))
		}
	case "objection":
		if len(in.Objectors) >= in.N {
			return false, fmt.Sprintf("intent #%d has %s: %s", in.ID, text.Count(len(in.Objectors), "objection", "objections"), strings.Join(in.Objectors, ", "))
		}
	case "consent":
		if len(in.Supporters) <= len(in.Objectors) {
			return false, fmt.Sprintf("intent #%d has %s and %s; consent needs more supporters", in.ID,
				text.Count(len(in.Supporters), "supporter", "supporters"), text.Count(len(in.Objectors), "objector", "objectors"))
		}
	}
	return true, ""
}

var intentVerb = &Verb{Name: "intend", Scope: PublicOnly, Rule: "G7",
	Syntax: "I intend, without objection, to <action>",
	Help:   "table an intent to perform a dependent action", Do: doIntend}

// doIntend tables an intent. The action must be a dependent action of a game and
// the method at least as strong as the one the game requires.
func doIntend(c *Ctx, a *Action) error {
	text := a.Args["action"]
	found := c.e.dependentVerb(text)
	if found == nil {
		return Reject("G7", "%q is not a dependent action of any game", text)
	}
	need := found.verb.Dependent
	n, _ := strconv.Atoi(a.Args["n"])
	if a.Args["method"] != need.Kind {
		return Reject("G7", "this action is performed %s, not by this method", need.Describe())
	}
	if need.Kind == "objection" && n > need.N {
		return Reject("G7", "this action is performed %s; %d objections would be a weaker requirement", need.Describe(), n)
	}
	if need.Kind == "support" && n < need.N {
		return Reject("G7", "this action needs %s", need.Describe())
	}
	notice := a.Args["notice"]
	if need.Kind == "notice" {
		// AGORA "with T notice": T is the game's; a shorter one is weaker,
		// and "with notice" alone means the game's.
		days, err := strconv.Atoi(notice)
		if err != nil {
			days = int(need.notice() / (24 * time.Hour))
			notice = strconv.Itoa(days)
		}
		if time.Duration(days)*24*time.Hour < need.notice() {
			return Reject("G7", "this action is performed %s; %d days notice would be a weaker requirement", need.Describe(), days)
		}
	}
	if n == 0 {
		n = need.N
	}
	gs := c.s.Games[found.game]
	c.game, c.gs = found.game, gs
	act := found.action(c.e, a.Line, text)
	if need.Intendable != nil {
		if err := need.Intendable(c, act); err != nil {
			return err
		}
	}
	s := c.s
	s.NextIntent++
	in := &Intent{ID: s.NextIntent, Game: found.game, Verb: found.verb.Name, Text: text, Sponsor: c.Actor().Name,
		Method: need.Kind, N: n, Notice: notice, Created: c.now}
	if need.Object != nil {
		in.Object = need.Object(c, act)
	}
	if c.msg != nil {
		in.MsgID = c.msg.ID
	}
	same := s.sameIntents(in)
	s.Intents = append(s.Intents, in)
	did := fmt.Sprintf("intent #%d tabled: %s, %s; it can be resolved %s, until %s", in.ID, text, in.Describe(), ripeWhen(in), Stamp(in.Expires()))
	if len(same) > 0 {
		// G7: as in Agora, each announcement is an intent of its own; the
		// sponsor is told that the action done once closes them all.
		did += fmt.Sprintf("; you already intend the same action (%s): the first of them resolved closes the others, and \"I withdraw intent #%d\" withdraws this one; each is supported and objected to on its own", intentList(same), in.ID)
	}
	c.Did("%s", did)
	c.Record(in.Sponsor, "intends, %s, to %s (intent #%d)", in.Describe(), text, in.ID)
	c.Detail("intent", in.ID)
	return nil
}

// sameIntents are the other open intents of in's sponsor to the same
// action: the same game and verb, and the text as announced in any case and
// spacing.
func (s *State) sameIntents(in *Intent) []*Intent {
	var out []*Intent
	for _, x := range s.Intents {
		if x.ID != in.ID && sameAction(x, in) {
			out = append(out, x)
		}
	}
	return out
}

// sameAction says whether a and b are the same sponsor's intents to the
// same action: the same words, on the same thing (Method.Object; an
// intent to end game 3 is not one to end game 4, though both were
// announced as "end the current game").
func sameAction(a, b *Intent) bool {
	return sameWording(a, b) && a.Object == b.Object
}

// sameWording says whether a and b are the same sponsor's intents
// announced in the same words, whatever thing each was about.
func sameWording(a, b *Intent) bool {
	return a.Sponsor == b.Sponsor && a.Game == b.Game && a.Verb == b.Verb && sameWords(a.Text, b.Text)
}

// sameWords says whether a and b are the same words and marks in the same
// order, ignoring case, spacing (around a mark too: "SET Width=20" is
// "SET Width = 20") and a final full stop.
func sameWords(a, b string) bool {
	return strings.EqualFold(wordsAndMarks(a), wordsAndMarks(b))
}

// wordsAndMarks is s as its words and marks, one space between each, without
// a final full stop: "Width=20." is "Width = 20".
func wordsAndMarks(s string) string {
	var b strings.Builder
	word := false
	for _, r := range strings.TrimRight(s, ". \t\n") {
		switch {
		case unicode.IsSpace(r):
			word = false
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !word && b.Len() > 0 {
				b.WriteByte(' ')
			}
			word = true
		default:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			word = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// intentList names intents for a receipt: "intent #1, tabled 2026-12-04 13:11".
func intentList(list []*Intent) string {
	var out []string
	for _, in := range list {
		out = append(out, fmt.Sprintf("intent #%d, tabled %s", in.ID, Stamp(in.Created)))
	}
	return strings.Join(out, "; ")
}

// twinsNote tells a player who supports or objects to in of the
// sponsor's other open intents to the same action that e does not yet
// support or object to (already says whether e does, of each), each
// supported and objected to on its own (G7, as in Agora): "" when there
// are none; else what this one does not count for (what: "this objection
// does not count against") and how to do the same to each of them (form,
// with %d for the number: "I object to intent #%d").
func (s *State) twinsNote(in *Intent, already func(*Intent) bool, what, form string) string {
	var twins []*Intent
	var forms []string
	for _, x := range s.sameIntents(in) {
		if !already(x) {
			twins = append(twins, x)
			forms = append(forms, fmt.Sprintf("\"%s\"", fmt.Sprintf(form, x.ID)))
		}
	}
	if len(twins) == 0 {
		return ""
	}
	return fmt.Sprintf("; %s %s's %s, to the same action: each intent is supported and objected to on its own (G7); to count it there too, write %s",
		what, in.Sponsor, intentList(twins), strings.Join(forms, ", "))
}

// dependentVerb is the dependent action of a game that text (an intent's
// action, "end the current game of Rumble") is, or nil.
func (e *Engine) dependentVerb(text string) *compiledVerb {
	rest, game := e.gameRef(text)
	for i, cv := range e.verbs {
		if cv.verb.Dependent == nil || (game != "" && cv.game != game) {
			continue
		}
		if cv.re().MatchString(rest) || cv.re().MatchString(text) {
			return &e.verbs[i]
		}
	}
	return nil
}

// action is the action an intent's text announces, cv's verb with its
// arguments as the text gives them, as "I do so" will perform it.
func (cv *compiledVerb) action(e *Engine, line, text string) *Action {
	rest, _ := e.gameRef(text)
	m := cv.re().FindStringSubmatch(rest)
	if m == nil {
		m = cv.re().FindStringSubmatch(text)
	}
	a := &Action{Line: line, Game: cv.game, Verb: cv.verb, Args: map[string]string{}}
	for i, name := range cv.re().SubexpNames() {
		if v := ""; name != "" && m != nil {
			if v = strings.TrimSpace(m[i]); v != "" || a.Args[name] == "" {
				a.Args[name] = v
			}
		}
	}
	return a
}

// intentWithoutMethod answers "I intend to <action>" naming no method, when
// the action is a game's dependent action, with the form that tables an
// intent (G7): a sentence not understood, not an action. Any other "I
// intend to ..." is a plan (G3) and gets no line; nil then.
func (e *Engine) intentWithoutMethod(sen Sentence, p Performative) *Result {
	lower := strings.ToLower(p.Action)
	if !strings.HasPrefix(lower, "intend to ") {
		return nil
	}
	text := trimStop(strings.TrimSpace(p.Action[len("intend to "):]))
	cv := e.dependentVerb(text)
	if a, remark := readRemark(text); cv == nil && remark != "" {
		// "I intend to end the current game of Rumble, as discussed."
		text = a
		cv = e.dependentVerb(text)
	}
	if cv == nil {
		return nil
	}
	return &Result{Line: sen.Text, Game: cv.game, Reason: fmt.Sprintf("an intent says how the action is to be done: \"I intend, %s, to %s\" (G7)", cv.verb.Dependent.Describe(), text)}
}

func ripeWhen(in *Intent) string {
	if in.Method == "support" {
		if in.N == 1 {
			return "once 1 supporter has supported it"
		}
		return fmt.Sprintf("once %d supporters have supported it", in.N)
	}
	return "from " + Stamp(in.ripeFrom())
}

func (s *State) intent(id int) *Intent {
	for _, in := range s.Intents {
		if in.ID == id {
			return in
		}
	}
	return nil
}

// dropIntent removes an intent, and remembers it as ended how ("expired",
// "performed", "withdrawn", "closed") at at. The lists are copied, never
// changed in place, so that an undo restores them by its header.
func (s *State) dropIntent(id int, how string, at time.Time) {
	if in := s.intent(id); in != nil {
		ended := slices.DeleteFunc(slices.Clone(s.Ended), func(x *EndedIntent) bool { return at.Sub(x.At) > endedMemory || x.ID == id })
		s.Ended = append(ended, &EndedIntent{ID: id, Sponsor: in.Sponsor, Text: in.Text, How: how, At: at})
	}
	s.Intents = slices.DeleteFunc(slices.Clone(s.Intents), func(in *Intent) bool { return in.ID == id })
}

// EndedIntent is what became of an intent no longer open (G7).
type EndedIntent struct {
	ID      int       `yaml:"id"`
	Sponsor string    `yaml:"sponsor"`
	Text    string    `yaml:"text"`
	How     string    `yaml:"how"` // expired, performed, withdrawn or closed
	At      time.Time `yaml:"at"`
}

// endedMemory is how long an ended intent is remembered.
const endedMemory = 30 * 24 * time.Hour

// notOpen is the refusal of a support, an objection or "I do so" naming
// intent #id, which is not open: what became of it when it is remembered.
func (s *State) notOpen(id string) error {
	n, _ := strconv.Atoi(id)
	for _, x := range s.Ended {
		if x.ID != n {
			continue
		}
		how := x.How
		if how != "expired" {
			how = "was " + how
		}
		return Reject("G7", "intent #%d of %s (to %s) %s on %s UTC; it is no longer open", x.ID, x.Sponsor, x.Text, how, Stamp(x.At))
	}
	return Reject("G7", "there is no open intent #%s", id)
}

// findIntent picks the intent a support, objection or "I do so" refers to: by
// number, by the message it replies to, or the only one open. form is the
// action naming an intent, with %d for its number ("I do so (intent #%d)"):
// with several open, the refusal shows it as the thing to write.
func (c *Ctx) findIntent(id string, filter func(*Intent) bool, form string) (*Intent, error) {
	c.reads |= readBeyond
	s := c.s
	if id != "" {
		n, _ := strconv.Atoi(id)
		if in := s.intent(n); in != nil {
			if filter != nil && !filter(in) {
				who := ""
				if in.Method == "support" {
					who = " or a supporter of it"
				}
				return nil, Reject("G7", "only %s, who tabled intent #%d,%s can resolve it", in.Sponsor, in.ID, who)
			}
			return in, nil
		}
		return nil, s.notOpen(id)
	}
	var cands []*Intent
	for _, in := range s.Intents {
		if filter != nil && !filter(in) {
			continue
		}
		if c.msg != nil && c.msg.RepliesTo(in.MsgID) {
			return in, nil
		}
		cands = append(cands, in)
	}
	switch len(cands) {
	case 0:
		return nil, Reject("G7", "there is no open intent this could refer to")
	case 1:
		return cands[0], nil
	}
	if filter != nil && !slices.ContainsFunc(cands, func(in *Intent) bool { return !sameWording(in, cands[0]) }) {
		// "I do so" with the sponsor's intents all announced in the same
		// words: the first that can be resolved now (G7); the others to
		// the same action close with it.
		return c.e.choose(c, cands), nil
	}
	var ids []string
	for _, in := range cands {
		if slices.ContainsFunc(cands, func(x *Intent) bool { return x != in && sameWords(x.Text, in.Text) }) {
			// Two announced in the same words: who and when tell them
			// apart.
			ids = append(ids, fmt.Sprintf("#%d (%s, %s's, tabled %s)", in.ID, in.Text, in.Sponsor, Stamp(in.Created)))
			continue
		}
		ids = append(ids, fmt.Sprintf("#%d (%s)", in.ID, in.Text))
	}
	return nil, Reject("G7", "several intents are open: %s; name one (\"%s\")", strings.Join(ids, ", "), fmt.Sprintf(form, cands[0].ID))
}

// remove returns list without name, in a new slice.
func remove(list []string, name string) []string {
	var out []string
	for _, x := range list {
		if !strings.EqualFold(x, name) {
			out = append(out, x)
		}
	}
	return out
}

func has(list []string, name string) bool {
	for _, x := range list {
		if strings.EqualFold(x, name) {
			return true
		}
	}
	return false
}

func (e *Engine) eligible(c *Ctx, in *Intent, p *Player) error {
	g := e.games[in.Game]
	for _, v := range g.Verbs() {
		if v.Name == in.Verb && v.Dependent != nil && v.Dependent.Eligible != nil {
			gc := e.ctx(c.s, in.Game, c.now, c.msg)
			if !v.Dependent.Eligible(gc, p) {
				return Reject("G7", "only %s may support or object to intent #%d", v.Dependent.Who, in.ID)
			}
		}
	}
	return nil
}

func doStance(c *Ctx, a *Action) error {
	what := strings.ToLower(a.Args["what"])
	if many := a.Args["many"]; many != "" {
		return doMany(c, what, many)
	}
	if a.Args["id"] == "" && pluralStance(what) {
		return doMany(c, what, a.Args["what"])
	}
	p := c.Actor()
	k := stanceOf(what)
	in, err := c.findIntent(a.Args["id"], nil, k.form())
	if err != nil {
		return err
	}
	if in.Sponsor == p.Name && k.taken() {
		return Reject("G7", "the sponsor of intent #%d cannot support or object to it", in.ID)
	}
	c.s.touchIntent(in)
	switch k {
	case stanceSupport:
		if err := c.e.eligible(c, in, p); err != nil {
			return err
		}
		if has(in.Supporters, p.Name) {
			return Reject("G7", "you already support intent #%d", in.ID)
		}
		in.Objectors = remove(in.Objectors, p.Name)
		in.Supporters = append(in.Supporters, p.Name)
		c.Did("you support intent #%d (%s)%s", in.ID, in.Text, c.s.twinsNote(in, func(x *Intent) bool { return has(x.Supporters, p.Name) }, "this support does not count for", "I support intent #%d"))
	case stanceObject:
		if err := c.e.eligible(c, in, p); err != nil {
			return err
		}
		if has(in.Objectors, p.Name) {
			return Reject("G7", "you already object to intent #%d", in.ID)
		}
		in.Supporters = remove(in.Supporters, p.Name)
		in.Objectors = append(in.Objectors, p.Name)
		c.Did("you object to intent #%d (%s)%s", in.ID, in.Text, c.s.twinsNote(in, func(x *Intent) bool { return has(x.Objectors, p.Name) }, "this objection does not count against", "I object to intent #%d"))
	case stanceUnobject:
		if !has(in.Objectors, p.Name) {
			return Reject("G7", "you have no objection to intent #%d to withdraw", in.ID)
		}
		in.Objectors = remove(in.Objectors, p.Name)
		c.Did("your objection to intent #%d is withdrawn", in.ID)
	case stanceUnsupport:
		if !has(in.Supporters, p.Name) {
			return Reject("G7", "you do not support intent #%d", in.ID)
		}
		in.Supporters = remove(in.Supporters, p.Name)
		c.Did("your support of intent #%d is withdrawn", in.ID)
	default: // withdraw the intent
		if in.Sponsor != p.Name {
			return Reject("G7", "only %s, who tabled intent #%d, can withdraw it", in.Sponsor, in.ID)
		}
		c.s.dropIntent(in.ID, "withdrawn", c.now)
		c.Did("intent #%d is withdrawn", in.ID)
	}
	if a.Args["_twice"] != "" {
		c.Did("intent #%d is named more than once in the list; it counts once", in.ID)
	}
	c.Detail("intent", in.ID)
	return nil
}

// resolveDependent performs a dependent action through a ripe intent.
func (e *Engine) resolveDependent(c *Ctx, a *Action) error {
	p := c.Actor()
	v := a.Verb
	var cands []*Intent
	for _, x := range c.s.Intents {
		if x.Game == a.Game && x.Verb == v.Name && (x.Sponsor == p.Name || (x.Method == "support" && has(x.Supporters, p.Name))) {
			cands = append(cands, x)
		}
	}
	if len(cands) == 0 {
		return Reject("G7", "this is a dependent action: first announce \"I intend, %s, to %s\"", v.Dependent.Describe(), strings.TrimPrefix(v.Syntax, "I "))
	}
	// G7: the action done is the one an intent announced; another of the
	// same verb (another amendment) is not done through it, nor does it
	// get round the objections to one by passing through another.
	var same []*Intent
	for _, x := range cands {
		if e.announced(x, a) {
			same = append(same, x)
		}
	}
	if len(same) == 0 {
		whose := "of yours"
		if slices.ContainsFunc(cands, func(x *Intent) bool { return x.Sponsor != p.Name }) {
			whose = "you may resolve"
		}
		return Reject("G7", "no intent %s announced this action; %s; this one needs an intent of its own, announced \"I intend, %s, to %s\"",
			whose, announcedList(cands, p.Name), v.Dependent.Describe(), asAnnounced(a))
	}
	return e.performIntent(c, e.choose(c, same), a)
}

// asAnnounced is action a as an intent to do it would name it: the
// player's own words after "I" ("amend the Rumble contract: SET BidLimit
// = 5"), so that the refusal of an action no intent announced shows the
// intent to announce, not the verb's example; the verb's syntax for an
// action not written "I ..." (an item of a list).
func asAnnounced(a *Action) string {
	line := strings.TrimRight(strings.TrimSpace(a.Line), ".")
	if len(line) > 2 && (line[0] == 'I' || line[0] == 'i') && line[1] == ' ' {
		return strings.TrimSpace(line[2:])
	}
	return strings.TrimPrefix(a.Verb.Syntax, "I ")
}

// announced says whether in announced action a (G7): the same game and
// verb, and each of the verb's arguments in the same words (sameWords:
// any case and spacing, a final full stop or not), so that "I amend the
// Rumble contract: SET BidLimit = 5" is not done through an intent to
// amend it to say something else. How the action names its game is no
// argument: "the Rumble contract" and "the contract of Rumble" are one.
func (e *Engine) announced(in *Intent, a *Action) bool {
	if in.Game != a.Game || in.Verb != a.Verb.Name {
		return false
	}
	was := e.intentAction(in, "")
	if was == nil {
		return false
	}
	for _, args := range []map[string]string{a.Args, was.Args} {
		for k := range args {
			if !strings.HasPrefix(k, "_") && !sameWords(a.Args[k], was.Args[k]) {
				return false
			}
		}
	}
	return true
}

// announcedList says what each of list announced, for a refusal: "your
// intent #3 announced: amend the Rumble contract: be kind"; an intent of
// another sponsor's that the player supports (and so may resolve) is
// named with its sponsor's name.
func announcedList(list []*Intent, player string) string {
	var out []string
	for _, in := range list {
		whose := "your intent"
		if in.Sponsor != player {
			whose = fmt.Sprintf("%s's intent", in.Sponsor)
		}
		out = append(out, fmt.Sprintf("%s #%d announced: %s", whose, in.ID, in.Text))
	}
	return strings.Join(out, "; ")
}

// choose picks the intent an action names among several (G7): the first
// that can be resolved now; or else the first whose thing is still there
// (Method.Object), whose refusal says when it can be; or else the first
// tabled, whose thing is gone, and which closes saying so.
func (e *Engine) choose(c *Ctx, list []*Intent) *Intent {
	var still *Intent
	for _, in := range list {
		if e.gone(c, in) != nil {
			continue
		}
		if ok, _ := in.Ripe(c.now); ok {
			return in
		}
		if still == nil {
			still = in
		}
	}
	if still != nil {
		return still
	}
	return list[0]
}

// gone says why the thing in's action was about when it was announced is
// no longer the one it would act on (Method.Object), or nil when it still
// is or the intent kept none (as no intent did in a state written before
// intents kept it: its action acts on whatever it names, as then).
func (e *Engine) gone(c *Ctx, in *Intent) *Rejection {
	if in.Object == "" {
		return nil
	}
	a := e.intentAction(in, "")
	if a == nil || a.Verb.Dependent == nil || a.Verb.Dependent.Object == nil {
		return nil
	}
	m := a.Verb.Dependent
	gc := e.ctx(c.s, in.Game, c.now, c.msg)
	gc.ro = true
	now := m.Object(gc, a)
	switch {
	case now == in.Object:
		return nil
	case m.Gone != nil:
		return m.Gone(gc, in.Object, now)
	case now == "":
		return Reject(a.Verb.Rule, "the intent was about %s, which is gone", in.Object)
	}
	return Reject(a.Verb.Rule, "the intent was about %s, which is gone, and %s is not what it announced", in.Object, now)
}

// closeGone closes the open intents of c's game whose thing is gone
// (Method.Object: the game an intent to end the current game was about has
// ended), at the end of the action or event that made it so: they can
// never be resolved, and are no longer listed as open (G7). The receipt
// of the action says so, and the game's recent events. An intent that
// kept no thing is left as it is.
func (e *Engine) closeGone(c *Ctx) {
	if c.game == "" || len(c.s.Intents) == 0 {
		return
	}
	var closed []int
	for _, in := range c.s.Intents {
		if in.Game != c.game || in.Object == "" {
			continue
		}
		r := e.gone(c, in)
		if r == nil {
			continue
		}
		c.s.dropIntent(in.ID, "closed", c.now)
		rule := "G7"
		if r.Rule != "" {
			rule = r.Rule + ", G7"
		}
		c.Did("intent #%d of %s, to %s, is closed: %s (%s)", in.ID, in.Sponsor, in.Text, r.Reason, rule)
		c.Record("referee", "closes intent #%d of %s, to %s: %s (%s)", in.ID, in.Sponsor, in.Text, r.Reason, rule)
		closed = append(closed, in.ID)
	}
	if len(closed) > 0 {
		c.Detail("closed", closed)
	}
}

func (e *Engine) performIntent(c *Ctx, in *Intent, a *Action) error {
	if c.msg != nil && in.MsgID == c.msg.ID {
		return Reject("G7", "an intent cannot be resolved in the message that announces it")
	}
	c.game, c.gs = in.Game, c.s.Games[in.Game]
	if r := e.gone(c, in); r != nil {
		// G7: the intent announced the action on a thing that is gone;
		// it can never be done, so it closes, and nothing else is done.
		c.s.dropIntent(in.ID, "closed", c.now)
		c.Detail("intent", in.ID)
		rule := "G7"
		if r.Rule != "" {
			rule = r.Rule + ", G7"
		}
		c.Ignored("%s; intent #%d is closed (%s)", r.Reason, in.ID, rule)
		return nil
	}
	if ok, why := in.Ripe(c.now); !ok {
		return Reject("G7", "%s", why)
	}
	if err := a.Verb.Do(c, a); err != nil {
		return err
	}
	c.s.dropIntent(in.ID, "performed", c.now)
	c.Detail("intent", in.ID)
	// G7: the action is done; the sponsor's other intents to it are spent
	// with it, so that none of them does it again later.
	same := c.s.sameIntents(in)
	if len(same) == 0 {
		c.Did("intent #%d resolved", in.ID)
		return nil
	}
	for _, x := range same {
		c.s.dropIntent(x.ID, "closed", c.now)
	}
	c.Did("intent #%d resolved; closed with it, to the same action: %s", in.ID, intentList(same))
	return nil
}

// A stance is what a support, an objection or a withdrawal does to an
// intent (G7), as the player wrote it (stancePattern's what, in lower
// case): stanceOf reads it, once for every place that asks.
type stance int

const (
	stanceSupport   stance = iota // "support"
	stanceObject                  // "object"
	stanceUnobject                // "withdraw my objection(s)"
	stanceUnsupport               // "withdraw my support"
	stanceWithdraw                // "withdraw (my|the) intent(s)": the sponsor's own
)

func stanceOf(what string) stance {
	switch {
	case strings.HasPrefix(what, "support"):
		return stanceSupport
	case strings.HasPrefix(what, "object"):
		return stanceObject
	case strings.Contains(what, "objection"):
		return stanceUnobject
	case strings.Contains(what, "support"):
		return stanceUnsupport
	}
	return stanceWithdraw
}

// form is the stance naming an intent by its number (%d); does is what
// the player does to an intent, as a refusal says it.
func (k stance) form() string {
	return [...]string{"I support intent #%d", "I object to intent #%d", "I withdraw my objection to intent #%d",
		"I withdraw my support of intent #%d", "I withdraw intent #%d"}[k]
}

func (k stance) does() string {
	return [...]string{"support", "object to", "withdraw an objection from", "withdraw your support from", "withdraw"}[k]
}

// taken says whether k is a support or an objection, which the intent's
// sponsor cannot take.
func (k stance) taken() bool { return k == stanceSupport || k == stanceObject }

// doDoSo resolves "I do so": the intent's own text is performed.
func doDoSo(c *Ctx, a *Action) error {
	p := c.Actor()
	in, err := c.findIntent(a.Args["id"], func(in *Intent) bool {
		return in.Sponsor == p.Name || (in.Method == "support" && has(in.Supporters, p.Name))
	}, "I do so (intent #%d)")
	if err != nil {
		return err
	}
	act := c.e.intentAction(in, a.Line)
	if act == nil {
		return fmt.Errorf("intent #%d: its text %q no longer matches verb %s", in.ID, in.Text, in.Verb)
	}
	return c.e.performIntent(c, in, act)
}

// intentAction is the action in's text announces, as "I do so" (line)
// performs it; nil when the text no longer matches its verb.
func (e *Engine) intentAction(in *Intent, line string) *Action {
	rest, _ := e.gameRef(in.Text)
	for i, cv := range e.verbs {
		if cv.game == in.Game && cv.verb.Name == in.Verb && (cv.re().MatchString(rest) || cv.re().MatchString(in.Text)) {
			return e.verbs[i].action(e, line, in.Text)
		}
	}
	return nil
}
