package wackyworld

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"referee/contract"
	"referee/contract/text"
	"referee/internal/lazyre"
)

// gameAction checks what every Game Action needs (Wacky 6): the actor is a
// party and has not yet performed a Game Action this turn. Acted outlives a
// leave and a rejoin in the same turn (guide, decision 17).
func gameAction(c *contract.Ctx) (*State, *Party, error) {
	st := data(c)
	pl := c.Actor()
	p := st.party(pl.Address())
	if !pl.In(ID) || p == nil || p.At == nil {
		return nil, nil, contract.Reject("Wacky 6", "only a party to Wacky World can perform a Game Action; join first (\"I join Wacky World\")")
	}
	if p.Acted == st.Turn {
		return nil, nil, contract.Reject("Wacky 6", "you have already performed a Game Action in turn %d; the next turn begins %s UTC", st.Turn, contract.Stamp(nextTurn(st.TurnStart)))
	}
	return st, p, nil
}

// adjacentTarget resolves the tile of a verb and checks that it is on the map
// and adjacent to the actor (Wacky 3).
func adjacentTarget(st *State, p *Party, a *contract.Action, rule string) (Pos, error) {
	t, err := resolveTarget(*p.At, a)
	if err != nil {
		return t, err
	}
	if !st.on(t) {
		return t, contract.Reject(rule+", 3", "%s is off the map (the World is %d by %d, from (0, 0) to (%d, %d))", t, st.width(), st.height(), st.width()-1, st.height()-1)
	}
	if !adjacent(t, *p.At) {
		return t, contract.Reject(rule+", 3", "%s is not adjacent to your location %s (no diagonals)", t, *p.At)
	}
	return t, nil
}

func terrainName(b byte) string {
	switch b {
	case Fertile:
		return "Fertile"
	case Wall:
		return "Wall"
	}
	return "Fallow"
}

// doMove: Wacky 6a.
func doMove(c *contract.Ctx, a *contract.Action) error {
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	from := *p.At
	if st.at(from) == Wall {
		return contract.Reject("Wacky 6a", "you stand on a Wall tile %s and cannot move from it", from)
	}
	to, err := adjacentTarget(st, p, a, "Wacky 6a")
	if err != nil {
		return err
	}
	if st.at(to) == Wall {
		return contract.Reject("Wacky 6a", "%s is a Wall; you can move only to a non-Wall tile", to)
	}
	saveParty(c, p)
	p.At, p.Last = &to, &to
	p.Acted = st.Turn
	c.Did("you moved from %s to %s", from, to)
	c.Record(c.Actor().Name, "moves from %s to %s", from, to)
	return nil
}

var (
	leadWords = lazyre.MustCompile(`(?i)^(?:my|the|a|an|one|this|that|some)\s+`)
	amountRE  = lazyre.MustCompile(`(?i)^(?:my\s+)?(` + contract.WholeNumber + `|` + spelledAmount + `)\s+(.+)$`)
	assetRef  = lazyre.MustCompile(`(?i)^(?:asset\s*(?:#|no\.?|number)?|#)\s*(\d+)$`)
	// noThing is what a drop or a pick-up left without its thing reads as:
	// the game's name alone ("I drop in Wacky World") or a word that names
	// no thing ("I drop it").
	noThing = lazyre.MustCompile(`(?i)^(?:(?:in|into|to|on|at)\s+(?:the\s+)?wacky\s*world(?:\s+(?:contract|contest|game))?|it|them|nothing|something|anything|everything)$`)
)

// namesAThing reports whether a thing's name, as thingName gives it, names
// a thing: not empty, and not noThing.
func namesAThing(nm string) bool { return nm != "" && !noThing().MatchString(nm) }

