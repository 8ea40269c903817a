package mailin

import (
	"testing"
	"time"
)

// TestListCopyNote: a direct copy of a public message, not established as
// the list's, says why as its policy found it: under none, no List-Id of
// the list with its address in To/Cc; under authres, no signature of the
// list's domain, with what our server's results said instead.
func TestListCopyNote(t *testing.T) {
	raw := "Authentication-Results: mx.example.test; dkim=pass header.d=example.org\nFrom: a@example.org\nTo: agora-business@example.test\n\nI join the Life contest.\n"
	for _, c := range []struct{ policy, want string }{
		{AuthNone, "no List-Id of a public list with its address in To/Cc"},
		{AuthAuthRes, "no signature of the list's domain: dkim=pass header.d=example.org (From domain example.test)"},
	} {
		cfg := &Config{PublicLists: []string{"agora-business@example.test"}, AuthPolicy: c.policy, AuthServID: "mx.example.test"}
		m, err := Parse([]byte(raw), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Class != Public || m.ListCopy || m.ListNote != c.want {
			t.Errorf("policy %s: class %s, list copy %v (%q); want public, a direct copy (%q)", c.policy, m.Class, m.ListCopy, m.ListNote, c.want)
		}
	}
}
