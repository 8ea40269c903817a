package steemfield

import "referee/contract"

// verbTable is the game's verb table: every verb comes from a tag read by the
// Extractor (ruling S1), so none has a sentence pattern.
var verbTable = []*contract.Verb{
	{Name: "delegate", Extracted: true, Rule: "Participation 1, S1", Syntax: "{DELEGATE: 0.5}",
		Help: "join the game (or change your declared power); effective power is at most 1", Do: doDelegate},
	{Name: "undelegate", Extracted: true, Rule: "Participation 3, S1", Syntax: "{UNDELEGATE}",
		Help: "leave the game; your LAND goes to the others, youngest first", Do: doUndelegate},
	{Name: "propose", Extracted: true, Rule: "Meta 9, Implementation Details", Syntax: "---\n{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 4\nThe cap on total LAND is 500.\n---",
		Help: "propose one rule change in the proposal period, under the results post", Do: doPropose},
	{Name: "vote", Extracted: true, Rule: "Meta 9, S5", Syntax: "{YES} or {NO}",
		Help: "vote once in the voting period, under the proposal post", Do: doVote},
	{Name: "referral", Extracted: true, Rule: "Gameplay 9, S9", Syntax: `{REFERRED_BY:"name"}`,
		Help: "a new player names who referred em: 1 LAND each", Do: doReferral},
	{Name: "gift", Extracted: true, Rule: "Gameplay 6, S8", Syntax: `{GIFT_3_LAND_TO:"name"}`,
		Help: "give LAND to another player (unplaced first, then your newest cells)", Do: doGift},
	{Name: "burn", Extracted: true, Rule: "Voting and Proposals 5, S4", Syntax: "{BURN:2}",
		Help: "burn unplaced LAND for an earlier place in the proposal order", Do: doBurn},
	{Name: "place", Extracted: true, Rule: "Gameplay 11, S10", Syntax: "{PLACE: L(3, 4)}",
		Help: "put one unplaced LAND on the map, once per proposal period", Do: doPlace},
	{Name: "unplace", Extracted: true, Rule: "Gameplay 13", Syntax: "{UNPLACE: L(3, 4)}",
		Help: "take a LAND off the map instead of placing (counts as your placement)", Do: doUnplace},
	{Name: "roll", Extracted: true, Rule: "Gameplay 15, S8", Syntax: "{ROLL}",
		Help: "have your own 1d6 drawn now (proposal period); otherwise the totem rolls", Do: doRoll},
	{Name: "correct power", Scope: contract.Anywhere, Rule: "S1",
		Pattern: `correct\s+the\s+(?:delegated\s+)?power\s+of\s+(?P<name>.+?)\s+to\s+(?P<n>-?` + contract.WholeNumber + `(?:\.\d+)?)(?:\s*sp)?`,
		Syntax:  "I correct the delegated power of Bob to 0.5",
		Help:    "the controller corrects a player's declared power", Do: doCorrect},
	{Name: "dissolve", Scope: contract.PublicOnly, Rule: "Meta 3",
		Pattern: `dissolve\s+the\s+(?:steemfield\s+)?totem`,
		Syntax:  "I dissolve the totem",
		Help:    "the controller ends the game", Do: doDissolve},
	{Name: "relinquish", Scope: contract.PublicOnly, Rule: "Meta 4",
		Pattern: `relinquish\s+control\s+of\s+the\s+(?:steemfield\s+)?totem\s+to\s+(?P<addr>\S+)`,
		Syntax:  "I relinquish control of the totem to <address>",
		Help:    "the controller hands the totem to another person", Do: doRelinquish},
}

// Verbs is the verb table (contract.Game).
func (g *Game) Verbs() []*contract.Verb { return verbTable }

func verb(name string) *contract.Verb {
	for _, v := range verbTable {
		if v.Name == name {
			return v
		}
	}
	panic("steemfield: no verb " + name)
}
