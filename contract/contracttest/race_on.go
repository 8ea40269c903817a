//go:build race

package contracttest

// race: built with the race detector, whose instrumentation allocates, and
// under which a sync.Pool drops a fourth of what is put in it at random.
const race = true
