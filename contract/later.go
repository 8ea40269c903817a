package contract

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"referee/internal/lazyre"
)

// An action is done by announcing it (AGORA "What performs an action"): a
// sentence that puts its action off to another time ("Tomorrow, I transfer
// 2 Vials to Bob.", "Next week I ...", "On Friday I ...", "Later I ...")
// announces nothing now, as the future tense does not (ruling G3). The
// reader reads the action, so that the receipt can say so; it is never
// performed. A day named that is the day the message arrives ("On Friday,
// I ..." on a Friday, "On 2026-12-04, I ..." that day; UTC, ruling G1) is
// today, and the action is performed, as "Today, I ..." is.

const (
	laterWeekdays = `monday|tuesday|wednesday|thursday|friday|saturday|sunday`
	laterMonths   = `january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec`
	laterCounts   = `\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|a\s+couple|few|several|some`
	laterUnits    = `minutes?|hours?|days?|weeks?|months?|years?|rounds?|turns?|fortnights?`
	laterOrdinal  = `(?:st|nd|rd|th)?`
	// laterFrom is a word that makes a time phrase the start of the
	// action's time: "As of tomorrow, I ...", "Starting next week, I ...".
	laterFrom = `(?:as\s+(?:of|from)|starting(?:\s+(?:from|on))?|beginning(?:\s+(?:from|on))?|effective(?:\s+(?:from|on))?|from|come)\s+`
	// laterTomorrow, laterNext and laterIn are phrases always later than
	// now, before the performative or after the action.
	// "Tonight" and "this evening" are later than now too, whenever the
	// mail arrives; any of them may name a time ("tomorrow at noon",
	// "tonight at 8pm").
	laterTomorrow = `(?:tomorrow(?:\s+(?:morning|afternoon|evening|night))?|the\s+day\s+after\s+tomorrow|tonight|this\s+evening)` + laterClock
	laterClock    = `(?:` + laterAt + `)?`
	laterAt       = `\s+at\s+(?:noon|midday|midnight|\d{1,2}(?::\d{2})?(?:\s*(?:am|pm|[ap]\.m\.?))?(?:\s*utc)?)`
	laterNext     = `next\s+(?:week|month|year|round|turn|time|game|weekend|` + laterWeekdays + `)`
	laterIn       = `in\s+(?:` + laterCounts + `)\s+(?:` + laterUnits + `)`
	// laterDate is a date after "on" ("on 2026-12-04", "on the 4th of
	// December", "on Dec. 4, 2026"), which may be today.
	laterDate = `on\s+(?:\d{4}-\d{2}-\d{2}|(?:the\s+)?\d{1,2}` + laterOrdinal + `\s+(?:of\s+)?(?:` + laterMonths + `)\.?(?:,?\s+\d{4})?|` +
		`(?:` + laterMonths + `)\.?\s+\d{1,2}` + laterOrdinal + `(?:,?\s+\d{4})?)`
	// laterOn is the "on" or "onwards" a phrase may end with ("From
	// Tuesday on").
	laterOn = `(?:\s+on(?:wards?)?)?`
	// laterPhrase is a time phrase a sentence may start with.
	laterPhrase = `(?:` + laterFrom + `)?(?:` +
		// always later than now
		laterTomorrow + `|` +
		`later(?:\s+(?:on|today|tonight|this\s+(?:week|month|year)))?|soon|eventually|some\s*day|one\s+day|` +
		`in\s+(?:the\s+)?future|in\s+due\s+course|at\s+some\s+point|` +
		laterNext + laterClock + `|` + laterIn + `|` +
		// a day, which may be today, perhaps at a time ("on Friday at
		// noon": the day decides, laterDay)
		`(?:(?:on\s+|this\s+(?:coming\s+)?|coming\s+)?(?:` + laterWeekdays + `)|` + laterDate + `)` + laterClock + `|` +
		// today at a time, which may be later than now
		`today` + laterAt +
		`)` + laterOn
)

