package contract

import (
	"strings"

	"referee/internal/lazyre"
)

// followingHead is the line that opens a list of actions written without
// "I" (AGORA "What performs an action"): "I perform the following actions,
// in order:", "I hereby do the following:", each item then an action of
// the one who wrote the line ("1. Transfer 3 Vials to Bob.").
var followingHead = lazyre.MustCompile(`(?im)^[ \t]*(?:i|we)\s+(?:hereby\s+)?(?:do|perform|take)\s+the\s+following(?:\s+(?:game\s+)?actions?)?(?:\s*,?\s*in\s+(?:this\s+|the\s+following\s+)?order)?\s*:[ \t]*$`)

// followingItem is an item of such a list: a list mark, then a word that
// is not "I".
var followingItem = lazyre.MustCompile(`^([ \t]*(?:[-*•]|\(?\d{1,2}[.)]|\(?[a-z][.)])[ \t]+)(\S+)`)

// expandFollowing writes "I" over the list mark of each item of a list
// opened by followingHead, the mark's width kept ("1. Transfer 3 Vials to
// Bob." is read as "I  Transfer 3 Vials to Bob."), so that each item is read
// as the action it names, at the offset it has in the text. The list runs
// from the head, past blank lines, to the first line that is not such an
// item (a blank line after an item ends it). A text without such a list
// comes back as it was.
func expandFollowing(text string) string {
	if !mayOpenFollowing(text) {
		return text // most mail: no expression run over it
	}
	heads := followingHead().FindAllStringIndex(text, -1)
	if heads == nil {
		return text
	}
	b := []byte(text)
	for _, h := range heads {
		i := h[1]
		if i < len(b) && b[i] == '\n' {
			i++
		}
		for items := 0; i < len(b); items++ {
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			line := text[i : i+end]
			if items == 0 && strings.TrimSpace(line) == "" {
				i += end + 1
				items--
				continue // blank lines between the head and its first item
			}
			m := followingItem().FindStringSubmatchIndex(line)
			if m == nil {
				break
			}
			if w := line[m[4]:m[5]]; !strings.EqualFold(w, "i") && !strings.EqualFold(w, "we") {
				mark := i + m[2]
				for mark < i+m[3] && (b[mark] == ' ' || b[mark] == '\t') {
					mark++
				}
				b[mark] = 'I'
				for k := mark + 1; k < i+m[3]; k++ {
					b[k] = ' '
				}
			}
			i += end + 1
		}
	}
	return string(b)
}

// mayOpenFollowing is false for a text followingHead cannot match: one
// that holds no "following" in any case with a colon after it. It finds
// the word by its "w", whatever its case, with the byte search the
// processor does many at a time, where the expression tried every line of
// every message (half of what reading a message's actions cost).
func mayOpenFollowing(text string) bool {
	const word, w = "following", 5 // word[w] is its "w"
	first := -1
	for _, c := range [...]byte{'w', 'W'} {
		for i := 0; ; {
			j := strings.IndexByte(text[i:], c)
			if j < 0 {
				break
			}
			j += i
			if j >= w && j-w+len(word) <= len(text) && strings.EqualFold(text[j-w:j-w+len(word)], word) {
				if first < 0 || j < first {
					first = j
				}
				break
			}
			i = j + 1
		}
	}
	return first >= 0 && strings.IndexByte(text[first:], ':') >= 0
}

// itemMark tells, of a sentence of text (written as expanded by
// expandFollowing), whether it is an item of such a list: then read is
// the "I" and the white space the sentence starts with in place of the
// item's mark, and mark that mark as written ("1. " for "I  " of "1.
// Transfer 3 Vials to Bob."), so that a receipt quotes the item as written.
// expandFollowing writes "I" only over the first byte of a mark, which is
// never "I" itself.
func itemMark(written, text string, sen Sentence) (read, mark string, ok bool) {
	at := sen.Offset
	if len(written) != len(text) || at >= len(text) || text[at] != 'I' || written[at] == 'I' {
		return "", "", false
	}
	end := at + 1
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	read = text[at:end]
	if !strings.HasPrefix(sen.Text, read) {
		return "", "", false
	}
	return read, strings.TrimSpace(written[at:end]) + " ", true
}
