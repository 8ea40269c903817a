package mailin

import (
	"regexp"
	"slices"
	"strings"
)

// listRole is what a configured list is for.
type listRole int

const (
	rolePublic listRole = iota + 1
	roleOfficial
	roleDiscussion
)

type configuredList struct {
	addr string // lower-case
	role listRole
}

func (c *Config) lists() []configuredList {
	ls := make([]configuredList, 0, 1+len(c.PublicLists)+len(c.DiscussionLists))
	add := func(a string, r listRole) {
		a = strings.ToLower(strings.TrimSpace(a))
		if a != "" {
			ls = append(ls, configuredList{a, r})
		}
	}
	add(c.OfficialList, roleOfficial)
	for _, a := range c.PublicLists {
		add(a, rolePublic)
	}
	for _, a := range c.DiscussionLists {
		add(a, roleDiscussion)
	}
	return ls
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

// listIDMatches reports whether a List-Id identifier names the list with
// this address. Mailman (2 and 3) derives it from the address:
// "agora-business@example.test" -> "agora-business.example.test".
func listIDMatches(id, addr string) bool {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || id == "" {
		return false
	}
	return id == local+"."+domain || (strings.HasPrefix(id, local+".") && strings.HasSuffix(id, "."+domain))
}

// through reports whether a message came through the list with this
// address: its List-Id names the list, or the list is among To/Cc (AGORA
// "Lists").
func through(listID, addr string, to, cc []string) bool {
	return listIDMatches(listID, addr) || slices.Contains(to, addr) || slices.Contains(cc, addr)
}

var (
	autoSubjectRE = regexp.MustCompile(`(?i)^\s*(out of (the )?office|automatic reply|auto(matic)?[ -]?(reply|response|antwort)|auto:|vacation(\s+(reply|notice|message|response|auto-?reply))?\s*($|[:(\[-])|abwesenheitsnotiz|abwesend|réponse automatique|respuesta automática|fuera de la oficina|risposta automatica|fuori sede|自動応答|不在)`)
	oooRE         = regexp.MustCompile(`(?i)out of (the )?office|on vacation|abwesenheit|congés|vacances`)
	digestRE      = regexp.MustCompile(`(?i)\bdigest\b.*\bvol(ume)?\b\.?\s*\d+`)
)

// mayNameDigest reports whether digestRE can match a subject: an ASCII
// subject must hold "digest" in some case (case folding takes ſ for s).
func mayNameDigest(subject string) bool {
	for i := 0; i < len(subject); i++ {
		if subject[i] >= 0x80 {
			return true
		}
	}
	return strings.Contains(strings.ToLower(subject), "digest")
}

// ignoreReason returns why a message performs nothing (ruling G4: bounces,
// auto-replies and the referee's own mail), or "".
func ignoreReason(h header, m *Message, cfg *Config, w *bodyWalker) string {
	if ref := strings.ToLower(strings.TrimSpace(cfg.Referee)); (ref != "" && m.From == ref) || h.Has("X-Referee-Notice") {
		return ReasonOwnMail
	}
	ct, params := w.topType, w.topParams
	if !w.typed {
		ct, params, _ = contentType(h.Header)
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
	if autoSubjectRE.MatchString(m.Subject) || ((prec == "bulk" || prec == "junk") && oooRE.MatchString(m.Subject)) {
		return ReasonAutoReply
	}
	// A null reverse-path (RFC 5321 §4.5.5) is what bounces are sent with.
	if rp := strings.Join(strings.Fields(h.Get("Return-Path")), ""); rp == "<>" {
		return ReasonBounce
	}
	if w.digest || (mayNameDigest(m.Subject) && digestRE.MatchString(m.Subject) && (h.Has("List-Id") || strings.Contains(local, "-request"))) {
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
		if !through(id, l.addr, m.To, m.Cc) {
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
		if l.addr == f.addr && through(id, l.addr, to, cc) {
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
			if listIDMatches(id, l.addr) && addressed {
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
