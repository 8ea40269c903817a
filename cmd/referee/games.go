package main

import (
	"sort"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
)

// games lists the games the referee runs, explicitly (no init registration).
func games() []contract.Game {
	return []contract.Game{life.New(), rumble.New(), steemfield.New(), wackyworld.New()}
}

func gameIDs() []string {
	var ids []string
	for _, g := range games() {
		ids = append(ids, g.Spec().ID)
	}
	sort.Strings(ids)
	return ids
}

// newEngine builds the interpreter from the configuration.
func newEngine(cfg *Config) (*contract.Engine, error) {
	return contract.NewEngine(contract.Config{
		Referee:       cfg.Address,
		RateLimit:     cfg.Limits.ReceiptsPerHour,
		RequireAuth:   cfg.Auth.Policy != AuthNone,
		SeenHorizon:   cfg.Limits.SeenHorizon,
		Contestmaster: cfg.Contestmaster,
		RulingWait:    cfg.Limits.RulingWait,
		ListWait:      listWait(cfg),
	}, games()...)
}

// listWait is how long a direct copy of a public post waits for the list's
// copy; 0 when direct copies count at once.
func listWait(cfg *Config) time.Duration {
	if cfg.Lists.DirectCopies {
		return 0
	}
	return cfg.Lists.ListWait
}

// templateEngine builds the interpreter for the committed starting state, which
// names no contestmaster and holds no secret.
func templateEngine() (*contract.Engine, error) {
	return contract.NewEngine(contract.Config{Referee: "referee@example.test"}, games()...)
}

// applyGameParams sets the configured parameters of a fresh state.
func applyGameParams(e *contract.Engine, s *contract.State, cfg *Config) error {
	for id, gc := range cfg.Games {
		g := e.Game(id)
		if g == nil {
			return usagef("games.%s: no such game", id)
		}
		for name, v := range gc.Params {
			var decl *contract.Param
			for _, p := range g.Spec().Params {
				if p.Name == name {
					p := p
					decl = &p
				}
			}
			if decl == nil {
				return usagef("games.%s.params.%s: no such parameter", id, name)
			}
			nv, err := decl.Validate(v)
			if err != nil {
				return usagef("games.%s.params.%s: %v", id, name, err)
			}
			s.Games[id].Params[name] = nv
		}
	}
	return nil
}
