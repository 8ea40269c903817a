package mailin

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzMbox feeds arbitrary bytes to the mbox reader: it may find any number of
// messages or fail with an error, never panic or loop, and every message it
// returns is a non-empty part of the input.
func FuzzMbox(f *testing.F) {
	f.Add([]byte("From alice@example.test Tue Dec  1 10:00:00 2026\nSubject: a\n\nI join.\n>From here\n\nFrom bob@example.test Tue Dec  1 11:00:00 2026\n\nb\n"))
	f.Add([]byte("From x\n\nFrom \nFrom y Mon Jan  1 00:00:00 1990\n"))
	f.Add([]byte("no from line at all\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "fuzz.mbox")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		a, err := OpenArchive(p)
		if err != nil {
			return
		}
		defer a.Close()
		total := 0
		for i := 0; i <= len(data)+1; i++ {
			r, err := a.Next()
			if errors.Is(err, io.EOF) || err != nil {
				return
			}
			total += len(r.Data)
			if total > 2*len(data)+64 {
				t.Fatalf("the archive returned %d bytes from %d", total, len(data))
			}
		}
		t.Fatalf("more messages than bytes in the archive")
	})
}
