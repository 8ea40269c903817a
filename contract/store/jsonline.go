package store

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"referee/contract"
)

// A journal line is what json.Encoder writes for an inputRecord or a
// record, byte for byte. encoding/json finds each field by reflection,
// which costs more than the rest of a replay's save: the lines of the
// inputs and entries as the referee makes them are written here directly,
// field after field in the order of the structs, each string escaped as
// encoding/json escapes it (HTML characters too). A value of a kind not
// written here (a detail that is a slice of draws, an input's mailbox
// position) is written by encoding/json, in place; a line that cannot be
// written so (a time past year 9999, a value encoding/json refuses) is left
// to encoding/json whole, which says why. TestJournalLinesAreEncodingJSONs
// compares the two over random inputs and entries.

// appendInputLine appends r's line and its newline to b; false when the
// line is to be written by encoding/json.
func appendInputLine(b []byte, r inputRecord) ([]byte, bool) {
	ok := true
	b = append(b, `{"in":`...)
	b = strconv.AppendInt(b, r.In, 10)
	b = append(b, `,"base":`...)
	b = strconv.AppendInt(b, r.Base, 10)
	b = append(b, `,"entries":`...)
	b = strconv.AppendInt(b, int64(r.Entries), 10)
	if r.More {
		b = append(b, `,"more":true`...)
	}
	b = append(b, `,"input":`...)
	if b, ok = appendInput(b, r.Input); !ok {
		return b, false
	}
	return append(b, "}\n"...), true
}

func appendInput(b []byte, in *contract.Input) ([]byte, bool) {
	if in == nil {
		return append(b, "null"...), true
	}
	ok := true
	b = append(b, `{"kind":`...)
	b = appendJSONString(b, string(in.Kind))
	b = append(b, `,"at":`...)
	if b, ok = appendTime(b, in.At); !ok {
		return b, false
	}
	if in.Msg != nil {
		b = append(b, `,"msg":`...)
		if b, ok = appendMessage(b, in.Msg); !ok {
			return b, false
		}
	}
	if in.IMAP != nil {
		b = append(b, `,"imap":`...)
		if b, ok = appendMarshaled(b, in.IMAP); !ok {
			return b, false
		}
	}
	if in.Notice != "" {
		b = append(b, `,"notice":`...)
		b = appendJSONString(b, in.Notice)
	}
	if in.Error != "" {
		b = append(b, `,"error":`...)
		b = appendJSONString(b, in.Error)
	}
	if in.Permanent {
		b = append(b, `,"permanent":true`...)
	}
	if !in.NextTry.IsZero() {
		b = append(b, `,"next_try":`...)
		if b, ok = appendTime(b, in.NextTry); !ok {
			return b, false
		}
	}
	if in.Adjust != nil {
		b = append(b, `,"adjust":`...)
		if b, ok = appendMarshaled(b, in.Adjust); !ok {
			return b, false
		}
	}
	if in.Fix != nil {
		b = append(b, `,"fix":`...)
		if b, ok = appendMarshaled(b, in.Fix); !ok {
			return b, false
		}
	}
	if in.Seq != 0 {
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, in.Seq, 10)
	}
	if in.Answer != nil {
		b = append(b, `,"answer":`...)
		if b, ok = appendMarshaled(b, in.Answer); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendMessage writes a message as encoding/json does: every exported
// field under its Go name, none omitted.
func appendMessage(b []byte, m *contract.Message) ([]byte, bool) {
	ok := true
	b = append(b, `{"ID":`...)
	b = appendJSONString(b, m.ID)
	b = append(b, `,"From":`...)
	b = appendJSONString(b, m.From)
	b = append(b, `,"Name":`...)
	b = appendJSONString(b, m.Name)
	b = append(b, `,"Date":`...)
	if b, ok = appendTime(b, m.Date); !ok {
		return b, false
	}
	b = append(b, `,"Arrived":`...)
	if b, ok = appendTime(b, m.Arrived); !ok {
		return b, false
	}
	b = append(b, `,"Subject":`...)
	b = appendJSONString(b, m.Subject)
	b = append(b, `,"InReplyTo":`...)
	b = appendStrings(b, m.InReplyTo)
	b = append(b, `,"References":`...)
	b = appendStrings(b, m.References)
	b = append(b, `,"Channel":`...)
	b = appendJSONString(b, string(m.Channel))
	b = append(b, `,"ListCopy":`...)
	b = strconv.AppendBool(b, m.ListCopy)
	b = append(b, `,"IgnoreReason":`...)
	b = appendJSONString(b, m.IgnoreReason)
	b = append(b, `,"Authenticated":`...)
	b = strconv.AppendBool(b, m.Authenticated)
	b = append(b, `,"AuthNote":`...)
	b = appendJSONString(b, m.AuthNote)
	b = append(b, `,"Text":`...)
	b = appendJSONString(b, m.Text)
	b = append(b, `,"TooLarge":`...)
	b = strconv.AppendBool(b, m.TooLarge)
	b = append(b, `,"Unreadable":`...)
	b = appendStrings(b, m.Unreadable)
	return append(b, '}'), true
}

// appendEntryLine appends r's line and its newline to b; false when the
// line is to be written by encoding/json.
func appendEntryLine(b []byte, r record) ([]byte, bool) {
	ok := true
	e := &r.Entry
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, e.Seq, 10)
	b = append(b, `,"time":`...)
	if b, ok = appendTime(b, e.Time); !ok {
		return b, false
	}
	b = append(b, `,"msgid":`...)
	b = appendJSONString(b, e.MsgID)
	b = append(b, `,"game":`...)
	b = appendJSONString(b, e.Game)
	b = append(b, `,"player":`...)
	b = appendJSONString(b, e.Player)
	b = append(b, `,"verb":`...)
	b = appendJSONString(b, e.Verb)
	b = append(b, `,"outcome":`...)
	b = appendJSONString(b, e.Outcome)
	if e.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, e.Reason)
	}
	if len(e.Detail) > 0 {
		b = append(b, `,"detail":`...)
		if b, ok = appendAny(b, e.Detail); !ok {
			return b, false
		}
	}
	b = append(b, `,"base":`...)
	b = strconv.AppendInt(b, r.Base, 10)
	return append(b, "}\n"...), true
}

