package mailin

import (
	"strings"
	"testing"
	"time"
)

func TestStripQuoted(t *testing.T) {
	for _, tc := range []struct{ name, in, kept, quoted string }{
		{"plain", "I join the Life contest.\n", "I join the Life contest.", ""},
		{"quote", "> I bid 1 on Flight.\nI bid 2 on Flight.", "I bid 2 on Flight.", "> I bid 1 on Flight."},
		{"indented quote", "  > old\nnew", "new", "  > old"},
		{"attribution", "I pass.\n\nOn Sun, 29 Nov 2026, Bob <bob@example.org> wrote:\n> x", "I pass.", "On Sun, 29 Nov 2026, Bob <bob@example.org> wrote:\n> x"},
		{"wrapped attribution", "I pass.\nOn Sun, 29 Nov 2026 at 10:00, Bob Example <\nbob@example.org> wrote:\n> x",
			"I pass.", "On Sun, 29 Nov 2026 at 10:00, Bob Example <\nbob@example.org> wrote:\n> x"},
		{"french", "Je passe.\nLe 29/11/2026 à 10:00, Bob a écrit :\n> x", "Je passe.", "Le 29/11/2026 à 10:00, Bob a écrit :\n> x"},
		{"german", "Am 29.11.26 um 09:00 schrieb Bob:\n> x\n\nI pass.", "I pass.", "Am 29.11.26 um 09:00 schrieb Bob:\n> x"},
		{"unquoted original under attribution", "I pass.\n\nOn Sun, Nov 29, 2026 Bob wrote:\nI bid 1 on Flight.", "I pass.", "On Sun, Nov 29, 2026 Bob wrote:\nI bid 1 on Flight."},
		{"prose wrote kept", "On reflection, this is what I wrote:\nI submit a proposal.", "I submit a proposal.", "On reflection, this is what I wrote:"},
		{"prose wrote no cut", "On Monday I wrote:\nI bid 3 on Flight.", "I bid 3 on Flight.", "On Monday I wrote:"},
		{"colon action kept", "I claim these cells:\n(1, 2)\n(3, 4)", "I claim these cells:\n(1, 2)\n(3, 4)", ""},
		{"signature", "I pass.\n-- \nBob\nI join the Life contest.", "I pass.", "--\nBob\nI join the Life contest."},
		{"bare signature", "I pass.\n--\nBob", "I pass.", "--\nBob"},
		{"dashes in text", "I pass. -- really\n---\nmore", "I pass. -- really\n---\nmore", ""},
		{"original message", "I pass.\n-----Original Message-----\nFrom: x\nI bid", "I pass.", "-----Original Message-----\nFrom: x\nI bid"},
		{"from-sent block", "I pass.\n\nFrom: Bob <b@x>\nSent: Sunday\nTo: list\nSubject: y\n\nI bid 3.", "I pass.", "From: Bob <b@x>\nSent: Sunday\nTo: list\nSubject: y\n\nI bid 3."},
		{"from line alone is text", "From: the referee's report I see\nthat I bid 3.", "From: the referee's report I see\nthat I bid 3.", ""},
		{"underscore footer", "I pass.\n_______________________________________________\nagora-business mailing list\nx", "I pass.", "_______________________________________________\nagora-business mailing list\nx"},
		{"crlf", "I pass.\r\n> q\r\n", "I pass.", "> q"},
		{"blank runs", "\n\nA\n\n\n\nB\n\n", "A\n\nB", ""},
		{"empty", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, q := stripQuoted(tc.in)
			if k != tc.kept || q != tc.quoted {
				t.Errorf("stripQuoted(%q)\n kept   %q, want %q\n quoted %q, want %q", tc.in, k, tc.kept, q, tc.quoted)
			}
		})
	}
}

func TestUnflow(t *testing.T) {
	for _, tc := range []struct {
		in    string
		delsp bool
		want  string
	}{
		{"I bid 3 \non Flight.", false, "I bid 3 on Flight."},
		{"I bid 3 \non Flight.", true, "I bid 3on Flight."},
		{"Flig \nht.", true, "Flight."},
		{" >not a quote", false, ">not a quote"},
		{"> a \n> b\nc", false, "> a b\nc"},
		{"> a \n>> b", false, "> a \n>> b"}, // §4.5: no joining across a depth change
		{"text \n-- \nsig", false, "text \n-- \nsig"},
		{"no trailing", false, "no trailing"},
	} {
		if got := unflow(tc.in, tc.delsp); got != tc.want {
			t.Errorf("unflow(%q, %v) = %q, want %q", tc.in, tc.delsp, got, tc.want)
		}
	}
}

