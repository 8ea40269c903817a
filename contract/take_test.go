package contract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"referee/contract"
)

// TestTakeEncodesAsTaken: a state taken (Encoder.Take) and encoded after
// the state has changed is the file Encode wrote for the state as it was
// taken, byte for byte; and the Encoder's kept text (players, sections)
// never stands for a player or section that changed since. The players
// have names and addresses a YAML writer must quote, in other time zones.
func TestTakeEncodesAsTaken(t *testing.T) {
	h := newToy(t)
	var enc contract.Encoder
	berlin := time.FixedZone("CET", 3600)
	names := []string{"Alice", "Bob: the second", `"Quoted"`, "ünïcödé", "- dash", "null", strings.Repeat("long name ", 20), "#hash", "tab\tname", ""}
	for i := range names {
		h.Public(fmt.Sprintf("2026-12-01T10:%02d:00Z", i), fmt.Sprintf("P%d <p%d@example.test>", i, i), "I join the toy game.")
	}
	// Written behind the engine's back from here on: only the encoding is
	// under test.
	for i, name := range names {
		p := h.S.Players[i]
		p.Name = name
		if i%3 == 0 {
			p.Nicknames = []string{name + " nick", "x: y"}
		}
		if i%4 == 1 {
			p.Left = map[string]time.Time{"toy": time.Date(2026, 12, 1, 11, i, 0, 0, berlin)}
		}
	}
	h.S.Players = append(h.S.Players, nil)
	changes := []func(){
		func() {},
		func() { h.S.Players[1].Name = "Bobby" },
		func() { h.S.Players[2].Addresses = append(h.S.Players[2].Addresses, "other@example.test") },
		func() { h.S.Players[3].Joined["toy"] = h.S.Players[3].Joined["toy"].In(berlin) },
		func() { h.S.Players[4].Member = nil },
		func() { h.S.Players[5].Member = []string{} },
		func() { h.S.Players[0].Nicknames[1] = "changed in place" },
		func() { h.S.Players = h.S.Players[:len(h.S.Players)-2] },
		func() { h.S.Players = append(h.S.Players[:2], h.S.Players[3:]...) },
		func() { h.S.Games["toy"].Data.(*toyState).Rounds++ },
		func() { h.S.Games["toy"].Params["START"] = "9" },
		func() { h.S.Ledger.Supply["x"] = 3 },
		func() { h.S.Points = map[string]map[string]int{"alice@example.test": {"toy": 2}} },
		func() { h.S.Points["alice@example.test"]["toy"] = 5 },
		func() { h.S.Seen.IDs["new@example.test"] = h.S.Clock },
		func() { h.S.Receipts = map[string][]time.Time{"p1@example.test": {h.S.Clock}} },
		func() { h.S.Receipts["p1@example.test"][0] = h.S.Clock.Add(time.Minute) },
		func() {
			for i := range 3 {
				h.S.Cited = append(h.S.Cited, &contract.Cited{ID: fmt.Sprintf("toy/notice/%d", i), Game: "toy", Subject: names[i],
					Published: h.S.Clock.In(berlin), Status: "pending", Excluded: []string{"x: y"}})
			}
		},
		func() { h.S.Cited[0].Status, h.S.Cited[0].Ratified = "ratified", h.S.Clock },
		func() { h.S.Cited[1].Excluded[0] = "changed in place" },
		func() { h.S.Cited = h.S.Cited[1:] },
		func() { h.S.Cited = nil },
		func() { h.S.Players = nil },
	}
	for i, change := range changes {
		change()
		want, err := contract.Encode(h.S)
		if err != nil {
			t.Fatal(err)
		}
		tk := enc.Take(h.S)
		// The state changes after it was taken, as the live state does
		// while its snapshot is written.
		if len(h.S.Players) > 0 && h.S.Players[0] != nil {
			h.S.Players[0].Name += " later"
			h.S.Players[0].Addresses[0] = "later@example.test"
		}
		h.S.Games["toy"].Data.(*toyState).Rounds += 100
		h.S.Games["toy"].Params["START"] = "later"
		h.S.Ledger.Supply["x"] = 99
		for _, ps := range h.S.Points {
			for g := range ps {
				ps[g] = 99
			}
		}
		h.S.Seen.IDs["later@example.test"] = h.S.Clock
		for _, ts := range h.S.Receipts {
			ts[0] = ts[0].Add(time.Hour)
		}
		h.S.Outbox = append(h.S.Outbox, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("later%d", i)}})
		for _, x := range h.S.Cited {
			x.Subject += " later"
			if len(x.Excluded) > 0 {
				x.Excluded[0] = "later"
			}
		}
		h.S.Cited = append(h.S.Cited, &contract.Cited{ID: fmt.Sprintf("later%d", i)})
		got, err := tk.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("change %d: the taken state encodes as\n%s\nwant (as Encode wrote it when taken)\n%s", i, got, want)
		}
		// The kept text never stands for what changed since.
		sameEncoding(t, &enc, h.S)
		h.S.Cited = h.S.Cited[:len(h.S.Cited)-1] // the record added later
	}
}
