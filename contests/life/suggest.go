package life

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/text"
	"referee/internal/lazyre"
)

// Suggestion is a suggested regulation change (ruling L9).
type Suggestion struct {
	ID     int       `yaml:"id"`
	By     string    `yaml:"by"` // the suggester's name when suggested
	Addr   string    `yaml:"addr"`
	At     time.Time `yaml:"at"`
	Text   string    `yaml:"text"`
	Change []Change  `yaml:"changes,omitempty"`
	// Regulations are the regulations the suggestion changes, ascending.
	Regulations []int `yaml:"regulations,omitempty"`
	// Consents are the addresses of the members who consented; CM is the
	// contestmaster's consent (R4).
	Consents []string `yaml:"consents,omitempty"`
	CM       bool     `yaml:"cm,omitempty"`
	// Status is "open", "adopted", "adopted, needs the contestmaster's ruling",
	// "adopted, ruled" or "withdrawn".
	Status  string    `yaml:"status"`
	Adopted time.Time `yaml:"adopted,omitempty"`
}

// Change is one machine-readable change of G9, validated when suggested.
type Change struct {
	Param string `yaml:"param"`
	Value string `yaml:"value"`
}

var (
	suggestHead = lazyre.MustCompile(`(?i)\b(?:suggestion|suggest)\b`)
	actionLine  = lazyre.MustCompile(`(?i)^i\s`)
	endLine     = lazyre.MustCompile(`(?i)^(?:end|end of suggestion)\.?$`)
	regRefs     = lazyre.MustCompile(`(?i)\b(?:regulations?|R)\s*((?:\d+\s*(?:,|and|&|or)?\s*)+)`)
	number      = lazyre.MustCompile(`\d+`)
)

