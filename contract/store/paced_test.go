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

// TestPiecesFileIsWhole: a state written from pieces (a snapshot's: its
// records' and items' texts, a few hundred bytes each, and sections of
// megabytes), paced or not, is the pieces joined, byte for byte,
// whatever their sizes against the writes' (pacePiece).
func TestPiecesFileIsWhole(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	sizes := []int{0, 1, 300, pacePiece - 1, pacePiece, pacePiece + 1, 3*pacePiece + 17}
	for round := range 60 {
		var pieces [][]byte
		var want []byte
		for range r.IntN(40) {
			p := make([]byte, sizes[r.IntN(len(sizes))]+r.IntN(3))
			for i := range p {
				p[i] = byte(r.IntN(256))
			}
			pieces = append(pieces, p)
			want = append(want, p...)
		}
		path := filepath.Join(dir, "state.yaml")
		tmp, err := writeTempPieces(path, pieces, 0o600, round%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(tmp)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("round %d: %d pieces of %d bytes in all: read back %d bytes (%v), not the same", round, len(pieces), len(want), len(got), err)
		}
		os.Remove(tmp)
	}
}
