package life

import "testing"

// TestTransferThousands: Vials counted with commas between thousands, as
// Agora writes numbers, are transferred ("I transfer 1,000 Vials to Bob");
// a Cell written with a comma and no space ("cell 1,2") is still the Cell
// (1, 2), and "1,5 Vials" is no whole number, refused with the form.
func TestTransferThousands(t *testing.T) {
	h := newHarness(t, "2026-12-01T10:00:00Z")
	done(t, h.Public("2026-12-01T10:01:00Z", alice, "I join the Life contest."), "Done")
	done(t, h.Public("2026-12-01T10:02:00Z", bob, "I join the Life contest."), "Done")
	if err := h.S.Ledger.Mint(Vial, "Alice", 1000); err != nil {
		t.Fatal(err)
	}
	had := balance(h, "Alice")
	done(t, h.Public("2026-12-01T10:03:00Z", alice, "I transfer 1,000 Vials to Bob. I claim cell 1,2. I transfer 1,5 Vials to Bob."),
		"> I transfer 1,000 Vials to Bob. Done: 1000 Vials moved from Alice to Bob",
		"> I claim cell 1,2. Done: you Control Cell (1, 2)",
		"> I transfer 1,5 Vials to Bob. Not done: not understood; the form is: I transfer N <currency> to <player>")
	if got, want := balance(h, "Alice"), had-1001; got != want {
		t.Errorf("Alice owns %d Vials, want %d", got, want)
	}
}
