package life

import (
	"slices"
	"strings"

	"referee/contract"
)

// doVolunteer is a player's half of Life R1: "the contestmaster can be changed
// only by mutual consent between the contestmaster and another player, who
// will become the new contestmaster". The change happens when both halves
// exist, in either order.
func doVolunteer(c *contract.Ctx, a *contract.Action) error {
	p := c.Actor()
	if c.FromContestmaster() {
		return contract.Reject("Life R1", "you are already the contestmaster")
	}
	st := data(c)
	if st.Handover.Offer == p.Address() {
		return handOver(c, p)
	}
	if slices.Contains(st.Handover.Volunteers, p.Address()) {
		return contract.Reject("Life R1", "you already consented; the contestmaster has not consented to you yet")
	}
	st.Handover.Volunteers = append(st.Handover.Volunteers, p.Address())
	c.Did("your consent to become the contestmaster is recorded; the contestmaster's consent to you is still needed (R1)")
	c.Record(p.Name, "consents to become the contestmaster (R1)")
	return nil
}

// doHandOver is the contestmaster's half of Life R1.
func doHandOver(c *contract.Ctx, a *contract.Action) error {
	if !c.FromContestmaster() {
		return contract.Reject("Life R1", "only the contestmaster can consent to a new contestmaster")
	}
	who := a.Arg("who")
	if who == "" {
		who = a.Arg("to")
	}
	p, err := c.State().Resolve(who)
	if err != nil {
		return err
	}
	if strings.EqualFold(p.Address(), c.Contestmaster()) {
		return contract.Reject("Life R1", "%s is already the contestmaster", p.Name)
	}
	st := data(c)
	if slices.Contains(st.Handover.Volunteers, p.Address()) {
		return handOver(c, p)
	}
	st.Handover.Offer = p.Address()
	c.Did("your consent to %s becoming the contestmaster is recorded; eir consent is still needed (R1)", p.Name)
	c.Record("the contestmaster", "consents to %s becoming the contestmaster (R1)", p.Name)
	return nil
}

func handOver(c *contract.Ctx, p *contract.Player) error {
	c.SetContestmaster(p.Address())
	data(c).Handover = Handover{}
	c.Did("%s is now the contestmaster of Life, by mutual consent (R1)", p.Name)
	c.Record(p.Name, "becomes the contestmaster by mutual consent (R1)")
	return nil
}
