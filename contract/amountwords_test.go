package contract_test

import (
	"testing"
)

// An amount written in words and figures, as Agora writes amounts ("three
// (3) Vials", "3 (three) Vials"), or as a ten and a unit ("twenty-one"), is
// read as its number: those were not understood. Words and figures that
// disagree ("three (2)") are refused with the form, nothing moved.
func TestAmountInWordsAndFigures(t *testing.T) {
	checkTransfers(t, []transferCase{
		{"I transfer two (2) coins to Bob.", "Done:", 7},
		{"I transfer 2 (two) coins to Bob.", "Done:", 7},
		{"I transfer one (1) coin to Bob.", "Done:", 6},
		{"I transfer three (2) coins to Bob.", "Not done: not understood; the form is: I transfer N <currency> to <player>", 5},
		{"I transfer twenty-one coins to Bob.", "Not done:", 5},
	})
	r := corpusEngine(t).Read("I transfer twenty-one Vials to Alice.")
	if len(r) != 1 || r[0].Args["n"] != "21" {
		t.Errorf("twenty-one read as %+v", r)
	}
}
