package mailin

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	gomail "github.com/emersion/go-message/mail"
)

// Parse reads a header into a usedHeader (readUsedHeader); these tests hold
// every reading of it to go-message's of the whole header (readHeader).

// readKeys are the keys the package reads from a message's header, and
// some it does not, in the case the code writes them.
var readKeys = []string{"Subject", "Date", "Message-Id", "In-Reply-To", "References", "To", "Cc", "From", "Sender",
	"Content-Type", "Content-Disposition", "Content-Transfer-Encoding", "X-Referee-Notice", "Auto-Submitted",
	"X-Autoreply", "X-Autorespond", "X-Autoresponder", "Precedence", "Return-Path", "List-Id", "X-Original-From",
	"Authentication-Results", "X-Bench-Seq", "Reply-To", "X-Unknown", "x(odd", "A Space", "", "MESSAGE-ID", "message-id",
	"Content-type", "conTent-TYPE", "x-\u212arefix", "Subjec\u0130", "X-Zz9", "x-0aA", "X-!a"}

// keyVariants is k as written, upper case, lower case, with the case of
// each letter swapped, and with each byte from '@' on changed as a letter's
// case is ('_' and DEL, '[' and '{', ...).
func keyVariants(k string) []string {
	swap, all := []byte(k), []byte(k)
	for i, c := range swap {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			swap[i] = c ^ 0x20
		}
		if c >= '@' && c < 0x80 {
			all[i] = c ^ 0x20
		}
	}
	return []string{k, strings.ToUpper(k), strings.ToLower(k), string(swap), string(all)}
}

// sameHeader fails unless readUsedHeader's header of raw, where it reads
// one, gives for every key what go-message's header of the whole message
// gives (the unread fields aside), and reads as go-message's does: the
// subject, the message ids, the content type and disposition. It reports
// whether raw was read into a usedHeader.
func sameHeader(t *testing.T, raw []byte) bool {
	t.Helper()
	h, _, _ := readUsedHeader(raw)
	if _, ok := h.(*usedHeader); !ok {
		return false
	}
	w, _, _ := readHeader(raw)
	whole := w.(*gomail.Header)
	keys := append([]string(nil), readKeys...)
	for f := whole.Fields(); f.Next(); {
		if raw, err := f.Raw(); err == nil {
			if k, _, ok := bytes.Cut(raw, []byte(":")); ok {
				keys = append(keys, string(bytes.Trim(k, " \t")))
			}
		}
	}
	g := goHeader(h)
	for _, key := range keys {
		for _, k := range keyVariants(key) {
			if unreadField([]byte(k)) {
				continue
			}
			if got, want := h.Get(k), whole.Get(k); got != want {
				t.Fatalf("%q: Get(%q) = %q, want %q", raw, k, got, want)
			}
			if got, want := h.Values(k), whole.Values(k); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q: Values(%q) = %q, want %q", raw, k, got, want)
			}
			if got, want := h.Has(k), whole.Has(k); got != want {
				t.Fatalf("%q: Has(%q) = %v, want %v", raw, k, got, want)
			}
			if got, want := g.Get(k), whole.Get(k); got != want {
				t.Fatalf("%q: go-message's copy: Get(%q) = %q, want %q", raw, k, got, want)
			}
			gotIDs, gotErr := msgIDList(h, k)
			wantIDs, wantErr := whole.MsgIDList(k)
			if !reflect.DeepEqual(gotIDs, wantIDs) || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("%q: MsgIDList(%q) = %q, %v, want %q, %v", raw, k, gotIDs, gotErr, wantIDs, wantErr)
			}
		}
	}
	wantSubject, _ := whole.Subject()
	if got := subject(h); got != wantSubject {
		t.Fatalf("%q: subject %q, want %q", raw, got, wantSubject)
	}
	id, err := headerMessageID(h)
	wantID, wantErr := whole.MessageID()
	if id != wantID || (err == nil) != (wantErr == nil) {
		t.Fatalf("%q: Message-ID %q, %v, want %q, %v", raw, id, err, wantID, wantErr)
	}
	typ, params, err := headerContentType(h)
	wantTyp, wantParams, wantErr := whole.ContentType()
	if typ != wantTyp || !reflect.DeepEqual(params, wantParams) || (err == nil) != (wantErr == nil) {
		t.Fatalf("%q: Content-Type %q %q %v, want %q %q %v", raw, typ, params, err, wantTyp, wantParams, wantErr)
	}
	typ, params, err = contentDisposition(h)
	wantTyp, wantParams, wantErr = whole.ContentDisposition()
	if typ != wantTyp || !reflect.DeepEqual(params, wantParams) || (err == nil) != (wantErr == nil) {
		t.Fatalf("%q: Content-Disposition %q %q %v, want %q %q %v", raw, typ, params, err, wantTyp, wantParams, wantErr)
	}
	return true
}

