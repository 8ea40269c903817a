package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"referee/contract"
	"referee/internal/bridge"
	"referee/mailin"
)

// The reader hands messages over in batches of readAheadBatch, and reads
// and parses at most readAheadBatches batches ahead of the one being
// applied (with readAheadBatch = 64, 512 messages).
const (
	readAheadBatch   = 64
	readAheadBatches = 8
)

// parsed is one message of an archive as the reader hands it over: its
// arrival time and what the pipeline read of it, or the archive's read
// error.
type parsed struct {
	arrived  time.Time
	raw      *mailin.Raw // until parsed
	m        *contract.Message
	parseErr error // an *bridge.UnreadableError: the message is skipped
	err      error // the archive could not be read: the replay stops
}

// batch is a run of consecutive messages of the archive, parsed by one
// worker; done is closed once they all are.
type batch struct {
	msgs []parsed
	done chan struct{}
}

// reader reads an archive's messages in a goroutine of its own and parses
// them on workers goroutines (replay: one per processor), a bounded number ahead,
// and hands them over in the archive's order: the batches go to the
// workers and, in the same order, to out, where next waits for each to be
// parsed.
type reader struct {
	out  chan *batch
	cur  *batch
	i    int
	done chan struct{}
	quit chan struct{}
}

func readAhead(a mailin.Archive, pipe *bridge.Pipeline, workers int) *reader {
	r := &reader{out: make(chan *batch, readAheadBatches), done: make(chan struct{}), quit: make(chan struct{})}
	work := make(chan *batch, readAheadBatches)
	finished := make(chan struct{}, workers)
	for range workers {
		go func() {
			defer func() { finished <- struct{}{} }()
			for b := range work {
				for i := range b.msgs {
					p := &b.msgs[i]
					if p.err == nil {
						p.m, p.parseErr = pipe.Read(p.raw.Data, p.arrived)
						p.raw.Release() // the message holds none of its memory
						p.raw = nil
					}
				}
				close(b.done)
			}
		}()
	}
	go func() {
		defer close(r.done)
		defer func() {
			for range workers {
				<-finished
			}
		}()
		defer close(r.out)
		defer close(work)
		for {
			b := &batch{msgs: make([]parsed, 0, readAheadBatch), done: make(chan struct{})}
			var err error
			for len(b.msgs) < readAheadBatch {
				var raw *mailin.Raw
				if raw, err = a.Next(); err != nil {
					if !errors.Is(err, io.EOF) {
						b.msgs = append(b.msgs, parsed{err: err})
					}
					break
				}
				if raw.CutShort {
					// Applied, a part of a message would stay applied
					// (its Message-ID remembered) when the whole
					// archive is replayed.
					raw.Release()
					err = fmt.Errorf("the archive ends inside the last line of its message %d: the file was cut short (a copy stopped, a full disk?); that message is not applied: replay a whole copy", raw.UID)
					b.msgs = append(b.msgs, parsed{err: err})
					break
				}
				b.msgs = append(b.msgs, parsed{arrived: raw.Arrived, raw: raw})
			}
			if len(b.msgs) > 0 {
				// The batch goes to the workers first: the one next waits
				// for is always being parsed, or queued to be.
				select {
				case work <- b:
				case <-r.quit:
					return
				}
				select {
				case r.out <- b:
				case <-r.quit:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return r
}

// next is the next message, false at the archive's end.
func (r *reader) next() (parsed, bool) {
	for r.cur == nil || r.i == len(r.cur.msgs) {
		b, ok := <-r.out
		if !ok {
			return parsed{}, false
		}
		<-b.done
		r.cur, r.i = b, 0
	}
	p := r.cur.msgs[r.i]
	r.cur.msgs[r.i] = parsed{} // applied: its memory is the state's now
	r.i++
	return p, true
}

// stop ends the reader and its workers and waits for them, so that the
// archive can be closed.
func (r *reader) stop() {
	close(r.quit)
	<-r.done
}
