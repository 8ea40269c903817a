package mailin

import (
	"strings"
	"testing"
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

func TestDecodeQP(t *testing.T) {
	for in, want := range map[string]string{
		"a=3Db":            "a=b",
		"soft=\nbreak":     "softbreak",
		"soft= \t\nbreak":  "softbreak",
		"x = 3 and =ZZ":    "x = 3 and =ZZ",
		"trailing   \nend": "trailing\nend",
		"=C3=A9t=C3=A9":    "été",
		"end=":             "end",
		"crlf\r\nline":     "crlf\nline",
	} {
		if got := string(decodeQP([]byte(in))); got != want {
			t.Errorf("decodeQP(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeBase64Lenient(t *testing.T) {
	for in, want := range map[string]string{
		"SSBiaWQ=":           "I bid",
		"SSBi\r\naWQ":        "I bid",
		"SSBi aWQ=\n!!garb@": "I bid",
	} {
		got, _ := decodeBase64([]byte(in))
		if !strings.HasPrefix(string(got), want) {
			t.Errorf("decodeBase64(%q) = %q, want prefix %q", in, got, want)
		}
	}
}

func TestSplitMultipart(t *testing.T) {
	body := "preamble\n--b\nContent-Type: text/plain\n\none\n--bb\nnot a delimiter\n--b \n\ntwo\n--b--\nepilogue\n"
	parts, closed := splitMultipart([]byte(body), "b")
	if !closed || len(parts) != 2 {
		t.Fatalf("parts = %q, closed = %v", parts, closed)
	}
	if string(parts[0]) != "Content-Type: text/plain\n\none\n--bb\nnot a delimiter" || string(parts[1]) != "\ntwo" {
		t.Errorf("parts = %q", parts)
	}
	parts, closed = splitMultipart([]byte("--b\n\nonly\n"), "b")
	if closed || len(parts) != 1 || string(parts[0]) != "\nonly\n" {
		t.Errorf("unclosed: parts = %q, closed = %v", parts, closed)
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

func TestMediaTypeLenient(t *testing.T) {
	typ, p, ok := mediaType(`text/plain; charset="iso-8859-1`)
	if ok || typ != "text/plain" || p["charset"] != "iso-8859-1" {
		t.Errorf("mediaType = %q %v %v", typ, p, ok)
	}
	typ, p, ok = mediaType(`multipart/mixed; boundary="a b"; foo=bar`)
	if !ok || typ != "multipart/mixed" || p["boundary"] != "a b" {
		t.Errorf("mediaType = %q %v %v", typ, p, ok)
	}
}

func TestToUTF8(t *testing.T) {
	for _, tc := range []struct {
		label string
		in    []byte
		want  string
		note  bool
	}{
		{"iso-8859-1", []byte{'c', 'a', 'f', 0xe9, ' ', 0x96}, "café –", false},
		{"koi8-r", []byte{0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4}, "Привет", false},
		{"", []byte{'c', 'a', 'f', 0xe9}, "café", true},
		{"x-unknown", []byte("abc"), "abc", true},
		{"utf-8", []byte{'a', 0xff}, "a\uFFFD", true},
	} {
		got, note := toUTF8(tc.label, tc.in)
		if got != tc.want || (note != "") != tc.note {
			t.Errorf("toUTF8(%q, %q) = %q, %q", tc.label, tc.in, got, note)
		}
	}
}