// The pieces randomHeader makes headers of.
var (
	randomKeys = []string{"Subject", "Date", "Message-ID", "In-Reply-To", "References", "To", "Cc", "From",
		"Content-Type", "Content-Disposition", "Content-Transfer-Encoding", "List-Id", "X-Original-From",
		"Authentication-Results", "Received", "DKIM-Signature", "X-Mailer", "Precedence", "Auto-Submitted",
		"X-Autoreply", "Return-Path", "x(odd", "X_Under", "X\x7fUnder", "X-[a]", "X-{a}", "X-^", "X-~", "X-Zz9", "x-0aA", "X-!a", "X.Dot", "X-\x7e", "Mime-version", "mime-VERSION"}
	randomValues = []string{"", "hi", "  spaced  out  ", "Re: =?utf-8?q?caf=C3=A9?=", "=?iso-8859-1?b?Y2Fm6Q==?= x",
		"=?x-unknown?q?a?=", "=?utf-8?q?broken", "<a@b.example>", " <a@b.example> <c.d@e.example>",
		"<a@b.example>,<c@d.example>", "<a@[192.0.2.1]>", "<a@b.example> (a comment)", "(c) <a@b.example>",
		"<a@b.example> (unclosed", "<\xc3\xa9@b.example>", "<\xff@b.example>", "<a@b.example", "<unclosed", "a@b.example",
		"<@b.example>", "<a@>", "<a\\b@c.example>", "<a@b;c>", "<a(b)@c>", "<a b@c>", "<a.b@c>x", "<a@b>  <c@d>\t", "text/plain; charset=utf-8",
		"text/plain; charset=\"UTF-8\"; format=flowed", "multipart/alternative; boundary=\"b1\"",
		"text/plain; charset*=utf-8''caf%C3%A9", "text/plain; name=\"=?utf-8?q?caf=C3=A9?=\"", "text/plain;;",
		"bad type", "attachment; filename=a.txt", "inline", "7bit", "Quoted-Printable", "Mon, 02 Nov 2026 08:00:00 +0000",
		"Walter <w@b.example>, x@y.example", "a\x00b", "caf\xe9", "\xc3\xa9t\xc3\xa9", "list <l.example.test>"}
)

// randomHeader is a message whose header is made at random of the keys and
// values above, keys in odd case, values folded at random spaces, lines
// ending in LF, CRLF or CR CRLF, some lines with trailing blanks, and
// sometimes no blank line after it.
func randomHeader(r *rand.Rand) []byte {
	var b bytes.Buffer
	ends := []string{"\n", "\r\n", "\r\n", "\n", "\r\r\n"}
	end := ends[r.IntN(2)+1]
	for n := r.IntN(12); n >= 0; n-- {
		k := keyVariants(randomKeys[r.IntN(len(randomKeys))])[r.IntN(5)]
		v := randomValues[r.IntN(len(randomValues))]
		if r.IntN(4) == 0 {
			v += " " + randomValues[r.IntN(len(randomValues))]
		}
		sep := []string{": ", ":", " : ", ":\t", ":  "}[r.IntN(5)]
		line := k + sep + v
		// Fold at random spaces.
		var folded strings.Builder
		for i := 0; i < len(line); i++ {
			if line[i] == ' ' && i > len(k)+1 && r.IntN(3) == 0 {
				folded.WriteString(end)
				if r.IntN(5) == 0 {
					folded.WriteString([]string{" ", "\t", "  \t"}[r.IntN(3)] + end) // a line of blanks
				}
				folded.WriteString([]string{" ", "\t"}[r.IntN(2)])
			}
			folded.WriteByte(line[i])
		}
		b.WriteString(folded.String())
		if r.IntN(8) == 0 {
			b.WriteString([]string{" ", "\t", " \t"}[r.IntN(3)])
		}
		if r.IntN(6) == 0 {
			end = ends[r.IntN(len(ends))]
		}
		b.WriteString(end)
	}
	if r.IntN(20) != 0 {
		b.WriteString(end + "body" + end)
	}
	return b.Bytes()
}

