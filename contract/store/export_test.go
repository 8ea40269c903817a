package store

import (
	"runtime"
)

// WaitSpare waits until the spare temporary file a save started making in
// the background is made (or given up).
func (j *Journal) WaitSpare() {
	for j.making.Load() {
		runtime.Gosched()
	}
}

// SaveSize is the size Log and CommitSteps grow their buffer to for a save
// of steps.
var SaveSize = saveSize
