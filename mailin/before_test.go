package mailin

// The readings Parse made before they were made cheaper, kept as the
// references the new ones are held to: the same output, byte for byte, on
// the corpus, on mutations of it and on random input.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/mail"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
)

// underscoreRE is Outlook's rule line before a reply header block, as the
// reader matched it before underscoreRule.
var underscoreRE = regexp.MustCompile(`^\s*_{10,}\s*$`)

// stripQuotedBefore is stripQuoted as it was: strings.Split, the kept and
// quoted lines gathered in slices, joinLinesBefore, and outlookBlockAt
// running its regular expressions on every line with a "-", "_" or colon.
func outlookBlockAtBefore(lines []string, i int) bool {
	l := lines[i]
	// Cheap tests first: most lines are none of these.
	if !strings.ContainsAny(l, "-_:") && !strings.Contains(l, "：") {
		return false
	}
	if (strings.Contains(l, "--") && originalRE().MatchString(l)) || forwardRE().MatchString(l) {
		return true
	}
	if strings.Contains(l, "__________") && underscoreRE.MatchString(l) {
		// Blank lines do not count toward any window: stripping collapses
		// them, and stripping twice must give the same text.
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "" {
				continue
			}
			// Outlook's reply header, or a Mailman list footer.
			return hdrFromRE().MatchString(lines[j]) || footerRE().MatchString(lines[j])
		}
		return false
	}
	if !hdrFromRE().MatchString(l) {
		return false
	}
	n, seen := 0, 0
	// Each blank or quoted line is skipped here for at most the six "From:"
	// lines before it, so this stays linear. Neither counts toward the
	// window: both are gone from the kept text, and stripping it again must
	// find the same blocks.
	for j := i + 1; j < len(lines) && seen < 6; j++ {
		if strings.TrimSpace(lines[j]) == "" || isQuoted(lines[j]) {
			continue
		}
		seen++
		if hdrNextRE().MatchString(lines[j]) {
			n++
		}
	}
	return n >= 2
}
func stripQuotedBefore(text string) (kept, quoted string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	lines := strings.Split(text, "\n")
	removed := make([]bool, len(lines))
	cut := len(lines)
	for i, l := range lines {
		if isSigDelimiter(l) || (!isQuoted(l) && outlookBlockAtBefore(lines, i)) {
			cut = i
			break
		}
	}
	for i := 0; i < cut; i++ {
		l := lines[i]
		if isQuoted(l) {
			removed[i] = true
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || !(strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) {
			continue
		}
		next := nextNonBlank(lines, i+1)
		quoteFollows := next < cut && isQuoted(lines[next])
		// Attributions carry a date or an address; "On reflection, this
		// is what I wrote:" does not.
		evidence := strings.ContainsAny(t, "0123456789@")
		byWord := wroteAtEnd(t) || (evidence && introRE().MatchString(t) && wroteInRE().MatchString(t))
		byShape := quoteFollows && (strings.Contains(t, "@") || strings.Contains(t, "<")) // "2026年11月29日 ... <a@b>:"
		if !byWord && !byShape {
			continue
		}
		removed[i] = true
		intro := introRE().MatchString(t)
		// Wrapped over two lines: "On Sun, 29 Nov 2026 at 10:00, Alice <alice@" / "example.org> wrote:".
		if !intro && i > 0 && !removed[i-1] && !isQuoted(lines[i-1]) && introRE().MatchString(lines[i-1]) && len(t) < 60 {
			removed[i-1] = true
			intro = true
			evidence = evidence || strings.ContainsAny(lines[i-1], "0123456789@")
		}
		if intro && evidence && !quoteFollows && next < cut {
			cut = i + 1 // the quote below carries no quote marks
			break
		}
	}
	var k, q []string
	for i, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if i >= cut || removed[i] {
			q = append(q, l)
		} else {
			k = append(k, l)
		}
	}
	return joinLinesBefore(k), joinLinesBefore(q)
}
func joinLinesBefore(lines []string) string {
	var b strings.Builder
	blank := 0
	started := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			if started {
				blank++
			}
			continue
		}
		if started {
			b.WriteByte('\n')
			if blank > 0 {
				b.WriteByte('\n')
			}
		}
		blank = 0
		started = true
		b.WriteString(l)
	}
	return b.String()
}

// asIsBefore is asIs as it was: both values made lower case.
func asIsBefore(h header, params map[string]string) bool {
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "", "7bit", "8bit", "binary":
	default:
		return false
	}
	ch, ok := params["charset"]
	ch = strings.ToLower(ch)
	return !ok || ch == "utf-8" || ch == "us-ascii"
}

// unreadFieldBefore is unreadField as it was: every name compared.
func unreadFieldBefore(key []byte) bool {
	for _, f := range unreadFields {
		if len(f) == len(key) && bytes.EqualFold([]byte(f), key) {
			return true
		}
	}
	return false
}

// textBefore is what the walker made of a text part's bytes: cleanText of
// them, always.
func textBefore(data []byte) string { return cleanText(string(data)) }

// textNow is what the walker makes of them now, in a part declared
// UTF-8.
func textNow(data []byte) string {
	var h message.Header
	h.Set("Content-Type", "text/plain; charset=utf-8")
	w := &bodyWalker{limit: 1 << 20}
	return w.text(&h, map[string]string{"charset": "utf-8"}, true, bytes.NewReader(data), "1")
}

// goMessagesParams is go-message's reading of a field with parameters
// (its Header's ContentDisposition, which ContentType is but for an
// empty field).
func goMessagesParams(v string) (string, map[string]string, error) {
	var h message.Header
	h.Set("Content-Disposition", v)
	return h.ContentDisposition()
}

// corpusTexts are the texts stripQuoted is given on the corpus (each
// message's text, kept and quoted, as Parse found them) and each
// message's raw body.
func corpusTexts(t testing.TB) []string {
	var out []string
	for _, path := range corpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := Parse(raw, time.Time{}, corpusConfig()); err == nil {
			out = append(out, m.Text+"\n"+m.Quoted, m.Quoted+"\n\n"+m.Text)
		}
		_, body, _ := readHeader(raw)
		out = append(out, string(body))
	}
	return out
}

