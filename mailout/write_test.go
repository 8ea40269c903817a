package mailout

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// Pieces of the random mails of TestWriteIsGoMails.
var (
	writeNames = []string{
		"", "", "The Referee", "Goethe", "Rêve Joueur", `"O'Brien, Jr."`, `A "quoted" name`, "名前", `"Müller, Hans"`,
		"=?utf-8?q?x?=", strings.Repeat("Long Name ", 8), strings.Repeat("é", 40), "Ann  Two  Spaces",
	}
	writeAddrs = []string{
		"referee@example.test", "goethe@example.test", "x@y.z", `"quoted local"@example.test`,
		"a.very.long.local.part.of.an.address.that.goes.on.and.on@sub.domain.example.test", "rêve@example.test",
	}
	// writeWords begin with the ASCII ones, up to "=?".
	writeWords = []string{
		"Re:", "BUS:", "OFF:", "[Life]", "Weekly", "Report", "I", "join", "the", "contest", "", "_", "a=b",
		strings.Repeat("x", 70), strings.Repeat("y", 80), strings.Repeat("y", 75) + "  " + strings.Repeat("z", 72), "=?",
		"?=", "Rêve", "—", "夢", "\t", "🎲", strings.Repeat("ü", 30),
	}
	writeLines = []string{
		"", "Hello.", "I join the Life contest.", "> quoted", ".starts with a dot", "From the start", "Rêve — 夢",
		"trailing space ", "trailing tab\t", "a=b=c", "=", grid, "form\ffeed", "cr\ronly", "not\x80utf-8", strings.Repeat("w ", 60),
	}
	// writeLinesQP are lines that make a body quoted-printable.
	writeLinesQP = []string{strings.Repeat("ab.", 400), strings.Repeat("é", 600), "ctl\x01byte", "nul\x00", "del\x7f"}
)

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }

// randomID is a Message-ID of random length, sometimes longer than a
// header line, sometimes not a valid one.
func randomID(r *rand.Rand) string {
	n := 1 + r.IntN(40)
	if r.IntN(8) == 0 {
		n = 60 + r.IntN(200)
	}
	id := strings.Repeat("abc.1-2", n)[:n] + "@" + pick(r, []string{"referee.example.test", "mail.example.test", "x"})
	if r.IntN(3) == 0 {
		id = "<" + id + ">"
	}
	return id
}

func randomAddress(r *rand.Rand) string {
	name, addr := pick(r, writeNames), pick(r, writeAddrs)
	if name == "" && r.IntN(2) == 0 {
		return addr
	}
	return name + " <" + addr + ">"
}

func randomMail(r *rand.Rand) *Mail {
	m := &Mail{
		From:      randomAddress(r),
		MessageID: randomID(r),
		Date:      time.Unix(r.Int64N(4e9), 0).In(time.FixedZone("", (r.IntN(48)-24)*1800)),
		Kind:      pick(r, []string{"", "receipt", "report", "notice", "randomness", "Odd Kind!"}),
	}
	if r.IntN(8) == 0 {
		m.AutoSubmitted = "auto-replied"
	}
	for range r.IntN(4) {
		m.To = append(m.To, randomAddress(r))
	}
	for range r.IntN(4) {
		m.Cc = append(m.Cc, randomAddress(r))
	}
	if len(m.To)+len(m.Cc) == 0 {
		m.Cc = []string{randomAddress(r)}
	}
	words := writeWords
	if r.IntN(2) == 0 {
		words = words[:slices.Index(words, "=?")]
	}
	var s []string
	for range r.IntN(40) {
		s = append(s, pick(r, words))
	}
	m.Subject = strings.Join(s, " ")
	if r.IntN(2) == 0 {
		m.InReplyTo = randomID(r)
		for range r.IntN(25) {
			m.References = append(m.References, randomID(r))
		}
	}
	if r.IntN(3) == 0 {
		m.ListID = pick(r, []string{"Life reports <life.referee.example.test>", "Rêve — liste <reve.example.test>", strings.Repeat("list ", 30) + "<l.example.test>"})
		m.ListPost = pick(r, writeAddrs)
	}
	var body []string
	for range r.IntN(30) {
		if r.IntN(40) == 0 {
			body = append(body, pick(r, writeLinesQP))
		} else {
			body = append(body, pick(r, writeLines))
		}
	}
	m.Body = strings.Join(body, pick(r, []string{"\n", "\n", "\r\n"}))
	if r.IntN(2) == 0 {
		m.Body += "\n"
	}
	return m
}

