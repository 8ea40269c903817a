package life

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestCorrectionRenumbersNoClaim: Bob, Alice and Carol each claim an error
// (#1, #2, #3); the contestmaster answers Bob's by voiding Alice's join. In
// the corrected record Alice never joined, so her claim is refused and
// Carol's would be #2: Carol's open claim would take another number, and the
// correction of #2 or a denial of #3 would answer another claim than the one
// meant (the correction closed the claim its number named in the corrected
// record). Such a correction is refused, naming the claim, and nothing
// changes.
func TestCorrectionRenumbersNoClaim(t *testing.T) {
	h := newHarness(t, "2026-11-16T12:00:00Z")
	h.Record()
	done(t, h.Public("2026-11-16T13:00:00Z", alice, "I join the Life contest."), "Done") // m1
	done(t, h.Public("2026-11-16T13:01:00Z", bob, "I join the Life contest."), "Done")
	done(t, h.Public("2026-11-16T13:02:00Z", carol, "I join the Life contest."), "Done")
	for i, who := range []string{bob, alice, carol} {
		at := []string{"2026-11-16T14:00:00Z", "2026-11-16T14:01:00Z", "2026-11-16T14:02:00Z"}[i]
		done(t, h.Private(at, who, "I CoE on randomness/2026-W47/20261116T120000: the map is wrong."), "Claim of Error #")
	}
	claims := func() string {
		var b strings.Builder
		for _, c := range h.S.Claims {
			b.WriteString(c.Claimant + " #" + string(rune('0'+c.ID)) + " ")
		}
		return b.String()
	}
	if got := claims(); got != "Bob #1 Alice #2 Carol #3 " {
		t.Fatalf("the claims: %s", got)
	}
	_, out, err := h.Correct("2026-11-16T15:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m1@example.test"}, nil)
	if err == nil || !strings.Contains(err.Error(), "Carol") || !strings.Contains(err.Error(), "#3") {
		t.Fatalf("the correction was not refused for Carol's claim #3: %v", err)
	}
	if len(out) != 1 || !strings.Contains(flat(out[0].Body), "was not made: correction: in the corrected record the open Claims of Error would be numbered otherwise (Carol's claim on randomness/2026-W47/20261116T120000, #3, would be #2)") {
		for _, n := range out {
			t.Logf("%s\n%s", n.Subject, n.Body)
		}
		t.Errorf("the contestmaster is not told why")
	}
	if got := claims(); got != "Bob #1 Alice #2 Carol #3 " {
		t.Errorf("after the refusal the claims are %s", got)
	}
	if p := h.S.PlayerByAddress("alice@example.test"); p == nil || !p.In(ID) {
		t.Error("Alice is no longer a contestant after the refusal")
	}
}
