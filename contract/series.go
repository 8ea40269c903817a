package contract

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// Series: what a game numbers and players answer by number (Life's
// suggestions, Wacky World's changes, Rumble's amendments: "I consent to
// Suggestion #2", and the ruling requests keyed by them, "suggestion/2").
// A corrected history keeps the recorded history's numbers, as it keeps
// those of claims and ruling requests (claimPins): an item the correction
// leaves unmade leaves its number unused, rather than every later item
// taking the number before, and an item only the corrected history makes
// takes one after the recorded history's last.

// NumberKeeper is implemented by a game that numbers a series with a
// counter of its own (Ctx.Number). At the end of a corrected history,
// KeepNumber raises the counter of series to at least last, the recorded
// history's last number of it, so that nothing made after the correction
// takes the number of an item the correction left unmade.
type NumberKeeper interface {
	KeepNumber(c *Ctx, series string, last int)
}

// SeriesKept marks a revision whose corrected history kept the numbers the
// recorded history gave the games' series (Revision.Series).
const SeriesKept = "kept"

// ItemsByText marks a revision whose corrected history matched a message's
// items of a series to the recorded history's by their text first
// (Revision.Items, Ctx.Number).
const ItemsByText = "text"

// AheadRead marks a revision whose corrected history read a message's
// items ahead (Revision.Ahead, replayAhead).
const AheadRead = "read"

// numbered is an item of a series a history numbered: its number and the
// text the game gave it (Ctx.Number), spaces folded.
type numbered struct {
	n    int
	text string
	// took is the text of the recorded item whose number this one took by
	// its place, when another (sameItem); "" otherwise.
	took string
}

// Number is the number of a new item of the game's series (see Series):
// next, the number the game gives it, in a history as it runs; in a
// corrected history (a re-run), the number the recorded history gave the
// same item of the same message (or scheduled event). The same item is the
// one with the same text (what the game numbers: a suggestion's or a
// change's text, an asset's name), or else the one in the same place in
// order among those of the series the message made, when no other item has
// taken its number: a correction that leaves the first of a message's two
// items unmade leaves the second its number, and one that rewrites an item
// keeps its place's. An item the recorded history did not make takes one
// after the recorded history's last, and no less than next. Numbering an
// item that a refused action then undoes takes nothing: the number is the
// next item's, as the game's counter is.
func (c *Ctx) Number(series, text string, next int) int {
	ax := c.s.aux()
	pins, made := ax.claims, ax.numbered
	if pins == nil || made == nil {
		return next
	}
	key := seriesItem(c.game, series, c.msg, c.now)
	item := numbered{n: next, text: strings.Join(strings.Fields(text), " ")}
	if n, took, ok := pins.sameItem(key, item.text, made[key]); ok {
		item.n, item.took = n, took
	} else {
		item.n = max(next, pins.lastNumber[seriesKey(c.game, series)]+1)
	}
	made[key] = append(made[key], item)
	if u := c.s.undoLog(); u.active() {
		u.push(func() { made[key] = made[key][:len(made[key])-1] })
	}
	return item.n
}

// sameItem is the number the recorded history gave the item of key with
// the text given, made after the items given (Ctx.Number): the first of
// its items with the same text whose number none given holds, or else the
// one in the same place, unless one given holds it or an item of the
// corrected message has its text (claimPins.ahead): that one keeps it, and
// an item added in front of it takes a new number. took is the text of
// the recorded item whose number the item takes by its place, when
// another. In a history whose correction matched them by place alone
// (Input.PlacedItems, Rerun.PlacedItems), the one in the same place.
func (p *claimPins) sameItem(key, text string, given []numbered) (n int, took string, ok bool) {
	was := p.numbers[key]
	free := func(n int) bool {
		return !slices.ContainsFunc(given, func(g numbered) bool { return g.n == n })
	}
	if !p.byPlace {
		for _, w := range was {
			if w.text == text && free(w.n) {
				return w.n, "", true
			}
		}
	}
	nth := len(given)
	if nth >= len(was) || !free(was[nth].n) {
		return 0, "", false
	}
	if w := was[nth]; w.text != text && !p.byPlace {
		if slices.Contains(p.ahead[key], w.text) {
			return 0, "", false
		}
		return w.n, w.text, true
	}
	return was[nth].n, "", true
}

