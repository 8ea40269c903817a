package rumble

import (
	"strconv"
	"strings"
	"testing"

	"referee/contract/contracttest"
)

// atThorns returns a harness in round 1 of a game where Alice holds Thorn
// Hide (thorns, S = 20), Bob Blood Pact (blood, 10), Carol Fire Breath
// (fury, 10) and Dave Lucky Star (mend, 5). Stamina after the bids: Alice
// 80, Bob 90, Carol 90, Dave 95.
func atThorns(t *testing.T) *contracttest.Harness {
	t.Helper()
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	for _, p := range []string{alice, bob, carol, dave} {
		mustDone(t, h.Public("2026-12-01T10:00:00Z", p, "I join Rumble."))
	}
	mustDone(t, h.Public("2026-12-01T11:00:00Z", mars, "I announce a new game of Rumble with 1 power per contestant and 0 contestmaster powers."))
	privately(t, h, "2026-12-01T12:00:00Z",
		alice, "Thorn Hide: spikes all over (thorns)",
		bob, "Blood Pact: pain for power (blood)",
		carol, "Fire Breath: fire [fury]",
		dave, "Lucky Star: luck (mend)")
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Thorn Hide: 20",
		bob, "Blood Pact: 10",
		carol, "Fire Breath: 10",
		dave, "Lucky Star: 5")
	for _, p := range []string{alice, bob, carol, dave} {
		mustDone(t, h.Private("2026-12-02T11:00:00Z", p, "No discard."))
	}
	if st := data2(h); st.Phase != PhaseRound || st.Round != 1 {
		t.Fatalf("phase %q round %d, want round 1", st.Phase, st.Round)
	}
	return h
}

// results reads the results table of a notice (the next round's beginning,
// or the end of the game): for each contestant,
// the columns by header.
func results(t *testing.T, body string) map[string]map[string]string {
	t.Helper()
	lines := strings.Split(body, "\n")
	out := map[string]map[string]string{}
	for i, l := range lines {
		if !strings.HasPrefix(l, "Contestant  Before") {
			continue
		}
		head := strings.Fields(l)
		// Columns are right-aligned under their headers; "Other" may be empty.
		ends := make([]int, len(head))
		for k, hd := range head {
			ends[k] = strings.Index(l, hd) + len(hd)
		}
		for _, row := range lines[i+2:] {
			if strings.TrimSpace(row) == "" || strings.HasPrefix(row, "Attacked is") {
				break
			}
			cells := map[string]string{}
			start := 0
			for k, hd := range head {
				end := ends[k]
				if k == len(head)-1 || end > len(row) {
					end = len(row)
				}
				if start < len(row) {
					cells[hd] = strings.TrimSpace(row[start:end])
				}
				start = end
			}
			out[cells["Contestant"]] = cells
		}
		return out
	}
	t.Fatalf("no results table in:\n%s", body)
	return nil
}

// TestRoundStamina: one round's stamina for each contestant as the results
// show it (Rumble 8-9, U5): damage is Attacks less Defense; Burnt energy
// costs stamina; each attacker of a contestant using thorns loses S/2; blood
// adds twice the energy Burnt to Defense; fury adds S to each Attack; mend
// gives back S.
func TestRoundStamina(t *testing.T) {
	h := atThorns(t)
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "Spend 1 on Thorn Hide",
		bob, "Attack Alice 5\nBurn 7 on Blood Pact",
		carol, "Attack Alice 5\nSpend 1 on Fire Breath",
		dave, "Attack Bob 12\nSpend 1 on Lucky Star")
	rows := results(t, sent(t, h, "rumble/1/round/2/begin"))
	want := map[string]map[string]int{
		// Bob's 5 and Carol's 5 with her fury's 10; no Defense.
		"Alice": {"Before": 80, "Attacked": 5 + 5 + 10, "Defense": 0, "Damage": 20, "Burn": 0, "After": 80 - 20},
		// Dave's 12 less twice the 7 Burnt; the Burn itself and Alice's thorns (20/2).
		"Bob":   {"Before": 90, "Attacked": 12, "Defense": 14, "Damage": 0, "Burn": 7, "Other": -10, "After": 90 - 7 - 20/2},
		"Carol": {"Before": 90, "Attacked": 0, "Defense": 0, "Damage": 0, "Burn": 0, "Other": -10, "After": 90 - 20/2},
		"Dave":  {"Before": 95, "Attacked": 0, "Other": 5, "After": 95 + 5},
	}
	for name, cols := range want {
		for col, n := range cols {
			w := strconv.Itoa(n)
			if col == "Other" && n > 0 {
				w = "+" + w
			}
			if got := rows[name][col]; got != w {
				t.Errorf("%s's %s is %q, want %d", name, col, got, n)
			}
		}
	}
	// The next round starts from the stamina the results show.
	for _, f := range data2(h).Fighters {
		if w, ok := want[f.Name]; ok && f.Stamina != w["After"] {
			t.Errorf("%s has %d stamina after round 1, want %d", f.Name, f.Stamina, w["After"])
		}
	}
}

