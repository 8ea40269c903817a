package wackyworld

import (
	"strconv"
	"strings"

	"referee/contract"
)

// target is the tail of the verbs that name a tile: a direction ("north", "to
// the west", "one tile north": every target is one tile away, Wacky 3) or a
// coordinate pair ("(3, 4)", "to (3, 4)"); groups dir, x, y.
const target = `(?:(?:to|on|at|onto|into|towards?)\s+)?(?:the\s+)?(?:(?:fertile|wall|adjacent)\s+)?(?:tile\s+)?` +
	`(?:(?:(?:one|1|a|a\s+single)\s+(?:tile|square|step|space)\s+)?(?:(?:to|on)\s+(?:the\s+)?)?(?P<dir>north|south|east|west|up|down|left|right)(?:wards?)?(?:\s+of\s+(?:me|here))?` +
	`|(?:at\s+)?\(?\s*(?P<x>-?\d+)\s*,\s*(?P<y>-?\d+)\s*\)?)`

// word is one word other than "to", so that "transfer my hat to Wacky World"
// matches and the interpreter's "transfer 3 Vials to Alice" does not.
const word = `(?:[^t\s]\S*|t[^o\s]\S*|to\S+|t)`

// toTheWorld is the recipient of a transfer that drops a thing (Wacky 6b):
// the game itself, named, so that a transfer with no "to" ("I transfer Bob
// 3 Vials") is not taken for a drop of a thing called "Bob 3 Vials". The
// interpreter matches a verb against the sentence with its game's name too
// when it does not match without it.
const toTheWorld = `\s+to\s+(?:the\s+)?wacky(?:\s*world)?(?:\s+(?:contract|contest|game))?`