// TestWriteIsGoMails: the message written directly is, byte for byte, the
// one go-mail's builder writes of the same fields, for random mails: names
// quoted, Q- and B-encoded, one to seven addresses in To and Cc or none in
// one of them, subjects empty, folded, Q-encoded in several words and with
// words longer than a line, Message-IDs that fold before their value,
// threads of up to 21 ids, List-Id and List-Post, dates in any zone, and
// bodies sent as 7bit, 8bit and quoted-printable (long lines, controls,
// trailing space, '=', invalid UTF-8). go-mail writes a random Message-ID,
// Date and boundary only for what Compose always sets or never uses (one
// part, no multipart), so nothing differs for a reason of its own. Each
// shape the comparison is meant to cover is counted as reached.
func TestWriteIsGoMails(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	reached := map[string]int{}
	compared := 0
	for i := range 6000 {
		m := randomMail(r)
		f, err := prepare(m)
		if err != nil {
			reached["refused by prepare"]++
			continue
		}
		got := f.write()
		want, err := writeGoMail(f)
		if err != nil {
			t.Fatalf("mail %d: go-mail: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("mail %d (%+v) written as\n%s\ngo-mail writes\n%s", i, m, got, want)
		}
		compared++
		head, _, _ := bytes.Cut(got, []byte("\r\n\r\n"))
		reached["encoding "+f.enc.String()]++
		for _, shape := range []struct{ name, in string }{
			{"folded line", "\r\n "},
			{"line of one space", "\r\n \r\n "},
			{"Q-encoded word", "=?UTF-8?q?"},
			{"B-encoded name", "=?utf-8?b?"},
			{"quoted name", `: "`},
			{"To", "\r\nTo: "},
			{"Cc", "\r\nCc: "},
			{"two addresses", ">, "},
			{"References", "\r\nReferences: "},
			{"List-Post", "\r\nList-Post: "},
			{"empty subject", "\r\nSubject: \r\n"},
		} {
			if bytes.Contains(head, []byte(shape.in)) {
				reached[shape.name]++
			}
		}
		for line := range strings.SplitSeq(string(head), "\r\n") {
			if strings.HasSuffix(line, ":") && !strings.Contains(line, " ") {
				reached["fold before the value"]++
				break
			}
		}
		if !bytes.Contains(head, []byte("\r\nTo: ")) {
			reached["no To"]++
		}
		if bytes.Contains(got, []byte("=\r\n")) && f.enc == encQP {
			reached["soft line break"]++
		}
	}
	for _, shape := range []string{
		"refused by prepare", "encoding 7bit", "encoding 8bit", "encoding quoted-printable", "folded line",
		"fold before the value", "line of one space", "Q-encoded word", "B-encoded name", "quoted name", "To", "Cc", "no To",
		"two addresses", "References", "List-Post", "empty subject", "soft line break",
	} {
		if reached[shape] == 0 {
			t.Errorf("no random mail reached %q: the test does not cover it", shape)
		}
	}
	t.Logf("%d mails compared; %v", compared, reached)
}

// FuzzWriteIsGoMails: a mail of fuzzed subject, name, List-Id and body is
// written as go-mail writes it.
func FuzzWriteIsGoMails(f *testing.F) {
	f.Add("Rêve — 夢", "Goethe", "Life reports <life.example.test>", "body\n.dot\n")
	f.Add(strings.Repeat("long ", 100), "名前", "", strings.Repeat("x", 1200))
	f.Add("a  "+strings.Repeat("y", 72)+"  b", `"q"`, "=?utf-8?q?x?=", "a\x00b\r\nc")
	f.Fuzz(func(t *testing.T, subject, name, listID, body string) {
		m := baseMail()
		m.Subject, m.ListID, m.Body = subject, listID, body
		m.To = []string{name + " <player@example.test>"}
		m.Cc = []string{"Referee <referee@example.test>"}
		fl, err := prepare(m)
		if err != nil {
			return
		}
		want, err := writeGoMail(fl)
		if err != nil {
			t.Fatal(err)
		}
		if got := fl.write(); !bytes.Equal(got, want) {
			t.Fatalf("written as\n%q\ngo-mail writes\n%q", got, want)
		}
	})
}