// stripLines are lines that stripQuoted's tests look at: quotes,
// attributions, Outlook's blocks and their words, signatures, blanks.
var stripLines = []string{"", " ", "\t", "\u00a0", "\r", "I bid 3 on Flight.", "> quoted", "  > indented", "    > too far", ">", ">> deep",
	"On Sun, 29 Nov 2026, Bob <bob@example.org> wrote:", "On Sun, 29 Nov 2026 at 10:00, Bob Example <", "bob@example.org> wrote:",
	"Am 29.11.26 um 09:00 schrieb Bob:", "Le 29/11/2026 à 10:00, Bob a écrit :", "On reflection, this is what I wrote:", "2026年11月29日 <a@b>:",
	"-- ", "--", "-- \u00a0", "---", "-----Original Message-----", "----- Forwarded message -----", "Begin forwarded message:",
	"_______________________________________________", "agora-business mailing list", "From: Bob <b@x>", "*From:* Bob", "from : x",
	"De: Bob", "Von: Bob", "Van: x", "Da: x", "Od: x", "Från: x", "Fra: x", "Lähettäjä: x", "От: x", "差出人: x", "发件人：x", "\tFrom:\tx",
	"\fDe: x", " * from: x", "Sent: Sunday", "Date: x", "To: list", "Subject: y", "Envoyé : x", "Betreff: y", "件名：y",
	"Fwd: x", "Dear: x", "Von dir: x", "lol: x", "Of: x", "of course:", "KFrom: x", "\u212arom: x", "ſent: x", "é: x", ": x", "*: x",
	"a@b:", "x: y", "I claim these cells:", "(1, 2)", "writes:", "On Monday I wrote:", "Bob wrote: ", "Bob wrote：", "-_-", "__init__:"}

// mutateText makes n texts of text, each with one change to one line:
// the line dropped, doubled, quoted, indented, given trailing blanks, or
// replaced by or preceded by a line of stripLines.
func mutateText(r *rand.Rand, text string, n int) []string {
	lines := strings.Split(text, "\n")
	var out []string
	for range n {
		ls := append([]string(nil), lines...)
		i := r.IntN(len(ls))
		pick := stripLines[r.IntN(len(stripLines))]
		switch r.IntN(7) {
		case 0:
			ls = append(ls[:i], ls[i+1:]...)
		case 1:
			ls = append(ls[:i+1], ls[i:]...)
		case 2:
			ls[i] = "> " + ls[i]
		case 3:
			ls[i] = " " + ls[i]
		case 4:
			ls[i] += " \t\r"
		case 5:
			ls[i] = pick
		case 6:
			ls = append(ls[:i], append([]string{pick}, ls[i:]...)...)
		}
		out = append(out, strings.Join(ls, []string{"\n", "\r\n"}[r.IntN(2)]))
	}
	return out
}

// randomText is a text of up to 30 lines of stripLines, some words of
// them joined on one line, ending in LF or CRLF.
func randomText(r *rand.Rand) string {
	var b strings.Builder
	end := []string{"\n", "\r\n"}[r.IntN(2)]
	for n := r.IntN(30); n >= 0; n-- {
		b.WriteString(stripLines[r.IntN(len(stripLines))])
		if r.IntN(5) == 0 {
			b.WriteString(stripLines[r.IntN(len(stripLines))])
		}
		b.WriteString(end)
	}
	return b.String()
}

// sameStrip fails unless stripQuoted gives for s what stripQuotedBefore
// gave.
func sameStrip(t *testing.T, s string) {
	t.Helper()
	k, q := stripQuoted(s)
	wk, wq := stripQuotedBefore(s)
	if k != wk || q != wq {
		t.Fatalf("stripQuoted(%q)\n= %q, %q\nwant %q, %q", s, k, q, wk, wq)
	}
}

// TestStripQuotedIsBefore: stripQuoted keeps and quotes what it did
// before, on the corpus's texts, 50 mutations of each, 20,000 random
// texts, and texts of more lines than it holds on the stack.
func TestStripQuotedIsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	texts := corpusTexts(t)
	for _, s := range texts {
		sameStrip(t, s)
		for _, m := range mutateText(r, s, 50) {
			sameStrip(t, m)
		}
	}
	for range 20000 {
		sameStrip(t, randomText(r))
	}
	for _, n := range []int{63, 64, 65, 200} {
		sameStrip(t, strings.Repeat("a\n", n))
		sameStrip(t, strings.Repeat("> a\n", n)+"b")
		sameStrip(t, strings.Repeat("word ", 300)+"\n> q\n"+strings.Repeat("b\n\n", n))
	}
}

func FuzzStripQuotedIsBefore(f *testing.F) {
	for _, s := range corpusTexts(f) {
		f.Add(s)
	}
	for _, l := range stripLines {
		f.Add("I pass.\n" + l + "\n> x\n")
	}
	f.Fuzz(func(t *testing.T, s string) { sameStrip(t, s) })
}

// mediaTypes are Content-Type and Content-Disposition values: the corpus
// writes most of them; the others have what plainMediaType leaves to
// mime.ParseMediaType or reads differently from a slip.
var mediaTypes = []string{"", "text/plain", "Text/PLAIN; Charset=UTF-8", "text/plain;charset=utf-8;", "text/plain; charset=utf-8 ;",
	"text/plain ; charset = \"UTF-8\" ; format = flowed", "text/plain;;", "text/plain; ;", "text/plain; charset=", "text/plain; charset=\"\"",
	"text/plain; charset=\"a;b\"", "text/plain; charset=\"a\\\"b\"", "text/plain; charset=\"a\\b\"", "text/plain; charset=\"unclosed",
	"text/plain; charset=\"caf\xc3\xa9\"", "text/plain; charset=caf\xc3\xa9", "text/plain; charset=utf-8; charset=utf-8",
	"text/plain; charset=utf-8; charset=us-ascii", "text/plain; Charset=a; charset=b", "text/plain; name*=utf-8''caf%C3%A9",
	"text/plain; name*0=a; name*1=b", "text/plain; name=\"=?utf-8?q?caf=C3=A9?=\"", "text/plain; name==?utf-8?q?x?=",
	"text", "text/", "/plain", "text/plain/x", "text / plain", " text/plain ", "\ttext/plain\t;\tcharset=x\t", "text/plain\v",
	"text/plain;\u00a0charset=x", "text/plain; charset=x y", "text/plain; charset=x\r\n", "text/plain charset=x", "attachment",
	"attachment; filename=a.txt", "inline; filename=\"a b.txt\"", "multipart/alternative; boundary=\"b14\"",
	"multipart/mixed; boundary=----=_Part_1", "multipart/mixed; boundary=\"----=_Part_1\"", "text/plain; a=b; c=d; e=f; g=h",
	"TEXT/\u212aELVIN", "text/plain; \u212a=x", "text/plain; x=\u212a", "text/plain; [a]=x", "text/plain; a=(x)", "text/plain; a=\"\r\"",
	"text/plain; a=\"x\"y", "text/plain; a=\"x\" y", "text/plain; a=\"x\";", "text/plain; a=x;;", "text/plain; a=\"x\\; b=c", "text/plain; a=\"x\n; b=c",
	"TEXT/PLAIN; CHARSET=US-ASCII", "application/Zip; Z=x"}

