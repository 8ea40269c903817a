package mailin

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/corpus")

// corpusConfig is the configuration the corpus is classified with.
func corpusConfig() *Config {
	return &Config{
		Referee:         "referee@example.test",
		PublicLists:     []string{"agora-business@example.test"},
		OfficialList:    "agora-official@example.test",
		DiscussionLists: []string{"agora-discussion@example.test"},
		AuthPolicy:      AuthAuthRes,
		AuthServID:      "mx.example.test",
	}
}

var corpusArrival = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// golden renders the parts of a Message the corpus pins down.
func golden(m *Message) string {
	var b strings.Builder
	line := func(k string, v any) { fmt.Fprintf(&b, "%s: %v\n", k, v) }
	line("class", m.Class)
	if m.IgnoreReason != "" {
		line("ignore-reason", m.IgnoreReason)
	}
	line("from", m.From)
	line("from-name", m.FromName)
	line("message-id", m.MessageID)
	line("subject", m.Subject)
	if !m.Date.IsZero() {
		line("date", m.Date.UTC().Format(time.RFC3339))
	}
	line("to", strings.Join(m.To, ", "))
	if len(m.Cc) > 0 {
		line("cc", strings.Join(m.Cc, ", "))
	}
	line("lists", strings.Join(m.Lists, ", "))
	if len(m.InReplyTo) > 0 {
		line("in-reply-to", strings.Join(m.InReplyTo, " "))
	}
	if len(m.References) > 0 {
		line("references", strings.Join(m.References, " "))
	}
	line("authenticated", fmt.Sprintf("%v (%s)", m.Authenticated, m.AuthNote))
	if m.TooLarge {
		line("too-large", true)
	}
	for _, n := range m.Notes {
		line("note", n)
	}
	b.WriteString("--- text\n")
	if m.Text != "" {
		b.WriteString(m.Text + "\n")
	}
	b.WriteString("--- quoted\n")
	if m.Quoted != "" {
		b.WriteString(m.Quoted + "\n")
	}
	return b.String()
}

func corpusFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("corpus has %d messages, want at least 40", len(files))
	}
	return files
}

// TestCorpus parses every testdata/corpus/NAME.eml and compares the result
// with NAME.golden (rewrite with -update and review the diff).
func TestCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(raw, corpusArrival, corpusConfig())
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := golden(m)
			gpath := strings.TrimSuffix(path, ".eml") + ".golden"
			if *update {
				if err := os.WriteFile(gpath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(gpath)
			if err != nil {
				t.Fatalf("no golden file (run with -update): %v", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", name, diff)
			}
		})
	}
}
