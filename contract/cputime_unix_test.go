//go:build unix

package contract

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system, every
// thread: the garbage collector's too), for benchmarks that report it
// beside the wall-clock time a loaded machine inflates.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