// corpusMediaTypes are the Content-Type and Content-Disposition values of
// the corpus's messages and parts, unfolded.
func corpusMediaTypes(t testing.TB) []string {
	re := regexp.MustCompile(`(?im)^content-(?:type|disposition):(.*(?:\r?\n[ \t].*)*)`)
	var out []string
	for _, path := range corpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(raw, -1) {
			out = append(out, unfold(m[1]))
		}
	}
	return out
}

// sameParams fails unless headerWithParams reads v as go-message does; it
// reports whether plainMediaType read it.
func sameParams(t *testing.T, v string) bool {
	t.Helper()
	typ, params, err := headerWithParams(v)
	wtyp, wparams, werr := goMessagesParams(v)
	if typ != wtyp || !reflect.DeepEqual(params, wparams) || (err == nil) != (werr == nil) {
		t.Fatalf("headerWithParams(%q) = %q, %q, %v; want %q, %q, %v", v, typ, params, err, wtyp, wparams, werr)
	}
	_, _, ok := plainMediaType(v)
	return ok
}

// TestHeaderWithParamsIsGoMessages: a field with parameters reads as
// go-message reads it, for the corpus's fields, mediaTypes, each with
// every byte of it dropped and with a byte that matters to the grammar
// put in at each place, and 20,000 of their pieces joined at random; some
// of them and not all take plainMediaType's way.
func TestHeaderWithParamsIsGoMessages(t *testing.T) {
	values := append(corpusMediaTypes(t), mediaTypes...)
	var plain, all int
	try := func(v string) {
		all++
		if sameParams(t, v) {
			plain++
		}
	}
	for _, v := range values {
		try(v)
		for i := range len(v) {
			try(v[:i] + v[i+1:])
			for _, c := range []string{";", "=", "\"", "\\", "/", " ", "\t", "*", "\r", "\n", "A", "\xc3", "=?", "\u00a0"} {
				try(v[:i] + c + v[i:])
			}
		}
	}
	r := rand.New(rand.NewPCG(14, 3))
	for range 20000 {
		v := values[r.IntN(len(values))]
		for n := r.IntN(3); n > 0; n-- {
			w := values[r.IntN(len(values))]
			i, j := r.IntN(len(v)+1), r.IntN(len(w)+1)
			v = v[:i] + w[j:]
		}
		try(v)
	}
	if plain == 0 || plain == all {
		t.Errorf("%d of %d values read by plainMediaType, want some and not all", plain, all)
	}
	for _, v := range []string{"text/plain; charset=UTF-8; format=flowed", "multipart/alternative; boundary=\"b14\"", "text/plain;"} {
		if _, _, ok := plainMediaType(v); !ok {
			t.Errorf("%q left to mime.ParseMediaType, want it read by plainMediaType", v)
		}
	}
}

// TestTokenBytesAreMimes: the bytes mediaToken takes into a token are
// those mime.ParseMediaType reads as a token's, each of the 256: "x/y;
// a=bcb" gives a = "bcb" for them alone.
func TestTokenBytesAreMimes(t *testing.T) {
	for c := range 256 {
		s := string([]byte{byte(c)})
		_, params, err := mime.ParseMediaType("x/y; a=b" + s + "b")
		if want := err == nil && params["a"] == "b"+s+"b"; tokenBytes[c] != want {
			t.Errorf("tokenBytes[%q] = %v, mime reads it as a token's byte: %v", s, tokenBytes[c], want)
		}
	}
}

func FuzzHeaderWithParamsIsGoMessages(f *testing.F) {
	for _, v := range append(corpusMediaTypes(f), mediaTypes...) {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) { sameParams(t, v) })
}

// TestAsIsIsBefore: asIs answers as it did, with the values made lower
// case, for the transfer encodings and charsets go-message compares and
// their look-alikes: each in odd case, with a byte changed, cut, grown,
// and with letters that become ASCII ones in lower case (İ, K) or fold to
// them (ſ).
func TestAsIsIsBefore(t *testing.T) {
	var values []string
	for _, v := range []string{"", "7bit", "8bit", "binary", "utf-8", "us-ascii", "base64", "quoted-printable", "x"} {
		values = append(values, keyVariants(v)...)
		for i := range len(v) {
			values = append(values, v[:i]+v[i+1:], v[:i]+"\u212a"+v[i+1:], v[:i]+"\u0130"+v[i+1:], v[:i]+"\u017f"+v[i+1:], v[:i]+"@"+v[i+1:], v[:i]+"\x00"+v[i:])
		}
		values = append(values, v+" ", " "+v, v+v)
	}
	values = append(values, "U\u017f-A\u017fC\u0130\u0130", "u\u017f-ascii", "b\u0130nary", "us-asc\u0130\u0130", "7B\u0130T")
	for _, cte := range values {
		for _, ch := range values {
			for _, withCharset := range []bool{false, true} {
				var h message.Header
				if cte != "" {
					h.Set("Content-Transfer-Encoding", cte)
				}
				params := map[string]string{}
				if withCharset {
					params["charset"] = ch
				}
				if got, want := asIs(&h, params), asIsBefore(&h, params); got != want {
					t.Fatalf("asIs(Content-Transfer-Encoding %q, charset %q (%v)) = %v, want %v", cte, ch, withCharset, got, want)
				}
			}
		}
	}
}

// TestUnreadFieldIsBefore: unreadField answers as it did for every
// unread field's name and the package's keys, in any case, cut, grown,
// with a letter changed for one that folds to it (K, ſ) or for the byte a
// letter's case bit makes of it, and for 20,000 random keys of their
// bytes.
func TestUnreadFieldIsBefore(t *testing.T) {
	var keys []string
	for _, k := range append(append([]string(nil), unreadFields...), readKeys...) {
		for _, v := range keyVariants(k) {
			keys = append(keys, v, v+"x", strings.TrimSuffix(v, v[max(0, len(v)-1):]))
			for i := range len(v) {
				keys = append(keys, v[:i]+"\u212a"+v[i+1:], v[:i]+"\u017f"+v[i+1:], v[:i]+string(v[i]^0x20)+v[i+1:])
			}
		}
	}
	for n := range 40 { // about the longest name, and as long as the table of lengths
		keys = append(keys, strings.Repeat("x", n))
	}
	r := rand.New(rand.NewPCG(14, 4))
	for range 20000 {
		k := []byte(unreadFields[r.IntN(len(unreadFields))])
		for n := r.IntN(3); n > 0; n-- {
			k[r.IntN(len(k))] ^= byte(1 << r.IntN(8))
		}
		keys = append(keys, string(k))
	}
	for _, k := range keys {
		if got, want := unreadField([]byte(k)), unreadFieldBefore([]byte(k)); got != want {
			t.Fatalf("unreadField(%q) = %v, want %v", k, got, want)
		}
	}
}