var (
	// laterPreface is a time phrase at the start of a sentence, with or
	// without a comma after it, and the rest: "I", "we" or a condition
	// ("if") for readLater, the action for readLaterLead.
	laterPreface = lazyre.MustCompile(`(?i)^(` + laterPhrase + `)(?:\s*[,:;]\s*(?:[-–—]+\s*)?|\s*[-–—]+\s*|\s+)(\S.*)$`)
	// laterAlone is such a phrase and nothing else ("I, tomorrow,
	// transfer ...").
	laterAlone = lazyre.MustCompile(`(?i)^(?:` + laterPhrase + `)$`)
	// laterAfter is an action with a time phrase after it ("transfer 2
	// Vials to Bob tomorrow", "..., next week", "... on Friday"): the
	// action and the phrase. Only phrases no action ends with otherwise:
	// a weekday or a date after "on", never a bare word a name could be.
	laterAfter = lazyre.MustCompile(`(?i)^(.*?[^\s,])\s*,?\s+((?:` + laterFrom + `)?(?:` +
		laterTomorrow + `|` +
		`later\s+(?:on|today|tonight|this\s+(?:week|month|year))|at\s+some\s+point|in\s+due\s+course|` +
		laterNext + laterClock + `|` + laterIn + `|` +
		`(?:on\s+(?:` + laterWeekdays + `)|this\s+(?:coming\s+)?(?:` + laterWeekdays + `)|` + laterDate + `)` + laterClock + `|` +
		`today` + laterAt +
		`)` + laterOn + `)$`)
	laterFromWord = lazyre.MustCompile(`(?i)^` + laterFrom)
	laterOnwards  = lazyre.MustCompile(`(?i)\s+on(?:wards?)?$`)
	laterWeekday  = lazyre.MustCompile(`(?i)^(?:on\s+|this\s+(?:coming\s+)?|coming\s+)?(` + laterWeekdays + `)$`)
	laterISO      = lazyre.MustCompile(`^on\s+(\d{4})-(\d{2})-(\d{2})$`)
	laterDayMon   = lazyre.MustCompile(`(?i)^on\s+(?:the\s+)?(\d{1,2})` + laterOrdinal + `\s+(?:of\s+)?(` + laterMonths + `)\.?(?:,?\s+(\d{4}))?$`)
	laterMonDay   = lazyre.MustCompile(`(?i)^on\s+(` + laterMonths + `)\.?\s+(\d{1,2})` + laterOrdinal + `(?:,?\s+(\d{4}))?$`)
	// laterAtEnd is the time at the end of a phrase that names a day
	// ("on Friday at noon"), which laterDay reads without it.
	laterAtEnd = lazyre.MustCompile(`(?i)` + laterAt + `$`)
)

// laterFirst are the words laterPreface's phrases start with, in lower
// case.
var laterFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("as starting beginning effective from come tomorrow tonight today the later soon eventually some someday one in at next on this coming") {
		m[w] = true
	}
	for _, w := range strings.Split(laterWeekdays, "|") {
		m[w] = true
	}
	return m
}()

// mayLater reports whether laterPreface can match s: its first word, the
// run of ASCII letters it starts with, is one of laterFirst in some case,
// unless the run is empty or a byte past ASCII ends it (case folding
// takes ſ for s). Nearly every action's first word is its verb, which
// none of them is: the expression was tried on each.
func mayLater(s string) bool {
	n := 0
	for n < len(s) && (s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z') {
		n++
	}
	if n < len(s) && s[n] >= utf8.RuneSelf {
		return true
	}
	if n == 0 || n > len("eventually") {
		return false
	}
	var low [len("eventually")]byte
	for i := range n {
		low[i] = s[i] | 0x20
	}
	return laterFirst[string(low[:n])]
}

// readLater reads a sentence that starts with a time phrase: the phrase and
// the rest, from "I", "we" or "if" on; ok is false for any other sentence.
func readLater(s string) (when, rest string, ok bool) {
	m := startsWord(s, mayLater, laterPreface)
	if m == nil || !performerFirst(m[2]) {
		return "", "", false
	}
	return m[1], m[2], true
}

// readLaterLead reads an action that starts with a time phrase, as a list
// of the following actions has it ("1. Tomorrow, transfer 3 Vials to
// Bob." is read "I  Tomorrow, transfer ..."): the phrase and the rest,
// the sentence to read with "I" before it unless it has one (ok is false
// for an action without such a phrase).
func readLaterLead(action string) (when, sentence string, ok bool) {
	m := startsWord(action, mayLater, laterPreface)
	if m == nil {
		return "", "", false
	}
	if performerFirst(m[2]) {
		return m[1], m[2], true
	}
	return m[1], "I " + m[2], true
}

// readLaterVocative reads the time phrase written where a name may stand
// between "I" and the action ("I, tomorrow, transfer ...", "We, next
// week, join ..."): the phrase; ok is false for any other sentence.
func readLaterVocative(s string) (when string, ok bool) {
	n := 0
	switch {
	case s != "" && s[0]|0x20 == 'i':
		n = 1
	case len(s) > 1 && s[0]|0x20 == 'w' && s[1]|0x20 == 'e':
		n = 2
	}
	for n > 0 && n < len(s) && isSpace(s[n]) {
		n++
	}
	if n == 0 || n == len(s) || s[n] != ',' {
		return "", false
	}
	end := strings.IndexByte(s[n+1:], ',')
	if end < 0 {
		return "", false
	}
	when = strings.TrimSpace(s[n+1 : n+1+end])
	if !mayLater(when) || !laterAlone().MatchString(when) {
		return "", false
	}
	return when, true
}

