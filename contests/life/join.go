package life

import (
	"slices"
	"time"

	"referee/contract"
)

// rejoinWait is Life R2's seven days between leaving and joining again.
const rejoinWait = 7 * 24 * time.Hour

// doJoin: Life R2 (no rejoining within seven days), R3 (no fee), R15 (the
// contestmaster mints VPP Vials to the new contestant as soon as possible,
// that is at once), ruling L8.
func doJoin(c *contract.Ctx, a *contract.Action) error {
	p := c.Actor()
	if p.In(ID) {
		return contract.Reject("Life R2", "you are already a contestant of Life")
	}
	if left, ok := p.Left[ID]; ok && c.Now().Before(left.Add(rejoinWait)) {
		return contract.Reject("Life R2", "you were last a contestant on %s; you may join again from %s UTC",
			contract.Stamp(left), contract.Stamp(left.Add(rejoinWait)))
	}
	c.State().Join(p, ID, c.Now())
	vpp := int64(c.IntParam("VPP"))
	if err := c.State().Ledger.Mint(Vial, p.Name, vpp); err != nil {
		return err
	}
	c.Did("you are a contestant of Life; the contestmaster minted you %s (R15)", plural(vpp, "Vial", "Vials"))
	c.Record(p.Name, "joins; %s minted to em (R15)", plural(vpp, "Vial", "Vials"))
	return nil
}

// doLeave: the player stops being a contestant (ruling L8). Eir Cells are
// then Controlled by an entity that may not Control them and go to the contest,
// Dead (R9, R10); eir Vials self-destruct (R13).
func doLeave(c *contract.Ctx, a *contract.Action) error {
	p := c.Actor()
	if !p.In(ID) {
		return contract.Reject("Life R2", "you are not a contestant of Life")
	}
	st := data(c)
	cells := st.count(p.Address())
	contract.SaveEntry(c, st.Cells, p.Address())
	delete(st.Cells, p.Address())
	st.index = nil // made again by the next claim (cellIndex)
	v := vials(c, p.Name)
	if err := c.State().Ledger.Destroy(Vial, p.Name, v); err != nil {
		return err
	}
	c.State().Leave(p, ID, c.Now())
	// A copy: the list is shared with what undo puts back (DataSaver).
	st.Handover.Volunteers = slices.DeleteFunc(slices.Clone(st.Handover.Volunteers), func(a string) bool { return a == p.Address() })
	if st.Handover.Offer == p.Address() {
		st.Handover.Offer = ""
	}
	c.Did("you left Life: %s went to the contest (R9) and %s self-destructed (R13); you may join again from %s UTC",
		plural(int64(cells), "Cell", "Cells"), plural(v, "Vial", "Vials"), contract.Stamp(c.Now().Add(rejoinWait)))
	c.Record(p.Name, "leaves; %s die (R9), %s self-destruct (R13)", plural(int64(cells), "Cell", "Cells"), plural(v, "Vial", "Vials"))
	return nil
}