// textRunes are the characters cleanText changes or keeps and their
// neighbours in UTF-8.
var textRunes = []rune{'a', ' ', '\n', '\t', '\r', 0, 0x1f, 0x7f, 0x80, 0x9f, 0xa0, 0xa1, 0xe9, 0x600, 0x61b, 0x61c, 0x63f, 0x640,
	0x2000, 0x200d, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0x2fff, 0x3000, 0xf000, 0xfeff, 0xfffd, 0xffff, 0x10000}

// TestTextIsBefore: a text part's bytes make the text they did, for the
// corpus's texts, and 20,000 random texts of textRunes, some with a byte
// that is not UTF-8.
func TestTextIsBefore(t *testing.T) {
	texts := corpusTexts(t)
	r := rand.New(rand.NewPCG(14, 5))
	for range 20000 {
		var b []byte
		for n := r.IntN(40); n >= 0; n-- {
			b = utf8.AppendRune(b, textRunes[r.IntN(len(textRunes))])
		}
		if r.IntN(10) == 0 {
			b = append(b, 0xff)
		}
		texts = append(texts, string(b))
	}
	var fast int
	for _, s := range texts {
		if got, want := textNow([]byte(s)), textBefore([]byte(s)); got != want {
			t.Fatalf("text of %q = %q, want %q", s, got, want)
		}
		if utf8.ValidString(s) && !needsCleaning([]byte(s)) {
			fast++
		}
	}
	if fast == 0 || fast == len(texts) {
		t.Errorf("%d of %d texts need no cleaning, want some and not all", fast, len(texts))
	}
}

// sameSplit fails unless splitMultipart, where it splits b, finds the
// parts go-message's MultipartReader reads, with the same header values
// and bodies, and the multipart closed after them; it reports whether
// splitMultipart split b.
func sameSplit(t *testing.T, b []byte, boundary string) bool {
	t.Helper()
	parts, ok := splitMultipart(b, boundary)
	if !ok {
		return false
	}
	mr := textproto.NewMultipartReader(bytes.NewReader(b), boundary)
	for n, want := range parts {
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("%q, boundary %q: part %d split, go-message: %v", b, boundary, n+1, err)
		}
		keys := append([]string(nil), readKeys...)
		for f := p.Header.Fields(); f.Next(); {
			keys = append(keys, f.Key())
		}
		for _, k := range keys {
			if unreadField([]byte(k)) {
				continue
			}
			if got, w := want.header.Values(k), p.Header.Values(k); !reflect.DeepEqual(got, w) {
				t.Fatalf("%q, boundary %q: part %d: Values(%q) = %q, go-message's %q", b, boundary, n+1, k, got, w)
			}
		}
		body, err := io.ReadAll(p)
		if err != nil || !bytes.Equal(body, want.body) {
			t.Fatalf("%q, boundary %q: part %d: body %q, go-message's %q, %v", b, boundary, n+1, want.body, body, err)
		}
	}
	if _, err := mr.NextPart(); err != io.EOF {
		t.Fatalf("%q, boundary %q: split into %d parts, go-message: %v after them", b, boundary, len(parts), err)
	}
	return true
}

// sameWalk fails unless the walker makes of raw's body, held in memory
// (its multiparts split by splitMultipart where it can), what it makes of
// it read by go-message's MultipartReader alone: the same text, kind and
// notes. It reports whether splitMultipart split the body.
func sameWalk(t *testing.T, raw []byte) bool {
	t.Helper()
	h, body, _ := readUsedHeader(raw)
	fast, slow := &bodyWalker{limit: 1 << 12}, &bodyWalker{limit: 1 << 12}
	got, gk := fast.entity(h, newRawBody(body), 0, "", "text/plain")
	want, wk := slow.entity(h, bytes.NewReader(body), 0, "", "text/plain")
	if got != want || gk != wk || !reflect.DeepEqual(fast.notes, slow.notes) || fast.digest != slow.digest || fast.report != slow.report {
		t.Fatalf("%q:\ngot  %q %v %q %v %q\nwant %q %v %q %v %q", raw, got, gk, fast.notes, fast.digest, fast.report, want, wk, slow.notes, slow.digest, slow.report)
	}
	typ, params, _ := contentType(h)
	return strings.HasPrefix(typ, "multipart/") && sameSplit(t, body, params["boundary"])
}

// The pieces randomMultipart makes messages of.
var (
	splitBoundaries = []string{"b", "b14", "----=_Part_1", "a b", "b\\\"", "x"}
	splitPreamble   = []string{"This is a multi-part message in MIME format.", "", " ", "--@", "--@x", "--@--", "--@ -", "--", "x--@"}
	splitDelimiters = []string{"--@\n", "--@\n", "--@\n", "--@ \t\n", "--@\r\n", "--@x\n", "--@", "--@ x\n", "--@-\n", " --@\n"}
	splitHeaders    = []string{"Content-Type: text/plain; charset=utf-8\n", "Content-Type: text/html\n", "Content-Transfer-Encoding: base64\n",
		"Content-Transfer-Encoding: quoted-printable\n", "Content-Disposition: attachment\n", "Content-Disposition: inline; filename=a.txt\n",
		"MIME-Version: 1.0\n", "X-Other: y\n", " continued\n", "not a field\n", "Content-Type: text/plain; charset=\"unclosed\n",
		"Content-Type: multipart/alternative; boundary=inner\n", "Content-Type: multipart/mixed; boundary=\"@\"\n",
		"Content-Type: multipart/signed; boundary=s\n", "Content-Type: message/rfc822\n", "Content-Type: text/plain; charset=x-unknown\n",
		"Content-type:text/plain\n", "content-TYPE : text/html\n", ""}
	splitBody = []string{"I bid 3 on Flight.", "", "> quoted", "SSBiaWQgMy4=", "caf=C3=A9=", "--@x", "--inner", "--inner--", "--s", "--s--",
		"<p>I pass.</p>", "--", "-- ", "\xe9t\xe9", "--@", "--@-", "--@ ", "--@--", "--@--x", "--@\t"}
	splitClose = []string{"--@--\n", "--@--\n", "--@--", "--@-- \t\n", "--@--\r\n", "--@--x\n", "", "--@ --\n", "--@---\n"}
)