// performerFirst reports whether s starts with the word "I", "we" or
// "if", in any case (as the regular expressions' (?:i|we|if)\b).
func performerFirst(s string) bool {
	n := 0
	for n < len(s) && isWordByte(s[n]) {
		n++
	}
	w := s[:n]
	return strings.EqualFold(w, "i") || strings.EqualFold(w, "we") || strings.EqualFold(w, "if")
}

// laterAfterLast is the last word of each of laterAfter's phrases but a
// date's (which ends in a digit or a month's name); an action whose last
// word is none of them, nor a digit's, is not matched against it.
var laterAfterLast = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("tomorrow morning afternoon evening night on onward onwards today tonight week month year point course " +
		"round turn time game weekend minute minutes hour hours day days weeks months years rounds turns fortnight fortnights " +
		"noon midday midnight am pm a.m p.m utc") {
		m[w] = true
	}
	for _, w := range strings.Split(laterWeekdays+"|"+laterMonths, "|") {
		m[w] = true
	}
	return m
}()

// timeOnly reports whether a sentence cut at a stop ("Tomorrow at 9
// a.m. "), white space after it included, is a time phrase alone whose
// last stop is that of "a.m." or "p.m.": then the stop ends no sentence,
// and the phrase puts off the action after it ("Tomorrow at 9 a.m. I
// transfer ...", G3), where "The round ends at 9 a.m. I join ..." is two
// sentences. Most stops end a word of another kind: the expression runs
// only after "a.m." or "p.m.".
func timeOnly(s string) bool {
	s = strings.TrimRight(s, " \t\n\f\r")
	n := len(s)
	if n < 4 || s[n-1] != '.' || s[n-2]|0x20 != 'm' || s[n-3] != '.' || s[n-4]|0x20 != 'a' && s[n-4]|0x20 != 'p' {
		return false
	}
	return mayLater(s) && laterAlone().MatchString(s)
}

// readLaterAfter reads an action with a time phrase after it: the action
// and the phrase; ok is false for any other, and for a phrase after "to",
// which is a name ("I transfer 3 Vials to Tonight." pays the player called
// Tonight).
func readLaterAfter(action string) (rest, when string, ok bool) {
	last := strings.ToLower(strings.TrimRight(action[strings.LastIndexAny(action, " \t\n")+1:], "."))
	if last == "" || !laterAfterLast[last] && (last[0] < '0' || last[0] > '9') {
		return "", "", false
	}
	m := laterAfter().FindStringSubmatch(action)
	if m == nil {
		return "", "", false
	}
	if before := m[1][strings.LastIndexAny(m[1], " \t\n")+1:]; strings.EqualFold(before, "to") {
		return "", "", false
	}
	if last == "a.m" || last == "p.m" {
		m[2] += "." // its stop, which the action's end lost
	}
	return m[1], m[2], true
}

// readLaterPrefaced reads a sentence with a few words before its time
// phrase ("So, tomorrow, I ...", "OK - next week I ..."): the words (a
// preface as preface reads one: up to 60 bytes without a stop, then a
// comma, colon, semicolon or dash), the phrase and the rest, from "I",
// "we" or "if" on; ok is false for any other sentence.
func readLaterPrefaced(s string) (pre, when, rest string, ok bool) {
	for i := 0; i < len(s) && i <= 60; i++ {
		n := 0
		switch c := s[i]; {
		case c == '.' || c == '!' || c == '?':
			return "", "", "", false
		case c == ',' || c == ':' || c == ';' || c == '-' && i > 0 && isSpace(s[i-1]):
			n = 1
		case strings.HasPrefix(s[i:], "\u2013") || strings.HasPrefix(s[i:], "\u2014"):
			n = 3
		default:
			continue
		}
		pre = strings.TrimSpace(s[:i])
		if pre == "" {
			return "", "", "", false
		}
		when, rest, ok = readLater(strings.TrimLeft(s[i+n:], " \t\n\f\r-\u2013\u2014"))
		return pre, when, rest, ok
	}
	return "", "", "", false
}

