package rumble

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"referee/contract"
)

// Sealed submissions (issue: commitments). Every accepted private submission is
// written in a canonical form, and the referee publishes
//
//	commitment = hex(SHA-256(nonce + "\n" + canonical))
//
// where nonce is 64 lower-case hex digits derived from the master secret, the
// game, the phase, the contestant and the submission (Ctx.Secret), so a replay
// computes the same nonce. The canonical form is UTF-8 text, every line ending
// in "\n":
//
//	rumble game <G> phase <phase> contestant <name>
//	<one line per item>
//
// Phases are "powers", "bids", "discard" and "round-<N>". Items, merged and in
// this order:
//
//	power: <name>: <description>          (in the order submitted)
//	bid: <power>: <n>                     (by power name)
//	discard: <power> | discard: none
//	attack: <target>: <n>                 (by target name)
//	defend: <n>
//	spend: <power>: <n> | burn: <power>: <n>   (by power name)
//	none                                  (an empty submission)
//
// The reveal notice prints the canonical form, the nonce and the commitment of
// every submission, so anyone can recompute the hash.

// Commit computes the commitment of a canonical form under a hex nonce.
func Commit(canonical, nonceHex string) string {
	h := sha256.Sum256([]byte(nonceHex + "\n" + canonical))
	return hex.EncodeToString(h[:])
}

// VerifyCommitment reports whether commitmentHex is the commitment of canonical
// under nonceHex (for `referee verify`).
func VerifyCommitment(canonical string, nonceHex string, commitmentHex string) bool {
	want := Commit(canonical, strings.ToLower(strings.TrimSpace(nonceHex)))
	got := strings.ToLower(strings.TrimSpace(commitmentHex))
	return subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// canonical writes a submission in the canonical form above.
func canonical(game int, phase, who string, x *Sub) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rumble game %d phase %s contestant %s\n", game, phase, who)
	n := 0
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format+"\n", args...)
		n++
	}
	for _, p := range x.Powers {
		line("power: %s: %s", p.Name, p.Text)
	}
	bids := append([]Bid(nil), x.Bids...)
	sort.SliceStable(bids, func(i, j int) bool { return byName(bids[i].Power) < byName(bids[j].Power) })
	for _, bd := range bids {
		line("bid: %s: %d", bd.Power, bd.N)
	}
	if phase == PhaseDiscard {
		if x.Discard == "" {
			line("discard: none")
		} else {
			line("discard: %s", x.Discard)
		}
	}
	acts := append([]Alloc(nil), x.Acts...)
	rank := map[string]int{"attack": 0, "defend": 1, "spend": 2, "burn": 2}
	sort.SliceStable(acts, func(i, j int) bool {
		a, c := acts[i], acts[j]
		if rank[a.Kind] != rank[c.Kind] {
			return rank[a.Kind] < rank[c.Kind]
		}
		ka, kc := strings.ToLower(a.Target+a.Power), strings.ToLower(c.Target+c.Power)
		if ka != kc {
			return ka < kc
		}
		return a.Kind < c.Kind
	})
	for _, a := range acts {
		switch a.Kind {
		case "attack":
			line("attack: %s: %d", a.Target, a.N)
		case "defend":
			line("defend: %d", a.N)
		default:
			line("%s: %s: %d", a.Kind, a.Power, a.N)
		}
	}
	if n == 0 {
		line("none")
	}
	return b.String()
}

// nonce derives the submission's secret nonce, hex.
func nonce(c *contract.Ctx, game int, phase, who, canon string) string {
	h := sha256.Sum256([]byte(canon))
	label := fmt.Sprintf("nonce/%d/%s/%s/%x", game, phase, who, h[:])
	return hex.EncodeToString(c.Secret(label))
}

// Reveal is one revealed submission, as the journal and the reveal notice hold it.
type Reveal struct {
	Phase      string `json:"phase" yaml:"phase"`
	Contestant string `json:"contestant" yaml:"contestant"`
	Canonical  string `json:"canonical" yaml:"canonical"`
	Nonce      string `json:"nonce" yaml:"nonce"`
	Commitment string `json:"commitment" yaml:"commitment"`
}

// seal fills the submission's canonical form and commitment.
func seal(c *contract.Ctx, st *State, x *Sub) {
	x.Phase = st.phaseLabel()
	x.Canonical = canonical(st.Game, x.Phase, x.Who, x)
	x.Commitment = Commit(x.Canonical, nonce(c, st.Game, x.Phase, x.Who, x.Canonical))
}

// reveals lists the phase's submissions with their nonces, records them in the
// journal under "reveals" and returns the notice section showing them.
func reveals(c *contract.Ctx, st *State) ([]Reveal, string) {
	var out []Reveal
	var journal []map[string]string
	var b strings.Builder
	subs := append([]*Sub(nil), st.Subs...)
	order := st.orderOf()
	sort.SliceStable(subs, func(i, j int) bool { return order(subs[i].Who) < order(subs[j].Who) })
	for _, x := range subs {
		if x.Default {
			continue
		}
		r := Reveal{Phase: x.Phase, Contestant: x.Who, Canonical: x.Canonical,
			Nonce: nonce(c, st.Game, x.Phase, x.Who, x.Canonical), Commitment: x.Commitment}
		out = append(out, r)
		journal = append(journal, map[string]string{"phase": r.Phase, "contestant": r.Contestant,
			"canonical": r.Canonical, "nonce": r.Nonce, "commitment": r.Commitment})
		fmt.Fprintf(&b, "%s\n  commitment:\n    %s\n  nonce:\n    %s\n  submission:\n", r.Contestant, r.Commitment, r.Nonce)
		for _, l := range strings.Split(strings.TrimSuffix(r.Canonical, "\n"), "\n") {
			b.WriteString("  | " + l + "\n")
		}
	}
	if len(journal) > 0 {
		c.Detail("reveals", journal)
	}
	if b.Len() == 0 {
		return nil, "(no sealed submissions)\n"
	}
	return out, b.String()
}

// byName is the key that orders a canonical form's bids by power name: the
// name lower-cased, then the name itself. Names that differ only in case
// never meet (Rumble 2 refuses the second), but two can lower-case alike and
// still differ ("İron Skin" and "Iron Skin"): the names settle those, not the
// order the list gave them. A power name holds no NUL.
func byName(power string) string { return strings.ToLower(power) + "\x00" + power }

// Republish: a sealed submission's commitment notice a correction changes
// is published again (contract.Republisher), so that the commitment of the
// corrected submission is public whole before its reveal is checked
// against it; it names the contestant, the phase and the commitment alone.
func (g *Game) Republish(n *contract.Notice) bool {
	return strings.Contains(n.ID, "/commit/")
}