// randomMultipart is a message whose body is a multipart made at random
// of the pieces above ("@" the boundary): a preamble, up to three parts,
// some of them multiparts of their own, a close delimiter, an epilogue,
// the lines ending in LF or, at times, CRLF.
func randomMultipart(r *rand.Rand) []byte {
	// Half of them are made of the pieces a multipart splitMultipart
	// splits is made of (those first in each list), but for the bodies.
	good := r.IntN(2) == 0
	pick := func(s []string) string {
		if good {
			switch &s[0] {
			case &splitPreamble[0]:
				return s[r.IntN(3)]
			case &splitDelimiters[0]:
				return s[r.IntN(4)]
			case &splitHeaders[0]:
				return s[r.IntN(8)]
			case &splitClose[0]:
				return s[r.IntN(4)]
			case &splitBody[0]:
				return s[r.IntN(14)]
			}
		}
		return s[r.IntN(len(s))]
	}
	boundary := pick(splitBoundaries)
	var b strings.Builder
	b.WriteString("From: a@example.org\nContent-Type: multipart/" + pick([]string{"mixed", "alternative", "related", "signed"}) + "; boundary=\"" + boundary + "\"\n\n")
	for n := r.IntN(3); n > 0; n-- {
		b.WriteString(pick(splitPreamble) + "\n")
	}
	for n := r.IntN(4); n > 0 || good && n == 0; n-- {
		b.WriteString(pick(splitDelimiters))
		if good {
			b.WriteString(splitHeaders[r.IntN(2)])
		}
		for m := r.IntN(3); m > 0; m-- {
			b.WriteString(pick(splitHeaders))
		}
		if good || r.IntN(8) > 0 {
			b.WriteString("\n")
		}
		for m := r.IntN(4); m > 0; m-- {
			b.WriteString(pick(splitBody) + "\n")
		}
		if r.IntN(4) == 0 { // a multipart inside
			for _, l := range []string{"--inner", pick(splitHeaders), "", pick(splitBody), "--inner--", ""} {
				b.WriteString(l + "\n")
			}
		}
	}
	b.WriteString(pick(splitClose))
	if r.IntN(2) == 0 {
		b.WriteString(pick(splitBody) + "\n")
	}
	s := strings.ReplaceAll(b.String(), "@", boundary)
	if !good && r.IntN(3) == 0 {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return []byte(s)
}

// TestSplitMultipartIsGoMessages: a multipart split in memory gives the
// parts, and the walker the text and notes, go-message's MultipartReader
// gives, for the corpus's messages, each with each of its lines dropped,
// doubled or given a trailing space, and 20,000 random multiparts; some of
// them and not all are split in memory.
func TestSplitMultipartIsGoMessages(t *testing.T) {
	var split, all int
	try := func(raw []byte) {
		all++
		if sameWalk(t, raw) {
			split++
		}
	}
	for _, path := range corpusFiles(t) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		try(raw)
		try(bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")))
		lines := bytes.SplitAfter(bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")), []byte("\n"))
		for i := range lines {
			for _, change := range []func(l []byte) []byte{
				func([]byte) []byte { return nil },
				func(l []byte) []byte { return append(append([]byte(nil), l...), l...) },
				func(l []byte) []byte { return append(bytes.TrimSuffix(l, []byte("\n")), " \n"...) },
			} {
				var m []byte
				for j, l := range lines {
					if j == i {
						l = change(l)
					}
					m = append(m, l...)
				}
				try(m)
			}
		}
	}
	r := rand.New(rand.NewPCG(14, 6))
	for range 20000 {
		try(randomMultipart(r))
	}
	if split == 0 || split == all {
		t.Errorf("%d of %d multiparts split in memory, want some and not all", split, all)
	}
}

func FuzzSplitMultipartIsGoMessages(f *testing.F) {
	addCorpusSeeds(f, func(raw []byte) { f.Add(raw) })
	r := rand.New(rand.NewPCG(14, 7))
	for range 50 {
		f.Add(randomMultipart(r))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { sameWalk(t, raw) })
}

// unflowBefore is unflow as it was: every text rebuilt.
func unflowBefore(s string, delsp bool) string {
	var out strings.Builder // the paragraphs, one a line
	out.Grow(len(s))
	started, open := false, false
	curDepth := 0
	for line := range strings.SplitSeq(s, "\n") {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		body := line[depth:]
		body = strings.TrimPrefix(body, " ") // space-stuffing, or the space after the quote marks
		if open && (depth != curDepth || body == "-- ") {
			open = false // §4.5: a quote-depth change ends the paragraph; §4.3: so does the signature separator
		}
		curDepth = depth
		flowed := strings.HasSuffix(body, " ") && body != "-- "
		if flowed && delsp {
			body = body[:len(body)-1]
		}
		if !open {
			if started {
				out.WriteByte('\n')
			}
			started, open = true, true
			if depth > 0 {
				out.WriteString(strings.Repeat(">", depth))
				out.WriteByte(' ')
			}
		}
		out.WriteString(body)
		if !flowed {
			open = false
		}
	}
	return out.String()
}

// sameUnflow fails unless unflow gives for s, with and without DelSp, what
// unflowBefore gave.
func sameUnflow(t *testing.T, s string) {
	t.Helper()
	for _, delsp := range []bool{false, true} {
		if got, want := unflow(s, delsp), unflowBefore(s, delsp); got != want {
			t.Fatalf("unflow(%q, %v) = %q, want %q", s, delsp, got, want)
		}
	}
}

// flowedLines are lines unflow reads otherwise than as they are: quoted,
// space-stuffed, soft-broken, signature separators and their look-alikes.
var flowedLines = []string{"I bid 3 ", "on Flight.", "> quoted ", "> quoted", ">> deep", " stuffed", "  two", "-- ", "--", "--  ", " -- ", "> -- ", "a\t", "\u00a0", ""}

// TestUnflowIsBefore: unflow gives what it did, for the corpus's texts,
// 50 mutations of each (their lines and flowedLines), and 20,000 random
// texts of flowedLines and stripLines.
func TestUnflowIsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 8))
	for _, s := range corpusTexts(t) {
		sameUnflow(t, s)
		for _, m := range mutateText(r, s, 50) {
			sameUnflow(t, m)
			sameUnflow(t, strings.ReplaceAll(m, "\r\n", "\n"))
		}
	}
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(12); n >= 0; n-- {
			if r.IntN(2) == 0 {
				b.WriteString(flowedLines[r.IntN(len(flowedLines))])
			} else {
				b.WriteString(stripLines[r.IntN(len(stripLines))])
			}
			if n > 0 {
				b.WriteByte('\n')
			}
		}
		sameUnflow(t, b.String())
	}
}

