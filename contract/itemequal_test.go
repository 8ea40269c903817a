package contract

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// memItem is an item of a game's data list that is compared by its memory:
// texts, numbers, a time, an array, slices of texts and of structs that
// hold slices.
type memItem struct {
	Name  string    `yaml:"name"`
	Score int       `yaml:"score"`
	Ratio float64   `yaml:"ratio"`
	Done  bool      `yaml:"done,omitempty"`
	At    time.Time `yaml:"at"`
	Pair  [2]int16  `yaml:"pair"`
	Tags  []string  `yaml:"tags"`
	Parts []memPart `yaml:"parts,omitempty"`
	rank  int
}

type memPart struct {
	Kind string `yaml:"kind"`
	Ns   []int  `yaml:"ns,flow"`
}

// mapItem holds a map: it is compared by reflect.DeepEqual.
type mapItem struct {
	Name  string         `yaml:"name"`
	Votes map[string]int `yaml:"votes"`
}

type memData struct {
	Round int        `yaml:"round"`
	Items []*memItem `yaml:"items"`
	Maps  []*mapItem `yaml:"maps"`
}

// TestItemShape: an item type is compared by its memory when all it holds
// is in its memory, a slice's elements aside: no map, pointer, interface,
// chan or func, nor an unexported slice (which deepCopy does not copy); a
// time is (its location by identity).
func TestItemShape(t *testing.T) {
	type list struct {
		Next []list
		N    int
	}
	type hidden struct {
		Name string
		tags []string
	}
	_ = hidden{tags: []string{"deepCopy shares this"}}
	type array struct{ A [3][]string }
	for _, typ := range []reflect.Type{reflect.TypeFor[memItem](), reflect.TypeFor[memPart](), reflect.TypeFor[list](),
		reflect.TypeFor[array](), reflect.TypeFor[struct{ T time.Time }](), reflect.TypeFor[struct{}]()} {
		if itemShapeOf(typ) == nil {
			t.Errorf("%v: compared by reflect.DeepEqual, want by its memory", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[mapItem](), reflect.TypeFor[hidden](), reflect.TypeFor[struct{ P *int }](),
		reflect.TypeFor[struct{ I any }](), reflect.TypeFor[struct{ C chan int }](), reflect.TypeFor[struct{ F func() }](),
		reflect.TypeFor[struct{ S [][]*int }](), reflect.TypeFor[struct{ A [2]map[string]int }](), reflect.TypeFor[Player]()} {
		if itemShapeOf(typ) != nil {
			t.Errorf("%v: compared by its memory, want by reflect.DeepEqual", typ)
		}
	}
}

func newMemItem(at time.Time) *memItem {
	tags := make([]string, 2, 4) // room to append in place
	tags[0], tags[1] = "x", "- y"
	parts := make([]memPart, 1, 3)
	parts[0] = memPart{Kind: "k", Ns: append(make([]int, 0, 4), 1, 2)}
	return &memItem{Name: "P1", Score: 3, Ratio: 0.5, At: at, Pair: [2]int16{1, 2}, Tags: tags, Parts: parts, rank: 1}
}

// TestSameItem: an item is the same as a deep copy of itself, and as a copy
// of its struct (as an undo puts back); and it differs from the deep copy
// after any change to what it holds: a field written, an array's element,
// a float's sign, a time moved to another zone at the same instant, a
// slice's element written in place, an element appended, a slice's
// element written again after its append was undone (the slice's header
// the same as the copy's), a nil slice made empty, and the same down in a
// slice of structs.
func TestSameItem(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	shape := itemShapeOf(reflect.TypeFor[memItem]())
	same := func(a, b *memItem) bool {
		got := sameItem(shape, reflect.ValueOf(a).UnsafePointer(), reflect.ValueOf(b).UnsafePointer())
		if got && !reflect.DeepEqual(a, b) {
			t.Errorf("%+v and %+v: seen the same, reflect.DeepEqual says not", a, b)
		}
		return got
	}
	it := newMemItem(at)
	kept := deepCopy(reflect.ValueOf(it)).Interface().(*memItem)
	if !same(it, kept) {
		t.Fatal("an item differs from a deep copy of itself")
	}
	cp := *it
	if !same(&cp, kept) {
		t.Error("a copy of an item's struct differs from a deep copy of the item")
	}
	changes := map[string]func(it *memItem){
		"a text":                       func(it *memItem) { it.Name = "P2" },
		"a number":                     func(it *memItem) { it.Score++ },
		"a boolean":                    func(it *memItem) { it.Done = true },
		"an unexported field":          func(it *memItem) { it.rank++ },
		"a float's sign":               func(it *memItem) { it.Ratio = math.Copysign(0, -1); kept.Ratio = 0 },
		"an array's element":           func(it *memItem) { it.Pair[1] = 7 },
		"a time moved":                 func(it *memItem) { it.At = it.At.Add(time.Nanosecond) },
		"a time to another zone":       func(it *memItem) { it.At = it.At.In(time.FixedZone("", 0)) },
		"a slice's element in place":   func(it *memItem) { it.Tags[1] = "z" },
		"an element appended":          func(it *memItem) { it.Tags = append(it.Tags, "new") },
		"a slice shortened":            func(it *memItem) { it.Tags = it.Tags[:1] },
		"a nil slice made empty":       func(it *memItem) { it.Tags, kept.Tags = []string{}, nil },
		"an inner slice's element":     func(it *memItem) { it.Parts[0].Ns[0] = 9 },
		"an inner slice appended to":   func(it *memItem) { it.Parts[0].Ns = append(it.Parts[0].Ns, 3) },
		"an inner struct's text":       func(it *memItem) { it.Parts[0].Kind = "l" },
		"an inner struct appended":     func(it *memItem) { it.Parts = append(it.Parts, memPart{Kind: "m"}) },
		"appended again after an undo": func(it *memItem) { it.Tags = append(it.Tags[:2], "other") },
		"inner, again after an undo":   func(it *memItem) { it.Parts[0].Ns = append(it.Parts[0].Ns[:2], 4) },
		"a struct again after an undo": func(it *memItem) { it.Parts = append(it.Parts[:1], memPart{Kind: "n"}) },
	}
	again := map[string]bool{"appended again after an undo": true, "inner, again after an undo": true, "a struct again after an undo": true}
	for what, change := range changes {
		it := newMemItem(at)
		// Each slice with an element appended in its capacity, as an
		// action appends, kept (its state hash taken) before the action is
		// undone: the changes "again after an undo" put the header back and
		// append another element in the same place.
		it.Tags = append(it.Tags, "undone")
		it.Parts[0].Ns = append(it.Parts[0].Ns, 5)
		it.Parts = append(it.Parts, memPart{Kind: "undone"})
		kept = deepCopy(reflect.ValueOf(it)).Interface().(*memItem)
		before := *it
		change(it)
		if same(it, kept) {
			t.Errorf("%s: the item is seen the same as its copy before", what)
		}
		if again[what] {
			// The slices' headers are as they were: what tells the change
			// is their elements, compared with the copy's.
			if !sameHeader(before.Tags, it.Tags) || !sameHeader(before.Parts, it.Parts) || !sameHeader(before.Parts[0].Ns, it.Parts[0].Ns) {
				t.Errorf("%s: a slice's header changed", what)
			}
		}
	}
}

func sameHeader[T any](a, b []T) bool {
	return unsafe.SliceData(a) == unsafe.SliceData(b) && len(a) == len(b) && cap(a) == cap(b)
}

// TestHashTextOfItemChanges: the state hash's text of data whose lists'
// items are compared by their memory (memItem) and by reflect.DeepEqual
// (mapItem) is the whole encoding, byte for byte, after each of a run of
// random changes of every kind TestSameItem makes, in place as a game
// changes its data, and of the game's recent events (one added, the
// oldest dropped, the newest dropped as an undo drops it and another
// added in its place).
func TestHashTextOfItemChanges(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	zones := []*time.Location{time.UTC, time.FixedZone("", 3600), time.FixedZone("X", 3600)}
	d := &memData{Round: 1}
	for i := range 100 {
		it := newMemItem(at)
		it.Name, it.Score = fmt.Sprintf("P%03d", i), i
		d.Items = append(d.Items, it)
		d.Maps = append(d.Maps, &mapItem{Name: it.Name, Votes: map[string]int{"a": i}})
	}
	h := hashStateOf([]string{"g"}, []string{"an event"}, at)
	gs := h.Games["g"]
	gs.Data = d
	var c hashText
	sameHashText(t, &c, h)
	r := rand.New(rand.NewPCG(3, 4))
	texts := []string{"a", "- b", "c: d", "", "\n e", "a"}
	for step := range 600 {
		it := d.Items[r.IntN(len(d.Items))]
		var what string
		switch k := r.IntN(20); k {
		case 0:
			what = "a text"
			it.Name = texts[r.IntN(len(texts))]
		case 1:
			what = "a number"
			it.Score = r.IntN(3)
		case 2:
			what = "a float's sign"
			it.Ratio = math.Copysign(float64(r.IntN(2)), float64(r.IntN(2)*2-1))
		case 3:
			what = "an array's element"
			it.Pair[r.IntN(2)] = int16(r.IntN(3))
		case 4:
			what = "a time to another zone"
			it.At = it.At.In(zones[r.IntN(len(zones))])
		case 5:
			what = "an element appended"
			it.Tags = append(it.Tags, texts[r.IntN(len(texts))])
		case 6:
			what = "an append undone, another made"
			n := len(it.Tags)
			it.Tags = append(it.Tags, texts[r.IntN(len(texts))])
			if _, err := c.of(h); err != nil {
				t.Fatal(err)
			}
			it.Tags = append(it.Tags[:n], texts[r.IntN(len(texts))])
		case 7:
			what = "an inner append undone, another made"
			p := &it.Parts[r.IntN(len(it.Parts))]
			n := len(p.Ns)
			p.Ns = append(p.Ns, r.IntN(3))
			if _, err := c.of(h); err != nil {
				t.Fatal(err)
			}
			p.Ns = append(p.Ns[:n], r.IntN(3))
		case 8:
			what = "a struct appended"
			it.Parts = append(it.Parts, memPart{Kind: texts[r.IntN(len(texts))]})
		case 9:
			what = "the tags replaced"
			it.Tags = append([]string(nil), texts[:r.IntN(3)]...)
		case 10:
			what = "the tags made nil or empty"
			it.Tags = [][]string{nil, {}}[r.IntN(2)]
		case 11:
			what = "a map's entry"
			d.Maps[r.IntN(len(d.Maps))].Votes[texts[r.IntN(len(texts))]] = r.IntN(3)
		case 12:
			what = "an item copied, as an undo puts it back"
			i := r.IntN(len(d.Items))
			cp := *d.Items[i]
			d.Items[i] = &cp
		case 13:
			what = "an item added"
			d.Items = append(d.Items, newMemItem(at.Add(time.Duration(step)*time.Minute)))
		case 14:
			what = "an item dropped"
			i := r.IntN(len(d.Items))
			d.Items = append(d.Items[:i:i], d.Items[i+1:]...)
		case 15:
			what = "an event added"
			gs.Recent = append(gs.Recent, Happening{Time: at.Add(time.Duration(step) * time.Minute), Who: "Bob", What: texts[r.IntN(len(texts))]})
		case 16:
			what = "the oldest event dropped"
			if len(gs.Recent) > 0 {
				gs.Recent = gs.Recent[1:]
			}
		case 17:
			what = "the newest event undone, another added"
			if n := len(gs.Recent); n > 0 {
				gs.Recent = append(gs.Recent[:n-1], Happening{Time: at, Who: "Carol", What: texts[r.IntN(len(texts))]})
			}
		case 18:
			what = "events dropped and added"
			if n := len(gs.Recent); n > 2 {
				gs.Recent = append(gs.Recent[1:n-1:n-1], Happening{Time: at, Who: "Dan", What: "x"}, Happening{Time: at, Who: "Eve", What: "y"})
			}
		default:
			what = "the round"
			d.Round++
		}
		if !t.Run(fmt.Sprintf("%d %s", step, what), func(t *testing.T) { sameHashText(t, &c, h) }) {
			return // the texts kept are wrong from here on
		}
	}
}

// TestHashTextJoinedKeptWhole: the texts of a game's lists and of the
// players are kept joined, and those of items or players added after the
// rest are appended to the text kept, in place when it has room: every
// text a state hash read before reads as it did after any change (an
// item or a player added, the addition undone and another made, one
// changed or taken out of the middle, a player's time of joining moved
// to another game with as many entries), and each hash's text is the
// whole encoding's.
func TestHashTextJoinedKeptWhole(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := &memData{Round: 1}
	h := hashStateOf([]string{"g"}, []string{"an event"}, at)
	h.Games["g"].Data = d
	newPlayer := func(i int) *Player {
		return &Player{Name: fmt.Sprintf("P%03d", i), Addresses: []string{fmt.Sprintf("p%03d@example.test", i)},
			Joined: map[string]time.Time{"g": at}, Member: []string{"g"}}
	}
	for i := range 3 {
		it := newMemItem(at)
		it.Name = fmt.Sprintf("P%03d", i)
		d.Items = append(d.Items, it)
		d.Maps = append(d.Maps, &mapItem{Name: it.Name, Votes: map[string]int{"a": i}})
		h.Players = append(h.Players, newPlayer(i))
	}
	var c hashText
	type read struct {
		step   string
		pieces [][]byte
		text   []byte
	}
	var reads []read
	hash := func(step string) {
		t.Helper()
		pieces, err := c.pieces(h, nil)
		if err != nil {
			t.Fatal(err)
		}
		text := bytes.Join(pieces, nil)
		want, err := oldHashText(h)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(text, want) {
			t.Fatalf("%s: the state hash's text differs from the whole encoding:\n%s\nwant\n%s", step, text, want)
		}
		reads = append(reads, read{step, pieces, text})
		for _, r := range reads {
			if !bytes.Equal(bytes.Join(r.pieces, nil), r.text) {
				t.Fatalf("after %s: the text read at %s changed", step, r.step)
			}
		}
	}
	hash("the first hash")
	for i := 3; i < 40; i++ {
		it := newMemItem(at)
		it.Name = fmt.Sprintf("P%03d", i)
		d.Items = append(d.Items, it)
		d.Maps = append(d.Maps, &mapItem{Name: it.Name, Votes: map[string]int{"b": i}})
		h.Players = append(h.Players, newPlayer(i))
		hash(fmt.Sprintf("item and player %d added", i))
		if i%3 == 0 {
			// The addition undone (the lists' headers put back), another made
			// where it was: the texts kept reach past the lists.
			n := len(d.Items) - 1
			d.Items, d.Maps, h.Players = d.Items[:n], d.Maps[:n], h.Players[:n]
			hash(fmt.Sprintf("item and player %d undone", i))
			other := newMemItem(at.Add(time.Hour))
			other.Name = fmt.Sprintf("Q%03d", i)
			d.Items = append(d.Items, other)
			d.Maps = append(d.Maps, &mapItem{Name: other.Name, Votes: map[string]int{"c": i}})
			h.Players = append(h.Players, newPlayer(1000+i))
			hash(fmt.Sprintf("another item and player %d added", i))
		}
		if i%7 == 0 {
			d.Items[i/2].Score = i
			d.Maps[i/2].Votes["a"] = i
			h.Players[i/2].Joined = map[string]time.Time{"h": at}
			hash(fmt.Sprintf("item and player %d changed", i/2))
			d.Items = append(d.Items[:i/3:i/3], d.Items[i/3+1:]...)
			d.Maps = append(d.Maps[:i/3:i/3], d.Maps[i/3+1:]...)
			h.Players = append(h.Players[:i/3:i/3], h.Players[i/3+1:]...)
			hash(fmt.Sprintf("item and player %d taken out", i/3))
		}
	}
	hash("nothing changed")
}
