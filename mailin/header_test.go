package mailin

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"
	"net/textproto"
)

// Parse reads a header without the fields it never reads (readUsedHeader):
// these tests hold it to readHeader, which reads the whole header.

var headerSeeds = []string{
	"From: a@example.test\r\nReceived: from x\r\n\tby y\r\nSubject: hi\r\n\r\nbody",
	"Received: from x\n by y\nFrom: a@example.test\nSubject: hi\n\nbody\n",
	"Received: only\n\nbody", "Received: x\n: no name\n\nbody", "received : lower\nDate: Mon, 2 Nov 2026 08:00:00 +0000\n\n",
	"Received: x\nSubject: folded\n  over\n\tthree lines\nTo: b@example.test\n\n",
	"Received: x\nSubject: folded\r\n \r\n\t\r\nX: y\r\n\r\n",
	"Received: x\nBad Key: x\n\n", "Received: x\nBad\x7fKey: x\n\n", " Received: continuation first\nFrom: a@example.test\n\n",
	"Received: x\nNo colon here\nFrom: a@example.test\n\nbody", "Received: x\nFrom: a@example.test\n", "Received: x\nFrom: a@example.test",
	"Received: x\r\r\nFrom: a@example.test\n\n", "Received: x\nFrom: a@example.test\n\r\nrest", "\nReceived: in the body",
	"DKIM-Signature: v=1; a=rsa-sha256;\n\tb=abc\nList-Id: Agora <agora.example.test>\nUser-Agent: x\nFrom: a@example.test\nContent-Type: text/plain; charset=utf-8\n\nI transfer 1 coin to Bob.\n",
	"Received: x\nContent-Type: multipart/alternative; boundary=b\nFrom: a@example.test\n\n--b\nReceived: inner\nContent-Type: text/plain\n\nhi\n--b--\n",
	"Received: " + strings.Repeat("long ", 2000) + "\nFrom: a@example.test\n\n",
}

var parseAt = time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)

var parseCfg = &Config{Referee: "referee@example.test", PublicLists: []string{"agora-business@example.test"},
	OfficialList: "agora-official@example.test", DiscussionLists: []string{"agora-discussion@example.test"}, AuthPolicy: AuthNone}

// sameParse fails unless Parse reads raw as it does with the whole header.
// It reports whether the unread fields were left out.
func sameParse(t *testing.T, raw []byte) (short bool) {
	t.Helper()
	got, gerr := parse(raw, parseAt, parseCfg, readUsedHeader)
	want, werr := parse(raw, parseAt, parseCfg, readHeader)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\ngot  %+v (%v)\nwant %+v (%v)", raw, got, gerr, want, werr)
	}
	h, body, _ := readUsedHeader(raw)
	whole, wbody, _ := readHeader(raw)
	// The fields kept are the whole header's, in order, but the unread,
	// with the same keys and values.
	_, fast := h.(*usedHeader)
	gotF := fieldList(h)
	var wantF []string
	for f := whole.(*gomail.Header).Fields(); f.Next(); {
		if !fast || !unreadField([]byte(f.Key())) {
			wantF = append(wantF, f.Key()+": "+f.Value())
		}
	}
	if !reflect.DeepEqual(gotF, wantF) || !bytes.Equal(body, wbody) {
		t.Fatalf("%q: fields\n%q, body %q\nwant\n%q, body %q", raw, gotF, body, wantF, wbody)
	}
	return h.Len() < whole.Len()
}

// TestReadUsedHeader: the seeds, the corpus and the benchmark's messages
// parse as with the whole header, and the benchmark's leave fields out,
// with LF line ends and with CRLF ones, as IMAP hands them (RFC 5322 §2.1).
func TestReadUsedHeader(t *testing.T) {
	for _, s := range headerSeeds {
		sameParse(t, []byte(s))
	}
	for _, path := range corpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sameParse(t, raw)
	}
	bench, _ := filepath.Glob(filepath.Join("testdata", "bench", "*.eml"))
	if len(bench) == 0 {
		t.Fatal("no messages in testdata/bench")
	}
	for _, path := range bench {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !sameParse(t, raw) {
			t.Errorf("%s: no field left out", path)
		}
		crlf := strings.ReplaceAll(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n", "\r\n")
		if !sameParse(t, []byte(crlf)) {
			t.Errorf("%s with CRLF: no field left out", path)
		}
	}
}

func FuzzReadUsedHeader(f *testing.F) {
	for _, s := range headerSeeds {
		f.Add([]byte(s))
	}
	addCorpusSeeds(f, func(raw []byte) { f.Add(raw) })
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameParse(t, raw)
	})
}

// TestUnreadFields: no file of the package names an unread field but the
// list itself (a field read by name would read as absent in Parse).
func TestUnreadFields(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range unreadFields {
		re := regexp.MustCompile(`(?i)"` + regexp.QuoteMeta(name) + `"`)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src := string(b)
			if f == "header.go" {
				i := strings.Index(src, "var unreadFields")
				j := i + strings.Index(src[i:], "}\n")
				src = src[:i] + src[j:]
			}
			if re.MatchString(src) {
				t.Errorf("%s reads the field %s, which Parse leaves out (unreadFields)", f, name)
			}
		}
	}
}

// fieldList is h's fields, topmost first, each "Key: value" with the key
// as textproto gives it (canonical).
func fieldList(h header) []string {
	var out []string
	switch g := h.(type) {
	case *gomail.Header:
		for f := g.Fields(); f.Next(); {
			out = append(out, f.Key()+": "+f.Value())
		}
	case *usedHeader:
		for _, f := range g.fields {
			out = append(out, textproto.CanonicalMIMEHeaderKey(string(f.key))+": "+f.value)
		}
	}
	return out
}
