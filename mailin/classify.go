package mailin

import (
	"slices"
	"strings"
	"unicode"

	"referee/internal/lazyre"
)

// listRole is what a configured list is for.
type listRole int

const (
	rolePublic listRole = iota
	roleOfficial
	roleDiscussion
)

type configuredList struct {
	addr string // lower-case
	role listRole
	// The List-Id identifiers that name the list (RFC 2919 §3): Mailman
	// (2 and 3) derives one from the address,
	// "agora-business@example.test" -> "agora-business.example.test";
	// one that starts with idStart and ends with idEnd is taken too.
	// All "" for an address without "@", which no identifier names.
	idWhole, idStart, idEnd string
}

// newConfiguredList is the list with the address addr, lower-case.
func newConfiguredList(addr string, role listRole) configuredList {
	l := configuredList{addr: addr, role: role}
	if local, domain, ok := strings.Cut(addr, "@"); ok {
		l.idWhole, l.idStart, l.idEnd = local+"."+domain, local+".", "."+domain
	}
	return l
}

// namedBy reports whether a List-Id identifier names the list.
func (l *configuredList) namedBy(id string) bool {
	return l.idWhole != "" && id != "" && (id == l.idWhole || strings.HasPrefix(id, l.idStart) && strings.HasSuffix(id, l.idEnd))
}

// through reports whether a message came through the list: its List-Id
// identifier names the list, or the list is among To/Cc (AGORA "Lists").
func (l *configuredList) through(listID string, to, cc []string) bool {
	return l.namedBy(listID) || slices.Contains(to, l.addr) || slices.Contains(cc, l.addr)
}

// listSet is the configured lists as read from a Config, with the
// fields they were read from.
type listSet struct {
	official           string
	public, discussion []string
	lists              []configuredList
}

// lists returns the configured lists: read once, and again only when the
// Config's lists have changed since. The caller does not change them.
func (c *Config) lists() []configuredList {
	if p, _ := c.listsRead.Load().(*listSet); p != nil && p.official == c.OfficialList && slices.Equal(p.public, c.PublicLists) && slices.Equal(p.discussion, c.DiscussionLists) {
		return p.lists
	}
	p := &listSet{official: c.OfficialList, public: slices.Clone(c.PublicLists), discussion: slices.Clone(c.DiscussionLists)}
	p.lists = make([]configuredList, 0, 1+len(p.public)+len(p.discussion))
	add := func(a string, r listRole) {
		a = strings.ToLower(strings.TrimSpace(a))
		if a != "" {
			p.lists = append(p.lists, newConfiguredList(a, r))
		}
	}
	add(p.official, roleOfficial)
	for _, a := range p.public {
		add(a, rolePublic)
	}
	for _, a := range p.discussion {
		add(a, roleDiscussion)
	}
	c.listsRead.Store(p)
	return p.lists
}

// listID returns the list identifier of a List-Id value (RFC 2919 §3):
// the text inside <>, or the whole value.
func listID(v string) string {
	if lt := strings.LastIndexByte(v, '<'); lt >= 0 {
		if id, _, ok := strings.Cut(v[lt+1:], ">"); ok {
			return strings.ToLower(strings.TrimSpace(id))
		}
	}
	return strings.ToLower(strings.TrimSpace(v))
}

var (
	autoSubjectRE = lazyre.MustCompile(`(?i)^\s*(out of (the )?office|automatic reply|auto(matic)?[ -]?(reply|response|antwort)|auto:|vacation(\s+(reply|notice|message|response|auto-?reply))?\s*($|[:(\[-])|abwesenheitsnotiz|abwesend|réponse automatique|respuesta automática|fuera de la oficina|risposta automatica|fuori sede|自動応答|不在)`)
	oooRE         = lazyre.MustCompile(`(?i)out of (the )?office|on vacation|abwesenheit|congés|vacances`)
	digestRE      = lazyre.MustCompile(`(?i)\bdigest\b.*\bvol(ume)?\b\.?\s*\d+`)
)

