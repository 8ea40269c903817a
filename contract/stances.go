package contract

import (
	"fmt"
	"strconv"
	"strings"

	"referee/internal/lazyre"
)

// Supports, objections and their withdrawals naming several intents in one
// sentence (G7), as Agorans write them: "I object to intents #1 and #2.",
// "I support #4 and #5", "I withdraw my objections to #1 and #3".

// stancePattern is the stance verb's: what the player does, then the
// intent or intents it is for. A list of numbers (ids) is one action per
// intent (eachIntent); intents named by who tabled them or what they
// announce, without numbers (many: "all open intents to end the game",
// "Alice's intents"), are refused with the numbers to write (doMany); one
// number (id), or none ("I object.", "I support it", "I object to the
// intent to end the game", "I object to Alice's intent"): the intent the
// message replies to, or the only one open (findIntent).
const stancePattern = `(?P<what>support|object|withdraw my objections?|withdraw my support|withdraw(?: my| the)? intent(?:ion)?s?)(?:\s+(?:to|of)\b)?` +
	`(?:\s+(?:` +
	`(?:(?:the|both)\s+)?` + stanceList +
	`|` + stanceMany +
	`|(?:the\s+)?(?:intent(?:ion)?s?\s*)?` + intentNumber + `\s*(?P<id>\d+)` +
	`|(?:the\s+)?intent(?:ion)?\s*(?P<id>\d+)` +
	`|(?:the\s+)?(?:intent(?:ion)?\s+to\s+.+|(?:intent(?:ion)?)?\s*(?:this|it|that)?)` +
	`|[^\s#\d]+['’]s?\s+intent(?:ion)?(?:\s+to\s+.+)?` +
	`))?`

// intentNumber is what marks a number as an intent's: "#3", "no. 3",
// "number 3".
const intentNumber = `(?:#|no\.?|number)`

// stanceList is two or more intents by number: "intents #1 and #2",
// "intents 1, 2 and 3" (after the word "intents" the marks may be left
// out), "#4 and #5", "intent #3 and intent #4".
const stanceList = `(?P<ids>intent(?:ion)?s?\s*` + intentNumber + `?\s*\d+(?:` + stanceSep + intentNumber + `?\s*\d+)+` +
	`|` + intentNumber + `\s*\d+(?:` + stanceSep + intentNumber + `\s*\d+)+)`

// stanceSep joins the numbers of a list: ", ", " and ", ", and ", " & ",
// the word "intent" again or not.
const stanceSep = `\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:intent(?:ion)?\s*)?`

// stanceMany is intents named without a number, by a quantity, by who
// tabled them or in the plural: "all open intents to end the game",
// "every intent of Alice's", "Alice's intents", "the intents to end the
// game". One intent of a player's ("Alice's intent", "Alice's intent to
// end the game") is one intent named without its number, as "the intent
// to ..." is: the one replied to, or the only one open. No figure may stand in it: "intents #1 and #2 and support #3"
// is several actions (matchJoined), not this.
const stanceMany = `(?P<many>(?:(?:all|every|each|both|any)\b[^#\d]*?\bintent(?:ion)?s?` +
	`|[^\s#\d]+['’]s?\s+(?:[^\s#\d]+\s+)?intent(?:ion)?s` +
	`|(?:(?:the|these|those)\s+)?(?:(?:open|outstanding|pending)\s+)?intent(?:ion)?s)\b[^#\d]*)`

var figures = lazyre.MustCompile(`\d+`)

