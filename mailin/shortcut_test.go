package mailin

// Parse skips a regular expression where a cheap test shows what it
// would find (wroteAtEnd for wroteRE, mayNameDigest for digestRE), and
// reads flowed text and tests lines in fewer steps than first written:
// these tests hold each to its first form.

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// wroteSeeds are attribution lines in the languages of wroteRE, and lines
// where case folding takes a rune that is not ASCII (ſ for s, K for k).
var wroteSeeds = []string{"On Mon, Nov 2, 2026 at 07:38, someone wrote:", "Alice writes :", "Bob SAID:", "Am 2.11. schrieb Carol:",
	"Le 2 nov. 2026, Dave a écrit :", "El lun, Erin escribió:", "Frank ha scritto:", "Grace schreef:", "Heidi napisał(a):",
	"Ivan napisał:", "Judy escreveu:", "Mallory skrev:", "Niaj kirjoitti:", "Olivia написал(а):", "Peggy написала:",
	"Rupert napsal(a):", "Sybil napsal:", "Trent yazdı:", "Victor írta:", "Walter 写道：", "张三于二〇二六年十一月二十九日写道：", "Zelda 書きました:", "Alice のメッセージ:",
	"Bob ſchrieb:", "Bob sKrev:", "Bob wroteſ:", "This is what I wrote   \t:", "nothing here:", "wrote:", ":", "：",
	"on reflection, this is what i wrote::", strings.Repeat("x", 40) + "écrit wrote:", "Ölaf wrote:",
	"agora-business Digest, Vol 12, Issue 3", "DIGEST vol. 3", "diGeſt Vol 1", "a digest of volume 2"}

func checkWrote(t *testing.T, line string) {
	t.Helper()
	if !mayNameDigest(line) && digestRE().MatchString(line) {
		t.Errorf("mayNameDigest(%q) is false, but digestRE matches", line)
	}
	t1 := strings.TrimSpace(line)
	if !strings.HasSuffix(t1, ":") && !strings.HasSuffix(t1, "：") {
		return // stripQuoted asks only of such lines
	}
	if got, want := wroteAtEnd(t1), wroteRE().MatchString(t1); got != want {
		t.Errorf("wroteAtEnd(%q) = %v, wroteRE says %v", t1, got, want)
	}
}

func TestWroteAtEnd(t *testing.T) {
	for _, s := range wroteSeeds {
		checkWrote(t, s)
	}
}

// TestWroteASCII: every word of wroteRE written in ASCII alone is in
// wroteASCII, so that a word added to the expression and not there fails
// here.
func TestWroteASCII(t *testing.T) {
	src := wroteRE().String()
	body := src[strings.Index(src, "(?i)(")+5 : strings.Index(src, `)\s*`)]
	words := strings.Split(body, "|")
	if len(words) < 20 {
		t.Fatalf("%d words read from %s", len(words), src)
	}
	for _, w := range words {
		w = strings.NewReplacer(`\(`, "(", `\)`, ")", "[", "", "]?", "").Replace(w) // the longest text each matches
		ascii := true
		for i := 0; i < len(w); i++ {
			ascii = ascii && w[i] < 0x80
		}
		if ascii && !slices.Contains(wroteASCII, strings.ToLower(w)) {
			t.Errorf("%q of wroteRE is not in wroteASCII", w)
		}
		if len(w) > 18 {
			t.Errorf("%q of wroteRE is longer than wroteAtEnd allows for", w)
		}
	}
}

func FuzzWroteAtEnd(f *testing.F) {
	for _, s := range wroteSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkWrote(t, s)
	})
}