// TestUnflowPlainAllocatesNothing: a flowed text with no line to join,
// quote or unstuff is given back as it is, with no copy made.
func TestUnflowPlainAllocatesNothing(t *testing.T) {
	s := "I claim cells (33, 45, 1) in Life.\n\nThanks for the summary.\n-- \nTrent176\n"
	if n := testing.AllocsPerRun(20, func() { unflow(s, false) }); n != 0 {
		t.Errorf("unflow of a plain text: %v allocations, want 0", n)
	}
}

func FuzzUnflowIsBefore(f *testing.F) {
	for _, s := range corpusTexts(f) {
		f.Add(s)
	}
	for _, l := range flowedLines {
		f.Add("a \n" + l + "\nb")
	}
	f.Fuzz(func(t *testing.T, s string) { sameUnflow(t, s) })
}

// TestSplitMultipartInMemory: the multiparts mail writes are split in
// memory, not left to go-message's reader: the bench's reply with its
// HTML part, a part with an empty body, a preamble with a blank line and
// blanks after the boundaries; a multipart cut right after a boundary is
// left to the reader.
func TestSplitMultipartInMemory(t *testing.T) {
	raw, err := os.ReadFile("testdata/bench/chatter-html.eml")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := readUsedHeader(raw)
	for _, tc := range []struct {
		name, boundary string
		body           []byte
		parts          int
	}{
		{"chatter-html", "b14", body, 2},
		{"empty body", "b", []byte("--b\nContent-Type: text/plain\n\n\n--b\nContent-Type: text/html\n\n<p>x</p>\n--b--\n"), 2},
		{"preamble and blanks", "b", []byte("This is a multi-part message in MIME format.\n\n--b \t\nContent-Type: text/plain\n\nI pass.\n--b\t\nContent-Type: text/html\n\n<p>I pass.</p>\n--b-- \n"), 2},
		{"cut after the boundary", "b", []byte("--b\nContent-Type: text/plain\n\nI pass.\n--b"), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts, ok := splitMultipart(tc.body, tc.boundary)
			if tc.parts < 0 {
				if ok {
					t.Errorf("split into %d parts, want it left to go-message", len(parts))
				}
				return
			}
			if !ok || len(parts) != tc.parts {
				t.Errorf("split %v into %d parts, want %d", ok, len(parts), tc.parts)
			}
			sameSplit(t, tc.body, tc.boundary)
		})
	}
}

// fromLineDateBefore is fromLineDate as it was: every From_ line's words
// joined from each place a date may start and given to time.Parse in
// each layout.
func fromLineDateBefore(line string) time.Time {
	f := strings.Fields(strings.TrimPrefix(line, "From "))
	for _, i := range []int{1, 0, 2, 3, 4} {
		if i >= len(f) || !isWeekdayOrDigit(f[i]) {
			continue
		}
		rest := strings.Join(f[i:], " ")
		for _, l := range fromLineLayouts {
			if t, err := time.Parse(l, rest); err == nil {
				return t
			}
		}
	}
	return time.Time{}
}

// fromLines are From_ lines as mboxes write them and as they should not:
// asctime's form, with a zone, without seconds or a sender, a day past
// its month's end, names in another case, a digit where a space pads.
var fromLines = []string{"From agora-discussion-bounces@example.test Mon Nov  2 08:03:44 2026",
	"From a@example.test Tue Dec 15 23:59:59 2026", "From a@example.test Sun Feb 29 00:00:00 2028",
	"From a@example.test Sun Feb 29 00:00:00 2027", "From a@example.test Mon Apr 31 10:00:00 2026",
	"From a@example.test Mon Nov 02 08:03:44 2026", "From a@example.test Mon Nov  0 08:03:44 2026",
	"From a@example.test Mon Nov 32 08:03:44 2026", "From a@example.test mon nov  2 08:03:44 2026",
	"From a@example.test MON NOV  2 08:03:44 2026", "From a@example.test Xyz Nov  2 08:03:44 2026",
	"From a@example.test Mon Noo  2 08:03:44 2026", "From a@example.test Mon Nov  2 24:00:00 2026",
	"From a@example.test Mon Nov  2 8:03:44 2026", "From a@example.test Mon Nov  2 08:60:44 2026",
	"From a@example.test Mon Nov  2 08:03:60 2026", "From a@example.test Mon Nov  2 08:03:44 0000",
	"From a@example.test Mon Jan  1 00:00:00 0001", "From a@example.test Mon Nov  2 08:03:44 -0700 2026",
	"From a@example.test Mon Nov  2 08:03:44 UTC 2026", "From a@example.test Mon Nov  2 08:03 2026",
	"From a@example.test Mon, 2 Nov 2026 08:03:44 +0100", "From a@example.test 2026-11-02T08:03:44Z",
	"From Mon Nov  2 08:03:44 2026", "From  a@example.test Mon Nov  2 08:03:44 2026",
	"From a@example.test  Mon Nov  2 08:03:44 2026", "From a@example.test Mon Nov  2 08:03:44 2026 ",
	"From a b Mon Nov  2 08:03:44 2026", "From a\u00a0b Mon Nov  2 08:03:44 2026", "From caf\xc3\xa9 Mon Nov  2 08:03:44 2026",
	"From a@example.test\tMon Nov  2 08:03:44 2026", "From a@example.test Mon\tNov  2 08:03:44 2026",
	"From a@example.test Mon Nov \t2 08:03:44 2026", "From a@example.test Mon Nov 2 08:03:44 2026",
	"From a@example.test Mon Nov  2 08:03:44 2O26", "From a@example.test Mon Nov  2 08:03:44 +026",
	"From a@example.test Mon Nov  2 08:03:44.5 2026", "From a@example.test unM Nov  2 08:03:44 2026",
	"From a@example.test Mon anF  2 08:03:44 2026", "From a@example.test Mon Nov 1 2 08:03:44 2026", "From ", "From", ""}

