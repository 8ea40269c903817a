package wackyworld

import (
	"strings"
	"testing"

	"referee/contract"
)

// TestCorrectionKeepsAMedalsNumberAndTile: Alice drops a hat (asset #1,
// m2) and Atlas creates a medal (#2, m3), whose number labels its draw
// ("wackyworld/medal/2/tile") and its seed. Voiding Alice's drop leaves
// the medal #2: the same label, so the same secret tile, its commitment
// unchanged, and the revision lists no draw and no medal notice. Numbered
// anew (as a correction made before the series kept their numbers), the
// medal is #1 on another draw.
func TestCorrectionKeepsAMedalsNumberAndTile(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	h.H.Record()
	atlas := "Atlas <" + cm + ">"
	for _, m := range []struct{ at, who, text, want string }{
		{"2026-12-01T10:00:00Z", alice, "I join Wacky World.", "1 done"},
		{"2026-12-01T12:00:00Z", alice, "I drop a hat in Wacky World.", "hat (#1)"},
		{"2026-12-01T12:01:00Z", atlas, "I create a medal named gold in Wacky World.", "gold (#2)"},
		{"2026-12-01T13:00:00Z", alice, "I CoE on randomness/2026-W49/20261201T090000: I never dropped a hat.", "Claim of Error #1 recorded"},
	} {
		if r := h.H.Public(m.at, m.who, m.text); !strings.Contains(r.Body, m.want) {
			t.Fatalf("%s:\n%s", m.text, r.Body)
		}
	}
	medal := func(s *contract.State) *Asset {
		for _, as := range s.Games[ID].Data.(*State).Assets {
			if as.Medal {
				return as
			}
		}
		t.Fatal("no medal")
		return nil
	}
	was := *medal(h.H.S)
	fix := contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m2@example.test"}
	in := h.H.RecordedInputs()
	s, _, err := h.e.Rerun(&contract.Rerun{Base: in.Base, Inputs: in.Inputs, Current: h.H.S, Fix: fix, RenumberedSeries: true})
	if err != nil {
		t.Fatalf("the correction numbering the series anew: %v", err)
	}
	if anew := medal(s); anew.ID != 1 {
		t.Fatalf("numbered anew, the medal is %s", anew.Label())
	}
	rev, _, err := h.H.Correct("2026-12-01T13:30:00Z", fix, nil)
	if err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if got := *medal(h.H.S); got.ID != was.ID || got.At != was.At || got.Label() != "gold (#2)" {
		t.Errorf("after the correction the medal is %s at %s, want %s at %s", got.Label(), got.At, was.Label(), was.At)
	}
	if body := rev.Text(); len(rev.Draws) > 0 || strings.Contains(body, "medal") || strings.Contains(body, "gold") {
		t.Errorf("the revision changes the medal:\n%s", body)
	}
}