// mayAutoSubject reports whether autoSubjectRE can match a subject: after
// white space, its first letter is the first of one of the expression's
// phrases (a, f, o, r, v in some case, which no other rune folds to), or
// it is not ASCII (自動応答, 不在).
func mayAutoSubject(subject string) bool {
	i := 0
	for i < len(subject) && (subject[i] == ' ' || subject[i] == '\t' || subject[i] == '\n' || subject[i] == '\f' || subject[i] == '\r') {
		i++
	}
	if i == len(subject) {
		return false
	}
	switch c := subject[i]; c | 0x20 {
	case 'a', 'f', 'o', 'r', 'v':
		return true
	default:
		return c >= 0x80
	}
}

// mayNameDigest reports whether digestRE can match a subject: the subject
// must hold "digest" in some case. Of the runes outside ASCII, case folding
// takes only ſ for one of its letters (s); strings.ToLower also makes i of
// İ, which the expression does not, so the test is wider, never narrower.
// An ASCII subject, which nearly every one is, is searched where it is,
// its letters folded one by one: ToLower would copy every subject with a
// capital.
func mayNameDigest(subject string) bool {
	ascii := true
	for i := 0; i < len(subject); i++ {
		if c := subject[i]; c >= 0x80 {
			ascii = false
			break
		} else if c|0x20 == 'd' && i+6 <= len(subject) && asciiFold("digest", subject[i:i+6]) {
			return true
		}
	}
	return !ascii && strings.Contains(strings.ToLower(strings.ReplaceAll(subject, "ſ", "s")), "digest")
}

// nullReversePath reports whether a Return-Path is "<>" once its white
// space is taken out (strings.Fields of it joined), without the words and
// the string Fields and Join would make.
func nullReversePath(v string) bool {
	want := "<>"
	for _, r := range v {
		if unicode.IsSpace(r) {
			continue
		}
		if want == "" || r != rune(want[0]) {
			return false
		}
		want = want[1:]
	}
	return want == ""
}

// ignoreReason returns why a message performs nothing (ruling G4: bounces,
// auto-replies and the referee's own mail), or "".
func ignoreReason(h header, m *Message, cfg *Config, w *bodyWalker) string {
	if ref := strings.ToLower(strings.TrimSpace(cfg.Referee)); (ref != "" && m.From == ref) || h.Has("X-Referee-Notice") {
		return ReasonOwnMail
	}
	ct, params := w.topType, w.topParams
	if !w.typed {
		ct, params, _ = contentType(h)
	}
	local, _, _ := strings.Cut(m.From, "@")
	if local == "mailer-daemon" || local == "postmaster" {
		return ReasonBounce
	}
	if ct == "multipart/report" || w.report != "" {
		rt := strings.ToLower(params["report-type"])
		if rt == "" {
			rt = w.report
		}
		if rt == "disposition-notification" {
			return ReasonAutoReply // a read receipt (RFC 8098)
		}
		return ReasonBounce // RFC 3464 delivery status, or an unknown report
	}
	// RFC 3834 §5: Auto-Submitted other than "no" marks automatic mail.
	if as := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); as != "" {
		tok, _, _ := strings.Cut(as, ";")
		if strings.TrimSpace(tok) != "no" {
			return ReasonAutoReply
		}
	}
	if h.Has("X-Autoreply") || h.Has("X-Autorespond") || h.Has("X-Autoresponder") {
		return ReasonAutoReply
	}
	prec := strings.ToLower(strings.TrimSpace(h.Get("Precedence")))
	if prec == "auto_reply" {
		return ReasonAutoReply
	}
	if mayAutoSubject(m.Subject) && autoSubjectRE().MatchString(m.Subject) || ((prec == "bulk" || prec == "junk") && oooRE().MatchString(m.Subject)) {
		return ReasonAutoReply
	}
	// A null reverse-path (RFC 5321 §4.5.5) is what bounces are sent with.
	if nullReversePath(h.Get("Return-Path")) {
		return ReasonBounce
	}
	if w.digest || (mayNameDigest(m.Subject) && digestRE().MatchString(m.Subject) && (h.Has("List-Id") || strings.Contains(local, "-request"))) {
		return ReasonDigest
	}
	return ""
}

