package mailin

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// autoSubjectSeeds are subjects of automatic replies in the languages of
// autoSubjectRE, and subjects that are not.
var autoSubjectSeeds = []string{"Out of Office: Re: bids", "  out of the office", "\tAutomatic reply: x", "AutoReply", "auto-response", "Auto Antwort",
	"Auto: away", "Vacation", "vacation reply", "VACATION: back soon", "Vacation rules", "Abwesenheitsnotiz", "abwesend", "Réponse automatique",
	"Respuesta automática", "Fuera de la oficina", "Risposta automatica", "Fuori sede", "自動応答", "不在", "Re: Out of Office", "", " ", "\v Out of office",
	"\u00a0Out of office", "Ｏut of office", "Fwd: vacation", "[agora] auto: x", "o", "A", "ſ", "\xff"}

// TestAutoSubjectFirstLetter: the subjects mayAutoSubject turns away are
// those autoSubjectRE does not match, on the seeds and on 20,000 subjects
// drawn from white space, the expression's phrases and other words.
func TestAutoSubjectFirstLetter(t *testing.T) {
	check := func(s string) bool {
		t.Helper()
		want := autoSubjectRE().MatchString(s)
		if got := mayAutoSubject(s) && want; got != want {
			t.Errorf("mayAutoSubject(%q) is false, but autoSubjectRE matches", s)
		}
		return want
	}
	pieces := []string{" ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "Out of Office", "out of the office", "automatic reply", "Auto", "auto", "-reply",
		" response", "antwort", ":", "Vacation", " notice", "(", "abwesend", "réponse automatique", "fuori sede", "不在", "Re: ", "bids", "x", "ſ", "\xff"}
	r := rand.New(rand.NewPCG(14, 5))
	matched := 0
	for _, s := range autoSubjectSeeds {
		check(s)
	}
	for range 20000 {
		if check(joinPieces(r, pieces, 1+r.IntN(4))) {
			matched++
		}
	}
	if matched < 2000 {
		t.Errorf("only %d of the subjects are automatic replies: the draws test too little", matched)
	}
}

// TestAutoSubjectPhrases: the first letter of every phrase of
// autoSubjectRE, in either case, passes mayAutoSubject, so that a phrase
// added to the expression with another first letter fails here.
func TestAutoSubjectPhrases(t *testing.T) {
	src := autoSubjectRE().String()
	body := src[strings.Index(src, `^\s*(`)+len(`^\s*(`) : len(src)-1]
	var phrases []string
	depth, start, class := 0, 0, false
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\':
			i++ // an escaped character
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|':
			if depth == 0 {
				phrases = append(phrases, body[start:i])
				start = i + 1
			}
		}
	}
	phrases = append(phrases, body[start:])
	if len(phrases) < 14 {
		t.Fatalf("%d phrases read from %s", len(phrases), src)
	}
	for _, p := range phrases {
		first := []rune(p)[0]
		for _, s := range []string{p, strings.ToUpper(string(first)) + p[len(string(first)):], " " + p} {
			if !mayAutoSubject(s) {
				t.Errorf("phrase %q: mayAutoSubject(%q) is false", p, s)
			}
		}
	}
}

// listIDNames is how a List-Id identifier named a list before the lists'
// identifiers were read once (configuredList.namedBy): Mailman's
// local.domain, or an identifier that starts with local. and ends with
// .domain.
func listIDNames(id, addr string) bool {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || id == "" {
		return false
	}
	return id == local+"."+domain || (strings.HasPrefix(id, local+".") && strings.HasSuffix(id, "."+domain))
}

// TestListsReadOnce: a Config's lists are read once, and again when its
// lists change (a list added, one changed in place, the official list);
// each list's identifiers name it as listIDNames says, on a table and on
// 20,000 identifiers drawn from the pieces of the addresses.
func TestListsReadOnce(t *testing.T) {
	cfg := &Config{PublicLists: []string{" Agora-Business@Example.Test ", "x@y"}, OfficialList: "agora-official@example.test", DiscussionLists: []string{"noat", ""}}
	fresh := func() []configuredList {
		return (&Config{PublicLists: cfg.PublicLists, OfficialList: cfg.OfficialList, DiscussionLists: cfg.DiscussionLists}).lists()
	}
	a, b := cfg.lists(), cfg.lists()
	if len(a) != 4 || &a[0] != &b[0] {
		t.Fatalf("lists read twice, or not as configured: %+v", a)
	}
	for _, change := range []func(){
		func() { cfg.PublicLists = append(cfg.PublicLists, "more@example.test") },
		func() { cfg.PublicLists[0] = "other@example.test" },
		func() { cfg.OfficialList = "" },
		func() { cfg.DiscussionLists = nil },
	} {
		change()
		if got, want := cfg.lists(), fresh(); !slices.Equal(got, want) {
			t.Errorf("after a change the lists are %+v, want %+v", got, want)
		}
	}

	addrs := []string{"agora-business@example.test", "a@b", "a.b@c.d", "noat", "@", "a@", "@b", ".@."}
	ids := []string{"", "agora-business.example.test", "agora-business.lists.example.test", "agora-business.example.testx", "agora-business.", ".example.test",
		"a.b", "a..b", "a.b.c.d", "a.x.c.d", "noat", ".", "..", "a.", ".b", "a.b.b"}
	pieces := []string{"agora-business", "example", "test", "a", "b", "c", "d", ".", "@", "x", ""}
	r := rand.New(rand.NewPCG(14, 7))
	for range 20000 {
		ids = append(ids, joinPieces(r, pieces, r.IntN(6)))
	}
	named := 0
	for _, addr := range addrs {
		l := newConfiguredList(addr, rolePublic)
		for _, id := range ids {
			got, want := l.namedBy(id), listIDNames(id, addr)
			if got != want {
				t.Errorf("list %q: namedBy(%q) = %v, want %v", addr, id, got, want)
			}
			if want {
				named++
			}
		}
	}
	if named < 500 {
		t.Errorf("only %d identifiers name a list: the draws test too little", named)
	}
}

// TestListsOfChangedConfig: a message is classified by the lists its
// Config has when it is parsed, after the Config has been used with
// others.
func TestListsOfChangedConfig(t *testing.T) {
	cfg := &Config{Referee: "referee@example.test", PublicLists: []string{"agora-business@example.test"}}
	raw := []byte("From: a@example.org\nTo: agora-discussion@example.test\nList-Id: <agora-discussion.example.test>\nSubject: x\n\nI join Life.\n")
	m, err := Parse(raw, time.Time{}, cfg)
	if err != nil || m.Class != Ignorable || m.IgnoreReason != ReasonUnknownList {
		t.Fatalf("before: %v, %s (%s), want ignorable (unknown list)", err, m.Class, m.IgnoreReason)
	}
	cfg.DiscussionLists = []string{"agora-discussion@example.test"}
	if m, err = Parse(raw, time.Time{}, cfg); err != nil || m.Class != Discussion {
		t.Fatalf("after the list is configured: %v, %s (%s), want discussion", err, m.Class, m.IgnoreReason)
	}
}
