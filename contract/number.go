package contract

import (
	"strconv"
	"strings"
)

// WholeNumber is the pattern of a whole number as players write one, for a
// game's verb or reader to use where it reads an amount: digits ("1000"),
// or, as Agora writes amounts, a first group of one to three digits (not a
// leading 0) and groups of exactly three after it, each after a comma
// ("1,000", "12,500"). "1,5", "1,00", "1,0000" and "0,500" are not whole
// numbers (a decimal comma, a list, a typo: the action is refused, not
// guessed). It reads the amount of an asset alone: coordinates and lists
// ("(1,2)", "cells 1,2") are read by their own patterns.
const WholeNumber = `(?:[1-9][0-9]{0,2}(?:,[0-9]{3})+|[0-9]+)`

// ParseWhole reads a whole number of 0 or more written as WholeNumber
// says, the commas left out; ok is false for anything else, a sign
// included, and for a number too large for an int64.
func ParseWhole(s string) (n int64, ok bool) {
	groups := strings.Split(s, ",")
	for i, g := range groups {
		if g == "" || strings.Trim(g, "0123456789") != "" {
			return 0, false
		}
		if len(groups) > 1 && (i == 0 && (len(g) > 3 || g[0] == '0') || i > 0 && len(g) != 3) {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(strings.Join(groups, ""), 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}