// classify sets Lists and Class (ruling G4; AGORA "Lists": route by the list
// the message came through, List-Id then To/Cc, never by a subject tag).
func classify(raw []byte, h header, from []address, m *Message, cfg *Config, w *bodyWalker) {
	id := listID(h.Get("List-Id"))
	var official, public, discussion bool
	for _, l := range cfg.lists() {
		if !l.through(id, m.To, m.Cc) {
			continue
		}
		if !slices.Contains(m.Lists, l.addr) {
			m.Lists = append(m.Lists, l.addr)
		}
		switch l.role {
		case roleOfficial:
			official = true
		case rolePublic:
			public = true
		case roleDiscussion:
			discussion = true
		}
	}
	if r := ignoreReason(h, m, cfg, w); r != "" {
		m.Class, m.IgnoreReason = Ignorable, r
		return
	}
	if official || public {
		m.ListCopy, m.ListNote = listCopy(raw, h, m, cfg, id)
	}
	// A list writes its own address in From only in the copies it
	// distributes (the DMARC rewrite); any other mail saying so is forged.
	if len(from) > 0 && !m.ListCopy && slices.ContainsFunc(cfg.lists(), func(l configuredList) bool { return l.role != roleDiscussion && l.addr == from[0].addr }) {
		m.Class, m.IgnoreReason = Ignorable, ReasonNotFromList
		return
	}
	switch {
	case official:
		m.Class = Official
	case public:
		m.Class = Public
	case discussion:
		m.Class = Discussion
	case id != "":
		m.Class, m.IgnoreReason = Ignorable, ReasonUnknownList
	default:
		m.Class = Private
	}
}

// sender finds the real sender. Mailman's DMARC mitigation rewrites From to
// "Alice via agora-business <agora-business@...>" and keeps the original in
// X-Original-From; that header is believed only when From is a configured
// list address and the message came through that list (List-Id, or the list
// among To/Cc: to and cc are the message's recipients). Reply-To is never
// used: anyone can set it.
func sender(h header, from []address, cfg *Config, to, cc []string) address {
	if len(from) == 0 {
		if s := addressList(h, "Sender"); len(s) > 0 {
			return s[0]
		}
		return address{}
	}
	f := from[0]
	xof := h.Get("X-Original-From")
	if xof == "" {
		return f
	}
	id := listID(h.Get("List-Id"))
	for _, l := range cfg.lists() {
		if l.addr == f.addr && l.through(id, to, cc) {
			if orig := parseAddressList(xof); len(orig) > 0 {
				return orig[0]
			}
		}
	}
	return f
}

// listCopy reports whether a configured public or official list distributed
// this copy, and how that was established (see Message.ListCopy). id is the
// message's List-Id identifier.
func listCopy(raw []byte, h header, m *Message, cfg *Config, id string) (bool, string) {
	policy := strings.ToLower(strings.TrimSpace(cfg.AuthPolicy))
	var why []string
	for _, l := range cfg.lists() {
		if l.role == roleDiscussion {
			continue
		}
		addressed := slices.Contains(m.To, l.addr) || slices.Contains(m.Cc, l.addr)
		_, domain, _ := strings.Cut(l.addr, "@")
		switch policy {
		case "", AuthNone:
			if l.namedBy(id) && addressed {
				return true, "List-Id " + id + " and " + l.addr + " in To/Cc (policy none: not authenticated)"
			}
		case AuthAuthRes:
			ok, note := checkAuthResList(h, cfg.AuthServID, domain)
			if ok {
				return true, note
			}
			why = append(why, note)
		case AuthDKIM:
			ok, note := checkDKIMList(raw, cfg.LookupTXT, domain)
			if ok {
				return true, note
			}
			why = append(why, note)
		}
	}
	if len(why) == 0 {
		return false, "no List-Id of a public list with its address in To/Cc"
	}
	return false, "no signature of the list's domain: " + strings.Join(why, "; ")
}
