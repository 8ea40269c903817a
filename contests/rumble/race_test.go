//go:build race

package rumble

// raceEnabled: the tests run under the race detector (go test -race).
const raceEnabled = true
