package life

import (
	"fmt"
	"strings"
	"testing"
)

func sentBody(h *harness, subject string) string {
	for i := len(h.Sent) - 1; i >= 0; i-- {
		if h.Sent[i].Subject == subject {
			return h.Sent[i].Body
		}
	}
	return ""
}

// Ruling L9, G9: suggestions are numbered; an adopted SELECT switches the
// variant and the Change of Regulations notice shows the old and new text
// and each member's consent.
func TestL9ChangeOfRegulationsNotice(t *testing.T) {
	h := join3(t)
	h.Public("2026-11-10T11:00:00Z", bob, "I suggest the following change to the Life regulations:\nSELECT R21 original\n")
	h.Public("2026-11-10T11:01:00Z", bob, "I suggest: SET VCFmax = 9")
	if s := st(h).Suggestions; len(s) != 2 || s[0].ID != 1 || s[1].ID != 2 {
		t.Fatalf("suggestions %+v", s)
	}
	h.Public("2026-11-10T12:00:00Z", alice, "I consent to Suggestion #1 in Life.")
	h.Public("2026-11-10T12:00:00Z", carol, "I vote consent on suggestion 1 in Life.")
	if sentBody(h, "Life Contest - Change of Regulations") != "" {
		t.Fatal("adopted before the contestmaster consented")
	}
	done(t, h.Public("2026-11-10T12:05:00Z", cm, "I consent to Suggestion #1 in Life."), "is adopted")
	body := sentBody(h, "Life Contest - Change of Regulations")
	for _, want := range []string{"Suggestion #1, by Bob", "### Regulation 21, old text", "### Regulation 21, new text",
		"evenly transfer all of the Vials", "to the one entity, excluding the contest,", "Contestmaster : consent",
		"Alice : consent", "Bob :\n", "Carol : consent"} {
		if !strings.Contains(body, want) {
			t.Errorf("the notice lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "Regulation 23") {
		t.Errorf("SELECT R21 original changed regulation 23:\n%s", body)
	}
	if p := h.S.Games[ID].Params; p["R21"] != Original || p["R23"] != Amended {
		t.Errorf("R21 %s, R23 %s; want original, amended", p["R21"], p["R23"])
	}
	for _, l := range strings.Split(body, "\n") {
		if len(l) > 72 {
			t.Errorf("line longer than 72 columns: %q", l)
		}
	}
}

// G9, G8: an adopted suggestion without a machine-readable change asks the
// contestmaster how it applies; eir private ruling is applied.
func TestG9FreeTextNeedsRuling(t *testing.T) {
	h := join3(t)
	h.Public("2026-11-10T11:00:00Z", alice, "I suggest: let every contestant start with a dozen Vials.")
	for _, p := range []string{alice, bob, cm} {
		h.Public("2026-11-10T12:00:00Z", p, "I consent to Suggestion #1 in Life.")
	}
	if s := st(h).Suggestions[0]; !strings.Contains(s.Status, "needs the contestmaster's ruling") {
		t.Fatalf("status %q", s.Status)
	}
	body := flat(sentBody(h, "Life Contest - Change of Regulations"))
	if !strings.Contains(body, "The suggestion carries no machine-readable change: its text is recorded, and the contestmaster has been asked how it applies (G9).") || strings.Contains(body, "Parameters (G9)") {
		t.Errorf("the Change of Regulations notice of a free-text suggestion:\n%s", body)
	}
	var asked bool
	for _, o := range h.Sent {
		asked = asked || (o.Kind == "ruling" && o.To[0] == "cm@example.test")
	}
	if !asked {
		t.Fatal("the contestmaster was not asked")
	}
	done(t, h.Private("2026-11-11T09:00:00Z", cm, "I rule on #1: SET VPP = 12"), "Done")
	if got := h.S.Games[ID].Params["VPP"]; got != "12" {
		t.Errorf("VPP = %s after the ruling, want 12", got)
	}
	if s := st(h).Suggestions[0]; s.Status != "adopted, ruled" {
		t.Errorf("status %q", s.Status)
	}
	// A second, ruled to change nothing.
	h.Public("2026-11-11T10:00:00Z", bob, "I suggest: let the grid be painted green.")
	for _, p := range []string{alice, bob, cm} {
		h.Public("2026-11-11T11:00:00Z", p, "I consent to Suggestion #2 in Life.")
	}
	done(t, h.Private("2026-11-11T12:00:00Z", cm, "I rule on #2: none"), "Done")
	report := flat(noticeBody(h.Advance("2026-11-16T00:00:00Z"), "[Life] Weekly Report"))
	for _, want := range []string{"the contestmaster rules how Suggestion #1 applies: VPP = 12", "the contestmaster rules how Suggestion #2 applies: no change"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report's recent events lack %q:\n%s", want, report)
		}
	}
}

// G9: a broken machine-readable change is refused when suggested.
func TestG9BadChangeRefused(t *testing.T) {
	h := join3(t)
	before := snapshot(t, h)
	notDone(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET Colour = blue"), "G9")
	notDone(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SELECT purple"), "ruling L5")
	notDone(t, h.Public("2026-11-10T11:00:00Z", alice, "I suggest: SET VPP = lots"), "Life R6")
	if after := snapshot(t, h); after != before {
		t.Errorf("state changed")
	}
}

// A preface before "I suggest" ("UPDATE:", a name and a colon) is not part
// of the suggestion: its SET line is read and checked as without one (G9).
func TestSuggestionAfterAPreface(t *testing.T) {
	for _, msg := range []string{
		"UPDATE: I suggest: SET VPP = 12",
		"Alice: I suggest SET VPP = 12",
		"Re my last mail: I make the following suggestion:\nSET VPP = 12",
	} {
		h := join3(t)
		done(t, h.Public("2026-11-10T11:00:00Z", alice, msg), "Suggestion #1 recorded (regulation 6)")
		for _, p := range []string{alice, bob, cm} {
			h.Public("2026-11-10T12:00:00Z", p, "I consent to Suggestion #1 in Life.")
		}
		if got := h.S.Games[ID].Params["VPP"]; got != "12" {
			t.Errorf("%q adopted: VPP = %s, want 12", msg, got)
		}
	}
	h := join3(t)
	before := snapshot(t, h)
	notDone(t, h.Public("2026-11-10T11:00:00Z", alice, "UPDATE: I suggest: SET VPP = lots"), "Life R6")
	if after := snapshot(t, h); after != before {
		t.Errorf("state changed")
	}
}

func TestSuggestionText(t *testing.T) {
	tests := []struct{ msg, want string }{
		{"I suggest: SET VPP = 12", "SET VPP = 12"},
		{"I suggest SET VPP = 12.", "SET VPP = 12."},
		{"Hi.\nI suggest the following change to the Life regulations:\nAmend R6.\n\nSET VPP = 12\nI consent to Suggestion #1.", "Amend R6.\n\nSET VPP = 12"},
		{"I suggest:\nline one\nEND\nmore", "line one"},
	}
	for _, tc := range tests {
		off := strings.Index(tc.msg, "I suggest")
		if got := suggestionText(tc.msg, off); got != tc.want {
			t.Errorf("suggestionText(%q) = %q, want %q", tc.msg, got, tc.want)
		}
	}
}

// Life R4: the regulations a suggestion changes come from its parameters and
// the regulations its text names.
func TestRegulationsOf(t *testing.T) {
	got := fmt.Sprint(regulationsOf("Amend regulations 21 and 23, and R4.", []Change{{Param: "VPP"}}))
	if want := "[4 6 21 23]"; got != want {
		t.Errorf("regulationsOf = %s, want %s", got, want)
	}
}

// Ruling L5: a regulation is named in SELECT however a player writes it.
func TestSelectRegulationForms(t *testing.T) {
	for _, form := range []string{"SELECT R21 original", "SELECT r 21 original", "SELECT Regulation 21 original", "SELECT regulation21 original", "SELECT original version of R 21"} {
		cs, err := parseChanges(&Game{}, form)
		if err != nil || len(cs) != 1 || cs[0].Param != "R21" || cs[0].Value != Original {
			t.Errorf("%q: %+v, %v; want R21 = original", form, cs, err)
		}
	}
	if cs, err := parseChanges(&Game{}, "SELECT amended"); err != nil || len(cs) != 2 {
		t.Errorf("SELECT amended: %+v, %v; want both regulations", cs, err)
	}
}
