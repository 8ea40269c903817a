package store

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestPacedFileIsWhole: a state written paced, piece by piece, is the
// data written, byte for byte, whatever its size against the piece.
func TestPacedFileIsWhole(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, pacePiece - 1, pacePiece, pacePiece + 1, 3*pacePiece + 17} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		path := filepath.Join(dir, "state.yaml")
		tmp, err := writeTemp(path, data, 0o600, true)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(tmp)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%d bytes written paced: read back %d bytes (%v), not the same", size, len(got), err)
		}
		os.Remove(tmp)
	}
}
