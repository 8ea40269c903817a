package rumble

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestCorrectionKeepsAmendmentNumbers, as the contestmaster sees it: Mars
// amends the contract twice by text alone (amendment 1, m3; amendment 2,
// m4), and is asked how each applies (ruling requests #1 and #2, keyed by
// the amendment's number). A correction voids the message of amendment 1:
// the corrected history numbered the second amendment 1, its request
// "amendment/1" took #1, and Mars's "I rule on #2" answered nothing
// ("there is no open ruling request #2"). The amendment keeps its number 2
// and its request #2, and the ruling applies it.
func TestCorrectionKeepsAmendmentNumbers(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	h.Record()
	mustDone(t, h.Public("2026-12-01T10:00:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: contestants SHOULD greet each other"))
	mustDone(t, h.Public("2026-12-01T10:01:00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: contestants SHOULD be kind"))
	for _, m := range []struct{ at, text, want string }{
		{"2026-12-05T10:00:00Z", "I amend the Rumble contract: contestants SHOULD greet each other", "amendment 1 of the Rumble contract passed"},
		{"2026-12-05T10:01:00Z", "I amend the Rumble contract: contestants SHOULD be kind", "amendment 2 of the Rumble contract passed"},
	} {
		if r := h.Public(m.at, mars, m.text); !strings.Contains(norm(r.Body), m.want) {
			t.Fatalf("%s:\n%s", m.text, r.Body)
		}
	}
	if got := rulingKeys(h.S); got != "#1 amendment/1 #2 amendment/2 " {
		t.Fatalf("the ruling requests: %s", got)
	}
	if r := h.Private("2026-12-05T10:30:00Z", alice, "I CoE on rumble/amendment/1: it was not Mars who sent it."); !strings.Contains(norm(r.Body), "Claim of Error #1 recorded") {
		t.Fatalf("the claim:\n%s", r.Body)
	}
	if _, _, err := h.Correct("2026-12-05T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m3@example.test"}, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if got := rulingKeys(h.S); got != "#2 amendment/2 " {
		t.Errorf("after the correction the ruling requests are %s, want #2 on amendment 2", got)
	}
	mustDone(t, h.Private("2026-12-05T12:00:00Z", mars, "I rule on #2: SET BidLimit = 500"))
	if got := h.S.Games["rumble"].Params["BidLimit"]; got != "500" {
		t.Errorf("BidLimit = %q, want the ruling's 500", got)
	}
	if am := data2(h).Amendments; len(am) != 1 || am[0].N != 2 {
		t.Errorf("the amendments: %+v", am)
	}
}

func rulingKeys(s *contract.State) string {
	var b strings.Builder
	for _, r := range s.Rulings {
		b.WriteString("#" + itoa(r.ID) + " " + r.Key + " ")
	}
	return b.String()
}

// TestCorrectionKeepsALastAmendmentsNumber: voiding the message of the
// last amendment (2) leaves its number unused: the next amendment is 3,
// and so it stays when a second correction re-runs the history.
func TestCorrectionKeepsALastAmendmentsNumber(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	h.Record()
	for i, text := range []string{"SET BidLimit = 500", "SET BidLimit = 600", "SET BidLimit = 700"} {
		mustDone(t, h.Public("2026-12-01T10:0"+itoa(i)+":00Z", mars, "I intend, without 2 objections, to amend the Rumble contract: "+text))
	}
	mustDone(t, h.Public("2026-12-05T10:00:00Z", mars, "I amend the Rumble contract: SET BidLimit = 500"))
	mustDone(t, h.Public("2026-12-05T10:01:00Z", mars, "I amend the Rumble contract: SET BidLimit = 600")) // m5
	mustDone(t, h.Private("2026-12-05T10:30:00Z", alice, "I CoE on rumble/amendment/2: it was not Mars who sent it."))
	if _, _, err := h.Correct("2026-12-05T11:00:00Z", contract.Correction{CoE: 1, Kind: contract.FixVoid, MsgID: "m5@example.test"}, nil); err != nil {
		t.Fatalf("the correction was refused: %v", err)
	}
	if r := h.Public("2026-12-05T12:00:00Z", mars, "I amend the Rumble contract: SET BidLimit = 700"); !strings.Contains(norm(r.Body), "amendment 3 of the Rumble contract passed") {
		t.Errorf("the amendment after the correction:\n%s", r.Body)
	}
	mustDone(t, h.Private("2026-12-05T12:30:00Z", alice, "I CoE on rumble/amendment/1: it was not Mars who sent it."))
	if _, _, err := h.Correct("2026-12-05T13:00:00Z", contract.Correction{CoE: 2, Kind: contract.FixVoid, MsgID: "m4@example.test"}, nil); err != nil {
		t.Fatalf("the second correction was refused: %v", err)
	}
	var ns []int
	for _, am := range data2(h).Amendments {
		ns = append(ns, am.N)
	}
	if fmt.Sprint(ns) != "[3]" {
		t.Errorf("the amendments are %v, want 3 alone", ns)
	}
	if r := h.Public("2026-12-05T14:00:00Z", mars, "I amend the Rumble contract: SET BidLimit = 600"); !strings.Contains(norm(r.Body), "amendment 4 of the Rumble contract passed") {
		t.Errorf("the amendment after the second correction:\n%s", r.Body)
	}
}