// spelledAmount is an amount as players write it in words: "a", "one",
// "three", "twenty-one", "a hundred", "several", "all" ("I drop three Vials",
// "I drop all my Vials": decision 5).
const spelledAmount = `a|an|(?:a\s+)?hundred|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\s](?:one|two|three|four|five|six|seven|eight|nine))?` +
	`|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen` +
	`|(?:a\s+few|a\s+couple|several|some|many|most|all)(?:\s+of)?(?:\s+(?:my|the))?|my`

// thingName is an asset's name as a player writes it, without articles.
func thingName(s string) string {
	s = strings.TrimSpace(s)
	for {
		t := leadWords().ReplaceAllString(s, "")
		if t == s {
			return strings.Join(strings.Fields(s), " ")
		}
		s = t
	}
}

// ledgerCurrency reports whether a phrase names a currency the referee keeps in
// its ledger ("3 Vials", "an x-point").
func ledgerCurrency(c *contract.Ctx, what string) (string, bool) {
	m := amountRE().FindStringSubmatch(strings.TrimSpace(what))
	if m == nil {
		return "", false
	}
	unit := strings.ToLower(strings.Join(strings.Fields(m[2]), " "))
	ids := map[string]bool{XPoint: true}
	for id := range c.State().Ledger.Supply {
		ids[id] = true
	}
	for id := range c.State().Ledger.Balances {
		ids[id] = true
	}
	var list []string
	for id := range ids {
		list = append(list, id)
	}
	sort.Strings(list)
	for _, id := range list {
		seg := id[strings.LastIndex(id, "/")+1:]
		for _, n := range []string{seg, seg + "s", strings.ReplaceAll(seg, "-", ""), strings.ReplaceAll(seg, "-", "") + "s"} {
			if unit == n || strings.HasPrefix(unit, n+" ") {
				return id, true
			}
		}
		if id == XPoint && (strings.HasPrefix(unit, "x-point") || strings.HasPrefix(unit, "x point")) {
			return id, true
		}
	}
	return "", false
}

// seriesAsset is the series the assets are numbered in
// (contract.Ctx.Number): parties pick one up by its number ("I pick up
// asset #N"), and a medal's number labels its draw (medalLabel).
const seriesAsset = "asset"

// doDrop: Wacky 6b and ruling W6 (any named thing is recorded as an asset; a
// currency of the referee's own games only if that game lets the contract own
// it, and none does).
func doDrop(c *contract.Ctx, a *contract.Action) error {
	raw := a.Arg("what")
	if raw == "" {
		raw = a.Arg("thing")
	}
	if id, ok := ledgerCurrency(c, raw); ok {
		return contract.Reject("Wacky 6b, W6", "this contract CANNOT own %s (%s), so the attempted transfer is unsuccessful", strings.TrimSpace(raw), id)
	}
	nm := thingName(raw)
	if !namesAThing(nm) || assetRef().MatchString(nm) {
		return contract.Reject("syntax", "name the thing you drop: I drop <thing> in Wacky World")
	}
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	id := c.Number(seriesAsset, "drop: "+nm, st.NextAsset+1)
	st.NextAsset = max(st.NextAsset, id)
	as := &Asset{ID: id, Name: nm, Donor: p.Addr, At: *p.At, Public: true, Since: c.Now()}
	st.Assets = append(st.Assets, as)
	saveParty(c, p)
	p.Acted = st.Turn
	c.Did("%s now lies at %s; you are its donor (Wacky 6b)", as.Label(), as.At)
	c.Record(c.Actor().Name, "drops %s at %s", as.Label(), as.At)
	c.Detail("asset", map[string]any{"id": as.ID, "name": as.Name})
	return nil
}

