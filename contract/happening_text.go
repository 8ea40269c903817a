package contract

import (
	"time"
	"unicode/utf8"
)

// A game's recent events are most of its section, and a state loaded or
// re-run has none of their text kept: each is encoded once, and the YAML
// encoder costs some 15 µs an entry (reflection and its emitter's scalar
// analysis, for three scalars). An entry whose texts the encoder writes
// plain, as most are ("Alice", "takes control of Cell (16, 14) (R16)"),
// is written here instead, byte for byte as the encoder writes it
// (TestHappeningTextIsTheEncoders); any other goes to the encoder.

// happeningItem is ev as the state's encoder writes an item of a
// section's "recent:" (indent 2, before the section's own indentation);
// ok false when a text of ev needs more than a plain scalar.
func happeningItem(ev Happening) (item []byte, ok bool) {
	if !plainText(ev.Who) || !plainText(ev.What) {
		return nil, false
	}
	b := make([]byte, 0, len("  - time: \n    who: \n    what: \n")+len(time.RFC3339Nano)+len(ev.Who)+len(ev.What))
	b = append(b, "  - time: "...)
	b = ev.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, "\n    who: "...)
	b = append(b, ev.Who...)
	b = append(b, "\n    what: "...)
	b = append(b, ev.What...)
	return append(b, '\n'), true
}

// plainText: the YAML encoder writes s as a plain scalar, unquoted, as it
// is. It holds for a text that begins with a letter (or any character
// outside ASCII, which YAML gives no meaning), is not a word
// YAML reads as a boolean or null, ends in no space, and holds only
// printable characters, no line break or tab, and none of the indicators
// that end or comment a plain scalar in a block mapping (": ", " #"): the
// check is stricter than the encoder's (no ':' or '#' at all, no brackets),
// so some plain texts go to the encoder too, written as it writes them.
func plainText(s string) bool {
	if s == "" || !asciiLetter(s[0]) && s[0]&0x80 == 0 || s[len(s)-1] == ' ' || yamlWord(s) {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c&0x80 == 0 {
			if c < ' ' || c > '~' || c == ':' || c == '#' || c == '[' || c == ']' || c == '{' || c == '}' || c == '?' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !printableRune(r) || n == 1 {
			return false
		}
		i += n
	}
	return true
}

func asciiLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// printableRune: r, outside ASCII, is a character YAML writes as it is:
// none that quoteYAML escapes (escapedYAML), and within the Basic
// Multilingual Plane (stricter than the encoder, which sends the others to
// the encoder too). r is never a surrogate: utf8.DecodeRuneInString reads
// the bytes of one as an error of one byte, which plainText refuses.
func printableRune(r rune) bool {
	return 0xa0 <= r && r <= 0xfffd && !escapedYAML(r)
}

// yamlWord: s is a word a plain scalar beginning with a letter would be
// read as other than text: YAML 1.2's booleans and null, and YAML 1.1's
// booleans, which the encoder quotes too.
func yamlWord(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL",
		"y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return false
}
