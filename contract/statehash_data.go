package contract

import (
	"bytes"
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"gopkg.in/yaml.v3"
)

// A game's own data is most of its section, and most of the data, in a
// game of many players, is lists of them and of their things (Rumble's
// fighters, powers and sealed submissions; Steemfield's members; Wacky
// World's parties and assets). A notice of a change to one of them would
// encode them all again. So each list of the data that the YAML encoder
// writes as a block sequence of structs (a field of the data's struct that
// is a slice of pointers to structs) is encoded item by item, each item's
// text kept while the item is the same (a deep copy of it compared, by its
// memory where its type allows: itemequal.go), as a game's recent events
// are: the section is encoded with a placeholder item in each such list,
// replaced by the items' text. An item's text does not
// depend on the items around it, nor on the list's key, but on its depth
// alone (see itemTexts): the data's keys are at depth 12 under "games:",
// the game's ID and "state:", the items at 16.

// dataList is a list of a game's data encoded item by item.
type dataList struct {
	name  string        // the field's name, which keys its kept texts
	items reflect.Value // the slice
	mark  string        // the placeholder item's line in the section's text
}

// keptItem is an item's text, a deep copy of the item it is the text of
// (a pointer to it, as the item is), and the item's pointer.
type keptItem struct {
	pointer uintptr
	live    unsafe.Pointer // the item, kept from being freed while its text is: its address is its own
	of      reflect.Value
	copied  unsafe.Pointer // of's pointer (listTexts)
	text    []byte
}

// listStart begins the first line of an item of a list of a game's data,
// and no other line of it.
var listStart = strings.Repeat(" ", 16) + "- "

// splitData returns data with each of its lists (a non-empty slice of
// pointers to structs, none nil, in a field of the struct data points to)
// replaced by a one-line placeholder, and the lists; nil lists when data is
// not such a struct, is written by a method of its own, or has a field the
// encoder would write other than under its own key.
func splitData(id string, data any) (any, []dataList) {
	v := reflect.ValueOf(data)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || writesItself(v.Type()) {
		return nil, nil
	}
	t := v.Elem().Type()
	var fields []reflect.StructField
	var values []reflect.Value
	var lists []dataList
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			return nil, nil
		}
		tag := f.Tag.Get("yaml")
		if !f.IsExported() || tag == "-" {
			continue // the encoder writes neither
		}
		if strings.Contains(tag, ",inline") {
			return nil, nil
		}
		fv := v.Elem().Field(i)
		if isItemList(f.Type) && !strings.Contains(tag, ",flow") && fv.Len() > 0 && !hasNil(fv) {
			l := dataList{name: f.Name, items: fv}
			text := fmt.Sprintf("the %s of %s encoded apart", f.Name, id)
			l.mark = listStart + text + "\n"
			lists = append(lists, l)
			fields = append(fields, reflect.StructField{Name: f.Name, Type: reflect.TypeFor[[]string](), Tag: f.Tag})
			values = append(values, reflect.ValueOf([]string{text}))
			continue
		}
		fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
		values = append(values, fv)
	}
	if lists == nil {
		return nil, nil
	}
	bare := reflect.New(bareType(t, lists, fields)).Elem()
	for i, fv := range values {
		bare.Field(i).Set(fv)
	}
	return bare.Addr().Interface(), lists
}

// bareTypes are the types splitData made, by the data's type and the
// names of its lists written apart: reflect.StructOf, which splitData
// would call at every state hash and every snapshot taken, builds the
// type's name and looks it up, some tens of microseconds.
var bareTypes sync.Map // bareKey → reflect.Type

type bareKey struct {
	t     reflect.Type
	lists string // the lists' names, each followed by a NUL
}

// bareType is reflect.StructOf(fields), the fields of data type t with
// lists written apart.
func bareType(t reflect.Type, lists []dataList, fields []reflect.StructField) reflect.Type {
	var names strings.Builder
	for _, l := range lists {
		names.WriteString(l.name)
		names.WriteByte(0)
	}
	k := bareKey{t, names.String()}
	if bt, ok := bareTypes.Load(k); ok {
		return bt.(reflect.Type)
	}
	bt := reflect.StructOf(fields)
	bareTypes.Store(k, bt)
	return bt
}

// writesItself says whether the YAML encoder writes a value of type t (a
// pointer) by a method of the type, or of what it points to (whose methods
// are the pointer's too).
func writesItself(t reflect.Type) bool {
	return t.Implements(reflect.TypeFor[yaml.Marshaler]()) || t.Implements(reflect.TypeFor[encoding.TextMarshaler]())
}

// isItemList says whether t is a slice of pointers to structs.
func isItemList(t reflect.Type) bool {
	return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Pointer && t.Elem().Elem().Kind() == reflect.Struct
}

// hasNil says whether list v, a slice of pointers (isItemList), holds a
// nil one: its elements read as pointers, not each through reflect (a
// Rumble of 2,000 contestants has 6,000 items, at every state hash).
func hasNil(v reflect.Value) bool {
	return slices.Contains(unsafe.Slice((*unsafe.Pointer)(v.UnsafePointer()), v.Len()), nil)
}

// listProbe puts a list's items at their depth in hashedState: games, a
// game's ID, "state", the list's key ("items"); a key follows, so that the
// items are not the end of the document.
type listProbe struct {
	State any `yaml:"state"`
}

const listTail = "            next: 0\n"

