package contract_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

// readAs is what a receipt or a preview says of each action: its quoted
// lines, its "Done" and "Not done" lines and the count.
func readAs(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, ">") || strings.HasPrefix(t, "Done") || strings.HasPrefix(t, "Not done") || strings.Contains(t, " done, ") {
			out = append(out, t)
		}
	}
	return out
}

// TestPreviewQuotesAsTheReceipt: a preview reads the message without its
// "preview" line exactly as a receipt reads the same text sent without
// it, also where the first sentence starts on the line after "preview".
func TestPreviewQuotesAsTheReceipt(t *testing.T) {
	for _, c := range []struct{ first, rest string }{
		{"preview", "I seal 7."},
		{"preview", "As agreed, I seal 7."},
		{"Preview:", "As agreed, I seal 7.\nI seal 8."},
		{"  PREVIEW.", "then, I seal 7."},
		{"preview!", "Hello.\n\nI seal 7. I seal 8."},
	} {
		h := newToy(t)
		p := h.Send(fromAlice(t, "2026-12-01T10:05:00Z", c.first+"\n"+c.rest))
		r := contracttest.Receipt(h.Send(fromAlice(t, "2026-12-01T10:06:00Z", c.rest)))
		if len(p) != 1 || !strings.HasPrefix(p[0].ID, "preview/") || r == nil {
			t.Fatalf("%q: preview %+v, receipt %+v", c.first+"\n"+c.rest, p, r)
		}
		if d := cmp.Diff(readAs(r.Body), readAs(p[0].Body)); d != "" {
			t.Errorf("%q: the preview reads it otherwise than the receipt (-receipt +preview):\n%s", c.first+"\n"+c.rest, d)
		}
	}
}

// TestPreviewNamesWhatItWouldPublish: a preview of a contestmaster's
// denial of a claim says it would publish the denial to the official list,
// and publishes nothing.
func TestPreviewNamesWhatItWouldPublish(t *testing.T) {
	h := newToy(t)
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	h.Advance("2026-12-07T00:00:00Z")
	h.Public("2026-12-07T10:00:00Z", alice, "I CoE on toy/report/2026-W50: my coins.")
	ns := h.Send(&contract.Message{From: contracttest.Contestmaster, Arrived: contracttest.At(t, "2026-12-07T11:00:00Z"),
		Subject: "preview", Channel: contract.ChanPrivate, Authenticated: true, Text: "I deny CoE #1: they are right."})
	if len(ns) != 1 || !strings.HasPrefix(ns[0].ID, "preview/") {
		t.Fatalf("the preview sent %+v", ns)
	}
	if b := flat(ns[0].Body); !strings.Contains(b, "It would also send") || !strings.Contains(b, "to the official list") {
		t.Errorf("the preview does not say what it would publish:\n%s", ns[0].Body)
	}
}
