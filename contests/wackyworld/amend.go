package wackyworld

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"referee/contract"
	"referee/contract/text"
)

// Kinds and statuses of changes to the contract.
const (
	kindAmendment    = "amendment"
	kindModification = "modification"

	statusOpen    = "open"     // a modification within its 24 hours of opposition
	statusInForce = "in force" // an amendment, or a modification nobody opposed
	statusOpposed = "opposed"  // treated as if never made (Wacky 1)
)

// Change is an amendment (a party's, without 3 objections) or one of Atlas's
// early modifications (Wacky 1).
type Change struct {
	ID     int       `yaml:"id"`
	Kind   string    `yaml:"kind"`
	By     string    `yaml:"by"`
	At     time.Time `yaml:"at"`
	Text   string    `yaml:"text"`
	Status string    `yaml:"status"`
	// Param, Old and New record a machine-readable change (G9: SET).
	Param string `yaml:"param,omitempty"`
	Old   string `yaml:"old,omitempty"`
	New   string `yaml:"new,omitempty"`
	// Ruling is how a text-only change applies (G9): "" until the contestmaster
	// rules.
	Ruling string `yaml:"ruling,omitempty"`
}

func (ch *Change) title() string {
	return fmt.Sprintf("%s #%d", ch.Kind, ch.ID)
}

// applyChange applies a change's text: SET <parameter> = <value> changes a
// parameter (G9); any other text is recorded and the contestmaster is asked how
// it applies (G9, G8).
func applyChange(c *contract.Ctx, g *Game, ch *Change) error {
	st := data(c)
	decl, value, err := readChange(g, ch.Text)
	switch {
	case err != nil:
		return err
	case decl != nil:
		old := c.Param(decl.Name)
		if err := setParam(c, st, decl.Name, value); err != nil {
			return err
		}
		ch.Param, ch.Old, ch.New = decl.Name, old, c.Param(decl.Name)
		return nil
	}
	// G8: silence means the default below (guide, "Changing the contract").
	c.AskRuling(fmt.Sprintf("change/%d", ch.ID),
		fmt.Sprintf("Wacky World's %s by %s changes the contract's text to add: %q. It carries no machine-readable change (SET <parameter> = <value>). How does it apply?", ch.title(), ch.By, ch.Text),
		"the text is recorded in the contract and changes nothing the referee enforces")
	return nil
}

// readChange reads a change's machine-readable part (G9): the parameter a
// "SET <parameter> = <value>" names, and the value; decl is nil when the
// text carries none. A SELECT, or a parameter Wacky World does not have,
// is refused.
func readChange(g *Game, text string) (decl *contract.Param, value string, err error) {
	kind, pname, value, ok := contract.ParseChange(text)
	switch {
	case !ok:
		return nil, "", nil
	case kind == "select":
		return nil, "", contract.Reject("G9", "Wacky World has no variants to SELECT; its parameters are %s", paramNames(g))
	}
	for _, p := range spec.Params {
		if strings.EqualFold(p.Name, pname) {
			decl = &p
		}
	}
	if decl == nil {
		return nil, "", contract.Reject("G9", "Wacky World has no parameter %q; its parameters are %s", pname, paramNames(g))
	}
	return decl, value, nil
}

// amendable refuses at once an intent to amend with a change no amendment
// could make: a SELECT, a parameter Wacky World does not have, a value the
// parameter cannot take (G9, G7). Whether the sponsor is a party, and
// whether a smaller World still holds every party and thing, are checked
// when it is done (guide, decisions 9 and 11): both may change before.
func amendable(c *contract.Ctx, a *contract.Action) error {
	decl, value, err := readChange(New(), strings.TrimSpace(a.Arg("text")))
	if err != nil || decl == nil {
		return err
	}
	return c.CheckParam(decl.Name, value)
}

// setParam sets a parameter (G9) and makes the World follow a changed Width or
// Height (Wacky 3).
func setParam(c *contract.Ctx, st *State, name, value string) error {
	if err := c.SetParam(name, value); err != nil {
		return err
	}
	if name == ParamWidth || name == ParamHeight {
		return resizeWorld(c, st)
	}
	return nil
}

// resizeWorld follows a changed Width or Height; a World cannot shrink past a
// party or an asset (guide, decision 11).
func resizeWorld(c *contract.Ctx, st *State) error {
	w, h := c.IntParam(ParamWidth), c.IntParam(ParamHeight)
	inside := func(p Pos) bool { return p.X < w && p.Y < h }
	for _, p := range st.members() {
		if !inside(*p.At) {
			return contract.Reject("G9, Wacky 3", "%s stands on %s, outside a %d by %d World", name(c, p.Addr), *p.At, w, h)
		}
	}
	for _, a := range st.Assets {
		if !inside(a.At) {
			return contract.Reject("G9, Wacky 3", "an asset lies outside a %d by %d World", w, h)
		}
	}
	st.resize(w, h)
	return nil
}

