package mailin

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/emersion/go-message"
)

// textBothWays reads a text part's body as the walker does, with the part's
// Content-Type and Content-Transfer-Encoding fields, once taking the body
// as it is where asIs says go-message would, once always through
// message.New; it fails unless both give the same text and notes.
func textBothWays(t *testing.T, ctype, cte string, body []byte) (asis bool) {
	t.Helper()
	var h message.Header
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	if cte != "" {
		h.Set("Content-Transfer-Encoding", cte)
	}
	typ, params, ok := contentType(&h)
	if !ok && h.Has("Content-Type") || typ != "" && typ != "text/plain" {
		return false // the walker reads a part as text only with a text type
	}
	fast := &bodyWalker{limit: 1 << 10}
	got := fast.text(&h, params, true, bytes.NewReader(body), "1")
	slow := &bodyWalker{limit: 1 << 10}
	want := slow.text(&h, params, false, bytes.NewReader(body), "1")
	if got != want || !reflect.DeepEqual(fast.notes, slow.notes) {
		t.Fatalf("Content-Type %q, Content-Transfer-Encoding %q, body %q:\ngot  %q %q\nwant %q %q", ctype, cte, body, got, fast.notes, want, slow.notes)
	}
	return asIs(&h, params)
}

var asIsSeeds = []struct{ ctype, cte, body string }{
	{"text/plain; charset=utf-8", "7bit", "I join the Life contest.\r\n"},
	{"text/plain; charset=UTF-8; format=flowed", "", "caf\xc3\xa9\n"},
	{"text/plain; charset=US-ASCII", "8BIT", "caf\xe9\n"},
	{"text/plain", "binary", "\xff\xfe"},
	{"", "", "no Content-Type\n"},
	{"text/plain; charset=\"\"", "", "an empty charset\n"},
	{"text/plain; charset=\"u\u017f-ascii\"", "", "a long s\n"},
	{"text/plain; charset=iso-8859-1", "", "caf\xe9\n"},
	{"text/plain; charset=x-unknown", "", "caf\xe9\n"},
	{"text/plain; charset=utf-8", "quoted-printable", "caf=C3=A9=\n"},
	{"text/plain; charset=utf-8", "base64", "SSBqb2luLg==\n"},
	{"text/plain; charset=utf-8", "x-uuencode", "begin 644\n"},
	{"text/plain; charset=utf-8", " 7bit ", "spaces around\n"},
}

// TestTextAsIs: a part go-message would hand over as it is reads the same
// without it, and the seeds take both ways.
func TestTextAsIs(t *testing.T) {
	var n int
	for _, s := range asIsSeeds {
		if textBothWays(t, s.ctype, s.cte, []byte(s.body)) {
			n++
		}
	}
	if n == 0 || n == len(asIsSeeds) {
		t.Errorf("%d of %d seeds read as they are, want some and not all", n, len(asIsSeeds))
	}
}

func FuzzTextAsIs(f *testing.F) {
	for _, s := range asIsSeeds {
		f.Add(s.ctype, s.cte, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, ctype, cte string, body []byte) {
		textBothWays(t, ctype, cte, body)
	})
}
