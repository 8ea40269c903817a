package contract

import (
	"bytes"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"
)

// A game's section whose data has lists written item by item (splitData:
// Rumble's fighters, powers and sealed submissions, Steemfield's members,
// Wacky World's parties and assets) is kept by the Encoder by its parts, as
// the state hash keeps it (statehash_data.go): the section's text with a
// placeholder item in each list (its head: the game's fields, the data but
// for its lists; recent events spliced in as for any section), and each
// item's text. A snapshot taken of a game of 2,000 contestants copied and
// compared the whole section (thousands of items) under the daemon's lock
// when anything in it changed, and encoded it whole; now it compares each
// item with the copy kept of it and copies only the items that changed,
// and encodes those alone. What is kept is compared with the state at every
// take, never trusted stale: the head against a deep copy of the data
// without its lists, each item against a deep copy of itself (by its
// memory where its type allows, as the state hash compares it:
// itemequal.go; an item the state noted no save of since it was kept is
// not compared: changes.go), the recent events with ==. An item is found at its place in the list kept, else by
// its pointer (an item dropped from a list shifts the rest).

// splitKept is what an Encoder keeps of a section written by its parts.
type splitKept struct {
	head   *fileHead
	lists  [][]fileItem // by the head's lists
	recent []Happening  // the recent events as encoded
	mark   changeMark   // when the section was taken to be encoded so
}

// fileHead is the section's text with placeholders (recent events left
// out, "recent: []"), not yet indented under "games:", and what it
// depends on.
type fileHead struct {
	contestmaster string
	params        map[string]string
	lastReport    time.Time
	data          reflect.Value // a deep copy of the data without its lists
	lists         []string      // the fields of the lists written apart
	marks         []string      // each list's placeholder line in text
	text          []byte
}

// fileItem is an item of a list: the state's item (a pointer), a copy of
// it as encoded, and its text in the section's encoding (not yet indented).
type fileItem struct {
	live reflect.Value
	of   reflect.Value
	text []byte
}

// takenSplit is a section taken by its parts: the head (kept or new, its
// text made when taken), the recent events, and each list's items, their
// kept text or (text nil) a copy to encode.
type takenSplit struct {
	head   *fileHead
	recent []Happening
	lists  [][]fileItem
	mark   changeMark // when it was taken (changes.go)
}

// fileItemStart begins the first line of an item of a data list in a
// section's encoding (before it is indented under "games:"), and no other
// line of it.
const fileItemStart = "    - "

// takeSplit takes section g of game id, whose data is data without lists
// (splitData), by its parts: same says nothing in it changed since k was
// kept; ok false: it cannot be written by its parts (a placeholder not
// found exactly once), and is taken whole.
//
// An item of state s at its place that s noted no change of since k was
// taken (changedSince) is not compared.
func (enc *Encoder) takeSplit(id string, g *GameState, data any, lists []dataList, k *splitKept, clone bool, s *State) (t *takenSplit, same, ok bool) {
	t = &takenSplit{lists: make([][]fileItem, len(lists)), mark: s.changeMark()}
	var changed *changedSpans
	if k != nil {
		changed, _ = s.changedSince(k.mark)
	}
	same = k != nil
	if k != nil && k.head.same(g, data, lists) {
		t.head = k.head
	} else {
		h, err := newFileHead(id, g, data, lists)
		if err != nil || h == nil {
			return nil, false, false
		}
		t.head, same = h, false
	}
	if same && !slices.Equal(g.Recent, k.recent) {
		same = false
	}
	t.recent = slices.Clone(g.Recent)
	for li, l := range lists {
		var kept []fileItem
		if k != nil && k.head.sameLists(lists) {
			kept = k.lists[li]
		}
		items := make([]fileItem, l.items.Len())
		shape := itemShapeOf(l.items.Type().Elem().Elem())
		var byPointer map[uintptr]int
		if len(kept) != len(items) {
			same = false
		}
		for i := range items {
			it := l.items.Index(i)
			j := -1
			if i < len(kept) && kept[i].live.Pointer() == it.Pointer() {
				j = i
			} else {
				same = false
				if byPointer == nil {
					byPointer = make(map[uintptr]int, len(kept))
					for x, ki := range kept {
						byPointer[ki.live.Pointer()] = x
					}
				}
				if x, found := byPointer[it.Pointer()]; found {
					j = x
				}
			}
			if j >= 0 && (shape != nil && changed != nil && kept[j].live.Pointer() == it.Pointer() && !changed.covers(it.UnsafePointer(), shape.size) ||
				(keptItem{of: kept[j].of}).sameAs(shape, it)) {
				items[i] = fileItem{live: it, of: kept[j].of, text: kept[j].text}
				continue
			}
			same = false
			of := it
			if clone {
				of = deepCopy(it)
			}
			items[i] = fileItem{live: it, of: of}
		}
		t.lists[li] = items
	}
	return t, same, true
}

