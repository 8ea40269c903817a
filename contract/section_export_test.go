package contract

import (
	"reflect"

	"gopkg.in/yaml.v3"
)

// SectionTexts is game section g as the state file and the state hash
// write it (the state file's encoder, indented by 2, and yaml.Marshal),
// and as each wrote it when the game's data went through a node first
// (n.Encode of the data, its breaking texts quoted there), in that order.
func SectionTexts(g *GameState) (inPlace, throughNode [2][]byte, err error) {
	old := nodeSection{g}
	for i, emit := range []func(any) ([]byte, error){emitYAML, yaml.Marshal} {
		if inPlace[i], err = quotingTexts(g, emit, 2+2*i, i == 0); err != nil {
			return
		}
		if throughNode[i], err = quotingTexts(old, emit, 2+2*i, i == 0); err != nil {
			return
		}
	}
	return
}

// nodeSection writes its section with the game's data encoded into a node.
type nodeSection struct{ *GameState }

func (s nodeSection) MarshalYAML() (any, error) {
	var n yaml.Node
	if s.Data != nil {
		var f textFinder
		f.find(reflect.ValueOf(s.Data))
		var err error
		if len(f.texts) == 0 {
			err = n.Encode(s.Data)
		} else {
			err = f.encode(&n, s.Data)
		}
		if err != nil {
			return nil, err
		}
	}
	g := s.GameState
	return &gameStateYAML{Contestmaster: g.Contestmaster, Params: g.Params, LastReport: g.LastReport, Recent: g.Recent, State: n}, nil
}