// doPickUp: Wacky 6c (the donor, unless the magpie, gets two y-points).
func doPickUp(c *contract.Ctx, a *contract.Action) error {
	want := thingName(a.Arg("what"))
	if !namesAThing(want) {
		return contract.Reject("syntax", "name the thing you pick up: I pick up <thing> in Wacky World, or I pick up asset #N in Wacky World")
	}
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	// The oldest thing of that name on the tile, or asset #N (guide, decision 6).
	var found *Asset
	for _, as := range sortedAssets(st.Assets) {
		if as.At != *p.At {
			continue
		}
		if m := assetRef().FindStringSubmatch(want); m != nil {
			if id, _ := strconv.Atoi(m[1]); id == as.ID {
				found = as
				break
			}
			continue
		}
		if strings.EqualFold(as.Name, want) || strings.EqualFold(as.Label(), want) {
			found = as
			break
		}
	}
	if found == nil {
		return contract.Reject("Wacky 6c", "there is no %q at your location %s", want, *p.At)
	}
	st.dropAsset(found.ID)
	saveParty(c, p)
	p.Acted = st.Turn
	me := c.Actor().Name
	c.Did("you picked up %s at %s; this contract transfers it to you", found.Label(), found.At)
	c.Record(me, "picks up %s at %s", found.Label(), found.At)
	if found.Medal {
		// W6, G5: found, the medal's tile may be checked: its seed is published.
		medalNotice(c, found, "found", fmt.Sprintf("%s picked up %s at %s, so its location is no longer secret (W6). The seed its tile was drawn with, under the label %q over the non-Wall tiles in reading order at its making (G5), is:", me, found.Label(), found.At, medalLabel(found.ID)),
			hex.EncodeToString(medalSeed(c, found.ID)))
	}
	if found.Donor != "" && found.Donor != p.Addr {
		n := c.IntParam(ParamDonor)
		donor := name(c, found.Donor)
		c.Award(donor, n, fmt.Sprintf("y-points: %s picked up %s", me, found.Label()))
		if d := st.party(found.Donor); d != nil {
			saveParty(c, d)
			d.YEarned += n
		}
		c.Did("%s, its donor, is awarded %d y-points (Wacky 6c)", donor, n)
		c.Record("Atlas", "awards %d y-points to %s, donor of %s", n, donor, found.Label())
	}
	return nil
}

// doReap: Wacky 6d.
func doReap(c *contract.Ctx, a *contract.Action) error {
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	t, err := adjacentTarget(st, p, a, "Wacky 6d")
	if err != nil {
		return err
	}
	if st.at(t) != Fertile {
		return contract.Reject("Wacky 6d", "%s is %s, not Fertile", t, terrainName(st.at(t)))
	}
	st.set(t, Fallow)
	saveParty(c, p)
	p.Acted = st.Turn
	me := c.Actor().Name
	n := c.IntParam(ParamReap)
	if err := c.State().Ledger.Mint(XPoint, me, int64(n)); err != nil {
		return fmt.Errorf("reap: %w", err)
	}
	c.Award(me, n, fmt.Sprintf("x-point for reaping %s", t))
	p.XEarned += n
	c.Did("you reaped %s, which is now Fallow; you are awarded %s and hold %d (Wacky 6d)", t, text.Count(int(n), "x-point", "x-points"), c.State().Ledger.Balance(XPoint, me))
	c.Record(me, "reaps %s (+%d %s)", t, n, plural(n, "x-point"))
	return nil
}

// doBuild: Wacky 6e, read with ruling W3 (the wall is raised on the target tile,
// and only if the builder has the x-point to lose).
func doBuild(c *contract.Ctx, a *contract.Action) error {
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	t, err := adjacentTarget(st, p, a, "Wacky 6e")
	if err != nil {
		return err
	}
	if len(st.partiesAt(t)) > 0 {
		return contract.Reject("Wacky 6e", "a party stands on %s, so no wall can be raised there", t)
	}
	if st.at(t) == Wall { // guide, decision 3
		return contract.Reject("Wacky 6e", "%s is already a Wall", t)
	}
	me := c.Actor().Name
	cost := c.IntParam(ParamBuild)
	if have := c.State().Ledger.Balance(XPoint, me); have < int64(cost) {
		return contract.Reject("Wacky 6e, W3", "building costs %s and you hold %d", text.Count(int(cost), "x-point", "x-points"), have)
	}
	if err := c.State().Ledger.Destroy(XPoint, me, int64(cost)); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	c.Award(me, -cost, fmt.Sprintf("x-point revoked for building a wall on %s", t))
	st.set(t, Wall)
	saveParty(c, p)
	p.Acted = st.Turn
	c.Did("%s is now Wall; %s revoked, you hold %d (Wacky 6e, W3)", t, text.Count(int(cost), "x-point", "x-points"), c.State().Ledger.Balance(XPoint, me))
	c.Record(me, "builds a wall on %s (-%d %s)", t, cost, plural(cost, "x-point"))
	return nil
}