func TestHTMLToText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<p>I bid 3 on Flight.</p><p>Bye</p>", "I bid 3 on Flight.\n\nBye"},
		{"a<br>b<br/>c<BR >d", "a\nb\nc\nd"},
		{"<div>a</div><div>b</div>", "a\nb"},
		{"x &amp; y &lt;3&gt; &nbsp;&eacute;&#233;&#xe9;", "x & y <3> éé\u00e9"},
		{"<blockquote>q1<blockquote>q2</blockquote></blockquote>after", "> q1\n>\n> > q2\n> >\nafter"},
		{"<script>evil()</script><style>p{}</style>ok", "ok"},
		{"a < b and c > d", "a < b and c > d"},
		{"<p>unclosed <b>bold", "unclosed bold"},
		{"<!-- comment -->text<!-- unterminated", "text"},
		{"<pre>  keep\n  spaces</pre>", "  keep\n  spaces"},
		{"<table><tr><td>a</td><td>b</td></tr></table>", "a b"},
		{"<a href='x>y'>link</a>", "link"},
		{"<head><title>t</title>", ""},
	} {
		if got := htmlToText(tc.in); got != tc.want {
			t.Errorf("htmlToText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestInlinePGP(t *testing.T) {
	in := "before\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nI pass.\n- -- \nsig\n-----BEGIN PGP SIGNATURE-----\nabc\n-----END PGP SIGNATURE-----\nafter"
	got, _ := inlinePGP(in)
	if want := "before\nI pass.\n-- \nsig\nafter"; got != want {
		t.Errorf("inlinePGP = %q, want %q", got, want)
	}
	got, note := inlinePGP("x\n-----BEGIN PGP MESSAGE-----\nabc\n-----END PGP MESSAGE-----\n")
	if got != "x\n" || note == "" {
		t.Errorf("encrypted: %q, note %q", got, note)
	}
}

// TestBodyDecoding: what a part's transfer encoding and charset make of its
// text, as go-message decodes it, with a note where bytes could not be read.
func TestBodyDecoding(t *testing.T) {
	for _, tc := range []struct {
		name, ct, cte, body, want string
		note                      bool
	}{
		{"qp escapes and soft breaks", "text/plain; charset=utf-8", "quoted-printable", "=C3=A9t=C3=A9 a=3Db soft=\nbreak", "été a=b softbreak", false},
		{"qp invalid escape kept", "text/plain", "quoted-printable", "x = 3 and =ZZ", "x = 3 and =ZZ", false},
		{"base64 over CRLF lines", "text/plain", "base64", "SSBiaWQgMyBv\r\nbiBGbGlnaHQu\r\n", "I bid 3 on Flight.", false},
		{"base64 with garbage", "text/plain", "base64", "SSBiaWQg\n!!garb@", "I bid", true},
		{"latin1 read as windows-1252", "text/plain; charset=iso-8859-1", "8bit", "caf\xe9 \x96 ok", "café – ok", false},
		{"koi8-r", "text/plain; charset=koi8-r", "8bit", "\xf0\xd2\xc9\xd7\xc5\xd4", "Привет", false},
		{"undeclared 8-bit", "text/plain", "", "caf\xe9", "café", true},
		{"unknown charset", "text/plain; charset=x-unknown", "", "abc", "abc", true},
		{"invalid utf-8", "text/plain; charset=utf-8", "", "a\xff", "a\uFFFD", true},
		{"unknown encoding", "text/plain", "x-uuencode", "abc", "abc", true},
		{"broken content type", `text/plain; charset="koi8-r`, "", "\xf0\xd2\xc9\xd7\xc5\xd4", "Привет", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := "From: a@example.org\nContent-Type: " + tc.ct + "\n"
			if tc.cte != "" {
				raw += "Content-Transfer-Encoding: " + tc.cte + "\n"
			}
			m, err := Parse([]byte(raw+"\n"+tc.body), time.Time{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(m.Text, tc.want) || (len(m.Notes) > 0) != tc.note {
				t.Errorf("Text = %q, Notes = %q; want %q, a note: %v", m.Text, m.Notes, tc.want, tc.note)
			}
		})
	}
}

// TestMultipartDelimiters: a line that only starts with the boundary does
// not split, a delimiter may carry trailing white space, the preamble and
// the epilogue are not text, and an unclosed multipart keeps its last part.
func TestMultipartDelimiters(t *testing.T) {
	head := "From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n"
	m, err := Parse([]byte(head+"preamble\n--b\nContent-Type: text/plain\n\none\n--bb\nnot a delimiter\n--b \n\ntwo\n--b--\nepilogue\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "one\n--bb\nnot a delimiter\n\ntwo" || len(m.Notes) != 0 {
		t.Errorf("Text = %q, Notes = %q", m.Text, m.Notes)
	}
	m, err = Parse([]byte(head+"--b\n\nonly\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "only" || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], "not closed") {
		t.Errorf("unclosed: Text = %q, Notes = %q", m.Text, m.Notes)
	}
}
