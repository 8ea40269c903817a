package steemfield

import (
	"fmt"
	"strings"

	"referee/contract"
	"referee/contract/text"
)

// The totem controller's own actions (the contestmaster, ruling G8): correct
// a declared power (S1), dissolve the totem (Meta 3), relinquish control
// (Meta 4). They are sentences, not tags.

// controller rejects anyone but the totem's controller (G8) and returns the
// game's state, its names synced.
func controller(c *contract.Ctx) (*State, error) {
	if !c.FromContestmaster() {
		return nil, contract.Reject("Meta 3, G8", "only the totem's controller (%s) can do this", c.Contestmaster())
	}
	st := data(c)
	st.sync(c)
	return st, nil
}

func doCorrect(c *contract.Ctx, a *contract.Action) error {
	st, err := controller(c)
	if err != nil {
		return err
	}
	p, err := c.State().Resolve(a.Arg("name"))
	if err != nil {
		return err
	}
	m := st.member(p.Name)
	if m == nil {
		return contract.Reject("S1", "%s is not a player of Steemfield", p.Name)
	}
	pw, ok := parsePower(a.Arg("n"))
	if !ok || pw <= 0 {
		return contract.Reject("S1", "the delegated power must be more than 0")
	}
	old := m.Power
	saveMember(c, m)
	m.Power = pw
	c.Did("the declared power of %s is now %s (was %s; voting weight %s)", m.Name, milli(pw), milli(old), micro(weight(pw)))
	c.Record("the totem", "corrects the delegated power of %s to %s (S1)", m.Name, milli(pw))
	// S1, S5: a corrected power was the player's all along, so the vote e
	// cast this round, not yet tallied, counts with the corrected weight
	// (guide, decisions).
	for i := range st.Votes {
		if v := &st.Votes[i]; v.Player == m.Name && v.Weight != weight(pw) {
			contract.SaveValue(c, v)
			was := v.Weight
			v.Weight = weight(pw)
			c.Did("the vote of %s in round %d now counts with the weight %s (was %s) (S5)", m.Name, st.Round, micro(v.Weight), micro(was))
		}
	}
	return nil
}

func doDissolve(c *contract.Ctx, a *contract.Action) error {
	st, err := controller(c)
	if err != nil {
		return err
	}
	if st.Phase == PhaseOver {
		return contract.Reject("Meta 3", "the game is already over")
	}
	st.Phase = PhaseOver
	c.Record("the totem", "is dissolved by its controller; the game ends (Meta 3)")
	var b strings.Builder
	b.WriteString(text.Banner("Steemfield: the totem is dissolved", '='))
	b.WriteString("\n")
	b.WriteString(text.Wrap(fmt.Sprintf("The controller of the totem dissolved it at %s UTC, which ends the game (Meta 3). Nobody won. Below are the final LAND and the final state of the rules for reference's sake.", contract.Stamp(c.Now())), 0))
	b.WriteString("\n")
	b.WriteString(standing(c, st))
	b.WriteString(ruleSet(st.Rules))
	b.WriteString("\n")
	b.WriteString(text.Signature(office))
	c.Notify(&contract.Notice{ID: ID + "/dissolved", Kind: "report", Channel: contract.ChanPublic,
		Subject: "[Steemfield] The totem is dissolved", Body: b.String()})
	c.Did("the totem is dissolved and the game is over (Meta 3)")
	return nil
}

func doRelinquish(c *contract.Ctx, a *contract.Action) error {
	if _, err := controller(c); err != nil {
		return err
	}
	addr := strings.Trim(strings.TrimSpace(a.Arg("addr")), "<>")
	if !strings.Contains(addr, "@") || strings.ContainsAny(addr, " ,;") {
		return contract.Reject("Meta 4", "name the new controller by email address")
	}
	if p := c.State().PlayerByAddress(addr); p != nil && p.In(ID) {
		return contract.Reject("Meta 1", "the controller of the totem is not a player; %s must leave first", p.Name)
	}
	old := c.Contestmaster()
	c.SetContestmaster(addr)
	c.Did("control of the totem passes from %s to %s (Meta 4)", old, strings.ToLower(addr))
	c.Record("the totem", "passes to a new controller, %s (Meta 4)", strings.ToLower(addr))
	return nil
}
