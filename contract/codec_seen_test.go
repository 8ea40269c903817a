package contract_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"referee/contract"
)

// TestSeenKeptTextFollowsTheMemory: an Encoder that keeps the text of the
// processed-message memory writes what a fresh encoding writes while the
// memory changes as the engine changes it (new IDs arriving after the
// others, the oldest going: the text of the IDs kept is copied, the new
// ones written between them), and as it does not: an ID arriving before
// the latest kept, an ID remembered again at a later or an earlier time,
// an ID at the zero time, every ID replaced, the memory emptied and
// filled again. The IDs include the tricky ones (quoted, explicit keys).
func TestSeenKeptTextFollowsTheMemory(t *testing.T) {
	h := newToy(t)
	s := h.S
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(5, 14))
	n := 0
	arrive := func() {
		n++
		at = at.Add(time.Duration(30+r.IntN(240)) * time.Second)
		id := fmt.Sprintf("%d.%08x@example.test", n, r.Uint32())
		if r.IntN(10) == 0 {
			id = fmt.Sprintf("%d %s", n, trickyIDs[r.IntN(len(trickyIDs))])
		}
		s.Seen.IDs[id] = at
		s.Seen.Latest = at
	}
	oldest := func(k int) {
		ids := slices.SortedFunc(maps.Keys(s.Seen.IDs), func(a, b string) int { return s.Seen.IDs[a].Compare(s.Seen.IDs[b]) })
		for _, id := range ids[:min(k, len(ids))] {
			delete(s.Seen.IDs, id)
		}
	}
	s.Seen.IDs = map[string]time.Time{}
	for range 300 {
		arrive()
	}
	var enc contract.Encoder
	check := func(what string) {
		t.Helper()
		got, err := enc.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := contract.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("%s: the Encoder's kept text is stale:\n%s\nwant\n%s", what, got, want)
		}
	}
	check("the first encoding")
	for round := range 40 {
		for range r.IntN(12) {
			arrive()
		}
		oldest(r.IntN(12))
		check(fmt.Sprintf("round %d, as the engine keeps it", round))
	}
	some := func() string {
		ids := slices.Sorted(maps.Keys(s.Seen.IDs))
		return ids[r.IntN(len(ids))]
	}
	s.Seen.IDs["early@example.test"] = at.Add(-48 * time.Hour)
	check("an ID arriving before the latest")
	s.Seen.IDs[some()] = at.Add(time.Hour)
	check("an ID remembered again later")
	s.Seen.IDs[some()] = at.Add(-100 * time.Hour)
	check("an ID remembered again earlier")
	s.Seen.IDs["zero@example.test"] = time.Time{}
	check("an ID at the zero time")
	arrive()
	s.Seen.IDs[some()] = at.In(time.FixedZone("", 3600)).Add(time.Minute)
	check("an ID remembered again later, in another zone, and one arriving")
	clear(s.Seen.IDs)
	for range 200 {
		arrive()
	}
	check("every ID replaced")
	clear(s.Seen.IDs)
	check("the memory emptied")
	for range 50 {
		arrive()
	}
	check("the memory filled again")
}
