package contract

import (
	"bytes"
	"reflect"
	"slices"
	"sync"
	"time"
	"unsafe"
)

// An item of a game's data list is compared, at every state hash, with the
// deep copy kept of it when it was encoded (listTexts): thousands of items
// at every public notice in a game of thousands of players, which
// reflect.DeepEqual walks field by field. An item whose type holds nothing
// but numbers, booleans, texts, times, arrays and slices of such (no map,
// pointer, interface, chan or func, which a comparison of memory would
// find different from their copies every time) is compared by its memory
// instead (sameItem): its bytes, a text's header (pointer and length) and
// a time's (instant and location pointer) included, but for each slice's
// pointer and capacity, and each slice's elements with the copy's, in turn.
//
// Equal memory is an equal item, and the same text. The copy shares with
// the item only what deepCopy does not copy: a text's bytes, which are
// never changed (Go's strings are immutable), so that a text of the same
// header is the same text; a time's location, compared by identity as diff
// compares it; and what an unexported field holds (a type with one that
// holds a slice is left to DeepEqual, as before). Everything else is read
// from the copy's own memory, the elements of every slice included: a
// slice's header alone would not do, as an element under it may be
// written again with the header the same (an append, its state hash
// taken, undone, and another append into the same capacity). So no item
// is seen the same that is not (and, unlike DeepEqual, a float's -0 is not
// seen as 0, which is written differently). An item seen changed that is
// not (a text replaced by an equal one elsewhere in memory) is encoded
// again: a cost, not a wrong hash.

// itemShape is how sameItem compares a value of a type: the byte ranges
// compared as they are (every field but a slice's pointer to its elements
// and its capacity), and the slices, whose elements are compared in turn.
type itemShape struct {
	size   uintptr
	ranges [][2]uintptr // [from, to) offsets, sorted and merged
	slices []itemSlice
	dense  bool // one range over the whole value and no slice: compared as one run of bytes
}

// itemSlice is a slice of a value, at offset off, of elements of shape elem.
type itemSlice struct {
	off  uintptr
	elem *itemShape
}

var itemShapes struct {
	sync.Mutex
	of map[reflect.Type]*itemShape // nil: compared by reflect.DeepEqual
}

// itemShapeOf is the shape of struct type t for sameItem, nil when a value
// of t is compared by reflect.DeepEqual (it holds a map, a pointer, an
// interface, a chan, a func, or an unexported field that holds a slice).
// It is found once for each type.
func itemShapeOf(t reflect.Type) *itemShape {
	itemShapes.Lock()
	defer itemShapes.Unlock()
	if s, ok := itemShapes.of[t]; ok {
		return s
	}
	if itemShapes.of == nil {
		itemShapes.of = map[reflect.Type]*itemShape{}
	}
	s := newItemShape(t, map[reflect.Type]*itemShape{})
	itemShapes.of[t] = s
	return s
}

// newItemShape is the shape of t; doing holds the shapes being made, a
// type that holds a slice of itself being met again inside its own.
func newItemShape(t reflect.Type, doing map[reflect.Type]*itemShape) *itemShape {
	if s, ok := doing[t]; ok {
		return s
	}
	s := &itemShape{size: t.Size()}
	doing[t] = s
	if !s.add(t, 0, doing) {
		return nil
	}
	slices.SortFunc(s.ranges, func(a, b [2]uintptr) int { return int(a[0]) - int(b[0]) })
	var merged [][2]uintptr
	for _, r := range s.ranges {
		if n := len(merged); n > 0 && merged[n-1][1] >= r[0] {
			merged[n-1][1] = max(merged[n-1][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	s.ranges = merged
	s.dense = len(s.slices) == 0 && (s.size == 0 || len(merged) == 1 && merged[0] == [2]uintptr{0, s.size})
	return s
}

var timeType = reflect.TypeFor[time.Time]()

// add adds a value of type t at offset off to s; false when a value of t
// is compared by reflect.DeepEqual.
func (s *itemShape) add(t reflect.Type, off uintptr, doing map[reflect.Type]*itemShape) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		s.ranges = append(s.ranges, [2]uintptr{off, off + t.Size()})
		return true
	case reflect.Struct:
		if t == timeType {
			s.ranges = append(s.ranges, [2]uintptr{off, off + t.Size()})
			return true
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !isPlain(f.Type) {
				return false // deepCopy shares what it holds
			}
			if !s.add(f.Type, off+f.Offset, doing) {
				return false
			}
		}
		return true
	case reflect.Array:
		elem := newItemShape(t.Elem(), doing)
		if elem == nil {
			return false
		}
		if elem.dense {
			s.ranges = append(s.ranges, [2]uintptr{off, off + t.Size()})
			return true
		}
		for i := range t.Len() {
			if !s.add(t.Elem(), off+uintptr(i)*t.Elem().Size(), doing) {
				return false
			}
		}
		return true
	case reflect.Slice:
		elem := newItemShape(t.Elem(), doing)
		if elem == nil {
			return false
		}
		word := unsafe.Sizeof(uintptr(0))
		s.ranges = append(s.ranges, [2]uintptr{off + word, off + 2*word}) // the length
		s.slices = append(s.slices, itemSlice{off: off, elem: elem})
		return true
	default:
		return false
	}
}

// sameItem says whether the values of shape s at a and b are equal, by
// their memory (see above).
func sameItem(s *itemShape, a, b unsafe.Pointer) bool {
	for _, r := range s.ranges {
		if !bytes.Equal(unsafe.Slice((*byte)(unsafe.Add(a, r[0])), r[1]-r[0]), unsafe.Slice((*byte)(unsafe.Add(b, r[0])), r[1]-r[0])) {
			return false
		}
	}
	for _, sl := range s.slices {
		// Every slice's header is a pointer, a length and a capacity: read as
		// a []byte, its length is its count of elements.
		x, y := *(*[]byte)(unsafe.Add(a, sl.off)), *(*[]byte)(unsafe.Add(b, sl.off))
		px, py := unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y))
		if (px == nil) != (py == nil) {
			return false // a nil slice and an empty one are told apart, as DeepEqual tells them
		}
		n, e := uintptr(len(x)), sl.elem
		if n == 0 || e.size == 0 {
			continue
		}
		if e.dense {
			if !bytes.Equal(unsafe.Slice((*byte)(px), n*e.size), unsafe.Slice((*byte)(py), n*e.size)) {
				return false
			}
			continue
		}
		for i := range n {
			if !sameItem(e, unsafe.Add(px, i*e.size), unsafe.Add(py, i*e.size)) {
				return false
			}
		}
	}
	return true
}
