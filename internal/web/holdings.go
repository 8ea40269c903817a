package web

import (
	"fmt"
	"strconv"
	"strings"

	"referee/contests/life"
	"referee/contract"
)

// Holdings is what each contestant of a game holds that eir play turns on,
// as the game's report lists it: a row per contestant, eir name first, in
// joining order, and a line on what others hold.
type Holdings struct {
	Header []string
	Rows   [][]string
	Note   string
}

// holdings are the game's holdings for the standings, nil for games whose
// standings are their points alone.
func holdings(st *contract.State, id string, gs *contract.GameState) *Holdings {
	switch d := gs.Data.(type) {
	case *life.State:
		return lifeHoldings(st, id, d)
	}
	return nil
}

// lifeHoldings: each contestant's Vials of Primordial Ooze (Life R13, the
// currency Cells are taken with, R16) and the Cells e Controls (R8), as the
// report's table of contestants gives them, and the contest's Vials, which
// the Round shares (R21).
func lifeHoldings(st *contract.State, id string, d *life.State) *Holdings {
	h := &Holdings{Header: []string{"Contestant", "Vials", "Cells"}}
	for _, m := range st.Members(id) {
		h.Rows = append(h.Rows, []string{m.Name, strconv.FormatInt(st.Ledger.Balance(life.Vial, m.Name), 10), strconv.Itoa(len(strings.Fields(d.Cells[m.Address()])))})
	}
	n := st.Ledger.Balance(life.Vial, contract.ContestEntity(id))
	unit := "Vials"
	if n == 1 {
		unit = "Vial"
	}
	h.Note = fmt.Sprintf("The contest owns %d %s.", n, unit)
	return h
}