// TestFromLineDateIsBefore: a From_ line's date reads as it did, for
// fromLines, each with every byte of it dropped and with a byte that
// matters to the form put in at each place, and random asctime dates.
func TestFromLineDateIsBefore(t *testing.T) {
	same := func(l string) {
		t.Helper()
		if got, want := fromLineDate(l), fromLineDateBefore(l); !got.Equal(want) || got.String() != want.String() {
			t.Fatalf("fromLineDate(%q) = %v, before %v", l, got, want)
		}
	}
	if _, ok := asctimeFromLine(fromLines[0]); !ok {
		t.Errorf("%q is not read by the shortcut", fromLines[0])
	}
	for _, l := range fromLines {
		same(l)
		for i := range len(l) {
			same(l[:i] + l[i+1:])
			for _, c := range []string{" ", "\t", "0", "9", ":", "a", "M", "\xa0"} {
				same(l[:i] + c + l[i:])
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 9))
	for range 20000 {
		d := time.Date(r.IntN(3000), time.Month(1+r.IntN(12)), 1+r.IntN(31), r.IntN(25), r.IntN(61), r.IntN(61), 0, time.UTC)
		l := "From a@example.test " + d.Format("Mon Jan _2 15:04:05 2006")
		same(l)
		same(strings.Replace(l, d.Format("15"), fmt.Sprint(r.IntN(100)), 1))
	}
}

func FuzzFromLineDateIsBefore(f *testing.F) {
	for _, l := range fromLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := fromLineDate(l), fromLineDateBefore(l); !got.Equal(want) || got.String() != want.String() {
			t.Fatalf("fromLineDate(%q) = %v, before %v", l, got, want)
		}
	})
}

// TestIsQuotedIsBefore: isQuoted reads every line of up to seven bytes of
// spaces, tabs, '>', 'a' and a no-break space's first byte as it did with
// strings.TrimLeft (stripQuotedBefore calls the new one, so its test
// cannot hold it).
func TestIsQuotedIsBefore(t *testing.T) {
	before := func(line string) bool {
		t := strings.TrimLeft(line, " \t")
		return len(line)-len(t) <= 3 && strings.HasPrefix(t, ">")
	}
	alphabet := []string{" ", "\t", ">", "a", "\xc2"}
	var walk func(line string)
	walk = func(line string) {
		if got, want := isQuoted(line), before(line); got != want {
			t.Fatalf("isQuoted(%q) = %v, before %v", line, got, want)
		}
		if len(line) < 7 {
			for _, c := range alphabet {
				walk(line + c)
			}
		}
	}
	walk("")
}

// parseDateBefore is parseDate as it was: time.Parse in RFC1123Z, then
// net/mail.
func parseDateBefore(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, errors.New("no date")
	}
	if t, err := time.Parse(time.RFC1123Z, v); err == nil {
		return t, nil
	}
	return mail.ParseDate(v)
}

// dateFields are Date fields as clients write them and as they should
// not: other zones, a day past its month's end, names in another case,
// one digit where the layout has two, offsets of a day and more.
var dateFields = []string{"Mon, 02 Nov 2026 08:03:39 +0000", "Tue, 31 Dec 2026 23:59:59 -0800", "Sun, 29 Feb 2028 00:00:00 +0530",
	"Sun, 29 Feb 2027 00:00:00 +0000", "Thu, 31 Apr 2026 10:00:00 +0000", "Mon, 00 Nov 2026 08:03:39 +0000",
	"mon, 02 nov 2026 08:03:39 +0000", "Mon, 2 Nov 2026 08:03:39 +0000", "Mon, 02 Nov 2026 8:03:39 +0000",
	"Mon, 02 Nov 2026 24:00:00 +0000", "Mon, 02 Nov 2026 08:60:39 +0000", "Mon, 02 Nov 2026 08:03:60 +0000",
	"Mon, 02 Nov 2026 08:03:39 +2400", "Mon, 02 Nov 2026 08:03:39 +2359", "Mon, 02 Nov 2026 08:03:39 -1260",
	"Mon, 02 Nov 2026 08:03:39 +0060", "Mon, 02 Nov 2026 08:03:39 0000", "Mon, 02 Nov 2026 08:03:39 GMT",
	"Mon, 02 Nov 2026 08:03:39 +0000 (UTC)", "02 Nov 2026 08:03:39 +0000", "Mon, 02 Nov 26 08:03:39 +0000",
	"Mon, 02 Nov 0000 08:03:39 +0000", "Mon, 01 Jan 0001 00:00:00 +0000", "Xyz, 02 Nov 2026 08:03:39 +0000",
	"Mon, 02 Noo 2026 08:03:39 +0000", "Mon, 02 Nov 2026 08:03:39.5 +0000", "Sun, 08 Mar 2026 02:30:00 -0500",
	"Sun, 01 Nov 2026 01:30:00 -0400", "Sun, 01 Nov 2026 01:30:00 -0500", "Mon, 02 Nov 2026 08:03:39 +0100", ""}

// TestParseDateIsBefore: a Date field reads as it did, in the zone it
// did, for dateFields, each with every byte of it dropped and with a byte
// that matters to the form put in at each place, and random dates in
// random offsets, with the local zone UTC, an hour east and New York.
func TestParseDateIsBefore(t *testing.T) {
	if _, ok := rfc1123Z(dateFields[0]); !ok {
		t.Errorf("%q is not read by the shortcut", dateFields[0])
	}
	zones := []*time.Location{time.UTC, time.FixedZone("X", 3600)}
	if ny, err := time.LoadLocation("America/New_York"); err == nil {
		zones = append(zones, ny)
	}
	defer func(l *time.Location) { time.Local = l }(time.Local)
	r := rand.New(rand.NewPCG(5, 11))
	for _, z := range zones {
		time.Local = z
		for _, v := range dateFields {
			sameDate(t, v)
			for i := range len(v) {
				sameDate(t, v[:i]+v[i+1:])
				for _, c := range []string{" ", "0", "9", ":", ",", "+", "-", "a"} {
					sameDate(t, v[:i]+c+v[i:])
				}
			}
		}
		for range 5000 {
			d := time.Date(r.IntN(3000), time.Month(1+r.IntN(12)), 1+r.IntN(31), r.IntN(25), r.IntN(61), r.IntN(61), 0, time.UTC)
			off := fmt.Sprintf("%c%02d%02d", "+-"[r.IntN(2)], r.IntN(26), r.IntN(62))
			sameDate(t, d.Format("Mon, 02 Jan 2006 15:04:05 ")+off)
		}
	}
}

func sameDate(t *testing.T, v string) {
	t.Helper()
	got, err := parseDate(v)
	want, werr := parseDateBefore(v)
	if (err == nil) != (werr == nil) || !got.Equal(want) || got.String() != want.String() || (got.Location() == time.Local) != (want.Location() == time.Local) {
		t.Fatalf("parseDate(%q) = %v, %v; before %v, %v", v, got, err, want, werr)
	}
}

