//go:build e2e && race

package e2e

// raceEnabled: the referee under test is built with -race too.
const raceEnabled = true
