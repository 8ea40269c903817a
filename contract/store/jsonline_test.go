package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"referee/contract"
)

// awkwardStrings are strings encoding/json escapes, or takes as they are,
// in every way it has.
var awkwardStrings = []string{
	"", "plain", "I claim cells (1, 2) and (3, 4).", `"quoted" and \backslash\`, "<b>&amp;</b>", "a > b && c < d",
	"line\nbreak\r\ntab\tfeed\fback\b", "\x00\x01\x1f\x7f", "ünïcödé ✓ 日本", "not\x80utf-8", "\xff\xfe", "cut \xe2\x82",
	"\u2028sep\u2029", "\ufffd", "emoji 🎲", "bom\ufeff", "slash /", strings.Repeat("long text ", 40),
}

// randomTime is the zero time, a time in UTC or in another zone, or one
// time.Time's MarshalJSON refuses (its year past 9999 or before 0).
func randomTime(r *rand.Rand) time.Time {
	t := time.Unix(r.Int64N(4e9), r.Int64N(1e9))
	if r.IntN(3) == 0 {
		t = t.Truncate(time.Second)
	}
	switch r.IntN(12) {
	case 0:
		return time.Time{}
	case 1:
		return t.In(time.FixedZone("", (r.IntN(48)-24)*1800))
	case 2:
		return time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	case 3:
		return time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return t.UTC()
}

// randomDetail is a value of the kinds a journal entry's detail holds, and
// of kinds it does not (floats, structs, a value with its own MarshalJSON,
// one encoding/json refuses).
func randomDetail(r *rand.Rand, depth int) any {
	pick := func() string { return awkwardStrings[r.IntN(len(awkwardStrings))] }
	n := r.IntN(14)
	if depth > 2 {
		n %= 5
	}
	switch n {
	case 0:
		return nil
	case 1:
		return pick()
	case 2:
		return r.IntN(2) == 0
	case 3:
		return r.IntN(2000) - 1000
	case 4:
		return r.Int64() - r.Int64()
	case 5:
		if r.IntN(4) == 0 {
			return []string(nil)
		}
		ss := []string{}
		for range r.IntN(4) {
			ss = append(ss, pick())
		}
		return ss
	case 6:
		if r.IntN(4) == 0 {
			return []any(nil)
		}
		var vs []any
		for range r.IntN(4) {
			vs = append(vs, randomDetail(r, depth+1))
		}
		return append([]any{}, vs...)
	case 7, 8:
		if r.IntN(6) == 0 {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for range r.IntN(5) {
			m[pick()] = randomDetail(r, depth+1)
		}
		return m
	case 9:
		return r.Float64() * 1e6
	case 10:
		return []contract.Draw{{Label: pick(), N: r.IntN(10), Value: r.IntN(10)}}
	case 11:
		return &contract.Correction{CoE: r.IntN(9), Kind: contract.FixVoid, MsgID: pick()}
	case 12:
		return contract.NoticeChange{}
	default:
		if r.IntN(3) == 0 {
			return math.Inf(1) // encoding/json refuses it
		}
		return []map[string]any{{"id": pick(), "through": r.IntN(100)}}
	}
}

// fillRandom sets every exported field of v, deep, to a random value (or
// leaves it zero), so that a field added to an input, a message or an
// entry is written by the tests too.
func fillRandom(r *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(randomTime(r)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(awkwardStrings[r.IntN(len(awkwardStrings))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(r.Int64N(1<<20) - 1<<10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64N(1 << 20))
	case reflect.Slice:
		if r.IntN(3) == 0 {
			return // nil
		}
		n := r.IntN(3)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fillRandom(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Pointer:
		if depth > 3 || r.IntN(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillRandom(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() && r.IntN(4) != 0 {
				fillRandom(r, v.Field(i), depth+1)
			}
		}
	case reflect.Map:
		if r.IntN(4) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(5) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillRandom(r, k, depth+1)
			fillRandom(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		if d := randomDetail(r, depth); d != nil {
			v.Set(reflect.ValueOf(d))
		}
	}
}

// TestJournalLinesAreEncodingJSONs: the journal lines written directly
// are json.Encoder's, byte for byte, for random inputs and entries with
// every field set or not, of awkward strings, times in any zone, and
// details of every kind; a line json.Encoder refuses is left to it, and
// no other.
func TestJournalLinesAreEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 14))
	check := func(kind string, v any, got []byte, ok bool) {
		t.Helper()
		var want bytes.Buffer
		err := json.NewEncoder(&want).Encode(v)
		switch {
		case err != nil && ok:
			t.Fatalf("%s written as\n%s\nwhich encoding/json refuses: %v", kind, got, err)
		case err == nil && !ok:
			t.Fatalf("%s left to encoding/json, which writes it:\n%s", kind, want.Bytes())
		case err == nil && !bytes.Equal(got, want.Bytes()):
			t.Fatalf("%s written as\n%s\nencoding/json writes\n%s", kind, got, want.Bytes())
		}
	}
	refused := 0
	for range 3000 {
		var in contract.Input
		fillRandom(r, reflect.ValueOf(&in).Elem(), 0)
		if r.IntN(3) > 0 {
			in.Kind, in.IMAP, in.Adjust, in.Fix = contract.InMessage, nil, nil, nil
		}
		rec := inputRecord{In: r.Int64N(1e6), Base: r.Int64N(1e6), Entries: r.IntN(9), More: r.IntN(2) == 0, Input: &in}
		if r.IntN(50) == 0 {
			rec.Input = nil
		}
		got, ok := appendInputLine([]byte("kept"), rec)
		if !bytes.HasPrefix(got, []byte("kept")) {
			t.Fatalf("what the buffer held was lost: %q", got)
		}
		check("input", rec, got[len("kept"):], ok)

		var en contract.Entry
		fillRandom(r, reflect.ValueOf(&en).Elem(), 0)
		er := record{en, r.Int64N(1e6)}
		got, ok = appendEntryLine(nil, er)
		check("entry", er, got, ok)
		if !ok {
			refused++
		}
	}
	if refused == 0 {
		t.Error("no random entry was one encoding/json refuses: the test does not reach that case")
	}
}

// TestJournalSaveIsEncodingJSONs: a save's lines, written directly, are
// the lines json.Encoder writes of its inputs and entries, in order.
func TestJournalSaveIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 71))
	at := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	var steps []Step
	seq := int64(40)
	for i := range 30 {
		st := Step{}
		if i%7 != 3 {
			st.Input = &contract.Input{Kind: contract.InMessage, At: at, Msg: &contract.Message{ID: awkwardStrings[i%len(awkwardStrings)], Text: awkwardStrings[(i*5)%len(awkwardStrings)], Arrived: at}}
		}
		for range r.IntN(3) {
			seq++
			st.Entries = append(st.Entries, contract.Entry{Seq: seq, Time: at, Verb: "claim", Outcome: "applied", Detail: map[string]any{"line": awkwardStrings[r.IntN(len(awkwardStrings))], "changes": []string{"a", "<b>"}}})
		}
		steps = append(steps, st)
		at = at.Add(time.Minute)
	}
	s := &contract.State{JournalSeq: seq, JournalInputs: 7}
	var got bytes.Buffer
	w := &chunkWriter{f: &got}
	if _, err := encodeSave(w, s, steps); err != nil {
		t.Fatal(err)
	}
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	base, n, left := int64(40), s.JournalInputs, 0
	for _, st := range steps {
		if st.Input != nil {
			left++
		}
	}
	for _, st := range steps {
		if st.Input != nil {
			n++
			left--
			enc.Encode(inputRecord{In: n, Base: base, Entries: len(st.Entries), More: left > 0, Input: st.Input})
		}
		for _, e := range st.Entries {
			enc.Encode(record{e, base})
		}
	}
	if got.String() != want.String() {
		t.Errorf("the save written as\n%s\nencoding/json writes\n%s", got.String(), want.String())
	}
}

// FuzzJournalString: a string is written as encoding/json writes it.
func FuzzJournalString(f *testing.F) {
	for _, s := range awkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q written as %s, encoding/json writes %s", s, got, want)
		}
	})
}

// BenchmarkJournalLine times one message's input line and one entry's,
// as a replay's save writes them, written directly (direct) and by
// encoding/json (encoding-json), for the ratio of the two.
//
//	go test ./contract/store -run '^$' -bench '^BenchmarkJournalLine$' -count 3
func BenchmarkJournalLine(b *testing.B) {
	at := time.Date(2026, 11, 2, 8, 16, 31, 0, time.UTC)
	in := inputRecord{In: 5, Base: 1, Entries: 1, More: true, Input: &contract.Input{Kind: contract.InMessage, At: at, Msg: &contract.Message{
		ID: "5.8595d61b@agora.example.org", From: "grace006@agora.example.org", Name: "Grace006", Date: at.Add(-5 * time.Second), Arrived: at,
		Subject: "BUS: Re: Joining Life", InReplyTo: []string{"1.5950f65d@agora.example.org"}, References: []string{"1.5950f65d@agora.example.org"},
		Channel: "public", ListCopy: true, Authenticated: true, AuthNote: "not checked (policy none)",
		Text: "Hello all,\n\nI join the Life contest. I claim cells (3, 4) and (5, 6) in Life.\n\nThe report says the contest holds most of the Vials now. Is that intended?"}}}
	en := record{contract.Entry{Seq: 2, Time: at, MsgID: "5.8595d61b@agora.example.org", Game: "life", Player: "Grace006", Verb: "claim", Outcome: "applied",
		Detail: map[string]any{"changes": []string{"you control (3, 4) and (5, 6) (R18)", "you paid 2 Vials (R18)"}, "line": "I claim cells (3, 4) and (5, 6) in Life."}}, 1}
	b.Run("direct", func(b *testing.B) {
		var line []byte
		for b.Loop() {
			line, _ = appendInputLine(line[:0], in)
			line, _ = appendEntryLine(line[:0], en)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		for b.Loop() {
			buf.Reset()
			enc.Encode(in)
			enc.Encode(en)
		}
	})
}

// BenchmarkJournalSave times the lines of a replay's save of 400 inputs
// (a checkpoint's: more than logChunk), messages as the bench's archive
// has them, one in five with an entry, gathered and written as Log writes
// them (to io.Discard): ns/op is one save's.
//
//	go test ./contract/store -run '^$' -bench '^BenchmarkJournalSave$' -count 3
func BenchmarkJournalSave(b *testing.B) {
	at := time.Date(2026, 11, 2, 8, 16, 31, 0, time.UTC)
	var steps []Step
	for i := range 400 {
		in := &contract.Input{Kind: contract.InMessage, At: at, Msg: &contract.Message{
			ID: fmt.Sprintf("%d.5a5e9098@example.test", i), From: "trent096@example.test", Name: "Trent096", Date: at.Add(-5 * time.Second), Arrived: at,
			Subject: "BUS: Re: a question about rounds", Channel: "public", ListCopy: true, Authenticated: true, AuthNote: "not checked (policy none)",
			Text: "Does anybody know when the next monthly award is counted? My last message was a joke, please do not take it as an action.\n\n" +
				"I think the last round went badly for everyone who bet on gliders. Has anyone worked out whether a blinker near the edge wraps around the torus?"}}
		st := Step{Input: in}
		if i%5 == 0 {
			st.Entries = []contract.Entry{{Seq: int64(i + 1), Time: at, MsgID: in.Msg.ID, Game: "life", Player: "Trent096", Verb: "claim", Outcome: "applied",
				Detail: map[string]any{"changes": []string{"you control (3, 4) and (5, 6) (R18)", "you paid 2 Vials (R18)"}, "line": "I claim cells (3, 4) and (5, 6) in Life."}}}
		}
		steps = append(steps, st)
		at = at.Add(time.Minute)
	}
	s := &contract.State{JournalSeq: 80}
	var w *chunkWriter
	for b.Loop() {
		w = &chunkWriter{f: io.Discard, b: make([]byte, 0, min(saveSize(steps), logChunk)+lineSlack)}
		if _, err := encodeSave(w, s, steps); err != nil {
			b.Fatal(err)
		}
		if err := w.flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.n), "bytes/save")
}
