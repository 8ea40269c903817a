package contract

import (
	"fmt"
	"testing"
	"time"
)

// dataItem and listData are a game's data with lists of every kind
// splitData meets: lists of structs written item by item, and fields it
// leaves to the encoder (an empty list, a list holding nil, a flow list, a
// field the encoder skips, a list of texts).
type dataItem struct {
	Name  string   `yaml:"name"`
	Score int      `yaml:"score"`
	Tags  []string `yaml:"tags,omitempty"`
	Text  string   `yaml:"text,omitempty"`
}

type listData struct {
	Round   int         `yaml:"round"`
	Items   []*dataItem `yaml:"items"`
	Others  []*dataItem `yaml:"others"`
	Empty   []*dataItem `yaml:"empty"`
	Holes   []*dataItem `yaml:"holes"`
	Flow    []*dataItem `yaml:"flow,flow"`
	Skipped []*dataItem `yaml:"-"`
	Notes   []string
	hidden  []*dataItem
}

func listState(n int) (*hashedState, *listData) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := &listData{Round: 3, Empty: []*dataItem{}, Holes: []*dataItem{{Name: "a"}, nil}, Flow: []*dataItem{{Name: "f", Score: 1}},
		Skipped: []*dataItem{{Name: "s"}}, Notes: []string{"- not an item", "\n  a text that breaks"}, hidden: []*dataItem{{Name: "h"}}}
	for i := range n {
		d.Items = append(d.Items, &dataItem{Name: fmt.Sprintf("P%04d", i), Score: i, Tags: []string{"x", "- y"}})
	}
	d.Others = append(d.Others, &dataItem{Name: "other", Text: "\tbegins with a tab"}, &dataItem{Name: "- dash", Text: "line\n                - a line as an item begins"})
	h := hashStateOf([]string{"g"}, []string{"an event"}, at)
	h.Games["g"].Data = d
	return h, d
}

