package mailin

import (
	"strings"

	"referee/internal/lazyre"
)

// Patterns for what does not count (ruling G3). Localised forms cover the
// clients players are known to use; the English ones are the rule.
var (
	// "-----Original Message-----" (Outlook) and its translations; forwarded
	// blocks are not the sender's text either.
	originalRE = lazyre.MustCompile(`(?i)^\s*-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale|oorspronkelijk bericht|originalmeddelande|opprinnelig melding|oprindelig meddelelse|alkuperäinen viesti|původní zpráva|wiadomość oryginalna|исходное сообщение|元のメッセージ|forwarded message|weitergeleitete nachricht|message transféré)\s*-{2,}\s*$`)
	forwardRE  = lazyre.MustCompile(`(?i)^\s*(begin forwarded message|anfang der weitergeleiteten nachricht|début du message réexpédié)\s*:\s*$`)
	// "From: ..." starting an Outlook-style header block, also bolded ("*From:*").
	hdrFromRE = lazyre.MustCompile(`(?i)^\s*\*?(from|de|von|van|da|od|från|fra|lähettäjä|от|差出人|发件人)\s*\*?\s*[:：]\s*\*?\s*\S`)
	hdrNextRE = lazyre.MustCompile(`(?i)^\s*\*?(sent|date|to|subject|cc|envoyé|gesendet|datum|an|betreff|à|objet|enviado|fecha|para|asunto|inviato|data|a|oggetto|verzonden|onderwerp|aan|skickat|ämne|till|sendt|emne|til|lähetetty|aihe|отправлено|тема|кому|送信日時|件名|宛先|发送时间|主题|收件人)\s*\*?\s*[:：]`)
	// An attribution line ends with "wrote:" or a translation.
	wroteRE = lazyre.MustCompile(`(?i)(wrote|writes|said|schrieb|a écrit|escribió|ha scritto|schreef|napisał\(a\)|napisał|escreveu|skrev|kirjoitti|написал\(а\)|написал[а]?|napsal\(a\)|napsal|yazdı|írta|写道|書きました|のメッセージ)\s*[:：]\s*$`)
	// The same words anywhere in a line that starts like an attribution:
	// German and Dutch put the name after the verb ("Am ... schrieb Referee:").
	wroteInRE = lazyre.MustCompile(`(?i)\b(wrote|schrieb|a écrit|escribió|ha scritto|schreef|napisał|escreveu|skrev|kirjoitti|написал)\b`)
	// A list footer (Mailman): a rule, then "<list> mailing list".
	footerRE = lazyre.MustCompile(`(?i)mailing list`)
	// The words an attribution starts with ("On Mon, ... wrote:").
	introRE = lazyre.MustCompile(`(?i)^\s*(on|am|le|el|il|op|em|den|på|w dniu|dne|pe|в|\d{4}[年/-])(\s|$|\d)`)
)

// wroteASCII are the words of wroteRE written in ASCII alone, in lower case.
var wroteASCII = []string{"wrote", "writes", "said", "schrieb", "ha scritto", "schreef", "napsal(a)", "napsal", "escreveu", "skrev", "kirjoitti"}

// wroteAtEnd is wroteRE().MatchString(t) for a trimmed line that ends in a
// colon, without the regular expression's scan of the whole line when
// what comes before the colon ends in ASCII: a word of wroteRE ends there
// (no word of it is longer than 18 bytes, and only those of wroteASCII
// match ASCII text: case folding takes ſ for s and K for k).
func wroteAtEnd(t string) bool {
	v := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(t, ":"), "："), " \t\n\f\r")
	tail := v[max(0, len(v)-32):]
	for i := 0; i < len(tail); i++ {
		if tail[i] >= 0x80 {
			return wroteRE().MatchString(t)
		}
	}
	tail = strings.ToLower(tail)
	for _, w := range wroteASCII {
		if strings.HasSuffix(tail, w) {
			return true
		}
	}
	return false
}

// isQuoted reports whether a line is a quoted line: ">" possibly after a
// little indentation (some clients indent the quote marks).
func isQuoted(line string) bool {
	i := 0 // the spaces and tabs before the '>', counted where they are
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i <= 3 && i < len(line) && line[i] == '>'
}

// isSigDelimiter reports a signature delimiter: "-- " (RFC 3676 §4.3), also
// with the space lost or doubled, or a no-break space instead.
func isSigDelimiter(line string) bool {
	return strings.HasPrefix(line, "--") && strings.TrimRight(line[2:], " \t\r\u00a0") == ""
}

