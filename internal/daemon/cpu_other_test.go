//go:build !linux

package daemon

import "time"

// threadCPU is the calling thread's CPU time: not read here (-1).
func threadCPU() time.Duration { return -1 }
