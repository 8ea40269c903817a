package steemfield

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/contract/contracttest"
)

// summary renders extracted actions compactly: "verb k=v ..." or "verb !".
func summary(acts []*contract.Action) []string {
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].Offset < acts[j].Offset })
	var out []string
	for _, a := range acts {
		var kv []string
		for k, v := range a.Args {
			kv = append(kv, k+"="+v)
		}
		sort.Strings(kv)
		s := strings.TrimSpace(a.Verb.Name + " " + strings.Join(kv, " "))
		if a.Reject != nil {
			s = a.Verb.Name + " !"
		}
		out = append(out, s)
	}
	return out
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"yes", "{YES}\nBecause the cap is too low.", []string{"vote vote=yes"}},
		{"no lenient", "I say { no } to this", []string{"vote vote=no"}},
		{"referral", `{REFERRED_BY:"alice"}`, []string{"referral name=alice"}},
		{"referral lenient", `{referred_by: @alice}`, []string{"referral name=alice"}},
		{"gift", `{GIFT_3_LAND_TO:"Bob"}`, []string{"gift n=3 name=Bob"}},
		{"gift lenient", `{gift_12_land_to: "Bob Smith"}`, []string{"gift n=12 name=Bob Smith"}},
		{"burn", "{BURN:2}", []string{"burn n=2"}},
		{"thousands", `{BURN: 1,000} {GIFT_2,500_LAND_TO:"Bob"} {DELEGATE: 1,000.5 SP}`, []string{"delegate n=1,000.5", "burn n=1,000", "gift n=2,500 name=Bob"}},
		{"no thousands", `{BURN: 1,00} {GIFT_0,500_LAND_TO:"Bob"} {DELEGATE: 1,5}`, []string{"burn !", "gift !", "delegate !"}},
		{"place", "{PLACE: L(3, 4)}", []string{"place x=3 y=4"}},
		{"place tight", "{place:l(10,1)}", []string{"place x=10 y=1"}},
		{"unplace", "{UNPLACE: L(3, 4)}", []string{"unplace x=3 y=4"}},
		{"stand-ins", "{ROLL}\n{UNDELEGATE}", []string{"roll", "undelegate"}},
		// The delegation sorts first, so a referral may precede it (S9).
		{"delegate first", `{REFERRED_BY:"Alice"} {DELEGATE: 0.5}`, []string{"delegate n=0.5", "referral name=Alice"}},
		{"broken place", "{PLACE: 3,4}", []string{"place !"}},
		{"broken burn", "{BURN: two}", []string{"burn !"}},
		{"broken gift", `{GIFT_X_LAND_TO:"Bob"}`, []string{"gift !"}},
		{"unclosed", "{YES\nmore", []string{"vote !"}},
		{"broken delegate", "{DELEGATE: one}", []string{"delegate !"}},
		// A power below 0 is read, and refused for its value (doDelegate).
		{"negative delegate", "{DELEGATE: -1}", []string{"delegate n=-1"}},
		{"not ours", "{foo} {nothing} {yesterday}", nil},
		{"proposal", "Discussion {YES} here.\n---\n{PROPOSAL:REPLACEMENT}\nReplacement: Gameplay, Rule 4\nThe cap on total land is 500.\n{BURN:3} stays text\n---\nMore talk.",
			[]string{"vote vote=yes", "propose ref=Gameplay, Rule 4 text=The cap on total land is 500. {BURN:3} stays text type=REPLACEMENT"}},
		{"proposal to the end", "-----\n{proposal: addition}\nAddition\nPlayers may sing.",
			[]string{"propose ref= text=Players may sing. type=ADDITION"}},
		{"proposal outside dashes", "{PROPOSAL:ADDITION}\nAddition\nPlayers may sing.", []string{"propose !"}},
		{"proposal after discussion", "I propose:\n{PROPOSAL:ADDITION}\nAddition\nPlayers may sing.", []string{"propose !"}},
		{"proposal after a blank line", "---\n\n{PROPOSAL:ADDITION}\nAddition\nPlayers may sing.\n---", []string{"propose ref= text=Players may sing. type=ADDITION"}},
		{"blank lines before the type", "---\n{PROPOSAL:REPLACEMENT}\n\n\nReplacement: Gameplay 4\nThe cap on total land is 500.\n---",
			[]string{"propose ref=Gameplay 4 text=The cap on total land is 500. type=REPLACEMENT"}},
		{"proposal bad type", "---\n{PROPOSAL:AMENDMENT}\nx\n---", []string{"propose !"}},
		{"kind mismatch", "---\n{PROPOSAL:ADDITION}\nReplacement: Gameplay 4\nx\n---",
			[]string{"propose kind_mismatch=REPLACEMENT ref=Gameplay 4 text=x type=ADDITION"}},
	}
	g := New()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := summary(g.Extract(nil, &contract.Message{Text: tt.text}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Extract(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{"{YES}", "---\n{PROPOSAL:ADDITION}\nAddition\nx\n---", `{GIFT_3_LAND_TO:"a"}`, "{PLACE: L(1, 1)}", "{", "---\n{proposal", "{DELEGATE: 1.5}"} {
		f.Add(s)
	}
	g := New()
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range g.Extract(nil, &contract.Message{Text: s}) {
			if a.Verb == nil {
				t.Fatalf("action without a verb from %q", s)
			}
			if a.Offset >= len(s) || a.Offset < -1 {
				t.Fatalf("offset %d out of range for %q", a.Offset, s)
			}
		}
	})
}