// outlookBlockAt reports whether lines[i] starts an Outlook-style quoted
// block: an "Original Message" rule, a forwarded-message marker, Outlook's
// underscore rule followed by a header line, or a "From:" line followed
// closely by at least two more header lines (Sent, To, Subject, ...).
func outlookBlockAt(lines []string, i int) bool {
	l := lines[i]
	// Cheap tests first: most lines are none of these. forwardRE needs a
	// colon, hdrFromRE one of either width.
	colon := strings.Contains(l, ":") || strings.Contains(l, "：")
	if !colon && strings.IndexByte(l, '-') < 0 && strings.IndexByte(l, '_') < 0 {
		return false
	}
	if (twoDashRuns(l) && originalRE().MatchString(l)) || (strings.Contains(l, ":") && forwardRE().MatchString(l)) {
		return true
	}
	if strings.Contains(l, "__________") && underscoreRule(l) {
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
	if !(colon && mayStartFrom(l) && hdrFromRE().MatchString(l)) {
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

// twoDashRuns reports whether l has "--" and another "--" after it, as
// originalRE needs (a rule of dashes before the words and one after): a
// signature's "-- ", in nearly every message, has one.
func twoDashRuns(l string) bool {
	k := strings.Index(l, "--")
	return k >= 0 && strings.Contains(l[k+2:], "--")
}

// underscoreRule is Outlook's rule line before a reply header block, as
// `^\s*_{10,}\s*$` matches it (underscoreRE, in the tests): ten underscores or more,
// and white space (\s: ASCII but \v) around them only. A list's footer,
// in nearly every message of a list, starts with one.
func underscoreRule(l string) bool {
	i, j := 0, len(l)
	for i < j && isRESpace(l[i]) {
		i++
	}
	for j > i && isRESpace(l[j-1]) {
		j--
	}
	if j-i < 10 {
		return false
	}
	for k := i; k < j; k++ {
		if l[k] != '_' {
			return false
		}
	}
	return true
}

// isRESpace reports whether c is a byte of \s.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// mayStartFrom reports whether l may match hdrFromRE, by the byte its
// word starts with: after the spaces (\s) and a "*", a letter that
// starts one of its words in either case (ASCII letters fold to no other
// ASCII letter, and to no other letter at all but k and s, which start
// none of them), or a byte of a letter that is not ASCII.
func mayStartFrom(l string) bool {
	w := strings.TrimPrefix(strings.TrimLeft(l, " \t\n\f\r"), "*")
	if w == "" {
		return false
	}
	switch c := w[0]; c | 0x20 {
	case 'f', 'd', 'v', 'o', 'l':
		return true
	default:
		return c&0x80 != 0
	}
}

// nextNonBlank returns the index of the first non-blank line at or after i, or len(lines).
func nextNonBlank(lines []string, i int) int {
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return i
}

// stripQuoted splits body text into the text that counts and what does not
// (ruling G3): quoted lines, attribution lines ("On ... wrote:", localised,
// also wrapped over two lines), Outlook-style blocks ("-----Original
// Message-----" or a "From: / Sent:" header block, and everything below), a
// Mailman list footer and everything after a signature delimiter ("-- ",
// tolerated: "--"). Blank lines around what was removed are collapsed. When an
// attribution is followed by unquoted text (clients that top-post without
// quote marks), everything below it is taken as quoted too.
func stripQuoted(text string) (kept, quoted string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	// A text of up to 64 lines, nearly every message's, is split and
	// marked on the stack (append moves a longer one's to the heap).
	var linesOnStack [64]string
	var removedOnStack [64]bool
	lines := splitLines(text, linesOnStack[:0])
	removed := append(removedOnStack[:0], make([]bool, len(lines))...)
	cut := len(lines)
	for i, l := range lines {
		if isSigDelimiter(l) || (!isQuoted(l) && outlookBlockAt(lines, i)) {
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
	return joinLines(lines, cut, removed, false), joinLines(lines, cut, removed, true)
}

// splitLines is strings.Split(text, "\n"), appended to lines.
func splitLines(text string, lines []string) []string {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return append(lines, text)
		}
		lines = append(lines, text[:i])
		text = text[i+1:]
	}
}

// joinLines joins the lines kept (quoted false: those before cut and not
// removed) or the others, each without the spaces, tabs and CRs at its
// end, dropping leading and trailing blank lines and collapsing runs of
// blank lines into one. The text is put together on the stack, then made
// a string of its own size.
func joinLines(lines []string, cut int, removed []bool, quoted bool) string {
	var scratch [1024]byte
	b := scratch[:0]
	blank, started := false, false
	for i, l := range lines {
		if (i >= cut || removed[i]) != quoted {
			continue
		}
		l = trimLineEnd(l)
		if strings.TrimSpace(l) == "" {
			blank = started
			continue
		}
		if started {
			b = append(b, '\n')
			if blank {
				b = append(b, '\n')
			}
		}
		blank, started = false, true
		b = append(b, l...)
	}
	return string(b)
}

// trimLineEnd is strings.TrimRight(l, " \t\r").
func trimLineEnd(l string) string {
	n := len(l)
	for n > 0 && (l[n-1] == ' ' || l[n-1] == '\t' || l[n-1] == '\r') {
		n--
	}
	return l[:n]
}
