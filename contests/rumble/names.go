package rumble

import "referee/contract"

// Renamable implements contract.NameKeeper: Rumble keeps its players by
// name (fighters, powers' owners and holders, sealed submissions, the
// contestmaster's consent), and a sealed submission's canonical text,
// covered by the commitment published when it was sealed, names the
// contestant ("contestant Carol"). Renaming them in Rumble's state would
// break that commitment, and not renaming them would make the player a
// stranger to eir own game; so a player a game going on names keeps eir
// name until it ends, and the player the contestmaster consented to keeps
// it until the consent is used or lapses (guide, decisions).
func (g *Game) Renamable(c *contract.Ctx, p *contract.Player) error {
	st := data(c)
	if st.Phase != PhaseNone {
		switch {
		case st.fighter(p.Name) != nil:
			return contract.Reject(nameRule, "you are a contestant in game %d of Rumble, whose sealed submissions and commitments name you %s; you can change your name once game %d is over", st.Game, p.Name, st.Game)
		case st.sub(p.Name) != nil:
			return contract.Reject(nameRule, "your sealed submission for game %d of Rumble, and its commitment, name you %s; you can change your name once game %d is over", st.Game, p.Name, st.Game)
		}
	}
	if st.Consent != "" && st.Consent == p.Name {
		return contract.Reject(nameRule, "the Rumble contestmaster consented to %s becoming the contestmaster (Rumble 16), and the consent names you so; you can change your name once you have replaced em, or once the consent lapses (a new game, or a consent to another player)", p.Name)
	}
	return nil
}

// nameRule cites the guide's decision on names Rumble keeps.
const nameRule = "Rumble guide, decisions: names"