// appendAny writes the values a detail holds most often directly, and any
// other through encoding/json.
func appendAny(b []byte, v any) ([]byte, bool) {
	ok := true
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case string:
		return appendJSONString(b, x), true
	case bool:
		return strconv.AppendBool(b, x), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case []string:
		return appendStrings(b, x), true
	case []any:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, y := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendAny(b, y); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if x == nil {
			return append(b, "null"...), true
		}
		var small [8]string
		keys := small[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, strings.Compare)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, ok = appendAny(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return appendMarshaled(b, v)
}

// appendMarshaled writes v as encoding/json does.
func appendMarshaled(b []byte, v any) ([]byte, bool) {
	j, err := json.Marshal(v)
	if err != nil {
		return b, false
	}
	return append(b, j...), true
}

// appendTime writes t as time.Time's MarshalJSON does; false for a time it
// refuses.
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	out, err := t.AppendText(append(b, '"'))
	if err != nil {
		return b, false
	}
	return append(out, '"'), true
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the bytes a JSON string holds as they are: ASCII from
// the space on, but for '"', '\\' and the HTML characters '<', '>' and '&'.
// Bytes from 0x80 on are not marked: they are read as UTF-8.
var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, rune(c))
	}
	return t
}()

// jsonEscape is what encoding/json writes for each ASCII byte jsonSafe
// does not mark: a backslash and a letter for '"', '\\', \b, \f, \n, \r
// and \t, \u00XX for the rest.
var jsonEscape = func() (t [utf8.RuneSelf]string) {
	for c := range utf8.RuneSelf {
		if jsonSafe[c] {
			continue
		}
		switch c {
		case '"', '\\':
			t[c] = string([]byte{'\\', byte(c)})
		case '\b':
			t[c] = `\b`
		case '\f':
			t[c] = `\f`
		case '\n':
			t[c] = `\n`
		case '\r':
			t[c] = `\r`
		case '\t':
			t[c] = `\t`
		default:
			t[c] = string([]byte{'\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF]})
		}
	}
	return t
}()

// appendJSONString writes s quoted as encoding/json writes a string: '"'
// and '\\' escaped by a backslash, so are \b, \f, \n, \r and \t; the other
// control characters, '<', '>' and '&' as \u00XX; U+2028 and U+2029 as
// \u2028 and \u2029; each byte of invalid UTF-8 as \ufffd. A byte is
// looked up in jsonSafe, eight at once while all eight are marked, then four
// (one loop test per eight bytes of plain text: with four at once two thirds
// of the time of one per byte, with eight nine tenths of that,
// BenchmarkJournalString), and an ASCII one not marked in jsonEscape.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && jsonSafe[s[i]] && jsonSafe[s[i+1]] && jsonSafe[s[i+2]] && jsonSafe[s[i+3]] &&
			jsonSafe[s[i+4]] && jsonSafe[s[i+5]] && jsonSafe[s[i+6]] && jsonSafe[s[i+7]] {
			i += 8
		}
		for i+4 <= len(s) && jsonSafe[s[i]] && jsonSafe[s[i+1]] && jsonSafe[s[i+2]] && jsonSafe[s[i+3]] {
			i += 4
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if jsonSafe[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = append(b, jsonEscape[c]...)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
