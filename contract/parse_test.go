package contract_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
)

func TestSentences(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"I join the Life contest. I claim cell (12, 34) in Life.", []string{"I join the Life contest.", "I claim cell (12, 34) in Life."}},
		{"I join Life\nI claim cell (1,2)\n", []string{"I join Life", "I claim cell (1,2)"}},
		{"I transfer a Vial of Primordial Ooze to the Life contest\nto take control of Cell (12, 34).", []string{"I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (12, 34)."}},
		{"Hi all,\n\nI bid 30 on Flight; I bid 10 on Fire.\nThanks", []string{"Hi all,", "I bid 30 on Flight;", "I bid 10 on Fire.", "Thanks"}},
		{"I transfer 1.5 Vials to Bob.", []string{"I transfer 1.5 Vials to Bob."}},
		{"", nil},
	}
	for _, c := range cases {
		var got []string
		for _, s := range contract.Sentences(c.in) {
			got = append(got, s.Text)
		}
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("Sentences(%q) (-want +got):\n%s", c.in, d)
		}
	}
}

func TestSentenceOffsets(t *testing.T) {
	text := "Hello.\n\n  I join Life. I claim cell (1, 2) in Life."
	for _, s := range contract.Sentences(text) {
		if !strings.HasPrefix(text[s.Offset:], s.Text[:4]) {
			t.Errorf("offset %d of %q points at %q", s.Offset, s.Text, text[s.Offset:])
		}
	}
}

func TestReadPerformative(t *testing.T) {
	cases := []struct {
		in   string
		want contract.Performative
		ok   bool
	}{
		{"I join the Life contest.", contract.Performative{Kind: "act", Action: "join the Life contest"}, true},
		{"I hereby transfer 3 Vials to Goethe!", contract.Performative{Kind: "act", Action: "transfer 3 Vials to Goethe"}, true},
		{"i Bid 30 on Flight", contract.Performative{Kind: "act", Action: "Bid 30 on Flight"}, true},
		{"We hereby join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble", We: true}, true},
		{"I will join the Life contest.", contract.Performative{Kind: "not", Action: "will join the Life contest"}, true},
		{"I'll join Life.", contract.Performative{}, false},
		{"I think I join Life.", contract.Performative{Kind: "not", Action: "think I join Life"}, true},
		{"Should I join Life?", contract.Performative{}, false},
		{"Can I join Life? I join Life?", contract.Performative{Kind: "not", Action: "Can I join Life? I join Life?"}, false},
		{"The weather is nice.", contract.Performative{}, false},
		{"If I own more than 5 Vials, I transfer 2 Vials to Alice.", contract.Performative{Kind: "act", Action: "transfer 2 Vials to Alice", Cond: "I own more than 5 Vials"}, true},
		{"I intend, without objection, to end the current game of Rumble.", contract.Performative{Kind: "intent", Action: "end the current game of Rumble", Method: "objection", N: 1}, true},
		{"I intend, without two objections, to amend the Rumble contract.", contract.Performative{Kind: "intent", Action: "amend the Rumble contract", Method: "objection", N: 2}, true},
		{"I intend with 2 support to do X.", contract.Performative{Kind: "intent", Action: "do X", Method: "support", N: 2}, true},
		{"I intend, with Agoran consent, to do X.", contract.Performative{Kind: "intent", Action: "do X", Method: "consent"}, true},
		{"I intend to do X.", contract.Performative{Kind: "not", Action: "intend to do X"}, true},
		{"Having received no objections, I end the current game of Rumble.", contract.Performative{Kind: "act", Action: "end the current game of Rumble", Resolves: true}, true},
		// The word I or we, wherever a form allows it, and nowhere else.
		{"So,we join Rumble;", contract.Performative{Kind: "act", Action: "join Rumble", We: true}, true},
		{"If it rains,I transfer 1 Vial to Bob.", contract.Performative{Kind: "act", Action: "transfer 1 Vial to Bob", Cond: "it rains"}, true},
		// A time phrase before "I" puts the action off: it is read, for
		// the receipt to say that it is not performed now (G3,
		// TestActionPutOffIsNotPerformed); "Today" and "Now" do not.
		{"Tomorrow: i claim cell (1, 2) in Life . .", contract.Performative{Kind: "act", Action: "claim cell (1, 2) in Life", Later: "Tomorrow"}, true},
		{"Next week I join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble", Later: "Next week"}, true},
		{"On  Friday,we join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble", Later: "On  Friday", We: true}, true},
		{"Tomorrow, if I own 3 Vials, I join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble", Cond: "I own 3 Vials", Later: "Tomorrow"}, true},
		{"Tomorrow I will join Rumble.", contract.Performative{Kind: "not", Action: "will join Rumble"}, true},
		{"Today, I join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble"}, true},
		{"Now I join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble"}, true},
		{"Tomorrow - I join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble", Later: "Tomorrow"}, true},
		{"So, tonight, we join Rumble.", contract.Performative{Kind: "act", Action: "join Rumble", Later: "tonight", We: true}, true},
		{"a) I join the Life contest.  ;:!", contract.Performative{Kind: "act", Action: "join the Life contest"}, true},
		{"Wii join Rumble.", contract.Performative{}, false},
		{"Hi_I join Rumble.", contract.Performative{}, false},
		{"I9 join Rumble.", contract.Performative{}, false},
	}
	for _, c := range cases {
		got, ok := contract.ReadPerformative(c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("ReadPerformative(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func FuzzSentences(f *testing.F) {
	for _, s := range []string{"I join the Life contest. I claim cell (12, 34) in Life.", "If I own 3 Vials, I transfer 1 Vial to Bob.",
		"I intend, without objection, to end the current game of Rumble.", "Hello\n\n\nI bid 30 on Flight;I bid 2", "I, Alice, hereby join."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range contract.Sentences(text) {
			if s.Offset < 0 || s.Offset > len(text) {
				t.Fatalf("offset %d out of range", s.Offset)
			}
			if strings.TrimSpace(s.Text) != s.Text || s.Text == "" {
				t.Fatalf("sentence %q not trimmed", s.Text)
			}
			contract.ReadPerformative(s.Text)
		}
	})
}

// FuzzApply feeds arbitrary text to the toy game: it may be rejected, never crash.
func FuzzApply(f *testing.F) {
	for _, s := range []string{"I join the Toy game.", "I transfer 3 coins to Bob.", "If I own 2 coins, I poke Bob.", "I support intent #1.", "I do so (#7).", "help toy",
		"I CoE on toy/report/2026-W49: wrong.", "CoE: my coins.", "I deny CoE #1: no.", "I CoE on x", "preview\nI join the Toy game.",
		"Tomorrow, I poke Bob.", "On 2026-12-01, I transfer 1 coin to Bob.", "On Dec 32 I poke Bob.",
		"I support intents #1 and 2 and object to #1.", "I object to Alice's intents."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		h := newToy(t)
		h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
		h.Public("2026-12-01T10:06:00Z", bob, text)
	})
}

