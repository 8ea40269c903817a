package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"referee/internal/benchgen"
)

// The list archive: what the referee's store of a list's mail looks like
// after months of play. One message in five is a Life action by one of the
// players (joins first, then claims of Cells, some already taken or badly
// written, and transfers of Vials); the rest is chatter on the business and
// discussion lists, some of it replies quoting earlier mail, some of it
// multipart with an HTML part. Every message is the list's copy: it carries
// the List-Id and the other headers the list adds. Arrivals are a few
// minutes apart, so Life's weekly rounds and monthly awards run through it.

const (
	publicList     = "agora-business@example.test"
	publicListID   = "Agora Business <agora-business.example.test>"
	discussionList = "agora-discussion@example.test"
	discussionID   = "Agora Discussion <agora-discussion.example.test>"
)

var quoted = []string{
	"> I join the Life contest.",
	"> Has anyone worked out whether a blinker near the edge wraps around?",
	"> I claim cell (10, 10) in Life.",
	"> The report says the contest holds most of the Vials now.",
}

// generator makes the archive's messages one after the other; the same
// seed gives the same archive, and a longer archive begins with a shorter
// one.
type generator struct {
	r       *rand.Rand
	players []benchgen.Player
	at      time.Time
	n       int
	ids     []string // recent Message-IDs, for replies
}

func newGenerator(seed uint64, players int) *generator {
	g := &generator{r: rand.New(rand.NewPCG(seed, 14)), at: time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)}
	g.players = benchgen.Players(players)
	return g
}

// next writes the next message, From_ line and all, mboxrd-escaped (no
// line of the generated text starts with "From ").
func (g *generator) next(w *bufio.Writer) {
	g.n++
	g.at = g.at.Add(time.Duration(30+g.r.IntN(240)) * time.Second)
	p := &g.players[g.r.IntN(len(g.players))]
	isAction := g.n%5 == 0
	list, listID, tag := publicList, publicListID, "BUS: "
	if !isAction && g.r.IntN(5) < 2 {
		list, listID, tag = discussionList, discussionID, "DIS: "
	}
	var subject, text string
	if isAction {
		subject, text = benchgen.Action(g.r, p, g.players)
	} else {
		subject = "Re: " + benchgen.Topics[g.r.IntN(len(benchgen.Topics))]
		var b strings.Builder
		if g.r.IntN(2) == 0 {
			fmt.Fprintf(&b, "On %s, someone wrote:\n%s\n\n", g.at.Add(-time.Hour).Format("Mon, Jan 2, 2006 at 15:04"), quoted[g.r.IntN(len(quoted))])
		}
		for i := 0; i < 1+g.r.IntN(4); i++ {
			b.WriteString(benchgen.Chatter[g.r.IntN(len(benchgen.Chatter))])
			b.WriteString(" ")
			b.WriteString(benchgen.Chatter[g.r.IntN(len(benchgen.Chatter))])
			b.WriteString("\n\n")
		}
		text = b.String()
	}
	id := fmt.Sprintf("<%d.%08x@%s>", g.n, g.r.Uint32(), p.Addr[strings.IndexByte(p.Addr, '@')+1:])
	listLocal := list[:strings.IndexByte(list, '@')]

	fmt.Fprintf(w, "From %s-bounces@example.test %s\n", listLocal, g.at.Format("Mon Jan _2 15:04:05 2006"))
	fmt.Fprintf(w, "Return-Path: <%s-bounces+%s=%s@example.test>\n", listLocal, p.Addr[:strings.IndexByte(p.Addr, '@')], p.Addr[strings.IndexByte(p.Addr, '@')+1:])
	fmt.Fprintf(w, "Delivered-To: referee@example.test\n")
	fmt.Fprintf(w, "Received: from lists.example.test (lists.example.test [192.0.2.25])\n\tby mx.example.org (Postfix) with ESMTPS id %08X\n\tfor <referee@example.test>; %s\n", g.r.Uint32(), g.at.Format(time.RFC1123Z))
	fmt.Fprintf(w, "Received: from [198.51.100.%d] (client.example.net [198.51.100.%d])\n\tby lists.example.test (Postfix) with ESMTPSA id %08X;\n\t%s\n", g.n%250+1, g.n%250+1, g.r.Uint32(), g.at.Add(-3*time.Second).Format(time.RFC1123Z))
	fmt.Fprintf(w, "From: %s <%s>\n", p.Name, p.Addr)
	fmt.Fprintf(w, "To: %s\n", list)
	fmt.Fprintf(w, "Subject: %s%s\n", tag, subject)
	fmt.Fprintf(w, "Date: %s\n", g.at.Add(-5*time.Second).Format(time.RFC1123Z))
	fmt.Fprintf(w, "Message-ID: %s\n", id)
	if !isAction && len(g.ids) > 0 && g.r.IntN(2) == 0 {
		parent := g.ids[g.r.IntN(len(g.ids))]
		fmt.Fprintf(w, "In-Reply-To: %s\nReferences: %s\n", parent, parent)
	}
	fmt.Fprintf(w, "User-Agent: Mozilla/5.0 Thunderbird/128.5.0\nMIME-Version: 1.0\n")
	html := !isAction && g.r.IntN(3) == 0
	if html {
		fmt.Fprintf(w, "Content-Type: multipart/alternative; boundary=\"b%d\"\n", g.n)
	} else {
		fmt.Fprintf(w, "Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 7bit\n")
	}
	fmt.Fprintf(w, "List-Id: %s\n", listID)
	fmt.Fprintf(w, "List-Archive: <https://lists.example.test/archives/list/%s/>\n", list)
	fmt.Fprintf(w, "List-Help: <mailto:%s-request@example.test?subject=help>\n", listLocal)
	fmt.Fprintf(w, "List-Post: <mailto:%s>\n", list)
	fmt.Fprintf(w, "List-Subscribe: <mailto:%s-join@example.test>\n", listLocal)
	fmt.Fprintf(w, "List-Unsubscribe: <mailto:%s-leave@example.test>\n", listLocal)
	fmt.Fprintf(w, "Precedence: list\n")
	fmt.Fprintf(w, "\n")
	if html {
		fmt.Fprintf(w, "--b%d\nContent-Type: text/plain; charset=UTF-8\n\n%s\n--b%d\nContent-Type: text/html; charset=UTF-8\n\n<html><body><p>%s</p></body></html>\n--b%d--\n",
			g.n, text, g.n, strings.ReplaceAll(strings.TrimSpace(text), "\n\n", "</p><p>"), g.n)
	} else {
		w.WriteString(text)
		w.WriteString("\n-- \n" + p.Name + "\n")
	}
	fmt.Fprintf(w, "_______________________________________________\n%s mailing list -- %s\nTo unsubscribe send an email to %s-leave@example.test\n\n", listLocal, list, listLocal)
	g.ids = append(g.ids, id)
	if len(g.ids) > 50 {
		g.ids = g.ids[1:]
	}
}