// unflowLines is unflow as first written, a paragraph at a time joined at
// the end: unflow must give the same text.
func unflowLines(s string, delsp bool) string {
	lines := strings.Split(s, "\n")
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		if !open {
			return
		}
		prefix := ""
		if curDepth > 0 {
			prefix = strings.Repeat(">", curDepth) + " "
		}
		out = append(out, prefix+cur.String())
		cur.Reset()
		open = false
	}
	for _, line := range lines {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		body := strings.TrimPrefix(line[depth:], " ")
		if open && (depth != curDepth || body == "-- ") {
			flush()
		}
		curDepth = depth
		flowed := strings.HasSuffix(body, " ") && body != "-- "
		if flowed && delsp {
			body = body[:len(body)-1]
		}
		cur.WriteString(body)
		open = true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// checkLine holds unflow and the line tests of stripQuoted to their first
// forms on s.
func checkLine(t *testing.T, s string) {
	t.Helper()
	for _, delsp := range []bool{false, true} {
		if got, want := unflow(s, delsp), unflowLines(s, delsp); got != want {
			t.Errorf("unflow(%q, %v) = %q, want %q", s, delsp, got, want)
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if got, want := isSigDelimiter(l), strings.TrimRight(l, " \t\r\u00a0") == "--"; got != want {
			t.Errorf("isSigDelimiter(%q) = %v, want %v", l, got, want)
		}
		if got, want := strings.ContainsAny(l, "-_:") || strings.Contains(l, "："), strings.ContainsAny(l, "-_:："); got != want {
			t.Errorf("the prefilter of outlookBlockAt on %q: %v, want %v", l, got, want)
		}
	}
}

var lineSeeds = []string{"Hello \nworld\n> quoted \n> more\n>> deeper \n>> still\n-- \nsig", " stuffed \n  two\n-- \n--\n-- \u00a0\n--\t\r",
	"a：b\n\xe2\xef\xbc\x9a\n_\n", "", "\n\n", "> \n>", "flowed \n\nnot"}

func TestUnflowAndLineTests(t *testing.T) {
	for _, s := range lineSeeds {
		checkLine(t, s)
	}
}

func FuzzUnflowAndLineTests(f *testing.F) {
	for _, s := range lineSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLine(t, s)
	})
}

// addressSeeds are address lists as mail has them, and lists next to the
// forms plainAddressList reads: each it reads must give what
// parsedAddressList gives.
var addressSeeds = []string{"Walter158 <walter158@agora.example.org>", "agora-business@example.test", "<a@b.example>",
	"Alice <a@b.example>, bob@c.example", "Alice\t Liddell  <A.L@B.Example>", "a@b.example, ", "a@b.example,,c@d.example",
	", a@b.example", "a@b.example (Alice)", `"Alice L." <a@b.example>`, "=?utf-8?q?Jos=C3=A9?= <j@b.example>", "Jos=C3 <j@b.example>",
	"José <j@b.example>", "a @b.example", "a@ b.example", "< a@b.example>", "<a@b.example >", "Alice <a@b.example> x", "a@b.example <c@d.example>",
	".a@b.example", "a.@b.example", "a..b@c.example", "a@.b", "a@b..c", "a@b.", "a@", "@b", "a@b@c", "a.b <c@d>", "a..b <c@d>",
	"...  <c@d>", "Alice:  a@b.example;", "undisclosed-recipients:;", "Alice <a@[192.0.2.1]>", "a@b.example\r\n", "Alice<a@b>", "Alice <a@b>,Bob<c@d>",
	"Al?ce <a@b>", "x=y@b.example", "a?b@c", "", " ", "<>", "Alice <>", "Alice", "Alice <a@b", "a\"b@c", "Alice; <a@b>", "a@b\xff"}

func checkAddressList(t *testing.T, v string) {
	t.Helper()
	got, ok := plainAddressList(v)
	if !ok {
		return
	}
	if want := parsedAddressList(v); !slices.Equal(got, want) {
		t.Errorf("plainAddressList(%q) = %q, parsedAddressList gives %q", v, got, want)
	}
}

