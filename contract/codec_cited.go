package contract

import (
	"fmt"
	"slices"
	"sync"
)

// The citable records (State.Cited) are most of the state file in a game of
// many players: one for every public notice of the memory's horizon, some
// 500 bytes each, thousands of them (4 MB of the 8 MB state of a Rumble of
// 2,000 contestants), and a snapshot encoded them all again, and copied
// them all when taken. So "cited:" is written as the players are: each
// record's item kept with a copy of the record it encodes, compared field by
// field with the state's record at every encoding (sameCited), never trusted
// stale; a record kept is neither copied when taken nor encoded again. A
// record is found at its place in the list kept, else by its pointer
// (records ratified long ago leave the front of the list, shifting the
// rest), else encoded. The items are encoded itemChunk to a document, cut
// at the start of each (itemTexts), and spliced into the state's text where
// the YAML encoder wrote the key with one empty record (citedMark).

// citedCache keeps the item of "cited:" of each record.
type citedCache struct{ kept []citedText }

type citedText struct {
	x    *Cited // the state's record it was encoded from
	of   *Cited // a copy of the record as encoded
	text []byte // "  - id: ...\n...", as the YAML encoder writes it
}

// takenCited is a record's kept text, or (text nil) the record to encode.
type takenCited struct {
	text []byte
	x    *Cited // the state's record
	of   *Cited // the record as taken (a copy, when taken to encode later)
}

// citedItemStart begins the first line of an item of "cited:", and no
// other line of it.
const citedItemStart = "  - "

// citedMark is the list of one empty record the state is encoded with in
// place of its records, and emptyCited the text the YAML encoder writes
// for it, where the records' text is spliced in.
var citedMark = []*Cited{{}}

var emptyCited = sync.OnceValues(func() ([]byte, error) {
	return encodeYAML(struct {
		C []*Cited `yaml:"cited"`
	}{citedMark})
})

// take lists the records' kept text where the record is unchanged, the
// record (a copy, with clone) where not. A list holding a nil record is
// taken as nothing (ok false): the state is then encoded whole.
func (c *citedCache) take(xs []*Cited, clone bool) (taken []takenCited, ok bool) {
	if slices.Contains(xs, nil) {
		return nil, false
	}
	taken = make([]takenCited, len(xs))
	var byPointer map[*Cited]int
	for i, x := range xs {
		k := -1
		if i < len(c.kept) && c.kept[i].x == x {
			k = i
		} else {
			if byPointer == nil {
				byPointer = make(map[*Cited]int, len(c.kept))
				for j, t := range c.kept {
					byPointer[t.x] = j
				}
			}
			if j, found := byPointer[x]; found {
				k = j
			}
		}
		if k >= 0 && sameCited(x, c.kept[k].of) {
			taken[i] = takenCited{text: c.kept[k].text, x: x, of: c.kept[k].of}
			continue
		}
		of := x
		if clone {
			of = cloneCited(x)
		}
		taken[i] = takenCited{x: x, of: of}
	}
	return taken, true
}

// renderPieces returns the "cited:" key with the records taken, encoding
// those not kept, and keeps what it wrote; owned: the records to encode
// are copies, kept as they are. No records: no text (the key is left
// out). The text is in pieces, to be read in order: the key, then each
// record's text as it is kept (none is written over later).
func (c *citedCache) renderPieces(taken []takenCited, owned bool) ([][]byte, error) {
	if len(taken) == 0 {
		c.kept = nil
		return nil, nil
	}
	var missing []*Cited
	var places []int
	for i, t := range taken {
		if t.text == nil {
			missing, places = append(missing, t.of), append(places, i)
		}
	}
	texts, err := itemTexts(missing, func(xs []*Cited) ([]byte, error) {
		return encodeYAML(struct {
			C []*Cited `yaml:"cited"`
		}{xs})
	}, "cited:\n", "", citedItemStart)
	if err != nil {
		return nil, fmt.Errorf("encode state: cited: %w", err)
	}
	kept := make([]citedText, len(taken))
	for i, t := range taken {
		kept[i] = citedText{x: t.x, of: t.of, text: t.text}
	}
	for j, i := range places {
		kept[i].text = texts[j]
		if !owned {
			kept[i].of = cloneCited(kept[i].of)
		}
	}
	pieces := make([][]byte, 0, 1+len(kept))
	pieces = append(pieces, []byte("cited:\n"))
	for _, k := range kept {
		pieces = append(pieces, k.text)
	}
	c.kept = kept
	return pieces, nil
}

// sameCited: a and b encode alike. Every field of Cited is compared
// (TestSameCitedEveryField holds this to the type).
func sameCited(a, b *Cited) bool {
	return a.ID == b.ID && a.Game == b.Game && a.Kind == b.Kind && a.Subject == b.Subject &&
		a.From == b.From && a.Seq == b.Seq && a.LastMsgID == b.LastMsgID && a.Hash == b.Hash &&
		sameTime(a.Published, b.Published) && sameTime(a.Ratifies, b.Ratifies) && a.Status == b.Status &&
		sameTime(a.Ratified, b.Ratified) && a.Announced == b.Announced && sameStrings(a.Excluded, b.Excluded)
}

func cloneCited(x *Cited) *Cited {
	cp := *x
	cp.Excluded = slices.Clone(x.Excluded)
	return &cp
}
