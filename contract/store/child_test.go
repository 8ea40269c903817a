package store_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// child is a process of this test binary that a test kills at some instant
// (TestKillDuringSave, TestKillDuringWAL). It prints "done N" on its
// standard output once it has finished input or version N (after writing N
// to its .n file), and "started N" and "written N" around a background
// snapshot. Its output is read as it comes, so that the test waits for the
// child's progress itself, however slowly the machine runs it, instead of
// polling a file against a fixed number of seconds.
type child struct {
	cmd     *exec.Cmd
	stderr  bytes.Buffer
	out     bytes.Buffer // its standard output: whole once reading is done
	reading sync.WaitGroup
	done    chan struct{} // closed at its first "done" line
	started chan struct{} // a value at a "started" line (one kept at most)
	ended   chan struct{} // closed when its standard output ends
}

// startChild starts cmd and reads its standard output.
func startChild(t *testing.T, cmd *exec.Cmd) *child {
	t.Helper()
	c := &child{cmd: cmd, done: make(chan struct{}), started: make(chan struct{}, 1), ended: make(chan struct{})}
	cmd.Stderr = &c.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.reading.Add(1)
	go func() {
		defer c.reading.Done()
		defer close(c.ended)
		sc := bufio.NewScanner(stdout)
		first := true
		for sc.Scan() {
			line := sc.Text()
			c.out.WriteString(line + "\n")
			switch {
			case strings.HasPrefix(line, "done ") && first:
				first = false
				close(c.done)
			case strings.HasPrefix(line, "started "):
				select {
				case c.started <- struct{}{}:
				default:
				}
			}
		}
	}()
	return c
}

// wait waits until ready is: the child has done what the test waits for.
// The child's exit (its output ended) fails the test at once, with what it
// wrote on its standard error; a child that never gets there is killed and
// fails the test shortly before the test binary's own deadline (-timeout),
// which is the only bound: a machine under load slows the child, it does
// not make it fail.
func (c *child) wait(t *testing.T, ready <-chan struct{}, what string) {
	t.Helper()
	var timeout <-chan time.Time // none without a deadline
	if d, ok := t.Deadline(); ok {
		timer := time.NewTimer(time.Until(d) - time.Until(d)/20)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case <-ready:
		return
	case <-c.ended:
		c.stop()
		t.Fatalf("the child exited before it %s: %s", what, c.stderr.String())
	case <-timeout:
		c.stop()
		t.Fatalf("the child had not %s by the test's deadline: %s", what, c.stderr.String())
	}
}

// stop kills the child and waits until it has exited and its output is read.
func (c *child) stop() {
	c.cmd.Process.Kill()
	c.reading.Wait()
	c.cmd.Wait()
}
