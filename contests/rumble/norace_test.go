//go:build !race

package rumble

const raceEnabled = false