// doPush: Wacky 6f (parties on the far tile cease to be parties).
func doPush(c *contract.Ctx, a *contract.Action) error {
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	near, err := adjacentTarget(st, p, a, "Wacky 6f")
	if err != nil {
		return err
	}
	if st.at(near) != Wall {
		return contract.Reject("Wacky 6f", "%s is %s, not a Wall", near, terrainName(st.at(near)))
	}
	far := Pos{2*near.X - p.At.X, 2*near.Y - p.At.Y}
	if !st.on(far) {
		return contract.Reject("Wacky 6f", "the far tile %s is off the map", far)
	}
	if st.at(far) == Wall {
		return contract.Reject("Wacky 6f", "the far tile %s is a Wall", far)
	}
	st.set(far, Wall)
	st.set(near, Fallow)
	saveParty(c, p)
	p.Acted = st.Turn
	me := c.Actor().Name
	c.Did("the wall moved from %s to %s; %s is now Fallow (Wacky 6f)", near, far, near)
	c.Record(me, "pushes the wall at %s to %s", near, far)
	// Wacky 6f, 5: each party on the far tile ceases to be a party and its
	// location becomes Null; it is told privately (guide, decision 8).
	for _, q := range st.partiesAt(far) {
		pl := c.State().PlayerByAddress(q.Addr)
		saveParty(c, q)
		q.At = nil
		if pl == nil {
			continue
		}
		c.State().Leave(pl, ID, c.Now())
		c.Did("%s stood on %s and ceases to be a party (Wacky 6f)", pl.Name, far)
		c.Record("Atlas", "%s, crushed at %s, ceases to be a party", pl.Name, far)
		c.Notify(&contract.Notice{ID: fmt.Sprintf("%s/pushed/%s/%d", ID, msgKey(c), st.index(q.Addr)), Channel: contract.ChanPrivate,
			To: []string{q.Addr}, Subject: "[Wacky World] You were pushed out",
			Body: text.Wrap(fmt.Sprintf("%s pushed the wall at %s onto your tile %s, so you ceased to be a party to Wacky World (Wacky 6f). You may join again; you will be placed on a random tile.", me, near, far), 0) +
				"\n" + text.Signature("Atlas (referee)")})
	}
	return nil
}

// msgKey identifies the action's message in notice IDs.
func msgKey(c *contract.Ctx) string {
	if m := c.Msg(); m != nil {
		return m.ID
	}
	return contract.Stamp(c.Now())
}