// Verbs implements contract.Game.
func (g *Game) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "join", Rule: "Wacky 1, 5",
			Pattern: `(?:join|become\s+a\s+party(?:\s+to)?)(?:\s+(?:this|the)\s+(?:contract|contest))?`,
			Syntax:  "I join Wacky World",
			Help:    "become a party; you are placed at your last location or a random tile", Do: doJoin},
		{Name: "leave", Rule: "Wacky 1, 5",
			Pattern: `(?:leave|cease\s+to\s+be\s+a\s+party(?:\s+to)?)(?:\s+(?:this|the)\s+(?:contract|contest))?`,
			Syntax:  "I leave Wacky World",
			Help:    "cease to be a party; your location becomes Null", Do: doLeave},
		{Name: "move", Rule: "Wacky 6a",
			Pattern: `(?:move|go|walk|step)\s+` + target,
			Syntax:  "I move north|south|east|west in Wacky World / I move to (X, Y) in Wacky World",
			Help:    "Game Action: move to an adjacent non-Wall tile", Do: doMove},
		{Name: "drop", Rule: "Wacky 6b, W6",
			Pattern: `(?:drop\s+(?P<what>.+?)|transfer\s+(?P<thing>` + word + `(?:\s+` + word + `)*)` + toTheWorld + `)`,
			Syntax:  "I drop <thing> in Wacky World / I transfer <thing> to Wacky World",
			Help:    "Game Action: leave an asset on your tile (you become its donor)", Do: doDrop},
		{Name: "pick up", Rule: "Wacky 6c",
			Pattern: `pick\s+up\s+(?P<what>.+)`,
			Syntax:  "I pick up <thing> in Wacky World / I pick up asset #N in Wacky World",
			Help:    "Game Action: take an asset on your tile; its donor gets 2 y-points", Do: doPickUp},
		{Name: "reap", Rule: "Wacky 6d",
			Pattern: `(?:reap|harvest)\s+` + target,
			Syntax:  "I reap (X, Y) in Wacky World / I reap the tile north in Wacky World",
			Help:    "Game Action: reap an adjacent Fertile tile for 1 x-point", Do: doReap},
		{Name: "build", Rule: "Wacky 6e, W3",
			Pattern: `(?:build|raise|erect)\s+a\s+wall\s+` + target,
			Syntax:  "I build a wall on (X, Y) in Wacky World / I build a wall to the east in Wacky World",
			Help:    "Game Action: spend 1 x-point to turn an adjacent unoccupied tile into Wall", Do: doBuild},
		{Name: "push", Rule: "Wacky 6f",
			Pattern: `push\s+` + target,
			Syntax:  "I push the wall north in Wacky World / I push the wall at (X, Y) in Wacky World",
			Help:    "Game Action: push an adjacent Wall one tile further", Do: doPush},
		{Name: "search", Rule: "Wacky 6g, W5",
			Pattern: `search(?:\s+(?:my\s+(?:location|tile)|here|around))?`,
			Syntax:  "I search in Wacky World",
			Help:    "Game Action: learn privately what is on and next to your tile", Do: doSearch},
		{Name: "medal", Rule: "Wacky 2, W6",
			Pattern: `create\s+(?:a\s+)?medal(?:\s+(?:named|called)\s+(?P<name>.+))?`,
			Syntax:  "I create a medal in Wacky World (the contestmaster)",
			Help:    "the contestmaster creates a medal; it lies on a secret random tile", Do: doMedal},
		{Name: "amend", Rule: "Wacky 1, G9",
			Pattern:   `amend\s+(?:the\s+)?(?:wacky(?:\s*world)?(?:['’]s)?)?\s*(?:(?:contract|contest)(?:\s+of\s+(?:the\s+)?wacky(?:\s*world)?(?:\s+(?:contract|contest))?)?)?\s*(?:by|as\s+follows|to\s+read)?\s*[:,-]?\s*(?P<text>.+)`,
			Syntax:    "I amend Wacky World: <text, or SET <parameter> = <value>>",
			Help:      "amend the contract (a party, without 3 objections)",
			Dependent: &contract.Method{Kind: "objection", N: 3, Intendable: amendable}, Text: true, Do: doAmend},
		{Name: "modify", Rule: "Wacky 1",
			Pattern: `modify\s+(?:the\s+)?(?:wacky(?:\s*world)?(?:['’]s)?)?\s*(?:(?:contract|contest)(?:\s+of\s+(?:the\s+)?wacky(?:\s*world)?(?:\s+(?:contract|contest))?)?)?\s*(?:by|as\s+follows|to\s+read)?\s*[:,-]?\s*(?P<text>.+)`,
			Syntax:  "I modify Wacky World: <text, or SET <parameter> = <value>> (Atlas)",
			Help:    "Atlas modifies the contract; any party may oppose within 24 hours", Text: true, Do: doModify},
		{Name: "oppose", Rule: "Wacky 1",
			Pattern: `oppose\s+(?:the\s+)?(?:modification|change)(?:\s*#\s*(?P<id>\d+))?`,
			Syntax:  "I oppose modification #N in Wacky World",
			Help:    "undo Atlas's modification within 24 hours of it", Do: doOppose},
	}
}

// resolveTarget reads a verb's tile: a direction from the actor's location or
// a coordinate pair. North is y - 1: (0,0) is the upper left (Wacky 3, W1).
func resolveTarget(from Pos, a *contract.Action) (Pos, error) {
	switch strings.ToLower(a.Arg("dir")) {
	case "north", "up":
		return Pos{from.X, from.Y - 1}, nil
	case "south", "down":
		return Pos{from.X, from.Y + 1}, nil
	case "east", "right":
		return Pos{from.X + 1, from.Y}, nil
	case "west", "left":
		return Pos{from.X - 1, from.Y}, nil
	}
	x, err1 := strconv.Atoi(a.Arg("x"))
	y, err2 := strconv.Atoi(a.Arg("y"))
	if err1 != nil || err2 != nil {
		return Pos{}, contract.Reject("syntax", "name a tile as north, south, east, west or (X, Y)")
	}
	return Pos{x, y}, nil
}
