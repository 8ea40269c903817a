package life

import "referee/contract"

// Verbs implements contract.Game: the parser, the HELP reply and the guide come
// from this table. Patterns see the action without "I"/"I hereby", trailing
// punctuation, or a trailing "in Life" / "the Life contest".
func (g *Game) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "join", Rule: "Life R2, R15",
			Pattern: `(?:join|enter|become\s+a\s+contestant|sign\s+up|register(?:\s+as\s+a\s+contestant)?)(?:\s+(?:of|in|for|to))?(?:\s+(?:the\s+)?(?:life\s+)?(?:contest|game))?`,
			Syntax:  "I join the Life contest.",
			Help:    "become a contestant; the contestmaster mints you VPP Vials",
			Do:      doJoin},
		{Name: "leave", Rule: "Life R2, R9, R13",
			Pattern: `(?:leave|quit|withdraw\s+from|cease\s+to\s+be\s+a\s+contestant|stop\s+being\s+a\s+contestant)(?:\s+(?:of|in|from))?(?:\s+(?:the\s+)?(?:life\s+)?(?:contest|game))?`,
			Syntax:  "I leave the Life contest.",
			Help:    "stop being a contestant; your Cells die and your Vials self-destruct",
			Do:      doLeave},
		{Name: "claim", Rule: "Life R16",
			Pattern: `(?:(?:transfer|pay|give|spend)\s+(?:a|one|1)\s+vials?(?:\s+of\s+(?:primordial\s+)?ooze)?\s+(?:to\s+(?:the\s+)?life(?:\s+contest)?\s+)?(?:(?:(?:in\s+order\s+)?to\s+|and\s+)(?:take\s+control\s+of|become\s+the\s+controller\s+of|claim|control)|for)|claim|take\s+control\s+of|become\s+the\s+controller\s+of|take|grab)\s+(?:(?:the\s+)?cells?\s*)?(?:at\s+)?(?P<cells>[-\d(][^a-z]*(?:and[^a-z]*)*|\([^)]*\)?)`,
			Syntax:  "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (12, 34). / I claim cell (12, 34) in Life. / I take (12, 34) in Life.",
			Help:    "pay one Vial to the contest per Dead Cell to Control it (claim, take or grab; \"cell\" may be left out)",
			Do:      doClaim},
		{Name: "suggest", Rule: "Life R4, ruling L9",
			Pattern: `(?:make\s+(?:a|the\s+following)\s+suggestion|suggest)\b.*`,
			Syntax:  "I suggest the following change to the Life regulations: <text>",
			Help:    "suggest a regulation change; it gets the next number (#1, #2, ...)",
			Text:    true, Do: doSuggest},
		{Name: "consent", Rule: "Life R4, ruling L9",
			Pattern: `(?:vote\s+(?:to\s+)?)?consent\s+(?:to|on)\s+(?:the\s+)?(?:suggestion\s*)?(?:#|no\.?|number)?\s*(?P<id>\d+)`,
			Syntax:  "I consent to Suggestion #2 in Life.",
			Help:    "consent to a suggestion (contestants and the contestmaster)",
			Do:      doConsent},
		{Name: "withdraw", Rule: "ruling L9",
			Pattern: `withdraw\s+(?:my\s+)?suggestion\s*(?:#|no\.?|number)?\s*(?P<id>\d+)`,
			Syntax:  "I withdraw Suggestion #2 in Life.",
			Help:    "withdraw a suggestion of yours that is still open",
			Do:      doWithdraw},
		{Name: "volunteer", Rule: "Life R1",
			Pattern: `consent\s+to\s+(?:become|becoming|be)\s+(?:the\s+)?(?:new\s+)?contestmaster(?:\s+of)?`,
			Syntax:  "I consent to become the contestmaster of Life.",
			Help:    "your half of R1's mutual consent to become the contestmaster",
			Do:      doVolunteer},
		{Name: "hand over", Rule: "Life R1",
			Pattern: `(?:consent\s+to\s+(?P<who>.+?)\s+(?:becoming|to\s+become|as)\s+(?:the\s+)?(?:new\s+)?contestmaster|(?:hand|pass)\s+(?:over\s+)?(?:the\s+)?(?:office\s+of\s+)?contestmaster(?:ship)?\s+to\s+(?P<to>.+))`,
			Syntax:  "I consent to Alice becoming the contestmaster of Life.",
			Help:    "the contestmaster's half of R1's mutual consent",
			Do:      doHandOver},
	}
}