// eachIntent makes a support, an objection or a withdrawal naming several
// intents by number (stanceList) one action per intent, in the order
// named: each is done or refused on its own, with its own line in the
// receipt (G7), quoted as its part of the sentence ("I object to intents
// #1", "... and #2."). An intent named twice counts once: the later
// mention is left out, and the receipt of the first says so. Other
// actions are kept as they are.
func eachIntent(acts []*Action) []*Action {
	var out []*Action
	for _, a := range acts {
		ids := a.Args["ids"]
		if a.Game != "" || a.Verb == nil || a.Verb.Name != "stance" || ids == "" {
			out = append(out, a)
			continue
		}
		nums := figures().FindAllStringIndex(ids, -1)
		lines := stanceLines(a.Line, ids, nums)
		first := map[int]*Action{}
		for i, at := range nums {
			n, err := strconv.Atoi(ids[at[0]:at[1]])
			if err != nil {
				n = -1 // a number too long to be any intent's
			}
			if x := first[n]; x != nil {
				x.Args["_twice"] = "yes"
				continue
			}
			b := *a
			b.Args = map[string]string{}
			for k, v := range a.Args {
				if k != "ids" {
					b.Args[k] = v
				}
			}
			b.Args["id"] = strings.TrimLeft(ids[at[0]:at[1]], "0")
			if b.Args["id"] == "" {
				b.Args["id"] = "0"
			}
			b.Line = lines[i]
			b.Offset = a.Offset + i
			first[n] = &b
			out = append(out, &b)
		}
	}
	return out
}

// stanceLines is the part of line each number of a list stands for, as
// the receipt quotes it: the first with what comes before it ("I object
// to intents #1"), each other one "..." and its joining words ("...
// and #2"), the last to the line's end. When the list is not found in
// line as written (numbers spelled out, "intents one and two"), the
// first is the whole line and each other one "... #N".
func stanceLines(line, ids string, nums [][]int) []string {
	base := strings.LastIndex(line, ids)
	out := make([]string, len(nums))
	if base < 0 {
		out[0] = line
		for i := 1; i < len(nums); i++ {
			out[i] = "... #" + ids[nums[i][0]:nums[i][1]]
		}
		return out
	}
	start := 0
	for i := range nums {
		end := len(line)
		if i < len(nums)-1 {
			end = base + nums[i][1]
		}
		part := strings.TrimSpace(line[start:end])
		if i > 0 {
			part = "... " + strings.TrimLeft(part, ", \t")
		}
		out[i] = part
		start = end
	}
	return out
}

// doMany refuses a stance naming intents without their numbers (phrase:
// "all open intents to end the game", "Alice's intents", "my
// objections"): which intents those are would be a guess about the words
// ("the game": which game?) and the intents open as the message arrives,
// and each intent is supported or objected to on its own (G7), by its
// number. The refusal lists the open intents the player could so name,
// and the sentence that names them.
func doMany(c *Ctx, what, phrase string) error {
	p, k := c.Actor(), stanceOf(what)
	var named, nums []string
	for _, in := range c.s.Intents {
		switch k {
		case stanceSupport, stanceObject:
			if in.Sponsor == p.Name {
				continue
			}
		case stanceUnobject:
			if !has(in.Objectors, p.Name) {
				continue
			}
		case stanceUnsupport:
			if !has(in.Supporters, p.Name) {
				continue
			}
		default:
			if in.Sponsor != p.Name {
				continue
			}
		}
		named = append(named, fmt.Sprintf("#%d (%s's: %s)", in.ID, in.Sponsor, in.Text))
		nums = append(nums, fmt.Sprintf("#%d", in.ID))
	}
	why := fmt.Sprintf("%q does not name intents by their numbers, and each intent is supported or objected to on its own, by its number", phrase)
	if len(named) == 0 {
		return Reject("G7", "%s; no open intent is one you could %s", why, k.does())
	}
	example := strings.Replace(fmt.Sprintf(k.form(), 0), "#0", nums[0], 1)
	if len(nums) > 1 {
		example = strings.Replace(example, "intent "+nums[0], "intents "+joinAnd(nums), 1)
	}
	return Reject("G7", "%s: the open ones you could %s are %s; write, for instance, \"%s\"", why, k.does(), strings.Join(named, ", "), example)
}

// pluralStance says whether what, as the player wrote it, names several
// intents ("withdraw my objections", "withdraw my intents"): without a
// number it names them as doMany refuses.
func pluralStance(what string) bool {
	return strings.HasSuffix(what, "objections") || strings.HasSuffix(what, "intents") || strings.HasSuffix(what, "intentions")
}
