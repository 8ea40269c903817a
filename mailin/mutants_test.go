package mailin

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAuthResCommentEscapes: a mail server's comment with an escaped
// parenthesis or a quoted string with an escaped quote does not hide or
// invent a result: the sender is authenticated by the results as written.
// A backslash escapes only within a comment or a quoted string, and one
// that ends the header is kept.
func TestAuthResCommentEscapes(t *testing.T) {
	cfg := &Config{AuthPolicy: "authres", AuthServID: "mx.example.test"}
	for _, c := range []struct {
		res  string
		want bool
	}{
		{`mx.example.test; dkim=pass (key \) 2048; tested) header.d=example.org`, true},
		{`mx.example.test; dkim=fail (a \) b; dkim=pass) header.d=example.org`, false},
		{`mx.example.test; dkim=pass (outer (inner \( x) y; z) header.d=example.org`, true},
		// A backslash outside quotes and comments escapes nothing: the
		// comment it stands before still hides a result.
		{`mx.example.test; dkim=fail x=a\(b; dkim=pass ) header.d=example.org`, false},
		// A backslash that ends the header, in a quoted string.
		{`mx.example.test; dkim=pass header.d=example.org; x="y\`, true},
	} {
		raw := "Authentication-Results: " + c.res + "\nFrom: a@example.org\n\nI join the Life contest.\n"
		m, err := Parse([]byte(raw), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if m.Authenticated != c.want {
			t.Errorf("%s: Authenticated = %v (%s), want %v", c.res, m.Authenticated, m.AuthNote, c.want)
		}
	}
	for in, want := range map[string]string{
		`a (b \) c; d) e`:     `a   e`,
		`a "q \" (x; y" b`:    `a "q \" (x; y" b`,
		`a (b "c) d`:          `a   d`,
		`a (b (c) d) e (f) g`: `a   e   g`,
		`x\y (z) w`:           `x\y   w`,
		`a) b (c) d`:          `a) b   d`,
		`a\(b) c`:             `a\  c`,
		`a "q\`:               `a "q\`,
	} {
		if got := stripComments(in); got != want {
			t.Errorf("stripComments(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHeaderStartsWithContinuation: a mail whose first line is a folded
// header line is read as all body, and the note says why.
func TestHeaderStartsWithContinuation(t *testing.T) {
	m, err := Parse([]byte(" folded: x\nFrom: a@example.org\n\nI join the Life contest.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "header starts with a continuation line; whole message taken as body") {
		t.Errorf("notes %q", m.Notes)
	}
	if !strings.Contains(m.Text, "I join the Life contest.") || m.From != "" {
		t.Errorf("text %q, from %q: want the whole mail as body and no sender", m.Text, m.From)
	}
}

// TestBodyTextCleaned: what the interpreter reads of a body has "\n" line
// endings, a no-break space as a space, and no control or bidi characters.
func TestBodyTextCleaned(t *testing.T) {
	for body, want := range map[string]string{
		"I bid 1\u00a0on Flight.":             "I bid 1 on Flight.",
		"I bid 1 on\rFlight.":                 "I bid 1 on\nFlight.",
		"I bid 1\x07 on \u202eFlight.\u200f":  "I bid 1 on Flight.",
		"I bid\t1 on \u2066Flight\u2069.\x7f": "I bid\t1 on Flight.",
		"I bid 1 on Flight.":                  "I bid 1 on Flight.",
	} {
		m, err := Parse([]byte("From: a@example.org\nContent-Type: text/plain; charset=utf-8\n\n"+body+"\n"), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != want {
			t.Errorf("body %q read as %q, want %q", body, m.Text, want)
		}
	}
}

// TestReplyIDsWithoutAngles: ids written without angle brackets still tie
// a reply to the message it answers; words without "@" are not ids.
func TestReplyIDsWithoutAngles(t *testing.T) {
	m, err := Parse([]byte("From: a@example.org\nIn-Reply-To: intent.7@referee.example.test, see above\nReferences: root@example.org notanid\n\nI support.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.InReplyTo, " ") != "intent.7@referee.example.test" || strings.Join(m.References, " ") != "root@example.org" {
		t.Errorf("In-Reply-To %q, References %q", m.InReplyTo, m.References)
	}
}

// TestMaildirSameSecond: mails delivered in the same second are read in
// the order of their unique names.
func TestMaildirSameSecond(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cur"), 0o700)
	os.MkdirAll(filepath.Join(dir, "new"), 0o700)
	// new/ is listed first: the name, not the listing, orders a tie.
	for _, n := range []string{"new/1764583200.P2.host", "cur/1764583200.P1.host", "cur/1764583100.M9P1.host", "new/1764583200.M5P1.host"} {
		os.WriteFile(filepath.Join(dir, n), []byte("From: a@example.org\nSubject: "+filepath.Base(n)+"\n\nx\n"), 0o600)
	}
	a, err := OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var got []string
	for {
		r, err := a.Next()
		if err != nil {
			break
		}
		m, _ := Parse(r.Data, time.Time{}, nil)
		got = append(got, m.Subject)
	}
	if want := "1764583100.M9P1.host 1764583200.P1.host 1764583200.P2.host 1764583200.M5P1.host"; strings.Join(got, " ") != want {
		t.Errorf("order %q, want %q", got, want)
	}
}

// TestMaildirArrivalFromName: a Maildir file's arrival is the time its name
// gives, with the microseconds of its M field when they are under a second
// (the field may end the unique part);
// a name whose time is 0 gives none, and the file's mtime is used.
func TestMaildirArrivalFromName(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cur"), 0o700)
	mtime := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	want := map[string]time.Time{
		"1764583200.M999999P1.host":  time.Unix(1764583200, 999999000).UTC(),
		"1764583300.M1000000P1.host": time.Unix(1764583300, 0).UTC(),
		"0.P1.host":                  mtime,
		"1764583400.M250000.host":    time.Unix(1764583400, 250000000).UTC(),
	}
	for n := range want {
		p := filepath.Join(dir, "cur", n)
		os.WriteFile(p, []byte("From: a@example.org\nSubject: "+n+"\n\nx\n"), 0o600)
		os.Chtimes(p, mtime, mtime)
	}
	a, err := OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for {
		r, err := a.Next()
		if err != nil {
			break
		}
		m, _ := Parse(r.Data, time.Time{}, nil)
		if w, ok := want[m.Subject]; !ok || !r.Arrived.Equal(w) {
			t.Errorf("%s arrived %v, want %v", m.Subject, r.Arrived, w)
		}
		delete(want, m.Subject)
	}
	if len(want) > 0 {
		t.Errorf("not read: %v", want)
	}
}

// TestNamedTextAlone: a mail whose whole body is a text file sent inline
// with a name is read: only a named text part inside a multipart is a file.
func TestNamedTextAlone(t *testing.T) {
	m, err := Parse([]byte("From: a@example.org\nContent-Type: text/plain\nContent-Disposition: inline; filename=bids.txt\n\nI bid 3 on Flight.\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(m.Text) != "I bid 3 on Flight." {
		t.Errorf("text %q, notes %q", m.Text, m.Notes)
	}
}

// TestNestingLimit: text nested 30 multiparts deep is read; one level more
// is skipped with a note.
func TestNestingLimit(t *testing.T) {
	nested := func(levels int) []byte {
		var b strings.Builder
		b.WriteString("From: a@example.org\n")
		for i := 0; i < levels; i++ {
			fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n", i, i)
		}
		b.WriteString("Content-Type: text/plain\n\nI bid 3 on Flight.\n")
		for i := levels - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\n", i)
		}
		return []byte(b.String())
	}
	m, err := Parse(nested(30), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(m.Text) != "I bid 3 on Flight." || len(m.Notes) != 0 {
		t.Errorf("30 levels: text %q, notes %q", m.Text, m.Notes)
	}
	m, err = Parse(nested(31), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(m.Text) != "" || len(m.Notes) != 2 || !strings.HasSuffix(m.Notes[0], ".1.1 nested too deep; skipped") || m.Notes[1] != "no readable text part" {
		t.Errorf("31 levels: text %q, notes %q", m.Text, m.Notes)
	}
}

// TestNotesCapped: a mail with many degraded parts keeps the first 20 notes.
func TestNotesCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("From: a@example.org\nContent-Type: multipart/mixed; boundary=x\n\n")
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, "--x\nContent-Type: text/plain; charset=x-unknown-%d\n\npart %d\n", i, i)
	}
	b.WriteString("--x--\n")
	m, err := Parse([]byte(b.String()), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Notes) != 20 || !strings.Contains(m.Notes[19], "x-unknown-19") {
		t.Errorf("%d notes, the last %q; want 20, the last of part 20", len(m.Notes), m.Notes[len(m.Notes)-1])
	}
}

// TestPartReadToFourTimesTheLimit: a text part is read up to four times the
// text limit (the text is then too large); only a longer one is noted as cut.
func TestPartReadToFourTimesTheLimit(t *testing.T) {
	cfg := &Config{MaxTextBytes: 16}
	for _, c := range []struct {
		n   int
		cut bool
	}{{63, false}, {64, true}} {
		m, err := Parse([]byte("From: a@example.org\n\n"+strings.Repeat("x", c.n)+"\n"), time.Time{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if cut := slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, "cut at 64 bytes") }); cut != c.cut || !m.TooLarge {
			t.Errorf("a part of %d bytes: too large %v, notes %q; want cut %v", c.n+1, m.TooLarge, m.Notes, c.cut)
		}
	}
}

// TestTextSubtypesRead: a body of text/enriched or text/markdown is the
// message's text, as text/plain is; text/calendar is not.
func TestTextSubtypesRead(t *testing.T) {
	for sub, want := range map[string]bool{"enriched": true, "markdown": true, "plain": true, "calendar": false} {
		raw := "From: a@example.org\nContent-Type: text/" + sub + "\n\nI join the Life contest.\n"
		m, err := Parse([]byte(raw), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(m.Text, "I join the Life contest."); got != want {
			t.Errorf("text/%s: text %q, want it read: %v", sub, m.Text, want)
		}
	}
}

// TestBrokenContentTypeParameters: a Content-Type that does not parse (an
// unterminated quote) still gives every parameter it names: the charset
// after another parameter decodes the text.
func TestBrokenContentTypeParameters(t *testing.T) {
	raw := "From: a@example.org\nContent-Type: text/plain; format=fixed; charset=\"koi8-r\n\nI join the Life contest. \xf0\xd2\xc9\xd7\xc5\xd4.\n"
	m, err := Parse([]byte(raw), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "I join the Life contest. Привет.") {
		t.Errorf("text %q, want the KOI8-R body decoded", m.Text)
	}
}

// TestNamedTextFirstPart: in a multipart mail, a named inline text part
// that comes first is the message's text; a named one after it is a file.
func TestNamedTextFirstPart(t *testing.T) {
	raw := "From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\nContent-Disposition: inline; filename=bids.txt\n\nI bid 3 on Flight.\n--b\nContent-Type: text/plain\nContent-Disposition: inline; filename=notes.txt\n\nI bid 9 on Flight.\n--b--\n"
	m, err := Parse([]byte(raw), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "I bid 3 on Flight.") || strings.Contains(m.Text, "I bid 9") {
		t.Errorf("text %q, want the first part's only", m.Text)
	}
}

// TestAlternativeInsideAlternative: RFC 2046 §5.1.4, the first part that
// yields plain text is the message's text. A multipart/alternative whose
// HTML part comes before an empty text/plain yields HTML-derived text, so
// when it is itself one part of an alternative, a real text/plain beside
// it is the text read.
func TestAlternativeInsideAlternative(t *testing.T) {
	raw := "From: a@example.org\nContent-Type: multipart/alternative; boundary=o\n\n" +
		"--o\nContent-Type: multipart/alternative; boundary=i\n\n" +
		"--i\nContent-Type: text/html\n\n<p>I bid 2 on Flight.</p>\n" +
		"--i\nContent-Type: text/plain\n\n \n--i--\n" +
		"--o\nContent-Type: text/plain\n\nI bid 3 on Flight.\n--o--\n"
	m, err := Parse([]byte(raw), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(m.Text) != "I bid 3 on Flight." {
		t.Errorf("text %q, want the plain part's, not the HTML-derived one", m.Text)
	}
}

// TestReportTypeFromTheTop: a report's kind is the report-type of the
// message's own Content-Type (RFC 6522), whatever a report nested in its
// first part says: a delivery-status report (a bounce) whose first part
// is a read receipt is ignored as a bounce, not as an auto-reply.
func TestReportTypeFromTheTop(t *testing.T) {
	raw := "From: a@example.org\nTo: referee@example.test\nContent-Type: multipart/report; report-type=delivery-status; boundary=o\n\n" +
		"--o\nContent-Type: multipart/report; report-type=disposition-notification; boundary=i\n\n" +
		"--i\nContent-Type: text/plain\n\nYour message was read.\n--i--\n" +
		"--o\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.org\n--o--\n"
	m, err := Parse([]byte(raw), time.Time{}, &Config{Referee: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Class != Ignorable || m.IgnoreReason != ReasonBounce {
		t.Errorf("Class = %s (%q), want %s (%q)", m.Class, m.IgnoreReason, Ignorable, ReasonBounce)
	}
}

// readBody parses a plain-text UTF-8 mail from a player with this body.
func readBody(t *testing.T, body string) *Message {
	t.Helper()
	return readAs(t, "text/plain", body)
}

// readAs parses a UTF-8 mail from a player with this body of this type.
func readAs(t *testing.T, typ, body string) *Message {
	t.Helper()
	m, err := Parse([]byte("From: a@example.org\nTo: referee@example.test\nContent-Type: "+typ+"; charset=utf-8\n\n"+body), time.Time{}, &Config{Referee: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAttributionWithoutSpaces (ruling G3): an attribution in Chinese
// written without a space ("张三于……写道：") is not the sender's text, as
// "Walter 写道：" is not.
func TestAttributionWithoutSpaces(t *testing.T) {
	m := readBody(t, "我参加 Life 比赛。\n\n张三于二〇二六年十一月二十九日写道：\n> 谁参加？\n")
	if m.Text != "我参加 Life 比赛。" || !strings.HasPrefix(m.Quoted, "张三于") {
		t.Errorf("text %q, quoted %q: want the attribution quoted", m.Text, m.Quoted)
	}
}

// TestQuoteMarkIndented (ruling G3): a quote mark after up to three spaces
// (some clients indent their quotes) marks a quoted line; after four, the
// line is the sender's own.
func TestQuoteMarkIndented(t *testing.T) {
	m := readBody(t, "I bid 3 on Flight.\n\n   > I bid 50 on Flight.\n    > I use Shield.\n")
	if m.Text != "I bid 3 on Flight.\n\n    > I use Shield." || m.Quoted != "   > I bid 50 on Flight." {
		t.Errorf("text %q, quoted %q", m.Text, m.Quoted)
	}
}

// TestUnderscoreRule (ruling G3): Outlook's underscore rule starts a
// quoted block when a reply header or a list footer follows it, blank
// lines between them or not; a rule that ends the mail is the sender's.
func TestUnderscoreRule(t *testing.T) {
	rule := strings.Repeat("_", 47)
	for body, want := range map[string]string{
		"I pass.\n\n" + rule + "\n\nagora-business mailing list\nagora-business@example.test\n": "I pass.",
		"I pass.\n" + rule + "\n":               "I pass.\n" + rule,
		"I pass.\n" + rule + "\n\n\nI bid 3.\n": "I pass.\n" + rule + "\n\nI bid 3.",
	} {
		if m := readBody(t, body); m.Text != want {
			t.Errorf("body %q read as %q, want %q", body, m.Text, want)
		}
	}
}

// TestOutlookHeaderBlock (ruling G3): a "From:" line is the start of a
// quoted reply header when two more header lines follow it within the
// next six lines of text; header-like lines further down leave the text
// the sender's own.
func TestOutlookHeaderBlock(t *testing.T) {
	block := "I pass.\n\nFrom: Bob <bob@example.org>\nSent: Sunday, November 29, 2026 10:00 AM\nSubject: Flight\n\nI bid 3 on Flight.\n"
	if m := readBody(t, block); m.Text != "I pass." {
		t.Errorf("a From/Sent/Subject block: text %q, quoted %q", m.Text, m.Quoted)
	}
	own := "From: now on my actions are these.\nI bid 3 on Flight.\nI use Shield.\nI claim cell (1, 2) in Life.\nI pass in Steemfield.\nI withdraw my bid of 2.\nTo: the contestmaster, thanks.\nSubject: to the ruling, I join.\n"
	if m := readBody(t, own); m.Text != strings.TrimSpace(own) {
		t.Errorf("header-like lines past the window: text %q, quoted %q", m.Text, m.Quoted)
	}
}

// TestLastLineEndsInColon: a mail whose last line ends in a colon (an
// action list never written) is read whole.
func TestLastLineEndsInColon(t *testing.T) {
	for _, body := range []string{"I pass.\nMy bids follow:\n", "I pass.\nMy bids follow:\n\n\n", "My bids follow:"} {
		if m := readBody(t, body); m.Text != strings.TrimSpace(body) {
			t.Errorf("body %q read as %q", body, m.Text)
		}
	}
}

// TestWrappedAttributionLast (ruling G3): an attribution wrapped over two
// lines is not the sender's text when it ends the mail (the quote below it
// deleted), nor when the line before it was an attribution already.
func TestWrappedAttributionLast(t *testing.T) {
	for body, want := range map[string]string{
		"I pass.\n\nOn Sun, 29 Nov 2026 at 10:00, Bob Example <\nbob@example.org> wrote:":   "I pass.",
		"I pass.\n\nOn Sun, 29 Nov 2026 at 10:00, Bob Example <\nbob@example.org> wrote:\n": "I pass.",
		"I pass.\nOn Monday I wrote:\nBob <bob@example.org> wrote:\nI bid 3 on Flight.\n":   "I pass.\nI bid 3 on Flight.",
	} {
		if m := readBody(t, body); m.Text != want {
			t.Errorf("body %q read as %q, quoted %q; want %q", body, m.Text, m.Quoted, want)
		}
	}
}

// TestAttributionUnquotedBelow (ruling G3): an attribution with a date
// or an address makes the original below it not the sender's text even
// when its quote marks were lost. Gmail wraps a long attribution before
// "wrote:", so the date and address are on the line before; the sender's
// line just above the attribution is kept.
func TestAttributionUnquotedBelow(t *testing.T) {
	for _, body := range []string{
		"I pass.\n\nOn Sun, Nov 29, 2026 at 10:00 AM Bob Example <bob@example.org>\nwrote:\nI use Shield.\n",
		"I pass.\nOn Sun, Nov 29, 2026 Bob wrote:\nI use Shield.\n",
	} {
		if m := readBody(t, body); m.Text != "I pass." {
			t.Errorf("body %q: text %q, quoted %q", body, m.Text, m.Quoted)
		}
	}
}

// TestQuotedKeepsItsShape: Message.Quoted is what was removed, in order,
// blank lines collapsed as in the text: an attribution whose quote was
// deleted, above a signature, is followed there by the signature at once.
func TestQuotedKeepsItsShape(t *testing.T) {
	m := readBody(t, "I pass.\n\nOn Sun, 29 Nov 2026, Bob <bob@example.org> wrote:\n\n-- \nAlice\n")
	if m.Text != "I pass." || m.Quoted != "On Sun, 29 Nov 2026, Bob <bob@example.org> wrote:\n--\nAlice" {
		t.Errorf("text %q, quoted %q", m.Text, m.Quoted)
	}
}

// readHTML parses an HTML-only mail from a player with this body.
func readHTML(t *testing.T, body string) *Message {
	t.Helper()
	return readAs(t, "text/html", body)
}

// TestStrayClosingStyle: an HTML mail with a closing </style> that opens
// nothing (a pasted signature's) still shows the text after it; a style
// sheet's own text is not shown.
func TestStrayClosingStyle(t *testing.T) {
	m := readHTML(t, "<html><body><div>Alice</div></style><p>I bid 3 on Flight.</p><style>p { color: red }</style></body></html>")
	if m.Text != "Alice\n\nI bid 3 on Flight." {
		t.Errorf("text %q", m.Text)
	}
}

// TestHTMLQuoteEmptiedBelowAttribution (ruling G3): Thunderbird keeps the
// blockquote of a quote the sender deleted, with its empty line; that
// line is quoted, so the text written below it is the sender's, not an
// original that lost its quote marks.
func TestHTMLQuoteEmptiedBelowAttribution(t *testing.T) {
	m := readHTML(t, `<html><body><div class="moz-cite-prefix">On 29/11/2026 10:00, Bob wrote:<br></div><blockquote type="cite" cite="mid:x@example.org"><br></blockquote><div>I use Shield.</div></body></html>`)
	if m.Text != "I use Shield." {
		t.Errorf("text %q, quoted %q", m.Text, m.Quoted)
	}
}

// TestHTMLClosingTagsBalanced: a closing </pre> or </blockquote> that
// opens nothing does not change how the rest of an HTML mail is read: text
// after a <pre> block is flowed again, and a later quote is still quoted
// (ruling G3).
func TestHTMLClosingTagsBalanced(t *testing.T) {
	for body, want := range map[string]string{
		"</pre><p>I use\nShield.</p><pre>I bid 3\n  on Flight.</pre><p>I pass\nnow.</p>": "I use Shield.\n\nI bid 3\n  on Flight.\n\nI pass now.",
		"<p>I pass.</p></blockquote><blockquote><p>I bid 50 on Flight.</p></blockquote>": "I pass.",
	} {
		if m := readHTML(t, body); m.Text != want {
			t.Errorf("%q read as %q, want %q", body, m.Text, want)
		}
	}
}

// TestHTMLQuoteDepthCapped: quotes nested deeper than 20 levels are marked
// 20 deep, so a long thread's HTML does not grow its text by two bytes a
// line a level.
func TestHTMLQuoteDepthCapped(t *testing.T) {
	m := readHTML(t, "<p>I pass.</p>"+strings.Repeat("<blockquote>", 25)+"I bid 1 on Flight."+strings.Repeat("</blockquote>", 25))
	if want := strings.Repeat("> ", 20) + "I bid 1 on Flight."; m.Text != "I pass." || !strings.Contains(m.Quoted, want) || strings.Contains(m.Quoted, "> "+want) {
		t.Errorf("text %q, quoted %q; want the quote 20 deep", m.Text, m.Quoted)
	}
}

// TestHTMLEmptyLinesCountOnce: Gmail writes each empty line as
// <div><br></div>; a run of them is one empty line of the text, and is
// counted so against the text limit.
func TestHTMLEmptyLinesCountOnce(t *testing.T) {
	want := "I bid 3 on Flight.\n\nI pass."
	m, err := Parse([]byte("From: a@example.org\nContent-Type: text/html; charset=utf-8\n\n<div>I bid 3 on Flight.</div>"+strings.Repeat("<div><br></div>", 3)+"<div>I pass.</div>\n"), time.Time{}, &Config{MaxTextBytes: len(want)})
	if err != nil {
		t.Fatal(err)
	}
	if m.TooLarge || m.Text != want {
		t.Errorf("too large %v, text %q, notes %q; want %q", m.TooLarge, m.Text, m.Notes, want)
	}
}

// TestCRLFTextAtTheLimit: a message as IMAP hands it (CRLF line ends, a
// Received field) whose text is exactly the limit is read, as with LF: the
// body starts after the blank line's CRLF.
func TestCRLFTextAtTheLimit(t *testing.T) {
	raw := "Received: from mx.example.org by mx.example.test\r\nFrom: a@example.org\r\nSubject: x\r\n\r\n" + strings.Repeat("x", 63) + "\r\n"
	m, err := Parse([]byte(raw), time.Time{}, &Config{MaxTextBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	if m.TooLarge || m.Text != strings.Repeat("x", 63) {
		t.Errorf("too large %v, text %q, notes %q; want it read whole", m.TooLarge, m.Text, m.Notes)
	}
}

// TestMboxRFC3339FromLine: a From_ line dated in RFC 3339 gives the
// message's arrival, as an asctime one does; the Date header is used only
// when the From_ line's date does not read.
func TestMboxRFC3339FromLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "box")
	writeFile(t, path, "From alice@example.org 2026-12-01T10:00:00Z\nDate: Sun, 29 Nov 2026 10:00:00 +0000\n\nx\n\n"+
		"From 2026-12-01T11:30:00+01:00\nDate: Sun, 29 Nov 2026 10:00:00 +0000\n\ny\n")
	a, err := OpenArchive(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	got := readAll(t, a)
	want := []time.Time{time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC)}
	if len(got) != 2 || !got[0].Arrived.Equal(want[0]) || !got[1].Arrived.Equal(want[1]) {
		for _, r := range got {
			t.Logf("arrived %v", r.Arrived)
		}
		t.Errorf("%d messages; want 2, arrived %v", len(got), want)
	}
}

// TestControlCharactersWithoutNewline: control characters are taken out of
// a text that has no line end, and out of one that is nothing else.
func TestControlCharactersWithoutNewline(t *testing.T) {
	for body, want := range map[string]string{"I bid 1\x07 on Flight.": "I bid 1 on Flight.", "\x07\x1b\n": ""} {
		m, err := Parse([]byte("From: a@example.org\n\n"+body), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Text != want {
			t.Errorf("body %q read as %q, want %q", body, m.Text, want)
		}
	}
}

// TestWrappedAttributionShortEnd (ruling G3): the line after "On ..." is
// taken for the end of a wrapped attribution only when it is shorter than
// 60 bytes; a longer one is an attribution of its own, and the line before
// it stays the sender's.
func TestWrappedAttributionShortEnd(t *testing.T) {
	first := "On Sun, 29 Nov 2026 at 10:00, Bob Example <"
	for n, want := range map[int]string{39: "I pass.", 40: "I pass.\n" + first} {
		end := strings.Repeat("b", n) + "@example.org> wrote:"
		if m := readBody(t, "I pass.\n"+first+"\n"+end+"\n> x\n"); m.Text != want {
			t.Errorf("an end of %d bytes: text %q, want %q", len(end), m.Text, want)
		}
	}
}

// TestMboxTruncatedEnd: an mbox cut off after a From_ line (its first or a
// later one) holds no message there, and a last line of quote marks
// without its line end is the message's own.
func TestMboxTruncatedEnd(t *testing.T) {
	for body, want := range map[string][]string{
		"From a Mon Nov 30 10:00:00 2026\nSubject: one\n\nx\n\nFrom b Mon Nov 30 11:00:00 2026\n": {"one"},
		"From a Mon Nov 30 10:00:00 2026\nSubject: one\n\nx\n>>":                                  {"one"},
		// A From_ line alone, with and without its line end: no message.
		"From a Mon Nov 30 10:00:00 2026\n": nil,
		"From a Mon Nov 30 10:00:00 2026":   nil,
	} {
		path := filepath.Join(t.TempDir(), "box")
		writeFile(t, path, body)
		a, err := OpenArchive(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range readAll(t, a) {
			m, err := Parse(r.Data, r.Arrived, nil)
			if err != nil {
				t.Fatalf("%q: %v", body, err)
			}
			got = append(got, m.Subject)
		}
		a.Close()
		if !slices.Equal(got, want) {
			t.Errorf("%q: subjects %q, want %q", body, got, want)
		}
	}
}

// TestMboxLineLongerThanTheBuffer: a line longer than the mbox reader's
// buffer (64 KiB) is read whole, as one line of its message, even where the
// buffer's edge falls before a "From " with a date (mbox.go readLine).
func TestMboxLineLongerThanTheBuffer(t *testing.T) {
	long := strings.Repeat("y", 64<<10) + "From a Mon Nov 30 10:30:00 2026 " + strings.Repeat("z", 100<<10)
	path := filepath.Join(t.TempDir(), "box")
	writeFile(t, path, "From a Mon Nov 30 10:00:00 2026\nSubject: one\n\n"+long+"\nend\n\nFrom b Mon Nov 30 11:00:00 2026\nSubject: two\n\nx\n")
	a, err := OpenArchive(path)
	if err != nil {
		t.Fatal(err)
	}
	raws := readAll(t, a)
	if len(raws) != 2 {
		t.Fatalf("%d messages, want 2", len(raws))
	}
	if want := "\n\n" + long + "\nend\n"; !strings.HasSuffix(string(raws[0].Data), want) {
		t.Errorf("the first message (%d bytes) does not end with its long line (%d bytes) and \"end\"", len(raws[0].Data), len(long))
	}
}

// TestSeveralListsOfARole: a referee configured with two public lists and
// no discussion list, or two discussion lists and no public one, reads a
// message through either list as that list's (its class and its list),
// and one through none as private.
func TestSeveralListsOfARole(t *testing.T) {
	for _, c := range []struct {
		cfg   *Config
		to    string
		class Class
	}{
		{&Config{PublicLists: []string{"agora-business@example.test", "agora-contests@example.test"}}, "agora-contests@example.test", Public},
		{&Config{PublicLists: []string{"agora-business@example.test", "agora-contests@example.test"}}, "referee@example.test", Private},
		{&Config{DiscussionLists: []string{"agora-discussion@example.test", "agora-chat@example.test"}}, "agora-chat@example.test", Discussion},
		{&Config{DiscussionLists: []string{"agora-discussion@example.test", "agora-chat@example.test"}}, "referee@example.test", Private},
	} {
		raw := "From: alice@example.org\nTo: " + c.to + "\nSubject: joining\n\nI join the Life contest.\n"
		m, err := Parse([]byte(raw), time.Time{}, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		wantLists := []string{c.to}
		if c.class == Private {
			wantLists = nil
		}
		if m.Class != c.class || !slices.Equal(m.Lists, wantLists) || m.Text != "I join the Life contest." {
			t.Errorf("to %s with lists %q, %q: class %v, lists %q, text %q; want %v, %q", c.to, c.cfg.PublicLists, c.cfg.DiscussionLists, m.Class, m.Lists, m.Text, c.class, wantLists)
		}
	}
}

// TestDisplayNameWithDEL: a display name holding a DEL (0x7f) is read
// without it, as every control character of a name is removed.
func TestDisplayNameWithDEL(t *testing.T) {
	for _, from := range []string{"Ali\x7fce <alice@example.org>", "Alice Li\x7fddell <alice@example.org>"} {
		m, err := Parse([]byte("From: "+from+"\nSubject: joining\n\nI join the Life contest.\n"), time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(from[:strings.IndexByte(from, '<')-1], "\x7f", ""); m.From != "alice@example.org" || m.FromName != want {
			t.Errorf("From %q: address %q, name %q; want alice@example.org, %q", from, m.From, m.FromName, want)
		}
	}
}
