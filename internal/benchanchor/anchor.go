// Package benchanchor is what the parse benchmarks measure against in the
// same run: go-message's own parse of a message, and the CPU time of the
// calling thread. bench/replay and internal/bridge's benchmarks share it;
// mailin's benchmark keeps its own copy, as mailin imports nothing of the
// project.
package benchanchor

import (
	"bytes"
	"errors"
	"io"
	"syscall"
	"time"
	"unsafe"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"
)

// GoMessageParse is go-message's parse of the header and of every part,
// bodies decoded and read: the least a reader of the message must do.
func GoMessageParse(data []byte) {
	mr, err := gomail.CreateReader(bytes.NewReader(data))
	if err != nil && !message.IsUnknownCharset(err) {
		return
	}
	_, _ = mr.Header.Subject()
	_, _ = mr.Header.AddressList("From")
	_, _ = mr.Header.Date()
	_, _ = mr.Header.MessageID()
	for {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) || (err != nil && !message.IsUnknownCharset(err)) {
			return
		}
		_, _ = io.Copy(io.Discard, p.Body)
	}
}

// ThreadCPU is the CPU time the calling thread has used
// (CLOCK_THREAD_CPUTIME_ID); lock the goroutine to its thread around the
// two readings.
func ThreadCPU() (time.Duration, error) {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, errno
	}
	return time.Duration(ts.Nano()), nil
}

// ProcessCPU is the CPU time the process has used, user and system (with
// GOMAXPROCS=1 the garbage collector's work is counted, and nothing
// else's).
func ProcessCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
