package wackyworld

import (
	"strings"
	"testing"

	"referee/contract"
)

// FuzzActions feeds arbitrary text to the game's verbs through the
// interpreter: nothing may be a fault of ours, and the World keeps its shape.
func FuzzActions(f *testing.F) {
	for _, l := range strings.Split(New().Spec().Guide, "\n") {
		if m := exampleRE.FindStringSubmatch(l); m != nil {
			f.Add("I " + m[1])
		}
	}
	f.Add("I move to (-1, 99999999999999999999) in Wacky World.")
	f.Add("I push the wall at (5,4) in Wacky World. I reap north in Wacky World.")
	f.Add("I pick up asset #0 in Wacky World.")
	f.Fuzz(func(t *testing.T, body string) {
		h := world(t)
		h.terrain("5,4=#", `6,5="`)
		h.send("2026-12-01T11:00:00Z", alice, body, contract.ChanPublic)
		h.send("2026-12-01T11:01:00Z", "Atlas <"+cm+">", body, contract.ChanPublic)
		st := h.data()
		for _, row := range st.Terrain {
			if len(row) != st.width() || strings.Trim(row, `."#`) != "" {
				t.Fatalf("terrain row %q broken", row)
			}
		}
		for _, p := range st.members() {
			if !st.on(*p.At) {
				t.Fatalf("party off the map at %v", *p.At)
			}
		}
	})
}

// FuzzResolveTarget: the tile reader never panics and answers a coordinate
// or a rejection.
func FuzzResolveTarget(f *testing.F) {
	f.Add("north", "", "")
	f.Add("", "3", "4")
	f.Add("", "x", "99999999999999999999")
	f.Fuzz(func(t *testing.T, dir, x, y string) {
		a := &contract.Action{Args: map[string]string{"dir": dir, "x": x, "y": y}}
		if _, err := resolveTarget(Pos{5, 5}, a); err != nil {
			if _, ok := contract.AsRejection(err); !ok {
				t.Fatalf("not a rejection: %v", err)
			}
		}
	})
}
