//go:build !race

package contracttest

// race: built with the race detector (race_on.go).
const race = false
