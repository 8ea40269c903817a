package contract

import (
	"bytes"
	"math"
	"testing"
	"time"
)

// negZeroData is a game's data with a number of fractions: the YAML
// encoder writes 0 as "0" and -0 as "-0".
type negZeroData struct {
	Ratio float64            `yaml:"ratio"`
	Votes map[string]float64 `yaml:"votes"`
	Items []*negZeroItem     `yaml:"items"`
}

// negZeroItem holds a map, so that a list's item is compared by
// reflect.DeepEqual, not by its memory.
type negZeroItem struct {
	Name  string         `yaml:"name"`
	Share float64        `yaml:"share"`
	Tags  map[string]int `yaml:"tags"`
}

// TestHashTextOfNegativeZero: a number of the game's data that goes from
// 0 to -0 (in the data itself, in a map of it, in an item of a list
// compared by reflect.DeepEqual) changes the state hash's text and the
// state file as it changes the whole encoding: reflect.DeepEqual sees 0
// and -0 equal, and a text kept while it says so is stale.
func TestHashTextOfNegativeZero(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	negZero := math.Copysign(0, -1)
	for _, change := range []struct {
		what string
		do   func(d *negZeroData)
	}{
		{"the data's number", func(d *negZeroData) { d.Ratio = negZero }},
		{"a number in a map of the data", func(d *negZeroData) { d.Votes["a"] = negZero }},
		{"a list item's number", func(d *negZeroData) { d.Items[1].Share = negZero }},
	} {
		t.Run(change.what, func(t *testing.T) {
			d := &negZeroData{Votes: map[string]float64{"a": 0}}
			for _, n := range []string{"a", "b", "c"} {
				d.Items = append(d.Items, &negZeroItem{Name: n, Tags: map[string]int{"x": 1}})
			}
			h := hashStateOf([]string{"g"}, []string{"an event"}, at)
			h.Games["g"].Data = d
			var c hashText
			sameHashText(t, &c, h)
			s := &State{Clock: at, Games: map[string]*GameState{"g": h.Games["g"]}}
			var enc Encoder
			if _, err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			change.do(d)
			got, err := enc.Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the state file written from the Encoder's kept text differs from the whole encoding:\n%s\nwant\n%s", got, want)
			}
			sameHashText(t, &c, h)
		})
	}
}
