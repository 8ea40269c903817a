package daemon

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"referee/contests/life"
	"referee/contract"
	"referee/contract/store"
)

// TestVerifyMatchesItemsAsMarked: a correction makes Alice's message,
// which made Suggestions #1 and #2, make only the second, which keeps #2
// (matched by its text) in the corrected state and the journaled revision,
// marked "items": "text"; referee verify re-computes it so, without a
// difference. The same journal with the mark taken off is a revision a
// build that matched by place made, and verify re-computes it so: the
// suggestion #1, so that the outcomes, the receipts and the new hash differ
// from what this journal holds, and the mark alone does not.
func TestVerifyMatchesItemsAsMarked(t *testing.T) {
	d, send := claimsDaemon(t, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m3@example.test", Claimant: "Bob",
		From: "bob@example.test", MsgID: "c1@example.test", What: "Alice never meant VPP 11", Status: "open"})
	const list = "agora-business@example.test"
	send(1, "Alice <alice@example.test>", list, "I join the Life contest.")
	send(2, "Bob <bob@example.test>", list, "I join the Life contest.")
	send(3, "Alice <alice@example.test>", list, "I suggest: SET VPP = 11\n\nI suggest: SET VPP = 12")
	send(4, "contestmaster@example.test", "referee@example.test", "I correct CoE #1: message <m3@example.test> reads `I suggest: SET VPP = 12`")
	d.mu.Lock()
	var ids []int
	for _, sg := range d.s.Games["life"].Data.(*life.State).Suggestions {
		ids = append(ids, sg.ID)
	}
	d.mu.Unlock()
	if !slices.Equal(ids, []int{2}) {
		t.Fatalf("after the correction the suggestions are %v, want #2", ids)
	}
	if n, bad, err := store.VerifyRevisions(d.e, d.statePath); err != nil || n != 1 || len(bad) > 0 {
		t.Fatalf("verify: %d checked, %v, %v", n, bad, err)
	}
	jpath := store.JournalPath(d.statePath)
	journal, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	mark := []byte(`,"items":"text"`)
	if bytes.Count(journal, mark) != 1 {
		t.Fatalf("the journal has %d revisions marked %s", bytes.Count(journal, mark), mark)
	}
	if err := os.WriteFile(jpath, bytes.Replace(journal, mark, nil, 1), 0o600); err != nil {
		t.Fatal(err)
	}
	n, bad, err := store.VerifyRevisions(d.e, d.statePath)
	if err != nil || n != 1 || len(bad) != 1 {
		t.Fatalf("verify of the revision unmarked: %d checked, %v, %v; want it re-computed by place, differing", n, bad, err)
	}
	_, keys, _ := strings.Cut(bad[0], "differs from its re-computation (")
	differ := strings.Split(strings.TrimSuffix(keys, ")"), ", ")
	slices.Sort(differ)
	if want := []string{"new_hash", "outcomes", "receipts"}; !slices.Equal(differ, want) {
		t.Errorf("verify of the revision unmarked: %s; want %v to differ, re-computed by place", bad[0], want)
	}
}