func FuzzParseDateIsBefore(f *testing.F) {
	for _, v := range dateFields {
		f.Add(v)
	}
	f.Fuzz(sameDate)
}

// mboxNextBefore is the mbox reader's Next as it was: every line read by
// readLine, tested and written to the message's buffer one by one.
func mboxNextBefore(a *mboxArchive) (*Raw, error) {
	if !a.first {
		a.first = true
		// Never empty: OpenArchive took the file for an mbox because its
		// first five bytes, buffered, are "From ". An error after them
		// comes again from the next read.
		line, _ := a.readLine()
		a.from = strings.TrimRight(string(line), "\r\n")
	}
	// At the end no From_ line is pending: a From_ line read last ends
	// its message's read before the end is seen, and the next read, which
	// sees it, finds no other.
	if a.eof {
		return nil, io.EOF
	}
	// Sized for a message as long as the last one, so that it is written
	// in place instead of copied as it grows; the memory of a message
	// released (Raw.Release) is used again.
	buf := bytes.NewBuffer(a.buffer(a.size + a.size/8 + 512))
	prevBlank := false
	next := ""
	for {
		line, err := a.readLine()
		if len(line) > 0 {
			if bytes.HasPrefix(line, []byte("From ")) {
				t := strings.TrimRight(string(line), "\r\n")
				if prevBlank || !fromLineDate(t).IsZero() {
					next = t
					break
				}
			}
			prevBlank = blankLine(line)
			if line[0] == '>' {
				j := 0
				for j < len(line) && line[j] == '>' {
					j++
				}
				if bytes.HasPrefix(line[j:], []byte("From ")) {
					line = line[1:]
				}
			}
			buf.Write(line)
		}
		if err == io.EOF {
			a.eof = true
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read mbox: %w", err)
		}
	}
	fromLine := a.from
	a.from = next
	data := buf.Bytes()
	a.size = min(len(data), maxSizeHint)
	// The blank line before the next From_ line (or the end of the file)
	// belongs to the mbox format.
	if bytes.HasSuffix(data, []byte("\r\n\r\n")) {
		data = data[:len(data)-2]
	} else if bytes.HasSuffix(data, []byte("\n\n")) {
		data = data[:len(data)-1]
	}
	if len(bytes.TrimSpace(data)) == 0 && next == "" && a.eof {
		return nil, io.EOF
	}
	a.n++
	arrived := fromLineDate(fromLine)
	if arrived.IsZero() {
		arrived = headerDate(data)
	}
	return &Raw{Data: data, Arrived: arrived.UTC(), UID: a.n, free: a.free}, nil
}

// mboxLines are the lines an mbox's tests are made of: From_ lines that
// part messages and that do not, quoted ones, blank lines of LF, CRLF and
// CRs, lines of text, a long one, and the same without their line end.
var mboxLines = []string{"From a@example.test Mon Nov  2 08:03:44 2026\n", "From a@example.test Mon Nov  2 08:03:44 2026\r\n",
	"From nobody\n", "From \n", "From", ">From here\n", ">>From here\n", ">From\n", "> From\n", ">\n", "\n", "\r\n", "\r\r\n", "\r",
	"Subject: a\n", "I join the Life contest.\n", "text\r\n", "F\n", "Fro\n", strings.Repeat("long ", 30) + "\n", strings.Repeat("x", 70)}

// TestMboxIsBefore: the mbox reader finds the messages, their bytes, dates
// and numbers it found before, on 3,000 random mboxes of mboxLines read
// through buffers of 16, 64 and 4,096 bytes (lines longer than the buffer,
// lines across its end), each message released after it is compared so
// that its memory is read into again.
func TestMboxIsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	for range 3000 {
		var b strings.Builder
		b.WriteString("From ")
		for range r.IntN(60) {
			b.WriteString(mboxLines[r.IntN(len(mboxLines))])
		}
		sameMbox(t, b.String())
	}
}

func sameMbox(t *testing.T, s string) {
	t.Helper()
	for _, size := range []int{16, 64, 4096} {
		now := &mboxArchive{r: bufio.NewReaderSize(strings.NewReader(s), size), free: make(chan []byte, mboxFree)}
		before := &mboxArchive{r: bufio.NewReaderSize(strings.NewReader(s), size), free: make(chan []byte, mboxFree)}
		for n := 0; ; n++ {
			got, err := now.Next()
			want, werr := mboxNextBefore(before)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("buffer %d, message %d of %q: error %v, before %v", size, n, s, err, werr)
			}
			if err != nil {
				break
			}
			if !bytes.Equal(got.Data, want.Data) || !got.Arrived.Equal(want.Arrived) || got.UID != want.UID {
				t.Fatalf("buffer %d, message %d of %q: %q %v %d, before %q %v %d", size, n, s, got.Data, got.Arrived, got.UID, want.Data, want.Arrived, want.UID)
			}
			got.Release()
			want.Release()
		}
	}
}

func FuzzMboxIsBefore(f *testing.F) {
	f.Add("From a@example.test Mon Nov  2 08:03:44 2026\nSubject: a\n\nI join.\n>From here\n\nFrom b Mon Nov  2 09:00:00 2026\r\n\r\nb\r\n")
	f.Add("From x\n\nFrom \nFrom y Mon Jan  1 00:00:00 1990\n")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.HasPrefix(s, "From ") {
			sameMbox(t, s)
		}
	})
}

// TestUnderscoreRuleIsRE: underscoreRule and twoDashRuns, the tests put
// before originalRE, read lines as underscoreRE reads them, and turn
// away no line originalRE matches, for 20,000 random lines of
// underscores, dashes, white space, words of Outlook's rules and other
// bytes.
func TestUnderscoreRuleIsRE(t *testing.T) {
	pieces := []string{"_", "__________", " ", "\t", "\v", "\n", "\r", "\f", "\u00a0", "x", "-", "--", "----- ", " Original Message ", "Forwarded message"}
	r := rand.New(rand.NewPCG(4, 4))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		sameRules(t, b.String())
	}
}

func sameRules(t *testing.T, l string) {
	t.Helper()
	if got, want := underscoreRule(l), underscoreRE.MatchString(l); got != want {
		t.Fatalf("underscoreRule(%q) = %v, underscoreRE says %v", l, got, want)
	}
	if !twoDashRuns(l) && originalRE().MatchString(l) {
		t.Fatalf("twoDashRuns(%q) is false, but originalRE matches", l)
	}
}

func FuzzUnderscoreRuleIsRE(f *testing.F) {
	f.Add("____________")
	f.Add("-----Original Message-----")
	f.Fuzz(sameRules)
}