// listTexts returns the text of each of lists, the text of its items in
// order, each item's kept while it is the same (sameAs); the texts kept
// of items no longer in a list are dropped. With s, the state of the
// lists, an item at its place whose memory the state noted no save of
// since the list's text was kept (changedSince) is the item kept, and is
// not compared. A list's text is kept joined,
// so that a list of which no item changed is one piece, hashed in one
// write, and one whose items were only appended to is the text kept with
// theirs appended (in place, past the end of the text handed out before,
// which never changes). An item is looked for at its place in the list
// kept, by its pointer, and only when it is not there among all the items
// kept (built into a map then, once a list); an item copied (an action
// undone puts back a deep copy of the data) is found at its place.
func (c *hashText) listTexts(id string, lists []dataList, s *State) ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string]keptList{}
	}
	out := make([][]byte, len(lists))
	for li, l := range lists {
		key := id + "\x00" + l.name
		kl := c.items[key]
		shape := itemShapeOf(l.items.Type().Elem().Elem())
		n := l.items.Len()
		var changed *changedSpans
		if shape != nil {
			changed, _ = s.changedSince(kl.mark)
		}
		// from: how many items, from the first, are the ones kept at
		// their places, unchanged.
		from := kl.prefix(shape, l.items, changed)
		if from == n && n == len(kl.items) {
			out[li] = kl.text
			kl.mark = s.changeMark()
			c.items[key] = kl
			continue
		}
		var at []keptItem
		if from == len(kl.items) {
			// Items appended, none other changed: the kept ones stay.
			at = append(kl.items, make([]keptItem, n-from)...)
		} else {
			at = make([]keptItem, n)
			copy(at, kl.items[:from])
		}
		kept := kl.items
		var byPointer map[uintptr]keptItem
		var missing []reflect.Value
		var places []int
		for i := from; i < n; i++ {
			it := l.items.Index(i)
			p := it.Pointer()
			var k keptItem
			ok := i < len(kept) && kept[i].pointer == p
			if ok {
				k = kept[i]
			} else if from < len(kept) {
				// Not at its place: an item moved. (An item added after
				// all those kept, each at its place, is new.)
				if byPointer == nil {
					byPointer = make(map[uintptr]keptItem, len(kept))
					for _, k := range kept {
						byPointer[k.pointer] = k
					}
				}
				if k, ok = byPointer[p]; !ok && i < len(kept) {
					k, ok = kept[i], true
				}
			}
			if !ok || !(changed != nil && k.pointer == p && !changed.covers(it.UnsafePointer(), shape.size)) && !k.sameAs(shape, it) {
				missing, places = append(missing, it), append(places, i)
				continue
			}
			at[i] = keptItem{pointer: p, live: it.UnsafePointer(), of: k.of, copied: k.copied, text: k.text}
		}
		encode := func(items []reflect.Value) ([]byte, error) {
			b, err := marshalText(map[string]map[string]listProbe{"games": {"g": {State: itemsProbe(l.items.Type(), items)}}})
			if err != nil {
				return nil, err
			}
			// The document's head, down to the list's key, is cut off.
			const head = "games:\n    g:\n        state:\n            items:\n"
			if !bytes.HasPrefix(b, []byte(head)) {
				return nil, unexpectedEncoding("a list", b, head, "")
			}
			return b[len(head):], nil
		}
		texts, err := itemTexts(missing, encode, "", listTail, listStart)
		if err != nil {
			return nil, err
		}
		for j, it := range missing {
			of := deepCopy(it)
			at[places[j]] = keptItem{pointer: it.Pointer(), live: it.UnsafePointer(), of: of, copied: of.UnsafePointer(), text: texts[j]}
		}
		text := joinKept(kl.text, from == len(kl.items), from, at, func(k keptItem) []byte { return k.text })
		kl = keptList{typ: l.items.Type(), items: at, text: text, mark: s.changeMark()}
		c.items[key] = kl
		out[li] = text
	}
	return out, nil
}

// keptList is what listTexts keeps of a list: each item's, and their
// texts joined in order (handed out, and never changed: a list that
// changed but for items appended is kept anew).
type keptList struct {
	typ   reflect.Type // the list's
	items []keptItem
	text  []byte
	mark  changeMark // when the items were last compared or encoded
}

// prefix is how many items of items, from the first, are each the one
// kept at its place, unchanged (sameAs): a list of thousands of items of
// which none changed (Rumble's fighters and powers at a submission) costs
// the comparison of each, made here by the items' memory where their type
// allows (itemShapeOf), read straight from the list's; with changed (and
// a shape), that of the items changed since the list was kept alone.
func (k keptList) prefix(shape *itemShape, items reflect.Value, changed *changedSpans) int {
	n := min(items.Len(), len(k.items))
	if k.typ != items.Type() {
		return 0
	}
	if shape == nil {
		for i := range n {
			it := items.Index(i)
			if k.items[i].pointer != it.Pointer() || !k.items[i].sameAs(nil, it) {
				return i
			}
		}
		return n
	}
	// The list is a slice of pointers to structs (isItemList): its
	// elements are read as pointers.
	live := unsafe.Slice((*unsafe.Pointer)(items.UnsafePointer()), items.Len())
	for i := range n {
		p := live[i]
		if k.items[i].pointer != uintptr(p) || (changed == nil || changed.covers(p, shape.size)) && !sameItem(shape, k.items[i].copied, p) {
			return i
		}
	}
	return n
}

// sameAs says whether item it is the item k was kept of: compared by its
// memory when its type has a shape (itemShapeOf: nil otherwise), by
// deepSame (reflect.DeepEqual, and a zero's sign) when not.
func (k keptItem) sameAs(shape *itemShape, it reflect.Value) bool {
	if k.of.Type() != it.Type() {
		return false
	}
	if shape != nil {
		return sameItem(shape, k.of.UnsafePointer(), it.UnsafePointer())
	}
	return deepSame(k.of.Interface(), it.Interface())
}
