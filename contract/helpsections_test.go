package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// TestHelpSections: the HELP reply lists a ruling's answer (G8) with the
// other forms only contestmasters send, under "For contestmasters", and
// not among the forms of every player.
func TestHelpSections(t *testing.T) {
	h := newToy(t)
	ns := h.Send(&contract.Message{From: "alice@example.test", Arrived: contracttest.At(t, "2026-12-01T11:00:00Z"), Channel: contract.ChanPrivate, Text: "help"})
	if len(ns) != 1 {
		t.Fatalf("help: %+v", ns)
	}
	body := ns[0].Body
	_, after, ok := strings.Cut(body, "\nFor every game\n")
	every, masters, ok2 := strings.Cut(after, "\nFor contestmasters\n")
	if !ok || !ok2 {
		t.Fatalf("the help lacks its sections for every game and for contestmasters:\n%s", body)
	}
	const rule = "I rule on #N: <answer> (contestmasters, privately)"
	if strings.Contains(every, "I rule on") {
		t.Errorf("the forms for every game list the ruling's answer:\n%s", every)
	}
	for _, want := range []string{rule, "I deny CoE #N", "I correct CoE #N"} {
		if !strings.Contains(masters, "\n  "+want) {
			t.Errorf("the forms for contestmasters lack %q:\n%s", want, masters)
		}
	}
	for _, want := range []string{"I change my name to <name>", "I transfer N <currency> to <player>", "I support intent #N", "I do so", "preview (as the Subject"} {
		if !strings.Contains(every, "\n  "+want) {
			t.Errorf("the forms for every game lack %q:\n%s", want, every)
		}
	}
}