// laterDay is the day a time phrase names, and whether it names one: a
// weekday ("on Friday", "this Friday"), or a date ("on 2026-12-04", "on 4
// December", "on Dec 4th, 2026"; without a year, the date in now's year).
// Any other phrase ("tomorrow", "next week", "later") names no day and is
// always later than now.
func laterDay(when string, now time.Time) (today, named bool) {
	when = strings.Join(strings.Fields(when), " ")
	if strings.Contains(strings.ToLower(when), " at ") {
		when = laterAtEnd().ReplaceAllString(when, "")
	}
	if m := laterFromWord().FindString(when); m != "" {
		// "As of Friday", "Starting on 4 December": the day named.
		when = strings.TrimPrefix(strings.TrimPrefix(when[len(m):], "on "), "On ")
		when = "on " + laterOnwards().ReplaceAllString(when, "")
	}
	now = now.UTC()
	if strings.EqualFold(when, "today") {
		return true, true
	}
	if m := laterWeekday().FindStringSubmatch(when); m != nil {
		return strings.EqualFold(m[1], now.Weekday().String()), true
	}
	y, mo, d := now.Date()
	var day, month, year string
	switch m := laterISO().FindStringSubmatch(strings.ToLower(when)); {
	case m != nil:
		year, month, day = m[1], m[2], m[3]
	default:
		if m := laterDayMon().FindStringSubmatch(when); m != nil {
			day, month, year = m[1], m[2], m[3]
		} else if m := laterMonDay().FindStringSubmatch(when); m != nil {
			month, day, year = m[1], m[2], m[3]
		} else {
			return false, false
		}
		month = monthNumber(month)
	}
	if year == "" {
		year = strconv.Itoa(y)
	}
	// atoiWord reads "" (a month monthNumber does not know) as 0, no
	// month's or day's number.
	return year == strconv.Itoa(y) && atoiWord(month) == int(mo) && atoiWord(day) == d, true
}

// monthNumber is the number of a month named in English, in full or cut to
// its first three letters (four for "Sept"), as text.
func monthNumber(name string) string {
	name = strings.ToLower(name)
	for i := time.January; i <= time.December; i++ {
		if full := strings.ToLower(i.String()); full == name || full[:3] == name || name == "sept" && i == time.September {
			return strconv.Itoa(int(i))
		}
	}
	return ""
}

// notNow refuses an action put off by its time phrase when (G3), unless
// the phrase names the day the action happens at (now). Nil: the action
// is performed.
func notNow(when string, now time.Time) error {
	today, named := laterDay(when, now)
	switch {
	case today:
		if at, ok := laterClockOf(when); ok && at > now.UTC().Sub(now.UTC().Truncate(24*time.Hour)) {
			return Reject("G3", "%q is later than this message, sent at %s UTC: an action is done by announcing it now, so this one was not performed; send it at the time you mean it, or make it a condition the referee can decide now (\"If I own more than 5 Vials, I ...\")", when, now.UTC().Format("15:04"))
		}
		return nil
	case named:
		return Reject("G3", "%q is not today (%s, UTC): an action is done by announcing it now, so this one was not performed; send it on the day you mean it, or make it a condition the referee can decide now (\"If I own more than 5 Vials, I ...\")", when, now.UTC().Format("Monday 2006-01-02"))
	}
	return Reject("G3", "%q puts the action off: an action is done by announcing it now, so this one was not performed; send it when you mean it, or make it a condition the referee can decide now (\"If I own more than 5 Vials, I ...\")", when)
}

// laterClockOf is the time of day a phrase that names a day ends with
// ("on Friday at noon": 12:00), as a duration since midnight UTC, and
// whether it ends with one. Midnight is the day's end (24:00): "on
// Tuesday at midnight" is the night after Tuesday. An hour without "am"
// or "pm" is on the 24-hour clock.
func laterClockOf(when string) (time.Duration, bool) {
	m := laterAtEnd().FindString(strings.Join(strings.Fields(when), " "))
	if m == "" {
		return 0, false
	}
	at := strings.ToLower(strings.TrimSpace(m))
	at = strings.TrimSpace(strings.TrimPrefix(at, "at"))
	at = strings.TrimSpace(strings.TrimSuffix(at, "utc"))
	switch at {
	case "noon", "midday":
		return 12 * time.Hour, true
	case "midnight":
		return 24 * time.Hour, true
	}
	pm := strings.HasSuffix(at, "pm") || strings.HasSuffix(at, "p.m.") || strings.HasSuffix(at, "p.m")
	am := strings.HasSuffix(at, "am") || strings.HasSuffix(at, "a.m.") || strings.HasSuffix(at, "a.m")
	at = strings.TrimRight(at, "apm. ")
	hour, minute, _ := strings.Cut(at, ":")
	h, err := strconv.Atoi(hour)
	if err != nil {
		return 0, false
	}
	mi := 0
	if minute != "" {
		if mi, err = strconv.Atoi(minute); err != nil {
			return 0, false
		}
	}
	switch {
	case pm && h < 12:
		h += 12
	case am && h == 12:
		h = 0
	}
	if h > 24 || mi > 59 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute, true
}

// putOff reports whether the time phrase when puts an action off whatever
// the day: it names no day that could be today.
func putOff(when string) bool {
	_, named := laterDay(when, time.Time{})
	return !named
}
