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