// suggestionText cuts a suggestion's text out of the message: after "suggest"
// (or after the first colon of that line from the verb on) and on following
// lines, up to a line that starts another action ("I ..."), a line reading
// "END", or the end.
func suggestionText(msg string, off int) string {
	if off < 0 || off > len(msg) {
		off = 0
	}
	lines := strings.Split(msg[off:], "\n")
	first := lines[0]
	// The sentence may open with a preface or a condition ("UPDATE:",
	// "Alice:"); the text starts at the verb, so a colon before it is not
	// the one that introduces the suggestion.
	if p, ok := contract.ReadPerformative(first); ok && p.Action != "" {
		if i := strings.Index(first, p.Action); i > 0 {
			first = first[i:]
		}
	}
	if _, after, ok := strings.Cut(first, ":"); ok {
		first = after
	} else if m := suggestHead().FindStringIndex(first); m != nil {
		first = first[m[1]:]
	}
	out := []string{strings.TrimSpace(first)}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if actionLine().MatchString(t) || endLine().MatchString(t) {
			break
		}
		out = append(out, strings.TrimRight(l, " \t\r"))
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// parseChanges reads the G9 lines: "SET <parameter> = <value>" and "SELECT
// <variant>", where a variant is "original" or "amended" (regulations 21 and 23
// together, as Suggestion #3 changed them), or "R21 original" and the like.
var regulationRE = lazyre.MustCompile(`\b(?:regulation|r)\s*(\d+)`)

func parseChanges(g *Game, txt string) ([]Change, error) {
	var out []Change
	for _, line := range strings.Split(txt, "\n") {
		kind, name, value, ok := contract.ParseChange(line)
		if !ok {
			continue
		}
		var cs []Change
		switch kind {
		case "set":
			cs = []Change{{Param: name, Value: value}}
		case "select":
			// "R21", "r 21", "Regulation 21" and "regulation21" all name R21.
			v := regulationRE().ReplaceAllString(strings.ToLower(value), "r$1")
			f := strings.Fields(strings.NewReplacer("/", " ", ",", " ").Replace(v))
			var regs []string
			variant := ""
			for _, w := range f {
				switch w {
				case Original, Amended:
					variant = w
				case "r21", "21":
					regs = append(regs, "R21")
				case "r23", "23":
					regs = append(regs, "R23")
				case "variant", "text", "of", "the", "and", "version":
				default:
					return nil, contract.Reject("ruling L5", "unknown variant %q: SELECT original, SELECT amended, or SELECT R21 original (or R23)", value)
				}
			}
			if variant == "" {
				return nil, contract.Reject("ruling L5", "SELECT needs \"original\" or \"amended\", not %q", value)
			}
			if len(regs) == 0 {
				regs = []string{"R21", "R23"}
			}
			for _, r := range regs {
				cs = append(cs, Change{Param: r, Value: variant})
			}
		}
		for _, ch := range cs {
			p, ok := findParam(g, ch.Param)
			if !ok {
				return nil, contract.Reject("G9", "Life has no parameter %q (it has %s)", ch.Param, paramNames(g))
			}
			v, err := p.Validate(ch.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, Change{Param: p.Name, Value: v})
		}
	}
	return out, nil
}

func findParam(g *Game, name string) (contract.Param, bool) {
	for _, p := range spec.Params {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return contract.Param{}, false
}

func paramNames(g *Game) string {
	var n []string
	for _, p := range spec.Params {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// regulationsOf lists the regulations a suggestion changes: those its
// parameters belong to and those its text names ("regulation 21", "R4").
func regulationsOf(txt string, cs []Change) []int {
	set := map[int]bool{}
	for _, ch := range cs {
		n, _ := strconv.Atoi(paramRegulation(ch.Param))
		set[n] = true
	}
	for _, m := range regRefs().FindAllStringSubmatch(txt, -1) {
		for _, d := range number().FindAllString(m[1], -1) {
			if n, err := strconv.Atoi(d); err == nil && n >= 1 && n <= 99 {
				set[n] = true
			}
		}
	}
	var out []int
	for n := range set {
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

// doSuggest: ruling L9 (numbered suggestions) and G9 (machine-readable
// changes are checked now, so a broken one is refused before anyone consents).
func doSuggest(c *contract.Ctx, a *contract.Action) error {
	p := c.Actor()
	if !p.In(ID) && !c.FromContestmaster() {
		return contract.Reject("Life R4", "only members of the contest (contestants and the contestmaster) may suggest regulation changes")
	}
	txt := a.Line
	if m := c.Msg(); m != nil {
		txt = suggestionText(m.Text, a.Offset)
	}
	if strings.TrimSpace(txt) == "" {
		return contract.Reject("syntax", "the suggestion has no text: write it after \"I suggest the following change to the Life regulations:\"")
	}
	cs, err := parseChanges(New(), txt)
	if err != nil {
		return err
	}
	st := data(c)
	// Ruling L9: players consent by number; a corrected history keeps it.
	n := c.Number(seriesSuggestion, txt, st.NextSuggestion+1)
	st.NextSuggestion = max(st.NextSuggestion, n)
	s := &Suggestion{ID: n, By: p.Name, Addr: p.Address(), At: c.Now(), Text: txt, Change: cs,
		Regulations: regulationsOf(txt, cs), Status: "open"}
	st.Suggestions = append(st.Suggestions, s)
	c.Did("Suggestion #%d recorded (%s); %s", s.ID, describeRegs(s), threshold(s))
	c.Record(p.Name, "makes Suggestion #%d (%s)", s.ID, describeRegs(s))
	return nil
}

// seriesSuggestion is the series the suggestions are numbered in
// (contract.Ctx.Number).
const seriesSuggestion = "suggestion"

// KeepNumber implements contract.NumberKeeper: after a correction, a new
// suggestion takes a number after the recorded history's last (ruling L9:
// players consent by number).
func (g *Game) KeepNumber(c *contract.Ctx, series string, last int) {
	if series != seriesSuggestion {
		return
	}
	st := data(c)
	st.NextSuggestion = max(st.NextSuggestion, last)
}

func describeRegs(s *Suggestion) string {
	if len(s.Regulations) == 0 {
		return "no regulation named"
	}
	var n []string
	for _, r := range s.Regulations {
		n = append(n, strconv.Itoa(r))
	}
	return "regulation " + strings.Join(n, ", ")
}

// unanimous is Life R4: changes to regulations 1-5 need everyone.
func (s *Suggestion) unanimous() bool {
	for _, r := range s.Regulations {
		if r >= 1 && r <= 5 {
			return true
		}
	}
	return false
}

func threshold(s *Suggestion) string {
	if s.unanimous() {
		return "it needs the consent of every contestant (R4, regulations 1-5)"
	}
	return "it needs the contestmaster's consent and a majority of contestants (R4)"
}

func (st *State) suggestion(id string) *Suggestion {
	n, _ := strconv.Atoi(id)
	for _, s := range st.Suggestions {
		if s.ID == n {
			return s
		}
	}
	return nil
}

// doConsent: Life R4, ruling L9. Contestants and the contestmaster consent by
// announcement; the suggestion is adopted as soon as R4 is met.
func doConsent(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	s := st.suggestion(a.Arg("id"))
	if s == nil {
		return contract.Reject("Life R4", "there is no Suggestion #%s", a.Arg("id"))
	}
	if s.Status != "open" {
		return contract.Reject("Life R4", "Suggestion #%d is %s", s.ID, s.Status)
	}
	p := c.Actor()
	cm := c.FromContestmaster()
	if !p.In(ID) && !cm {
		return contract.Reject("Life R4", "only contestants and the contestmaster consent to regulation changes")
	}
	contract.SaveValue(c, s)
	var what []string
	if p.In(ID) {
		if slices.Contains(s.Consents, p.Address()) && !cm {
			return contract.Reject("Life R4", "you already consented to Suggestion #%d", s.ID)
		}
		if !slices.Contains(s.Consents, p.Address()) {
			s.Consents = append(s.Consents, p.Address())
			what = append(what, "as a contestant")
		}
	}
	if cm && !s.CM {
		s.CM = true
		what = append(what, "as the contestmaster")
	}
	if len(what) == 0 {
		return contract.Reject("Life R4", "you already consented to Suggestion #%d", s.ID)
	}
	members := c.Players()
	c.Did("you consent to Suggestion #%d %s; %d of %d contestants consent", s.ID, strings.Join(what, " and "), consenting(s, members), len(members))
	c.Record(p.Name, "consents to Suggestion #%d", s.ID)
	if adopted(s, members) {
		return adopt(c, s)
	}
	return nil
}

func consenting(s *Suggestion, members []*contract.Player) int {
	n := 0
	for _, m := range members {
		if slices.Contains(s.Consents, m.Address()) {
			n++
		}
	}
	return n
}

// adopted is Life R4 (ruling L9): regulations 1-5 need unanimous consent of all
// contestants; others the contestmaster's consent and a simple majority of
// the contestants.
func adopted(s *Suggestion, members []*contract.Player) bool {
	n := consenting(s, members)
	if len(members) == 0 {
		return false
	}
	if s.unanimous() {
		return n == len(members)
	}
	return s.CM && 2*n > len(members)
}

// doWithdraw: ruling L9 as the guide decides it: a suggester may withdraw eir
// suggestion while it is open.
func doWithdraw(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	s := st.suggestion(a.Arg("id"))
	if s == nil {
		return contract.Reject("ruling L9", "there is no Suggestion #%s", a.Arg("id"))
	}
	if s.Addr != c.Actor().Address() {
		return contract.Reject("ruling L9", "Suggestion #%d is %s's to withdraw", s.ID, s.By)
	}
	if s.Status != "open" {
		return contract.Reject("ruling L9", "Suggestion #%d is %s", s.ID, s.Status)
	}
	contract.SaveValue(c, s)
	s.Status = "withdrawn"
	c.Did("Suggestion #%d withdrawn", s.ID)
	c.Record(c.Actor().Name, "withdraws Suggestion #%d", s.ID)
	return nil
}

// adopt applies an adopted suggestion (G9) and publishes the Change of
// Regulations notice with the old and new texts and the votes (ruling L9).
func adopt(c *contract.Ctx, s *Suggestion) error {
	contract.SaveValue(c, s)
	before := map[string]string{}
	for _, p := range spec.Params {
		before[p.Name] = c.Param(p.Name)
	}
	if err := applyChanges(c, s.Change); err != nil {
		return err
	}
	s.Adopted = c.Now()
	s.Status = "adopted"
	if len(s.Change) == 0 {
		s.Status = "adopted, needs the contestmaster's ruling"
		c.AskRuling(fmt.Sprintf("suggestion/%d", s.ID),
			fmt.Sprintf("Suggestion #%d of Life was adopted. It carries no machine-readable change. How does it apply? Answer with lines \"SET <parameter> = <value>\" or \"SELECT original|amended\", or \"none\" if the referee has nothing to change. The text:\n%s", s.ID, s.Text),
			"the text is recorded and the referee changes nothing")
	}
	c.Did("Suggestion #%d is adopted (R4); the Change of Regulations notice is published", s.ID)
	c.Record("Life", "Suggestion #%d by %s adopted", s.ID, s.By)
	c.Notify(&contract.Notice{ID: fmt.Sprintf("life/change/%d", s.ID), Channel: contract.ChanPublic,
		Subject: "Life Contest - Change of Regulations", Body: changeNotice(c, s, before)})
	return nil
}

// applyChanges sets the parameters, checks the grid and VCF ranges still make
// sense, and removes the Cells the new limits destroy (Life R5).
func applyChanges(c *contract.Ctx, cs []Change) error {
	for _, ch := range cs {
		if err := c.SetParam(ch.Param, ch.Value); err != nil {
			return err
		}
	}
	lim := limits(c)
	if lim.Xmax < lim.Xmin || lim.Ymax < lim.Ymin {
		return contract.Reject("Life R7", "the limits would leave no Cells (X %d..%d, Y %d..%d)", lim.Xmin, lim.Xmax, lim.Ymin, lim.Ymax)
	}
	if c.IntParam("VCFmax") < c.IntParam("VCFmin") {
		return contract.Reject("Life R21", "VCFmax (%d) would be below VCFmin (%d)", c.IntParam("VCFmax"), c.IntParam("VCFmin"))
	}
	st := data(c)
	cells, err := st.cellMap()
	if err != nil {
		return err
	}
	gone := 0
	for p := range cells {
		if !lim.In(p.X, p.Y) {
			delete(cells, p)
			gone++
		}
	}
	if gone > 0 {
		st.setCells(cells)
		c.Record("Life", "%s destroyed by the new limits (R5)", plural(int64(gone), "Cell", "Cells"))
	}
	return nil
}

func changeNotice(c *contract.Ctx, s *Suggestion, before map[string]string) string {
	var b strings.Builder
	b.WriteString(text.Wrap("The following regulation change has been adopted:", 0))
	b.WriteString("\n")
	fmt.Fprintf(&b, "Suggestion #%d, by %s\n", s.ID, s.By)
	b.WriteString(s.Text)
	b.WriteString("\n\n")
	old := func(n string) string { return before[n] }
	regs := map[int]bool{}
	for _, ch := range s.Change {
		n, _ := strconv.Atoi(paramRegulation(ch.Param))
		regs[n] = true
	}
	if len(regs) > 0 {
		for _, n := range slices.Sorted(maps.Keys(regs)) {
			k := strconv.Itoa(n)
			fmt.Fprintf(&b, "### Regulation %s, old text\n%s\n\n", k, regulation(k, old))
			fmt.Fprintf(&b, "### Regulation %s, new text\n%s\n\n", k, regulation(k, c.Param))
		}
		t := &text.Table{Header: []string{"Parameter", "Old", "New"}}
		for _, ch := range s.Change {
			t.Add(ch.Param, before[ch.Param], c.Param(ch.Param))
		}
		b.WriteString("### Parameters (G9)\n")
		b.WriteString(t.String())
		b.WriteString("\n")
	} else {
		b.WriteString(text.Wrap("The suggestion carries no machine-readable change: its text is recorded, and the contestmaster has been asked how it applies (G9).", 0))
		b.WriteString("\n")
	}
	b.WriteString("### Voting\n")
	vote := func(ok bool) string {
		if ok {
			return "consent"
		}
		return ""
	}
	line := func(who string, ok bool) {
		b.WriteString(strings.TrimRight(who+" : "+vote(ok), " "))
		b.WriteByte('\n')
	}
	line("Contestmaster", s.CM)
	for _, m := range c.Players() {
		line(m.Name, slices.Contains(s.Consents, m.Address()))
	}
	b.WriteString("\n")
	b.WriteString(text.Signature("The Life Contestmaster (referee)"))
	return b.String()
}

// OnRuling implements contract.RulingHandler: the contestmaster's answer on
// how an adopted free-text suggestion applies (G8, G9).
func (g *Game) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	id, ok := strings.CutPrefix(r.Key, "suggestion/")
	if !ok {
		return nil
	}
	st := data(c)
	s := st.suggestion(id)
	if s == nil {
		return nil
	}
	contract.SaveValue(c, s)
	if timedOut {
		s.Status = "adopted, ruled"
		c.Record("Life", "Suggestion #%d: no ruling came; its text is recorded and changes nothing (G8)", s.ID)
		return nil
	}
	cs, err := parseChanges(g, strings.NewReplacer(";", "\n").Replace(r.Answer))
	if err != nil {
		return err
	}
	if err := applyChanges(c, cs); err != nil {
		return err
	}
	s.Change = cs
	s.Status = "adopted, ruled"
	var parts []string
	for _, ch := range cs {
		parts = append(parts, ch.Param+" = "+ch.Value)
	}
	if len(parts) == 0 {
		parts = []string{"no change"}
	}
	c.Record("Life", "the contestmaster rules how Suggestion #%d applies: %s", s.ID, strings.Join(parts, ", "))
	return nil
}
