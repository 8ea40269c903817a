package contract

import (
	"bytes"
	"math"
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

// deepSame is reflect.DeepEqual(a, b) but for the sign of a zero: 0 and
// -0 are equal numbers, which DeepEqual sees the same, and the YAML
// encoder writes them "0" and "-0". What a kept text is compared with
// (a game's data, an item of its lists that holds a map or a pointer) is
// compared so, or a number of its data set to -0 would leave the state
// file and the state hash with the text of 0. A type that can hold no
// float (floatFree) costs DeepEqual and a look-up.
func deepSame(a, b any) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	v := reflect.ValueOf(a)
	if !v.IsValid() || floatFree(v.Type()) {
		return true
	}
	return sameSigns(v, reflect.ValueOf(b), map[[2]uintptr]bool{})
}

// sameSigns says whether x and y, of the same type and deeply equal,
// have the same sign at each float and complex number the YAML encoder
// writes (exported fields, elements, map values, what pointers and
// interfaces hold). seen holds the pairs of pointers followed, for data
// that points back to itself.
func sameSigns(x, y reflect.Value, seen map[[2]uintptr]bool) bool {
	switch x.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Signbit(x.Float()) == math.Signbit(y.Float())
	case reflect.Complex64, reflect.Complex128:
		cx, cy := x.Complex(), y.Complex()
		return math.Signbit(real(cx)) == math.Signbit(real(cy)) && math.Signbit(imag(cx)) == math.Signbit(imag(cy))
	case reflect.Pointer:
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		k := [2]uintptr{x.Pointer(), y.Pointer()}
		if k[0] == k[1] || seen[k] {
			return true
		}
		seen[k] = true
		return sameSigns(x.Elem(), y.Elem(), seen)
	case reflect.Interface:
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		return sameSigns(x.Elem(), y.Elem(), seen)
	case reflect.Slice, reflect.Array:
		if x.Kind() == reflect.Slice && x.Len() > 0 && x.Pointer() == y.Pointer() {
			return true // the same elements
		}
		for i := range x.Len() {
			if !sameSigns(x.Index(i), y.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		for it := x.MapRange(); it.Next(); {
			if !sameSigns(it.Value(), y.MapIndex(it.Key()), seen) {
				return false
			}
		}
		return true
	case reflect.Struct:
		t := x.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() && !sameSigns(x.Field(i), y.Field(i), seen) {
				return false
			}
		}
		return true
	}
	return true
}

// floatFrees are floatFree's answers, by type.
var floatFrees sync.Map // reflect.Type → bool

// floatFree says whether a value of type t can hold no float or complex
// number the encoder writes: none in it, nor behind its pointers, slices
// and maps, and no interface, which may hold one.
func floatFree(t reflect.Type) bool {
	if free, ok := floatFrees.Load(t); ok {
		return free.(bool)
	}
	free := floatFreeOf(t, map[reflect.Type]bool{})
	floatFrees.Store(t, free)
	return free
}

func floatFreeOf(t reflect.Type, doing map[reflect.Type]bool) bool {
	if doing[t] {
		return true // met again inside itself: what it holds is looked at there
	}
	doing[t] = true
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Interface:
		return false
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return floatFreeOf(t.Elem(), doing)
	case reflect.Map:
		return floatFreeOf(t.Elem(), doing)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && !floatFreeOf(f.Type, doing) {
				return false
			}
		}
	}
	return true
}
