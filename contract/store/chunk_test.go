package store

import (
	"bytes"
	"fmt"
	"testing"
)

// writeSizes is a file that records the size of each write.
type writeSizes struct {
	sizes []int
	b     bytes.Buffer
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.b.Write(p)
}

// TestLogWritesInPieces: Log's lines reach the journal in pieces of
// logChunk as soon as that much is gathered (a line more at most), and
// the rest at the end, each piece whole lines: a save of 600 lines of
// 1 KiB is three writes, two of exactly logChunk.
func TestLogWritesInPieces(t *testing.T) {
	var f writeSizes
	w := &chunkWriter{f: &f}
	line := append(bytes.Repeat([]byte("x"), 1023), '\n')
	for range 600 {
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint([]int{logChunk, logChunk, 600<<10 - 2*logChunk}); fmt.Sprint(f.sizes) != want {
		t.Errorf("a save of 600 lines of 1 KiB written as %v, want %s", f.sizes, want)
	}
	if !bytes.Equal(f.b.Bytes(), bytes.Repeat(line, 600)) || w.n != 600<<10 {
		t.Errorf("the lines written (%d bytes, %d counted) are not the save's", f.b.Len(), w.n)
	}
}