// FuzzDecode feeds arbitrary bytes to the state decoder: a bad state is an
// error, never a panic, and a state that decodes encodes and decodes again.
func FuzzDecode(f *testing.F) {
	seed, err := contract.Encode(newToy(f).S)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("version: 1\ngames: {toy: {state: {rounds: x}}}\n"))
	f.Add([]byte("version: 1\nplayers: [{name: a, addresses: [a@b]}]\ngames: {}\n"))
	f.Add([]byte("version: 1\nseen:\n  ids:\n    a@b: 2026-12-01T10:00:00Z\n    \"\\n\": 2026-12-01T10:00:00Z\n    ? !!binary gA==\n    : 2026-12-01T10:00:00Z\ngames: {}\n"))
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := e.Decode(data)
		if err != nil {
			return
		}
		b, err := contract.Encode(s)
		if err != nil {
			t.Fatalf("a decoded state does not encode: %v", err)
		}
		back, err := e.Decode(b)
		if err != nil {
			t.Fatalf("an encoded state does not decode: %v\n%s", err, b)
		}
		if !sameSeen(back.Seen.IDs, s.Seen.IDs) {
			t.Fatalf("seen.ids %q read back as %q", s.Seen.IDs, back.Seen.IDs)
		}
	})
}

// TestSentencesOfRunsOfStops: a text of one word and a run of one stop is
// one sentence, whichever the stop (the room made for the sentences
// counts every stop).
func TestSentencesOfRunsOfStops(t *testing.T) {
	for _, text := range []string{"Wow!!!!", "Why????", "So;;;;", "End...."} {
		if got := contract.Sentences(text); len(got) != 1 || got[0].Text != text || got[0].Offset != 0 {
			t.Errorf("Sentences(%q) = %v, want the text as one sentence", text, got)
		}
	}
}
