package contract_test

import (
	"strings"
	"testing"
)

// TestPreviewOfNothingPublic: the preview of an action that would send
// nothing to a list says nothing of what it would send, and goes from
// its results to the warning that the outcome can differ.
func TestPreviewOfNothingPublic(t *testing.T) {
	h := newToy(t)
	ns := h.Send(fromAlice(t, "2026-12-01T10:05:00Z", "preview\nI seal 7."))
	if len(ns) != 1 || !strings.HasPrefix(ns[0].ID, "preview/") {
		t.Fatalf("the preview sent %+v", ns)
	}
	body := flat(ns[0].Body)
	if strings.Contains(body, "would also send") {
		t.Errorf("the preview names something it would send:\n%s", ns[0].Body)
	}
	if want := "1 done, 0 not done. The outcome can differ"; !strings.Contains(body, want) {
		t.Errorf("the preview lacks %q:\n%s", want, ns[0].Body)
	}
}