// TestRoundEdges: the round's results at the edges of Rumble 9 and 4 (the
// setup of atRound: Alice 70 stamina, Bob 80, Carol 90 with Fire Breath
// (fury, S = 10), Dave 100): an Attack of 1 energy counts; an Attack of 0
// is no Attack, even with fury spent; a contestant left at exactly 1
// stamina is alive, and with nobody dead the results name no dead.
func TestRoundEdges(t *testing.T) {
	h := atRound(t)
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "Attack Bob 1",
		bob, "Attack Alice 2",
		carol, "Attack: 0 to Dave\nSpend 1 on Fire Breath",
		dave, "Attack Carol 89")
	body := sent(t, h, "rumble/1/round/2/begin")
	if strings.Contains(body, "Dead this round") {
		t.Errorf("the results name the dead of a round in which nobody died:\n%s", body)
	}
	rows := results(t, body)
	want := map[string]map[string]string{
		"Alice": {"Attacked": "2", "Damage": "2", "After": "68", "Status": "alive"},
		"Bob":   {"Attacked": "1", "Damage": "1", "After": "79", "Status": "alive"},
		"Carol": {"Attacked": "89", "Damage": "89", "After": "1", "Status": "alive"},
		"Dave":  {"Attacked": "0", "Damage": "0", "After": "100", "Status": "alive"},
	}
	for name, cols := range want {
		for col, w := range cols {
			if got := rows[name][col]; got != w {
				t.Errorf("%s's %s is %q, want %q", name, col, got, w)
			}
		}
	}
	if st := data2(h); st.Phase != PhaseRound || st.Round != 2 || len(st.alive()) != 4 {
		t.Errorf("phase %q round %d with %d alive, want round 2 with all 4", st.Phase, st.Round, len(st.alive()))
	}
}

// TestRulingsForTwoHolders: a tied bid gives Alice and Bob each a copy of
// Flight, an adjudicated power (Rumble 5); both use it in round 1, and the
// contestmaster rules on each use apart (U5). Each ruling applies to its own
// use alone: Alice's strike hits Carol once, Bob's mend heals Bob.
func TestRulingsForTwoHolders(t *testing.T) {
	h := atBids(t)
	flightRulingsDue(t, h)
	if st := data2(h); st.Phase != PhaseRulings || len(st.Pending) != 2 {
		t.Fatalf("phase %q with %d rulings pending, want 2 (Alice's and Bob's Flight)", st.Phase, len(st.Pending))
	}
	mustDone(t, h.Private("2026-12-03T12:00:00Z", mars, "I rule on #1: strike Carol 20"))
	mustDone(t, h.Private("2026-12-03T12:01:00Z", mars, "I rule on #2: mend 7"))
	body := sent(t, h, "rumble/1/round/2/begin")
	for _, want := range []string{"Alice's Flight: strike Carol 20", "Bob's Flight: mend 7"} {
		if !strings.Contains(norm(body), want) {
			t.Errorf("the results do not say %q:\n%s", want, body)
		}
	}
	rows := results(t, body)
	want := map[string]map[string]string{
		"Alice": {"Attacked": "0", "Other": "", "After": "80"},
		"Bob":   {"Attacked": "0", "Other": "+7", "After": "87"},
		"Carol": {"Attacked": "20", "Damage": "20", "After": "70"},
		"Dave":  {"Attacked": "0", "After": "100"},
	}
	for name, cols := range want {
		for col, w := range cols {
			if got := rows[name][col]; got != w {
				t.Errorf("%s's %s is %q, want %q", name, col, got, w)
			}
		}
	}
}

// flightRulingsDue plays the bids (Alice and Bob win Flight, Carol Fire
// Breath), no discards, and a first round where Alice and Bob each spend 5
// on Flight: two ruling requests are due, Alice's #1 and Bob's #2.
func flightRulingsDue(t *testing.T, h *contracttest.Harness) {
	t.Helper()
	privately(t, h, "2026-12-02T10:00:00Z",
		alice, "Flight: 20",
		bob, "Flight: 20",
		carol, "Fire Breath: 10",
		dave, "no bids")
	privately(t, h, "2026-12-02T11:00:00Z",
		alice, "No discard.",
		bob, "No discard.",
		carol, "No discard.")
	privately(t, h, "2026-12-03T10:00:00Z",
		alice, "Flight: 5",
		bob, "Flight: 5",
		carol, "none",
		dave, "none")
}
