package store_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contests/rumble"
	"referee/contests/steemfield"
	"referee/contests/wackyworld"
	"referee/contract"
	"referee/contract/store"
)

// indentedTexts begin with spaces and hold a line break: the YAML encoder
// writes each as a block scalar with an indentation indicator ("|2-",
// "|4-"), which it gets wrong for an item of a list when it indents by
// more than 2 (its own default, 4): the item's lines are written 2 deeper
// than its "-", the indicator says 4, and the text is read back without
// its first spaces or not at all.
var indentedTexts = []string{
	" a\nb",
	"  a\nb",
	"  a\n  b",
	"    a\n    b",
	"      deep\n      lines\n",
	" \n",
	"  \n  b",
	"   quoted from a mail:\n   > - item\n   > # heading\n",
}

// breaking is a text that begins with a line break: in a part of the
// state that holds one, every text of the part is written through a node
// (codec_text.go).
const breaking = "\nbegins with a line break\n"

// indentedState is a state of the four games with text in every list of
// the state file a player's words or a notice can be in: the players'
// names, the outbox's and the failed notices' bodies, the intents', the
// claims' and the corrections' texts, Steemfield's proposals and notes,
// Rumble's powers and amendments, Life's suggestions and Wacky World's
// changes; and breaking in each part (a held message's text, a note of
// each game) when withBreak.
func indentedState(t *testing.T, e *contract.Engine, text string, withBreak bool) *contract.State {
	t.Helper()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s, _, err := e.NewState(make([]byte, 32), at)
	if err != nil {
		t.Fatal(err)
	}
	s.Players = append(s.Players, &contract.Player{Name: "Alice", Nicknames: []string{text}, Addresses: []string{"alice@example.test"}})
	n := contract.Notice{ID: "n1", Kind: "receipt", Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: "Re: actions", Body: text, Time: at}
	s.Outbox = append(s.Outbox, &contract.Outgoing{Notice: n})
	s.Failed = append(s.Failed, &contract.Outgoing{Notice: n, LastError: text})
	s.Intents = append(s.Intents, &contract.Intent{ID: 1, Text: text})
	s.NextIntent = 1
	s.Claims = append(s.Claims, &contract.Claim{ID: 1, Game: "life", Report: "receipt/m@example.test", Claimant: "Alice", From: "alice@example.test",
		MsgID: "c@example.test", What: text, Status: "open", Fix: &contract.Correction{CoE: 1, Kind: contract.FixReads, MsgID: "m@example.test", Text: text}})
	s.NextClaim = 1
	if withBreak {
		m := &contract.Message{ID: "held@example.test", From: "alice@example.test", Date: at, Arrived: at, Channel: contract.ChanPublic, Text: breaking}
		s.Held = map[string]*contract.Held{m.ID: {Message: m, Until: at.Add(time.Hour)}}
	}
	note := []string{text}
	if withBreak {
		note = append(note, breaking)
	}
	sf := s.Games["steemfield"].Data.(*steemfield.State)
	sf.Proposals = []*steemfield.Proposal{{Player: "Alice", Type: "ADDITION", Text: text, At: at}}
	sf.Notes = note
	ru := s.Games["rumble"].Data.(*rumble.State)
	ru.Powers = []*rumble.Power{{Name: "Shield", Text: text, By: "Alice"}}
	ru.Amendments = []*rumble.Amendment{{N: 1, Text: text, At: at}}
	ru.Last = strings.Join(note[1:], "")
	li := s.Games["life"].Data.(*life.State)
	li.Suggestions = []*life.Suggestion{{ID: 1, By: "Alice", Addr: "alice@example.test", At: at, Text: text, Status: "open"}}
	li.Suggestions[0].Consents = note
	ww := s.Games["wackyworld"].Data.(*wackyworld.State)
	ww.Changes = append(ww.Changes, &wackyworld.Change{ID: 1, Kind: "amendment", By: "Alice", At: at, Text: text, Status: "in force"})
	ww.Text = strings.Join(note[1:], "")
	return s
}

// TestIndentedTextsSaveAndLoad: a state holding texts that begin with
// spaces and hold a line break, in every list a text can be in, is saved
// (the state file, as referee check reads it) and loaded back with every
// text as it was, whether or not a part of it also holds a text that
// begins with a line break.
func TestIndentedTextsSaveAndLoad(t *testing.T) {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test", Contestmaster: "cm@example.test"},
		life.New(), rumble.New(), steemfield.New(), wackyworld.New())
	if err != nil {
		t.Fatal(err)
	}
	for _, withBreak := range []bool{false, true} {
		for _, text := range indentedTexts {
			t.Run(fmt.Sprintf("%q/break=%v", text, withBreak), func(t *testing.T) {
				s := indentedState(t, e, text, withBreak)
				path := filepath.Join(t.TempDir(), "state.yaml")
				if err := store.Save(path, s); err != nil {
					t.Fatalf("the state is not saved: %v", err)
				}
				back, err := store.Load(e, path)
				if err != nil {
					b, _ := os.ReadFile(path)
					t.Fatalf("the state saved does not load: %v\n%s", err, b)
				}
				want, got := map[string]string{}, map[string]string{}
				strs(reflect.ValueOf(s), "", want)
				strs(reflect.ValueOf(back), "", got)
				for p, w := range want {
					if got[p] != w {
						t.Errorf("%s: %q loaded as %q", p, w, got[p])
					}
				}
			})
		}
	}
}

// strs lists every string under v by its path.
func strs(v reflect.Value, path string, out map[string]string) {
	switch v.Kind() {
	case reflect.String:
		out[path] = v.String()
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			strs(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				strs(v.Field(i), path+"."+f.Name, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			strs(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			strs(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k), out)
		}
	}
}