func TestPlainAddressList(t *testing.T) {
	for _, v := range addressSeeds {
		checkAddressList(t, v)
	}
	// The forms of the archive's mail take the plain way.
	for _, v := range []string{"Walter158 <walter158@agora.example.org>", "agora-business@example.test", "Alice <a@b.example>, bob@c.example"} {
		if _, ok := plainAddressList(v); !ok {
			t.Errorf("plainAddressList(%q) is not ok", v)
		}
	}
	// Lists made of the seeds' pieces, so that each two forms meet.
	pieces := []string{"Alice", "Bob.", "a@b.example", "<c@d.example>", "<", ">", "@", ",", " ", "\t", ".", "(x)", `"`, "=?", "é", ":", ";", "x"}
	r := rand.New(rand.NewPCG(14, 1))
	for range 20000 {
		checkAddressList(t, joinPieces(r, pieces, 1+r.IntN(7)))
	}
}

func FuzzPlainAddressList(f *testing.F) {
	for _, v := range addressSeeds {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		checkAddressList(t, v)
	})
}

// lineSeedsForClean are header values, plain and not.
var lineSeedsForClean = []string{"", " ", "a", "DIS: Re: a question about rounds", "1.5950f65d@agora.example.org", "a  b", " a", "a ", "a\tb", "a\r\nb",
	"a\x00b", "a\x7fb", "José", "a\u202eb", "a\u00a0b", "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./", "\xff", "a \x85b"}

func checkLineClean(t *testing.T, s string) {
	t.Helper()
	if got, want := cleanLine(s), cleanedLine(s); got != want {
		t.Errorf("cleanLine(%q) = %q, cleanedLine gives %q", s, got, want)
	}
}

func TestPlainLine(t *testing.T) {
	for _, s := range lineSeedsForClean {
		checkLineClean(t, s)
	}
	for _, s := range []string{"DIS: Re: a question about rounds", "1.5950f65d@agora.example.org", "Walter158"} {
		if !plainLine(s) {
			t.Errorf("plainLine(%q) is false", s)
		}
	}
	pieces := []string{"a", "Z", " ", "  ", "\t", "~", "\x7f", "\x1f", "é", "\u2066", "\xc2", "<", ">"}
	r := rand.New(rand.NewPCG(14, 2))
	for range 20000 {
		checkLineClean(t, joinPieces(r, pieces, r.IntN(6)))
	}
}

func FuzzPlainLine(f *testing.F) {
	for _, s := range lineSeedsForClean {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkLineClean(t, s)
	})
}

// joinPieces is n of pieces, each drawn from r, joined: inputs in which
// the awkward pieces meet one another.
func joinPieces(r *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// returnPaths are Return-Path values, null and not, with white space of
// every kind around and inside the brackets.
var returnPaths = []string{"<>", " <> ", "\t<>\r\n", "< >", "<\u00a0>", "\u2003<\u3000>\u0085", "<\v>\f", "<a@b>", "<", ">", "",
	"<<>>", "<>>", "<><>", "><", "<x>", "<\u200b>", "<\xff>", "<>\xc3", "<bounces+a=b@example.test>"}

// TestNullReversePath: a Return-Path is null as the words of it joined
// said, for returnPaths and every one of them with a byte dropped or put
// in at each place.
func TestNullReversePath(t *testing.T) {
	for _, v := range returnPaths {
		sameNullPath(t, v)
		for i := range len(v) {
			sameNullPath(t, v[:i]+v[i+1:])
			for _, c := range []string{" ", "<", ">", "\xc2", "\xa0", "x"} {
				sameNullPath(t, v[:i]+c+v[i:])
			}
		}
	}
}

func sameNullPath(t *testing.T, v string) {
	t.Helper()
	if got, want := nullReversePath(v), strings.Join(strings.Fields(v), "") == "<>"; got != want {
		t.Errorf("nullReversePath(%q) = %v, its words joined say %v", v, got, want)
	}
}

func FuzzNullReversePath(f *testing.F) {
	for _, v := range returnPaths {
		f.Add(v)
	}
	f.Fuzz(sameNullPath)
}