// replayAhead is replay for a corrected history (pins not nil): when an
// item of a message took by its place the number of a recorded item whose
// text an item after it in the same message has (an item added in front of
// those recorded), the history is replayed again knowing the texts each
// message's items have (claimPins.ahead), so that the recorded one keeps
// its number by its text and the one added takes a new one.
func (e *Engine) replayAhead(base *State, inputs []Input, pins *claimPins) (*history, error) {
	h, err := e.replay(base, inputs, pins)
	if err != nil || pins == nil || pins.byPlace || pins.unread || !tookAnothers(h.numbered) {
		return h, err
	}
	again := *pins
	again.ahead = map[string][]string{}
	for key, items := range h.numbered {
		for _, it := range items {
			again.ahead[key] = append(again.ahead[key], it.text)
		}
	}
	return e.replay(base, inputs, &again)
}

// tookAnothers says whether an item of made took by its place the number
// of a recorded item whose text another item of its message has.
func tookAnothers(made map[string][]numbered) bool {
	for _, items := range made {
		for _, it := range items {
			if it.took != "" && slices.ContainsFunc(items, func(o numbered) bool { return o.text == it.took }) {
				return true
			}
		}
	}
	return false
}

// NumberListed is Number for a series whose items the game lists, each
// with its number, a new one numbered after the greatest listed (listed):
// kept is the game's record of a last number a correction left unmade,
// which no item listed holds (KeepListed), let go once an item is
// numbered past it.
func (c *Ctx) NumberListed(series, text string, listed int, kept *int) int {
	n := c.Number(series, text, max(*kept, listed)+1)
	if n >= *kept {
		*kept = 0
	}
	return n
}

// KeepListed is KeepNumber (NumberKeeper) for a series NumberListed
// numbers: the recorded history's last number is kept in *kept when it
// passes every number listed (listed, the greatest) and kept before.
func KeepListed(kept *int, listed, last int) {
	if last > max(*kept, listed) {
		*kept = last
	}
}

// seriesKey names a game's series across histories.
func seriesKey(game, series string) string { return game + "\x00" + series }

// seriesItem names the items of a series one message (or, without one, one
// scheduled event, by its time) made, across histories: they are numbered
// in the order made.
func seriesItem(game, series string, m *Message, at time.Time) string {
	by := "@" + at.UTC().Format(time.RFC3339Nano)
	if m != nil {
		by = m.ID
	}
	return seriesKey(game, series) + "\x00" + by
}

// seriesOf is the game and series of a seriesItem or seriesKey.
func seriesOf(key string) (game, series string) {
	game, rest, _ := strings.Cut(key, "\x00")
	series, _, _ = strings.Cut(rest, "\x00")
	return game, series
}

// lastNumbers are the last number of each series, by seriesKey: of those
// made (by seriesItem), and of those a history's pins kept before (an item
// an earlier correction left unmade keeps its number unused).
func lastNumbers(made map[string][]numbered, before map[string]int) map[string]int {
	last := map[string]int{}
	for key, n := range before {
		last[key] = n
	}
	for key, ns := range made {
		k := seriesKey(seriesOf(key))
		for _, n := range ns {
			last[k] = max(last[k], n.n)
		}
	}
	return last
}

// keepNumbers raises the counters of the series pins holds to the recorded
// history's last numbers (NumberKeeper), at the end of a history s re-ran.
func (e *Engine) keepNumbers(s *State, pins *claimPins) {
	for _, key := range slices.Sorted(maps.Keys(pins.lastNumber)) {
		last := pins.lastNumber[key]
		game, series := seriesOf(key)
		k, ok := e.games[game].(NumberKeeper)
		if !ok || s.Games[game] == nil {
			continue
		}
		k.KeepNumber(e.ctx(s, game, s.Clock, nil), series, last)
	}
}
