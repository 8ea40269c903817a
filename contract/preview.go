package contract

import (
	"fmt"
	"strings"
	"time"

	"referee/contract/text"
	"referee/internal/lazyre"
)

// A preview: a message whose Subject or first line is "preview" is performed
// inside a transaction that is then undone, and its sender is told privately
// what it would do. Nothing changes, and nothing is said that the receipt of
// the same message would not say to em.

const previewSyntax = `preview (as the Subject or the first line: the rest is performed on a copy, and you are told what it would do)`

var previewRE = lazyre.MustCompile(`(?i)^\s*preview\s*[.!:]?\s*$`)

func (e *Engine) isPreview(m *Message) bool {
	if m.TooLarge || m.Channel == ChanDiscussion {
		return false
	}
	return isPreviewLine(firstLine(m.Text)) || isPreviewLine(m.Subject)
}

// isPreviewLine is previewRE().MatchString(s), without the expression when s
// does not hold "preview" in some case (no rune but an ASCII letter folds
// to one of its letters).
func isPreviewLine(s string) bool { return hasFoldASCII(s, "preview") && previewRE().MatchString(s) }

// preview answers a preview: the message's actions, without its "preview"
// line, read and performed as if each came where it counts (a public action
// from the public list, a private one in private mail), the results and the
// notices it would send to the lists taken, and everything undone. Scheduled
// events are not run inside it: what a phase's close would reveal stays
// sealed until the phase closes.
func (e *Engine) preview(s *State, m *Message, at time.Time) error {
	pm := *m
	pm.preview = true
	if isPreviewLine(firstLine(m.Text)) {
		_, pm.Text, _ = strings.Cut(strings.TrimLeft(m.Text, " \t\r\n"), "\n") // nothing after a first line alone
	}
	tx := s.Begin()
	n0 := len(s.Outbox)
	results, entries, err := e.actions(s, &pm, at)
	drew := hideDraws(results, entries)
	var lists []string
	if err == nil && !drew {
		for _, o := range s.Outbox[n0:] {
			if o.Channel.IsPublic() {
				lists = append(lists, fmt.Sprintf("%q to the %s list", o.Subject, o.Channel))
			}
		}
	}
	tx.Undo()
	if err != nil {
		return fmt.Errorf("preview of %s: %w", m.ID, err)
	}
	var b strings.Builder
	b.WriteString(text.Wrap(fmt.Sprintf("Preview: nothing was performed and nothing changed. Sent at %s UTC without its \"preview\" line, your message would be read as follows (a public action as if posted to the public list, a private one as if sent privately to the referee).", Stamp(at)), 0))
	if len(results) == 0 {
		b.WriteString("\n")
		b.WriteString(text.Wrap("No action was found in it: send \"help\" for the forms the referee reads.", 0))
		b.WriteString("\n")
	} else {
		writeResults(&b, results)
	}
	if len(lists) > 0 {
		b.WriteString(text.Wrap("It would also send "+strings.Join(lists, "; ")+".", 0))
		b.WriteString("\n")
	}
	b.WriteString(text.Wrap("The outcome can differ if other mail or a scheduled event comes first (ruling G2). To perform the actions, send them again without the \"preview\" line.", 0))
	b.WriteString("\n")
	b.WriteString(text.Signature("The referee"))
	e.reply(s, m, previewPrefix+m.ID, b.String(), at)
	return nil
}

// previewPrefix begins the ID of a preview's reply: "preview/<Message-ID>".
const previewPrefix = "preview/"

// isPreviewReply reports whether the notice with this ID is a preview's reply,
// which tells what a message would do and changes nothing.
func isPreviewReply(id string) bool { return strings.HasPrefix(id, previewPrefix) }

// hideDraws keeps a preview from telling the outcome of a random draw
// (G5): the draw is made from the week's seed, which stays secret until the
// week is over, and the same action sent for real would draw the same value,
// so a player could see a roll or a random tile before choosing to take it.
// The action that draws is said to be done with a draw not shown, and every
// result after it, which could show the draw, is not previewed. It reports
// whether a draw was made. results and entries are one to one, as actions
// gives them for a message not of the discussion list.
func hideDraws(results []Result, entries []Entry) bool {
	if len(results) != len(entries) {
		return false
	}
	for i, ent := range entries {
		if draws, _ := ent.Detail["draws"].([]Draw); len(draws) == 0 {
			continue
		}
		r := &results[i]
		if r.Done {
			r.Changes = []string{"with a random draw, whose outcome a preview does not show: the week's seed is revealed only after the week (G5)"}
		}
		for j := i + 1; j < len(results); j++ {
			results[j] = Result{Line: results[j].Line, Game: results[j].Game,
				Reason: "not previewed: it comes after a random draw, whose outcome it could show (G5)"}
		}
		return true
	}
	return false
}