func TestParsePower(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{{"1", 1000, true}, {"0.5", 500, true}, {"2.25", 2250, true}, {"0.0001", 0, true}, {"x", 0, false},
		// The referee's own cap: a million SP is read, one more is not.
		{"1000000", 1_000_000_000, true}, {"1000001", 0, false},
		// Commas between thousands (ruling S1's SP as Steem writes it).
		{"1,000", 1_000_000, true}, {"1,000.5", 1_000_500, true}, {"1,000,000", 1_000_000_000, true}, {"1,5", 0, false}, {"1,00.5", 0, false}}
	for _, tt := range tests {
		got, ok := parsePower(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parsePower(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestWeight(t *testing.T) {
	tests := []struct {
		power int64
		want  string
	}{{1000, "1.000"}, {1001, "1.000"}, {1500, "1.000"}, {2500, "1.000"}, {500, "0.250"}, {800, "0.640"}, {1, "0.000"}, {999, "0.998"}}
	for _, tt := range tests {
		if got := micro(weight(tt.power)); got != tt.want {
			t.Errorf("weight(%s) = %s, want %s", milli(tt.power), got, tt.want)
		}
	}
}

func TestRuleSet(t *testing.T) {
	rules := initialRules()
	count := map[string]int{}
	var na []string
	for i, r := range rules {
		count[r.Section]++
		if r.NA {
			na = append(na, fmt.Sprintf("%s %d", r.Section, number(rules, i)))
		}
	}
	want := map[string]int{"Meta": 10, "Participation": 3, "Voting and Proposals": 9, "Totem Behavior": 4, "Gameplay": 15, "Rewards Allocation": 2}
	if diff := cmp.Diff(want, count); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	// S12: the Steem-only rules are marked.
	if diff := cmp.Diff([]string{"Totem Behavior 2", "Rewards Allocation 1", "Rewards Allocation 2"}, na); diff != "" {
		t.Errorf("not applicable (-want +got):\n%s", diff)
	}
	// S3: duplicates kept (Participation 2 and 3 start alike).
	if !strings.HasPrefix(rules[find(rules, "Participation", 3)].Text, rules[find(rules, "Participation", 2)].Text) {
		t.Errorf("Participation 3 should repeat Participation 2")
	}
	if got := rules[find(rules, "Gameplay", 5)].Text; got != "Any player to get 51 LAND wins the game." {
		t.Errorf("Gameplay 5 = %q", got)
	}
}

func TestParseRef(t *testing.T) {
	rules := initialRules()
	tests := []struct {
		in  string
		sec string
		n   int
		ok  bool
	}{
		{"Gameplay, Rule 4", "Gameplay", 4, true},
		{"Gameplay 4", "Gameplay", 4, true},
		{"Rule #5 of Gameplay", "Gameplay", 5, true},
		{"Voting and Proposals 7", "Voting and Proposals", 7, true},
		{`"The cap on total LAND is 100."`, "Gameplay", 4, true},
		{`“The cap on total LAND is 100.” (not "")`, "Gameplay", 4, true},
		{"Gameplay", "Gameplay", 0, true},
		{"the fourth one", "", 0, false},
	}
	for _, tt := range tests {
		sec, n, ok := parseRef(rules, tt.in)
		if sec != tt.sec || n != tt.n || ok != tt.ok {
			t.Errorf("parseRef(%q) = %q %d %v, want %q %d %v", tt.in, sec, n, ok, tt.sec, tt.n, tt.ok)
		}
	}
}

func TestReadChange(t *testing.T) {
	tests := []struct{ in, param, value string }{
		{"The cap on total land is 500.", PLandCap, "500"},
		{"Any player to get 40 LAND wins the game.", PWin, "40"},
		{"The proposal period is 48 hours.", PProposalPeriod, "48h"},
		{"The voting period for a proposal is 12 hours.", PVotingPeriod, "12h"},
		{"SET GridSize = 12", "GridSize", "12"},
		{"Each round is a minimum of 4 days.", PRoundMinimum, "96h"},
		{"Players may sing.", "", ""},
		// Commas between thousands: the whole number, never the digits
		// before the comma; one that is no whole number is kept as
		// written, for the parameter to refuse.
		{"The cap on total LAND is 1,000.", PLandCap, "1000"},
		{"There will be a total of 2,500 LAND.", PLandCap, "2500"},
		{"Any player to get 1,001 LAND wins the game.", PWin, "1001"},
		{"The voting period is 1,000 hours.", PVotingPeriod, "1000h"},
		{"The cap on total land is 500, as before.", PLandCap, "500"},
		{"The cap on total land is 1,5.", PLandCap, "1,5"},
	}
	for _, tt := range tests {
		p, v, _ := readChange(tt.in)
		if p != tt.param || v != tt.value {
			t.Errorf("readChange(%q) = %q %q, want %q %q", tt.in, p, v, tt.param, tt.value)
		}
	}
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"Gameplay, Rule 4", "Rule #5 of Gameplay", `"The cap on total LAND is 100."`, "voting 99", "“x”"} {
		f.Add(s)
	}
	rules := initialRules()
	f.Fuzz(func(t *testing.T, s string) {
		sec, n, ok := parseRef(rules, s)
		if ok && sec == "" {
			t.Fatalf("parseRef(%q) ok without a section", s)
		}
		if n < 0 {
			t.Fatalf("parseRef(%q) = negative number %d", s, n)
		}
		readChange(s)
	})
}

// TestReport: the on-demand report shows the phase, the standing, recent
// events and the rule set.
func TestReport(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	n, err := h.E.Report(h.S, ID, contracttest.At(t, "2026-12-01T12:00:00Z"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Round 1: the proposal period runs until 2026-12-02 10:02 UTC.", "Alice (A)", "Recent events", "Gameplay 5. Any player to get 51 LAND wins the game."} {
		if !strings.Contains(n.Body, w) {
			t.Errorf("report lacks %q:\n%s", w, n.Body)
		}
	}
}

// TestProposalSyntaxReads: the refusals of a malformed proposal read as
// sentences: "a proposal is written as a block between ...", and a
// {PROPOSAL} tag after another tag on its line names the dashes once.
func TestProposalSyntaxReads(t *testing.T) {
	h := newHarness(t)
	joinAll(t, h, 3)
	mustContain(t, reply(t, h, "2026-12-01T11:00:00Z", players[0], "{PROPOSAL:REMOVAL}\nfoo", r1),
		"Not done: a proposal is written as a block between lines of three or more dashes: {PROPOSAL:ADDITION|SUBTRACTION|REPLACEMENT}")
	r := reply(t, h, "2026-12-01T11:01:00Z", players[0], "---\n{PLACE: L(3,4)} {PROPOSAL:ADDITION}\nPlayers may sing.\n---", r1)
	mustContain(t, r, "a proposal's tag is the first tag of its line, in a block between lines of three or more dashes: {PROPOSAL:")
	if n := strings.Count(strings.Join(strings.Fields(r.Body), " "), "between lines of three or more dashes"); n != 1 {
		t.Errorf("the refusal names the dashes %d times:\n%s", n, r.Body)
	}
}
