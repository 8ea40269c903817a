package store

import "testing"

// TestDifferingKeysInOrder: verify names the parts of a revision that
// differ from its re-computation in the same order each time (by name), so
// that two runs of verify over the same journal print the same line.
func TestDifferingKeysInOrder(t *testing.T) {
	a := []byte(`{"outcomes":1,"receipts":1,"new_hash":"a","lines":1,"answer":1,"series":1}`)
	b := []byte(`{"outcomes":2,"receipts":2,"new_hash":"b","lines":2,"answer":2,"draws":1}`)
	want := "answer, draws, lines, new_hash, outcomes, receipts, series"
	for range 20 {
		if got := differingKeys(a, b); got != want {
			t.Fatalf("differingKeys = %q, want %q", got, want)
		}
	}
}
