package contract_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// ticker is a game whose event comes back a millisecond later each time it
// runs, until it has run limit times: a game that keeps scheduling itself.
type ticker struct {
	limit int
	key   string // the events' Key
	fail  bool   // Next panics
}

type tickerState struct {
	Ticks int `yaml:"ticks"`
}

var tickFrom = time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)

func (g *ticker) Spec() contract.Spec {
	return contract.Spec{ID: "ticker", Title: "Ticker", Aliases: []string{"ticker"}, Guide: "A clock.\n"}
}
func (g *ticker) NewState() any                                    { return &tickerState{} }
func (g *ticker) Init(c *contract.Ctx) error                       { return nil }
func (g *ticker) Verbs() []*contract.Verb                          { return nil }
func (g *ticker) Report(c *contract.Ctx) (*contract.Notice, error) { return nil, nil }
func (g *ticker) Next(c *contract.Ctx) (contract.Event, bool) {
	st := c.Data().(*tickerState)
	if g.fail {
		panic("the clock is broken")
	}
	if st.Ticks >= g.limit {
		return contract.Event{}, false
	}
	return contract.Event{At: tickFrom.Add(time.Duration(st.Ticks) * time.Millisecond), Name: "tick", Key: g.key}, true
}
func (g *ticker) Run(c *contract.Ctx, e contract.Event) error {
	c.Data().(*tickerState).Ticks++
	return nil
}

// TestAdvanceStopsARunawayGame: the events due at once are run up to a
// bound (100,000; 10 here); a game that schedules more (its Next keeps
// coming back) is a fault that says so, never an endless loop.
func TestAdvanceStopsARunawayGame(t *testing.T) {
	contract.SetMaxEvents(t, 10)
	for _, c := range []struct {
		limit int
		fault bool
	}{{10, false}, {11, true}} {
		h := contracttest.New(t, "2026-12-01T10:00:00Z", &ticker{limit: c.limit})
		ent, err := h.E.Advance(h.S, tickFrom.Add(time.Hour))
		if c.fault {
			if err == nil || !strings.Contains(err.Error(), "advance: more than 10 events; a game's Next does not move") {
				t.Errorf("%d events due: %v, want the runaway named", c.limit, err)
			}
			continue
		}
		if err != nil || len(ent) != c.limit || h.S.Games["ticker"].Data.(*tickerState).Ticks != c.limit {
			t.Errorf("%d events due: %d run, %v", c.limit, len(ent), err)
		}
	}
}

// TestEventKeyJournaled: the journal line of a game's event names the
// event's key (which phase, which contestant) when it has one, and has no
// key when it has none (the toy's weekly round).
func TestEventKeyJournaled(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &toy{}, &ticker{limit: 1, key: "the only tick"})
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Advance("2026-12-07T01:00:00Z")
	verbs := map[string]bool{}
	for _, en := range h.Entries {
		verbs[en.Verb] = true
		key, has := en.Detail["key"]
		switch en.Verb {
		case "tick":
			if key != "the only tick" {
				t.Errorf("the tick's journal line: key %v, want %q", key, "the only tick")
			}
		case "round":
			if has {
				t.Errorf("the round's journal line has a key %q", key)
			}
		}
	}
	if !verbs["tick"] || !verbs["round"] {
		t.Fatalf("the journal lacks the tick or the round: %v", verbs)
	}
}

// TestJournalCitesWhatWasPublished: the journal line of the change that
// sent a public notice records its citation (the identifier and the state
// hash the notice prints, which `referee verify` checks against the
// ratification); a line that sent none has no citation, and a line holds
// no draws or changes when there were none (no empty keys in the journal).
func TestJournalCitesWhatWasPublished(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	ns := h.Advance("2026-12-07T01:00:00Z")
	var report string
	for _, n := range ns {
		if n.Kind == "report" {
			report = n.Body
		}
	}
	m := regexp.MustCompile(`Cite as: (\S+)`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("the report has no citation:\n%s", report)
	}
	id := m[1]
	var round, join bool
	for _, en := range h.Entries {
		cited, has := en.Detail["cited"]
		switch en.Verb {
		case "join":
			join = true
			if has {
				t.Errorf("the join's journal line cites %v", cited)
			}
			if d, has := en.Detail["draws"]; has {
				t.Errorf("the join's journal line has draws %v", d)
			}
		case "round":
			round = true
			list, _ := cited.([]map[string]any)
			if len(list) != 1 || list[0]["id"] != id || !strings.Contains(flat(report), list[0]["hash"].(string)) {
				t.Errorf("the round's journal line cites %v, want %s with the hash its report prints:\n%s", cited, id, report)
			}
			if c, has := en.Detail["changes"]; has {
				t.Errorf("the round's journal line has changes %v", c)
			}
		}
	}
	if !round || !join {
		t.Fatalf("the journal lacks the join or the round")
	}
}

// TestNextPanicIsAFault: a game whose Next panics stops the events with a
// fault naming the game and the panic (the operator's log), not a crash of
// the referee.
func TestNextPanicIsAFault(t *testing.T) {
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee}, &toy{}, &ticker{fail: true})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.NewState(contracttest.Secret[:], contracttest.At(t, "2026-12-01T10:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Advance(s, tickFrom); err == nil || !strings.Contains(err.Error(), "next event of ticker: panic: the clock is broken") || !contract.IsFault(err) {
		t.Errorf("Advance: %v, want a fault naming the ticker's panic", err)
	}
}
