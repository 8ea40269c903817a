package contracttest_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/contests/life"
	"referee/contract/store"
	"referee/mailin"
)

// mail is a list's copy of a public post of Alice's, its body UTF-8.
func mail(id, body string) []byte {
	return []byte(listHeaders + "From: Alice <alice@example.test>\r\nTo: agora-business@example.test\r\n" +
		"Subject: BUS: Life\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\nMessage-ID: <" + id + ">\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" +
		strings.ReplaceAll(body, "\n", "\r\n"))
}

// TestMailedTextsSurviveTheSave: a Life suggestion mailed with lines that
// begin with spaces and a line separator (U+2028, as a text pasted from a
// web page may hold) within a line is kept as its text, and the state
// holding it is saved and loaded back (as referee run and referee check
// load it) with the text as it was: the encoder wrote the separator as
// it is in the section's block, and the state file read back without the
// rest of its line, or not at all.
func TestMailedTextsSurviveTheSave(t *testing.T) {
	w := newListWorld(t, time.Hour, mailin.AuthNone)
	w.ingest(mail("j@example.test", "I join the Life contest.\n"), "2026-12-01T10:00:00Z")
	w.ingest(mail("s@example.test", "I suggest the following change to the Life regulations:\n"+
		"The winner is the first\u2028to hold ten Cells,\n    as the table says:\n    | Cells | Vials |\n"), "2026-12-01T10:05:00Z")
	st := w.h.S.Games["life"].Data.(*life.State)
	if len(st.Suggestions) != 1 {
		t.Fatalf("%d suggestions, want 1: %v", len(st.Suggestions), w.toAlice())
	}
	text := st.Suggestions[0].Text
	if want := "The winner is the first\u2028to hold ten Cells,\n    as the table says:\n    | Cells | Vials |"; text != want {
		t.Fatalf("the suggestion's text is %q, want %q", text, want)
	}
	path := filepath.Join(t.TempDir(), "state.yaml")
	if err := store.Save(path, w.h.S); err != nil {
		t.Fatalf("the state is not saved: %v", err)
	}
	back, err := store.Load(w.h.E, path)
	if err != nil {
		t.Fatalf("the state saved does not load: %v", err)
	}
	if got := back.Games["life"].Data.(*life.State).Suggestions[0].Text; got != text {
		t.Errorf("the suggestion's text loads as %q, want %q", got, text)
	}
}
