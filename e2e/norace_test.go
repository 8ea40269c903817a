//go:build e2e && !race

package e2e

const raceEnabled = false