// newFileHead encodes g's section with a placeholder for each of lists
// and no recent events; nil when a placeholder is not found exactly once,
// at the start of a line.
func newFileHead(id string, g *GameState, data any, lists []dataList) (*fileHead, error) {
	h := &fileHead{contestmaster: g.Contestmaster, params: maps.Clone(g.Params), lastReport: g.LastReport,
		data: deepCopy(reflect.ValueOf(data))}
	bare := *g
	bare.Recent, bare.Data = nil, data
	b, err := encodeSectionYAML(&bare)
	if err != nil {
		return nil, err
	}
	for _, l := range lists {
		// The hash's placeholder, at the depth of the section's encoding.
		mark := fileItemStart + strings.TrimPrefix(l.mark, listStart)
		if bytes.Count(b, []byte(mark)) != 1 || !bytes.Contains(b, []byte("\n"+mark)) {
			return nil, nil
		}
		h.lists = append(h.lists, l.name)
		h.marks = append(h.marks, mark)
	}
	h.text = b
	return h, nil
}

// same says whether g, its data without its lists and its lists encode
// with placeholders as the head's text.
func (h *fileHead) same(g *GameState, data any, lists []dataList) bool {
	return h.contestmaster == g.Contestmaster && sameTime(h.lastReport, g.LastReport) && maps.Equal(h.params, g.Params) &&
		h.sameLists(lists) && deepSame(h.data.Interface(), data)
}

func (h *fileHead) sameLists(lists []dataList) bool {
	if len(h.lists) != len(lists) {
		return false
	}
	for i, l := range lists {
		if h.lists[i] != l.name {
			return false
		}
	}
	return true
}

// renderSplit writes a section taken by its parts, encoding the items not
// kept and the recent events not in old, as encodeSection writes the
// section whole (not yet indented), and returns what to keep; owned: the
// items to encode are copies, kept as they are.
func renderSplit(t *takenSplit, old map[Happening][]byte, owned bool) (encodedSection, *splitKept, error) {
	parts := make([]part, 0, len(t.lists)+1)
	for li, items := range t.lists {
		var missing []reflect.Value
		var places []int
		for i, it := range items {
			if it.text == nil {
				missing, places = append(missing, it.of), append(places, i)
			}
		}
		if len(items) > 0 {
			typ := reflect.SliceOf(items[0].live.Type())
			texts, err := itemTexts(missing, func(xs []reflect.Value) ([]byte, error) {
				return encodeSectionYAML(fileListProbe(typ, xs))
			}, fileListHead, fileListTail, fileItemStart)
			if err != nil {
				return encodedSection{}, nil, err
			}
			for j, i := range places {
				items[i].text = texts[j]
				if !owned {
					items[i].of = deepCopy(items[i].of)
				}
			}
		}
		texts := make([][]byte, len(items))
		for i, it := range items {
			texts[i] = it.text
		}
		parts = append(parts, part{empty: t.head.marks[li], pieces: texts})
	}
	recent, items, err := recentPieces(t.recent, old)
	if err != nil {
		return encodedSection{}, nil, err
	}
	if items != nil {
		parts = append(parts, part{empty: "recent: []\n", pieces: items})
	}
	pieces, err := spliceParts(nil, t.head.text, parts)
	if err != nil {
		return encodedSection{}, nil, err
	}
	return encodedSection{pieces: pieces, recent: recent}, &splitKept{head: t.head, lists: t.lists, recent: t.recent, mark: t.mark}, nil
}

// fileListProbe puts items of a list of type typ at their depth in a
// section's encoding: "state", the list's key ("items").
func fileListProbe(typ reflect.Type, items []reflect.Value) any {
	return map[string]any{"state": itemsProbe(typ, items)}
}

// itemsProbe is items, of a list of type typ, under the key "items" of a
// struct, and a key after them, so that the items are not the end of the
// document.
func itemsProbe(typ reflect.Type, items []reflect.Value) any {
	probe := reflect.StructOf([]reflect.StructField{
		{Name: "Items", Type: typ, Tag: `yaml:"items"`},
		{Name: "Next", Type: reflect.TypeFor[int](), Tag: `yaml:"next"`},
	})
	pv := reflect.New(probe).Elem()
	pv.Field(0).Set(reflect.Append(reflect.MakeSlice(typ, 0, len(items)), items...))
	return pv.Interface()
}

const (
	fileListHead = "state:\n  items:\n"
	fileListTail = "  next: 0\n"
)

// errSplit wraps an error of a section written by its parts.
func errSplit(id string, err error) error { return fmt.Errorf("encode state: games.%s: %w", id, err) }
