package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockState takes the lock of a state for a command that writes it or its
// journal (run, replay, init, check --repair), held until release: a second
// such command on the same state is refused while the first runs, where both
// would append to one journal and write one state file over the other's.
// The lock is flock(2) on the state's directory, which holds its journal
// (journal.jsonl, one to a directory); it goes with the process, so a
// killed one leaves none, and it leaves no file behind.
func lockState(state string) (release func(), err error) {
	dir := filepath.Dir(state)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the state's directory: %w", err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock the state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is in use by another referee run, replay, init or check --repair (its directory %s is locked: %v): stop that one first, or name a --state in another directory", state, dir, err)
	}
	return func() { f.Close() }, nil
}
