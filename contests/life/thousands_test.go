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

// TestChangeThousands: a regulation change setting a parameter to a number
// with commas between thousands, as Agora writes numbers ("SET VPP =
// 1,000"), is read as that number: the suggestion is recorded, and once
// adopted VPP is 1000 (G9), where it was refused as no whole number. A
// number past the range is refused naming it without commas; "1,00" is
// still no whole number.
func TestChangeThousands(t *testing.T) {
	h := join3(t)
	notDone(t, h.Public("2026-11-10T10:59:00Z", alice, "I suggest: SET VPP = 10,001"), "VPP must be between 0 and 10000, not 10001 (Life R6)")
	notDone(t, h.Public("2026-11-10T10:59:30Z", alice, "I suggest: SET VPP = 1,00"), `VPP must be a whole number, not "1,00" (Life R6)`)
	done(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET VPP = 1,000"), "Suggestion #1 recorded")
	for _, p := range []string{alice, bob, cm} {
		h.Public("2026-11-10T12:00:00Z", p, "I consent to Suggestion #1 in Life.")
	}
	if got := h.S.Games[ID].Params["VPP"]; got != "1000" {
		t.Errorf("VPP = %q once the suggestion is adopted, want 1000", got)
	}
}