// TestHashTextOfDataLists: the text of a game's data with its lists of
// structs written item by item is the whole encoding, byte for byte,
// through changes to an item, a list grown, shrunk, reordered, emptied,
// holding one item twice, and an item replaced by a copy of itself, and
// through changes to each thing the section's text with placeholders is
// written from (the data but for its lists, the game's fields, the lists
// written apart); and hashing again after one item changed encodes that
// item alone and copies no other: a twentieth of the allocations of the
// first hash, or fewer (the encoder makes some 40 an item; a deep copy of
// the whole section, made at each change before, some 6); every item
// replaced by a copy of itself, as an undo puts back, is found at its
// place, none encoded.
func TestHashTextOfDataLists(t *testing.T) {
	h, d := listState(500)
	gs := h.Games["g"]
	cold := testing.AllocsPerRun(5, func() {
		if _, err := new(hashText).of(h); err != nil {
			t.Fatal(err)
		}
	})
	c := new(hashText)
	sameHashText(t, c, h)
	n := 0
	warm := testing.AllocsPerRun(5, func() {
		n++
		d.Items[n*37%len(d.Items)].Score += 1000
		if _, err := c.of(h); err != nil {
			t.Fatal(err)
		}
	})
	sameHashText(t, c, h)
	if warm*20 > cold {
		t.Errorf("hashing again after one item changed allocates %.0f times, the first hash %.0f: more than a twentieth", warm, cold)
	}
	// Every item replaced by a copy of itself, as an undo puts back a
	// deep copy of the data: each is found at its place, none encoded.
	copied := testing.AllocsPerRun(5, func() {
		for i, it := range d.Items {
			cp := *it
			d.Items[i] = &cp
		}
		if _, err := c.of(h); err != nil {
			t.Fatal(err)
		}
	})
	if copied*10 > cold {
		t.Errorf("hashing again after every item was copied allocates %.0f times, the first hash %.0f: more than a tenth", copied, cold)
	}
	sameHashText(t, c, h)
	steps := []func(){
		func() { d.Items[3].Tags = append(d.Items[3].Tags, "new") },
		func() { d.Items = append(d.Items, &dataItem{Name: "late"}) },
		func() { d.Items = d.Items[1:] },
		func() { d.Items[0], d.Items[1] = d.Items[1], d.Items[0] },
		func() { cp := *d.Items[5]; d.Items[5] = &cp },
		func() { cp := *d.Items[6]; cp.Score = -1; d.Items[6] = &cp },
		func() { d.Others = nil },
		func() { d.Empty = append(d.Empty, &dataItem{Name: "e"}) },
		func() { d.Holes[1] = &dataItem{Name: "b"} },
		func() {
			d.Items = append(d.Items[:len(d.Items):len(d.Items)], d.Items[2], &dataItem{Name: "after a twin"})
		},
		func() { d.Items = d.Items[:10] },
		// What the section with placeholders is written from, each alone.
		func() { d.Round++ },
		func() { d.Notes = append(d.Notes, "a note") },
		func() { d.Flow[0].Score++ },
		func() { d.Holes[0].Name = "z" },
		func() { gs.Contestmaster = "other@example.test" },
		func() { gs.Params = map[string]string{"recent": "[]", "p": "1"} },
		func() { gs.Params["p"] = "2" },
		func() { gs.LastReport = gs.LastReport.Add(time.Hour) },
		func() { gs.LastReport = gs.LastReport.In(time.FixedZone("X", 3600)) },
		func() { gs.Recent = nil },
		func() { gs.Recent = []Happening{} },
		func() { gs.Recent = []Happening{{Time: gs.LastReport, Who: "a", What: "b"}} },
		func() { d.Others = []*dataItem{{Name: "back"}} },
		func() { d.Items = nil },
		func() { d.Items, d.Others = []*dataItem{{Name: "one"}}, nil },
	}
	for i, step := range steps {
		step()
		t.Run(fmt.Sprint(i), func(t *testing.T) { sameHashText(t, c, h) })
	}
}

// marshaled writes itself (yaml.Marshaler, on the pointer), texted and
// textedPtr too (encoding.TextMarshaler, on the value and on the pointer):
// the encoder never sees their lists.
type marshaled struct {
	Items []*dataItem `yaml:"items"`
}

func (m *marshaled) MarshalYAML() (any, error) { return fmt.Sprintf("%d items", len(m.Items)), nil }

type texted struct {
	Items []*dataItem `yaml:"items"`
}

func (x texted) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "%d items", len(x.Items)), nil }

type textedPtr struct {
	Items []*dataItem `yaml:"items"`
}

func (x *textedPtr) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%d items", len(x.Items)), nil
}

// TestSplitDataLeavesOthersWhole: data that is not a pointer to a struct
// (nil, a struct, a slice, a pointer to a slice or to a number),
// or a struct with an embedded or inline field, or one written by a method
// of its own, is encoded whole (the text the same).
func TestSplitDataLeavesOthersWhole(t *testing.T) {
	type Base struct {
		Name string `yaml:"name"`
	}
	type embedded struct {
		Base
		Items []*dataItem `yaml:"items"`
	}
	type inline struct {
		In    dataItem    `yaml:",inline"`
		Items []*dataItem `yaml:"items"`
	}
	items := []*dataItem{{Name: "a"}, {Name: "b"}}
	for _, data := range []any{nil, listData{Items: items}, &embedded{Items: items}, &inline{Items: items}, []*dataItem{{Name: "c"}}, &listData{},
		&marshaled{Items: items}, &texted{Items: items}, &textedPtr{Items: items}, &items, new(int)} {
		if _, lists := splitData("g", data); lists != nil {
			t.Errorf("%T: split into %d lists, want none", data, len(lists))
		}
		h, _ := listState(3)
		h.Games["g"].Data = data
		sameHashText(t, new(hashText), h)
	}
}