func paramNames(g *Game) string {
	var n []string
	for _, p := range spec.Params {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// currentText is the contract as amended: the original text, then every change
// not opposed, in order.
func currentText(st *State) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(st.Text, "\n"))
	b.WriteString("\n")
	first := true
	for _, ch := range st.Changes {
		if ch.Status == statusOpposed {
			continue
		}
		if first {
			b.WriteString("\n7. CHANGES\n")
			first = false
		}
		b.WriteString(text.WrapIndent(fmt.Sprintf("%s (%s, by %s): %s", strings.ToUpper(ch.title()[:1])+ch.title()[1:], contract.Stamp(ch.At), ch.By, ch.Text), 0, "", "  "))
	}
	return b.String()
}

func changeNotice(c *contract.Ctx, st *State, ch *Change, lead string) {
	var b strings.Builder
	b.WriteString(text.Banner("Wacky World: "+ch.title(), '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap(lead, 0))
	b.WriteString("\n")
	b.WriteString(text.Heading("The change"))
	b.WriteString(text.Wrap(ch.Text, 0))
	switch {
	case ch.Status == statusOpposed && ch.Param != "":
		b.WriteString(text.Wrap(fmt.Sprintf("Undone: %s is %s again (Wacky 1).", ch.Param, ch.Old), 0))
	case ch.Status == statusOpposed:
		b.WriteString(text.Wrap("This text is not part of the contract (Wacky 1).", 0))
	case ch.Param != "":
		b.WriteString(text.Wrap(fmt.Sprintf("Applied: %s was %s and is now %s (G9).", ch.Param, ch.Old, ch.New), 0))
	default:
		b.WriteString(text.Wrap("This text carries no machine-readable change; the contestmaster has been asked how it applies (G9).", 0))
	}
	b.WriteString("\n")
	b.WriteString(text.Heading("The contract as it now reads"))
	b.WriteString(currentText(st))
	b.WriteString("\n")
	b.WriteString(text.Signature("Atlas (referee)"))
	c.Notify(&contract.Notice{ID: fmt.Sprintf("%s/change/%d/%s", ID, ch.ID, strings.ReplaceAll(ch.Status, " ", "-")), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Wacky World: %s", ch.title()), Body: b.String()})
}

// seriesChange is the series the changes are numbered in
// (contract.Ctx.Number): parties oppose a modification by its number.
const seriesChange = "change"

// nextChange numbers a new change of the kind and text given: after every
// change listed and after the last a correction kept in LastChange, or the
// number the recorded history gave it (contract.Ctx.NumberListed).
func nextChange(c *contract.Ctx, st *State, kind, text string) int {
	return c.NumberListed(seriesChange, kind+": "+text, st.lastChange(), &st.LastChange)
}

// lastChange is the greatest number of the changes listed.
func (st *State) lastChange() int {
	last := 0
	for _, ch := range st.Changes {
		last = max(last, ch.ID)
	}
	return last
}

// KeepNumber implements contract.NumberKeeper: after a correction, a new
// change or asset takes a number after the recorded history's last (a
// change's kept in LastChange when the correction left the last unmade).
func (g *Game) KeepNumber(c *contract.Ctx, series string, last int) {
	st := data(c)
	switch series {
	case seriesChange:
		contract.KeepListed(&st.LastChange, st.lastChange(), last)
	case seriesAsset:
		st.NextAsset = max(st.NextAsset, last)
	}
}

// doAmend: Wacky 1, any party may amend the contract without three objections
// (the interpreter calls it only through a ripe intent, G7).
func doAmend(c *contract.Ctx, a *contract.Action) error {
	g := New()
	st := data(c)
	pl := c.Actor()
	if !pl.In(ID) {
		return contract.Reject("Wacky 1", "only a party can amend the contract")
	}
	txt := strings.TrimSpace(a.Arg("text"))
	ch := &Change{ID: nextChange(c, st, kindAmendment, txt), Kind: kindAmendment, By: pl.Name, At: c.Now(), Text: txt, Status: statusInForce}
	if ch.Text == "" {
		return contract.Reject("syntax", "say how the contract changes: I amend the Wacky World contract: <text>")
	}
	if err := applyChange(c, g, ch); err != nil {
		return err
	}
	st.Changes = append(st.Changes, ch)
	changeNotice(c, st, ch, fmt.Sprintf("%s amended the contract without three objections (Wacky 1, G7) at %s UTC.", pl.Name, contract.Stamp(c.Now())))
	c.Did("%s is in force; the amended contract is published", ch.title())
	c.Record(pl.Name, "amends the contract (%s): %s", ch.title(), ch.Text)
	return nil
}

// doModify: Wacky 1, Atlas's modification by announcement while the contract is
// less than two weeks old (ruling W1: the human Atlas, the contestmaster).
func doModify(c *contract.Ctx, a *contract.Action) error {
	if !c.FromContestmaster() {
		return contract.Reject("Wacky 1, W1", "only Atlas, the contestmaster, can modify the contract by announcement")
	}
	st := data(c)
	// Also before the first join (guide, decision 10).
	if !st.Began.IsZero() && !c.Now().Before(st.Began.AddDate(0, 0, 14)) {
		return contract.Reject("Wacky 1", "the contract has been a contract for two weeks (since %s), so Atlas's power to modify it has repealed itself", contract.Stamp(st.Began))
	}
	txt := strings.TrimSpace(a.Arg("text"))
	ch := &Change{ID: nextChange(c, st, kindModification, txt), Kind: kindModification, By: "Atlas", At: c.Now(), Text: txt, Status: statusOpen}
	if ch.Text == "" {
		return contract.Reject("syntax", "say how the contract changes: I modify the Wacky World contract: <text>")
	}
	if err := applyChange(c, New(), ch); err != nil {
		return err
	}
	st.Changes = append(st.Changes, ch)
	until := ch.At.Add(24 * time.Hour)
	changeNotice(c, st, ch, fmt.Sprintf("Atlas modified the contract at %s UTC (Wacky 1). Any party can oppose this modification by announcement until %s UTC (\"I oppose modification #%d in Wacky World\"); if opposed, the contract is treated as if the modification had never been made.", contract.Stamp(c.Now()), contract.Stamp(until), ch.ID))
	c.Did("%s is made; parties can oppose it until %s UTC", ch.title(), contract.Stamp(until))
	c.Record("Atlas", "modifies the contract (%s): %s", ch.title(), ch.Text)
	return nil
}

// doOppose: Wacky 1, a party opposes Atlas's modification within 24 hours.
func doOppose(c *contract.Ctx, a *contract.Action) error {
	st := data(c)
	pl := c.Actor()
	if !pl.In(ID) {
		return contract.Reject("Wacky 1", "only a party can oppose a modification")
	}
	var ch *Change
	if id := a.Arg("id"); id != "" {
		n, _ := strconv.Atoi(id)
		for _, x := range st.Changes {
			if x.ID == n && x.Kind == kindModification {
				ch = x
			}
		}
		if ch == nil {
			return contract.Reject("Wacky 1", "there is no modification #%s", id)
		}
	} else {
		for _, x := range st.Changes {
			if x.Kind == kindModification && x.Status == statusOpen {
				if ch != nil {
					return contract.Reject("Wacky 1", "several modifications are open; name one (\"I oppose modification #%d\")", x.ID)
				}
				ch = x
			}
		}
		if ch == nil {
			return contract.Reject("Wacky 1", "no modification can be opposed now")
		}
	}
	if ch.Status == statusOpposed {
		return contract.Reject("Wacky 1", "modification #%d was already opposed, so it is undone and treated as if it had never been made", ch.ID)
	}
	if ch.Status != statusOpen || c.Now().After(ch.At.Add(24*time.Hour)) {
		return contract.Reject("Wacky 1", "modification #%d can no longer be opposed (24 hours from %s UTC)", ch.ID, contract.Stamp(ch.At))
	}
	if ch.Param != "" {
		if err := setParam(c, st, ch.Param, ch.Old); err != nil {
			return err
		}
	}
	saveChange(c, ch)
	ch.Status = statusOpposed
	changeNotice(c, st, ch, fmt.Sprintf("%s opposed Atlas's modification #%d at %s UTC, so the contract is treated as if the modification had never been made (Wacky 1).", pl.Name, ch.ID, contract.Stamp(c.Now())))
	c.Did("modification #%d is opposed and undone", ch.ID)
	c.Record(pl.Name, "opposes modification #%d, which is undone", ch.ID)
	return nil
}

// modificationStands ends a modification's 24 hours of opposition (Wacky 1).
func modificationStands(c *contract.Ctx, key string) error {
	st := data(c)
	id, _ := strconv.Atoi(key)
	for _, ch := range st.Changes {
		if ch.ID == id && ch.Status == statusOpen {
			saveChange(c, ch)
			ch.Status = statusInForce
			c.Record("Atlas", "modification #%d stands: no party opposed it within 24 hours", id)
		}
	}
	return nil
}

// OnRuling implements contract.RulingHandler: how a text-only change applies
// (G9), or the default when the contestmaster is silent (G8).
func (g *Game) OnRuling(c *contract.Ctx, r *contract.Ruling, timedOut bool) error {
	st := data(c)
	id, err := strconv.Atoi(strings.TrimPrefix(r.Key, "change/"))
	if err != nil {
		return fmt.Errorf("wackyworld: ruling key %q: %w", r.Key, err)
	}
	for _, ch := range st.Changes {
		if ch.ID != id {
			continue
		}
		saveChange(c, ch)
		ch.Ruling = r.Answer
		if timedOut {
			ch.Ruling = r.Default + " (no ruling in time, G8)"
		}
		c.Record("Atlas", "ruling on %s: %s", ch.title(), ch.Ruling)
	}
	return nil
}