// doSearch: Wacky 6g; ruling W5 (announced publicly, answered privately).
func doSearch(c *contract.Ctx, a *contract.Action) error {
	st, p, err := gameAction(c)
	if err != nil {
		return err
	}
	here := *p.At
	near := func(q Pos) bool { return q == here || adjacent(q, here) }
	// The searcher is listed too; walls are terrain, not entities (guide,
	// decision 7).
	t := &text.Table{Header: []string{"Entity", "Kind", "Tile"}}
	for _, q := range st.members() {
		if near(*q.At) {
			who := name(c, q.Addr)
			if q.Addr == p.Addr {
				who += " (you)"
			}
			t.Add(who, "party", q.At.String())
		}
	}
	for _, as := range sortedAssets(st.Assets) {
		if near(as.At) {
			kind := "asset"
			if as.Medal {
				kind = "medal"
			}
			t.Add(as.Label(), kind, as.At.String())
		}
	}
	saveParty(c, p)
	p.Acted = st.Turn
	var b strings.Builder
	b.WriteString(text.Banner("Wacky World: search result", '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("You searched your location %s in turn %d at %s UTC. These are all the entities whose location is the same as or adjacent to yours (Wacky 6g). This list is for you alone (ruling W5).", here, st.Turn, contract.Stamp(c.Now())), 0))
	b.WriteString("\n")
	b.WriteString(t.String())
	b.WriteString("\n")
	b.WriteString(text.Signature("Atlas (referee)"))
	c.Notify(&contract.Notice{ID: fmt.Sprintf("%s/search/%s", ID, msgKey(c)), Channel: contract.ChanPrivate,
		To: []string{c.Actor().Address()}, Subject: "[Wacky World] Search result", Body: b.String()})
	c.Did("you searched %s; %s found, listed in a private message to you (ruling W5)", here, text.Count(len(t.Rows), "entity", "entities"))
	c.Record(c.Actor().Name, "searches %s", here)
	return nil
}

// doMedal: Wacky 2 and ruling W6: the contestmaster creates a medal in the
// contest's possession; it is set on a random non-Wall tile (W4), kept secret.
func doMedal(c *contract.Ctx, a *contract.Action) error {
	if !c.FromContestmaster() {
		return contract.Reject("Wacky 2, W6", "only the contestmaster can create a medal")
	}
	st := data(c)
	nm := thingName(a.Arg("name"))
	if nm == "" {
		nm = "medal"
	}
	id := c.Number(seriesAsset, "medal: "+nm, st.NextAsset+1)
	seed := medalSeed(c, id)
	t, ok := st.medalTile(seed, id)
	if !ok {
		return contract.Reject("Wacky 2, W4", "every tile is Wall, so the medal cannot be placed")
	}
	st.NextAsset = max(st.NextAsset, id)
	as := &Asset{ID: id, Name: nm, At: t, Medal: true, Since: c.Now()}
	st.Assets = append(st.Assets, as)
	// Wacky 3: Atlas does not reveal a non-party entity's location; the journal
	// (private) keeps it.
	c.Detail("medal", map[string]any{"id": id, "tile": t.String()})
	c.Did("%s is created in the contest's possession and set on a secret random tile (Wacky 2, W4, W6); the public notice gives the SHA-256 of the seed it was drawn with", as.Label())
	c.Record("Atlas", "sets %s, a new medal, on a secret random tile", as.Label())
	medalNotice(c, as, "made", fmt.Sprintf("Atlas has set %s, a new medal in the contest's possession, on a random non-Wall tile that stays secret until the medal is found (Wacky 2, W4, W6). The tile was drawn from the medal's own seed under the label %q, over the non-Wall tiles in reading order, as a weekly draw is (G5). When the medal is picked up the seed is published; its SHA-256 is:", as.Label(), medalLabel(id)),
		contract.Commitment(seed))
	return nil
}

// medalNotice publishes a medal's seed commitment or seed (W6, G5), the
// 64 hexadecimal digits on a line of their own.
func medalNotice(c *contract.Ctx, as *Asset, what, lead, hexline string) {
	var b strings.Builder
	b.WriteString(text.Banner("Wacky World: "+as.Label(), '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap(lead, 0))
	b.WriteString("\n  " + hexline + "\n\n")
	b.WriteString(text.Signature("Atlas (referee)"))
	c.Notify(&contract.Notice{ID: fmt.Sprintf("%s/medal/%d/%s", ID, as.ID, what), Channel: contract.ChanPublic,
		Subject: fmt.Sprintf("Wacky World: %s %s", as.Label(), what), Body: b.String()})
}

func plural(n int, unit string) string {
	if n == 1 {
		return unit
	}
	return unit + "s"
}
