package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"referee/internal/daemon"
)

// clockPath is the file beside the state in which referee run keeps its
// test clock while it runs (STATE.clock), for referee status: the state's
// clock is that of its last change, and a test clock runs on from it.
func clockPath(state string) string { return state + ".clock" }

// clockFile is what STATE.clock holds: the test clock's time at a real
// instant, and how many times faster than real time it runs.
type clockFile struct {
	At   time.Time `json:"at"`   // the test clock's time at Real
	Real time.Time `json:"real"` // the real instant At stands for
	Rate float64   `json:"rate"`
}

// publishClock writes a test clock to STATE.clock and holds a lock on the
// file (flock, shared by none) until release, which removes it: a file
// whose lock is free was left by a run that was killed, and its clock runs
// no more (runningClock). The file is written whole under another name and
// renamed, so a reader finds the old file or the new, never part of one.
// The wall clock writes none, and removes a file a killed run left.
func publishClock(state string, clk *daemon.Clock) (release func(), err error) {
	path := clockPath(state)
	if clk.Start.IsZero() {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove the test clock of an earlier run: %w", err)
		}
		return func() {}, nil
	}
	b, err := json.Marshal(clockFile{At: clk.Start.UTC(), Real: clk.Real0, Rate: clk.Rate})
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write the test clock: %w", err)
	}
	fail := func(err error) (func(), error) {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("write the test clock: %w", err)
	}
	// Nobody else knows the new file yet: the lock is taken at once.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fail(err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fail(err)
	}
	// Removed before the lock goes: a reader finds no file, or the file
	// locked.
	return func() { os.Remove(path); f.Close() }, nil
}

// runningClock is the test clock of the referee run working on state, read
// from STATE.clock; ok is false when there is none: no file (no run, or a
// run on the wall clock), or one whose run is gone (its lock is free).
func runningClock(state string) (clk *daemon.Clock, ok bool) {
	f, err := os.Open(clockPath(state))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	// A shared lock taken is a lock nobody held: the run that wrote the
	// file was killed. It is let go at once (at Close).
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, false
	}
	var c clockFile
	if err := json.NewDecoder(f).Decode(&c); err != nil || c.At.IsZero() || c.Rate <= 0 {
		return nil, false
	}
	return &daemon.Clock{Start: c.At.UTC(), Real0: c.Real, Rate: c.Rate}, true
}
