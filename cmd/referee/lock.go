package main

import (
	"errors"
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
// killed one leaves none, and it leaves no file behind. The directories it
// creates for the state are removed again at release if the command left
// them empty (it was refused, or wrote nothing): a refused command leaves
// the file system as it found it.
func lockState(state string) (release func(), err error) {
	dir := filepath.Dir(state)
	made := missingDirs(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the state's directory: %w", err)
	}
	f, err := os.Open(dir)
	if err != nil {
		removeEmpty(made)
		return nil, fmt.Errorf("lock the state: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s is in use by another referee run, replay, init or check --repair (its directory %s is locked: %v): stop that one first, or name a --state in another directory", state, dir, err)
	}
	// Removed while the lock is held: no other command has begun to
	// write in them.
	return func() { removeEmpty(made); f.Close() }, nil
}

// missingDirs are dir and those of its parents that do not exist, the
// deepest first: those os.MkdirAll(dir) creates.
func missingDirs(dir string) []string {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, os.ErrNotExist) {
			return missing
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			return missing
		}
	}
}

// removeEmpty removes the directories dirs, the deepest first, up to the
// first that is not empty.
func removeEmpty(dirs []string) {
	for _, d := range dirs {
		if os.Remove(d) != nil {
			return
		}
	}
}