// mutatedHeader is raw with a few bytes of its header changed, inserted or
// removed.
func mutatedHeader(r *rand.Rand, raw []byte) []byte {
	end := bytes.Index(raw, []byte("\n\n"))
	if e := bytes.Index(raw, []byte("\r\n\r\n")); e >= 0 && (end < 0 || e < end) {
		end = e
	}
	if end <= 0 {
		end = len(raw)
	}
	out := append([]byte(nil), raw...)
	special := []byte(" \t\r\n:;<>@()\"=?\x00\xe9\xc3")
	for n := r.IntN(4); n >= 0; n-- {
		i := r.IntN(end)
		c := special[r.IntN(len(special))]
		switch r.IntN(3) {
		case 0:
			out[i] = c
		case 1:
			out = append(out[:i], append([]byte{c}, out[i:]...)...)
			end++
		default:
			out = append(out[:i], out[i+1:]...)
			end--
		}
		if end <= 0 {
			break
		}
	}
	return out
}

// TestUsedHeader: the corpus, the benchmark's messages, the seeds and
// thousands of random and mutated headers read the same in a usedHeader
// as in go-message's header, and in Parse (sameParse); most are read into
// a usedHeader.
func TestUsedHeader(t *testing.T) {
	var msgs [][]byte
	for _, s := range headerSeeds {
		msgs = append(msgs, []byte(s))
	}
	for _, path := range corpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, raw)
	}
	r := rand.New(rand.NewPCG(14, 2026))
	corpus := len(msgs)
	for i := 0; i < corpus; i++ {
		for range 20 {
			msgs = append(msgs, mutatedHeader(r, msgs[i]))
		}
	}
	for range 4000 {
		msgs = append(msgs, randomHeader(r))
	}
	used := 0
	for _, raw := range msgs {
		if sameHeader(t, raw) {
			used++
		}
		sameParse(t, raw)
	}
	if used < len(msgs)/2 {
		t.Errorf("%d of %d headers read into a usedHeader, want most", used, len(msgs))
	}
}

func FuzzUsedHeader(f *testing.F) {
	for _, s := range headerSeeds {
		f.Add([]byte(s))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		f.Add(randomHeader(r))
	}
	addCorpusSeeds(f, func(raw []byte) { f.Add(raw) })
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameHeader(t, raw)
		sameParse(t, raw)
	})
}

// TestPlainMsgID: the message ids nearly all mail writes are read without
// go-message's parser (the shortcut Parse takes), and every other form is
// left to it.
func TestPlainMsgID(t *testing.T) {
	for _, c := range []struct {
		v, id, rest string
		ok          bool
	}{
		{"<a@b.example>", "a@b.example", "", true},
		{" \t<a.b+c@d.example>  <e@f>", "a.b+c@d.example", "<e@f>", true},
		{"<x@y>z", "x@y", "z", true},
		{"<a!b#c@d~e.f>", "a!b#c@d~e.f", "", true},
		{"<a@b.example> (a comment)", "a@b.example", "(a comment)", true},
		{"", "", "", false}, {"  ", "", "", false}, {"a@b.example", "", "", false}, {"<a", "", "", false},
		{"<a@", "", "", false}, {"<a@b", "", "", false}, {"<@b>", "", "", false}, {"<a@>", "", "", false},
		{"<a@[192.0.2.1]>", "", "", false}, {"<a\\b@c>", "", "", false}, {"<a b@c>", "", "", false},
		{"<\xc3\xa9@b>", "", "", false}, {"<a@b\x7f>", "", "", false}, {"<a@b;c>", "", "", false},
	} {
		id, rest, ok := plainMsgID(c.v)
		if id != c.id || rest != c.rest || ok != c.ok {
			t.Errorf("plainMsgID(%q) = %q, %q, %v, want %q, %q, %v", c.v, id, rest, ok, c.id, c.rest, c.ok)
		}
	}
}
