package mailin

import (
	"bytes"
	"fmt"
	"net"
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"github.com/emersion/go-msgauth/dkim"
)

// authenticate applies the configured sender-authentication policy to the
// domain of the From header (the header as received: for a list's DMARC
// rewrite that is the list's domain, which is what the list signs); from is
// that header's address list.
func authenticate(raw []byte, h header, from []address, cfg *Config) (bool, string) {
	fromDomain := ""
	if len(from) > 0 {
		_, fromDomain, _ = strings.Cut(from[0].addr, "@")
	}
	switch strings.ToLower(strings.TrimSpace(cfg.AuthPolicy)) {
	case "", AuthNone:
		return true, "not checked (policy none)"
	case AuthAuthRes:
		return checkAuthRes(h, cfg.AuthServID, fromDomain)
	case AuthDKIM:
		return checkDKIM(raw, cfg.LookupTXT, fromDomain)
	default:
		return false, fmt.Sprintf("unknown auth policy %q", cfg.AuthPolicy)
	}
}

// stripComments removes RFC 5322 §3.2.2 comments "(...)", nested, outside
// quoted strings. authres.Parse splits on ';' without knowing comments
// (go-msgauth issue 74), so "dkim=pass (2048-bit key; unprotected)" would
// otherwise break the parse.
func stripComments(s string) string {
	var b strings.Builder
	depth, inQuote := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && (inQuote || depth > 0):
			if depth == 0 {
				b.WriteByte(c)
				b.WriteByte(s[i+1])
			}
			i++
			continue
		case c == '"' && depth == 0:
			inQuote = !inQuote
		case c == '(' && !inQuote:
			depth++
			continue
		case c == ')' && !inQuote && depth > 0:
			depth--
			if depth == 0 {
				b.WriteByte(' ')
			}
			continue
		}
		if depth == 0 {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// checkAuthRes trusts only the topmost Authentication-Results header whose
// authserv-id is ours (RFC 8601 §5: headers from elsewhere must be ignored;
// ours is prepended last, so it is the topmost one). It requires dkim=pass
// with header.d aligned with the From domain, or dmarc=pass.
func checkAuthRes(h header, servID, fromDomain string) (bool, string) {
	return authRes(h, servID, fromDomain, false)
}

// checkAuthResList is checkAuthRes for a list's own signature (ruling G4):
// only dkim=pass with header.d the list's domain itself passes, not dmarc=pass
// (which speaks of the From domain) nor a domain merely aligned with it (a
// player may write from the list's organizational domain).
func checkAuthResList(h header, servID, domain string) (bool, string) {
	return authRes(h, servID, domain, true)
}

func authRes(h header, servID, fromDomain string, list bool) (bool, string) {
	match := aligned
	if list {
		match = sameDomain
	}
	servID = strings.TrimSpace(servID)
	if servID == "" {
		return false, "authres policy without an authserv-id"
	}
	for _, v := range h.Values("Authentication-Results") {
		id, results, err := authres.Parse(stripComments(v))
		if !strings.EqualFold(strings.TrimSpace(id), servID) {
			continue
		}
		if err != nil && len(results) == 0 {
			return false, fmt.Sprintf("unreadable Authentication-Results from %s", servID)
		}
		var seen []string
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DKIMResult:
				d := strings.ToLower(r.Domain)
				if d == "" {
					_, d, _ = strings.Cut(strings.ToLower(r.Identifier), "@")
				}
				if r.Value == authres.ResultPass && match(d, fromDomain) {
					return true, "dkim=pass header.d=" + d
				}
				seen = append(seen, fmt.Sprintf("dkim=%s header.d=%s", r.Value, d))
			case *authres.DMARCResult:
				if list {
					continue
				}
				if r.Value == authres.ResultPass && (r.From == "" || aligned(strings.ToLower(r.From), fromDomain)) {
					return true, "dmarc=pass"
				}
				seen = append(seen, fmt.Sprintf("dmarc=%s", r.Value))
			}
		}
		if len(seen) == 0 {
			return false, fmt.Sprintf("no dkim or dmarc result from %s", servID)
		}
		return false, fmt.Sprintf("%s (From domain %s)", strings.Join(seen, "; "), fromDomain)
	}
	return false, fmt.Sprintf("no Authentication-Results from %s", servID)
}

// checkDKIM verifies DKIM signatures (RFC 6376); a valid signature whose d=
// aligns with the From domain passes.
func checkDKIM(raw []byte, lookup func(string) ([]string, error), fromDomain string) (bool, string) {
	return verifyDKIM(raw, lookup, fromDomain, aligned)
}

// checkDKIMList is checkDKIM for a list's own signature (ruling G4): d= must
// be the list's domain itself.
func checkDKIMList(raw []byte, lookup func(string) ([]string, error), domain string) (bool, string) {
	return verifyDKIM(raw, lookup, domain, sameDomain)
}

func verifyDKIM(raw []byte, lookup func(string) ([]string, error), fromDomain string, match func(a, b string) bool) (bool, string) {
	if lookup == nil {
		lookup = net.LookupTXT
	}
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: lookup, MaxVerifications: 5})
	if err != nil && len(verifs) == 0 {
		return false, "dkim: " + err.Error()
	}
	if len(verifs) == 0 {
		return false, "no DKIM signature"
	}
	var why []string
	for _, v := range verifs {
		d := strings.ToLower(v.Domain)
		if v.Err == nil {
			if match(d, fromDomain) {
				return true, "dkim=pass header.d=" + d
			}
			why = append(why, fmt.Sprintf("dkim=pass header.d=%s not aligned with %s", d, fromDomain))
			continue
		}
		why = append(why, fmt.Sprintf("dkim=fail header.d=%s: %v", d, v.Err))
	}
	return false, strings.Join(why, "; ")
}

// aligned reports whether two domains are in relaxed alignment (RFC 7489
// §3.1.1): the same organizational domain. Without a public suffix list the
// organizational domain is approximated by orgDomain.
func aligned(a, b string) bool {
	a, b = strings.Trim(strings.ToLower(a), "."), strings.Trim(strings.ToLower(b), ".")
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	oa, ob := orgDomain(a), orgDomain(b)
	return oa != "" && oa == ob
}

// sameDomain reports whether two domains are the same.
func sameDomain(a, b string) bool {
	a, b = strings.Trim(strings.ToLower(a), "."), strings.Trim(strings.ToLower(b), ".")
	return a != "" && a == b
}

// secondLevel are labels that commonly form public suffixes under a
// two-letter country code ("co.uk", "com.au", "ne.jp").
var secondLevel = map[string]bool{"co": true, "com": true, "net": true, "org": true, "ac": true, "gov": true, "edu": true, "ne": true, "or": true, "go": true, "gen": true, "ltd": true, "plc": true, "nom": true}

// orgDomain approximates the organizational domain: the last two labels, or
// three under a two-letter country code with a common second level. A
// public suffix such as "co.uk" is its own, which no other domain shares
// (aligned has compared the two domains whole first).
func orgDomain(d string) string {
	labels := strings.Split(d, ".")
	n := len(labels)
	if n < 2 {
		return ""
	}
	if n >= 3 && len(labels[n-1]) == 2 && secondLevel[labels[n-2]] {
		return strings.Join(labels[n-3:], ".")
	}
	return strings.Join(labels[n-2:], ".")
}
