package contract

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"referee/contract/text"
)

// ratificationParam is the interpreter's parameter of every game: how long its
// reports and notices take to self-ratify.
var ratificationParam = Param{Name: "ratification", Type: "duration", Default: DefaultRatification.String(), Rule: "CoE",
	Help: "how long a report or notice of the game takes to self-ratify when no Claim of Error is made"}

// coreParams are parameters every game has besides its own.
var coreParams = []Param{ratificationParam}

// ratification is a game's self-ratification period; the referee's own
// notices take the default.
func (e *Engine) ratification(s *State, game string) time.Duration {
	if gs := s.Games[game]; gs != nil {
		if v, ok := gs.Params[ratificationParam.Name]; ok {
			// Every value stored passed Param.Validate (SetParam, the
			// state's validate), which takes only durations above zero.
			if d, err := time.ParseDuration(v); err == nil {
				return d
			}
		}
	}
	return DefaultRatification
}

// hashedState is what a report's state hash covers, in this order: the
// notice's game, the last journal line and the notice's time, the players,
// the ledger, the points, the intents, the ruling requests, the open claims
// and the sections of the game (every game's for the referee's own notices).
// Delivery (the outbox, failures, the IMAP position, receipt limits) and the
// clock are left out: they differ between a live run and a replay of the same
// mail. The processed-message memory is left out too, which the last
// Message-ID stands for.
type hashedState struct {
	Game    string                    `yaml:"game"`
	Seq     int64                     `yaml:"seq"`
	Time    time.Time                 `yaml:"time"`
	Players []*Player                 `yaml:"players"`
	Ledger  Ledger                    `yaml:"ledger"`
	Points  map[string]map[string]int `yaml:"points"`
	Intents []*Intent                 `yaml:"intents"`
	Rulings []*Ruling                 `yaml:"rulings"`
	Claims  []*Claim                  `yaml:"claims"`
	Games   map[string]*GameState     `yaml:"games"`
}

// StateHash is the hash of the state a notice of game ("" for the referee's
// own) describes, as of journal line seq and the notice's time at: the
// HMAC-SHA256, under a key derived from the master secret ("state-hash"), of
// the YAML encoding of hashedState. It is keyed because the state holds sealed
// values and private choices, often of a few bits each: a plain hash of it
// would let anyone who knows the rest test guesses of them. The referee, and
// anyone holding the state file (the contestmaster, `referee replay` of the
// same mail with the same master secret), recompute it.
func StateHash(s *State, game string, seq int64, at time.Time) (string, error) {
	return new(hashText).hash(s, game, seq, at)
}

// Prepare reads s as the state hashes of its public notices will read it
// (the players, the ledger, each game's section) and keeps the text, so
// that the first notice after the referee starts costs what the next ones
// do, not the encoding of the whole state: some 70 ms in a Rumble of 2,000
// contestants, paid by whichever player's message first sends a notice.
// Nothing of s changes.
func (e *Engine) Prepare(s *State) error {
	h := hashedState{Players: s.Players, Ledger: s.Ledger, Points: s.Points,
		Intents: s.Intents, Rulings: s.Rulings, Claims: s.Claims, Games: s.Games}
	if _, err := e.hashes.pieces(&h, s); err != nil {
		return fmt.Errorf("state hash: %w", err)
	}
	return nil
}

// hash is StateHash, with the text of the games' recent events kept in c.
func (c *hashText) hash(s *State, game string, seq int64, at time.Time) (string, error) {
	sec, err := s.secret()
	if err != nil {
		return "", err
	}
	h := hashedState{Game: game, Seq: seq, Time: at.UTC(), Players: s.Players, Ledger: s.Ledger, Points: s.Points,
		Intents: s.Intents, Rulings: s.Rulings, Claims: s.Claims, Games: s.Games}
	if game != "" {
		h.Games = map[string]*GameState{game: s.Games[game]}
	}
	pieces, err := c.pieces(&h, s)
	if err != nil {
		return "", fmt.Errorf("state hash: %w", err)
	}
	mac := hmac.New(sha256.New, KeyFor(sec, "state-hash"))
	for _, p := range pieces {
		mac.Write(p)
	}
	return hex.EncodeToString(mac.Sum(nil)), nil
}

// citable says whether a notice self-ratifies: every report and notice sent
// to a list; private mail (receipts, ruling requests) does not.
func citable(n *Notice) bool { return n.Channel.IsPublic() }

// cite records a public notice as citable and writes its citation block
// (identifier, range, state hash, ratification date, open claims, what
// ratified since) before its signature. The journal line of the change that
// sent it is s.JournalSeq.
func (e *Engine) cite(s *State, n *Notice) (*Cited, error) {
	if s.Secret == "" {
		return nil, nil
	}
	seq := s.JournalSeq
	hash, err := e.hashes.hash(s, n.Game, seq, n.Time)
	if err != nil {
		return nil, err
	}
	from := min(s.Covered[n.Game]+1, seq)
	r := &Cited{ID: n.ID, Game: n.Game, Kind: n.Kind, Subject: n.Subject, From: from, Seq: seq, LastMsgID: s.LastMsgID,
		Hash: hash, Published: n.Time, Ratifies: n.Time.Add(e.ratification(s, n.Game)), Status: "pending"}
	if g := e.games[n.Game]; g != nil {
		r.Excluded = slices.Clone(g.Spec().NotRatifying)
	}
	var b strings.Builder
	b.WriteString(text.Heading("Citation"))
	what := "notice"
	if n.Kind == "report" {
		what = "report"
	}
	fmt.Fprintf(&b, "Cite as: %s\n", r.ID)
	line := fmt.Sprintf("Covers: journal lines %d-%d (the record through line %d)", r.From, r.Seq, r.Seq)
	if r.LastMsgID != "" {
		line += fmt.Sprintf(" and the mail through <%s>", r.LastMsgID)
	}
	b.WriteString(text.WrapIndent(line+".", 0, "", "  "))
	b.WriteString(text.Wrap("State hash (HMAC-SHA256 of the state it describes, keyed by the referee's secret: see \"help\"):", 0))
	fmt.Fprintf(&b, "  %s\n", r.Hash)
	b.WriteString(text.Wrap(fmt.Sprintf("This %s self-ratifies on %s UTC unless a Claim of Error is made before then.", what, Stamp(r.Ratifies)), 0))
	if len(r.Excluded) > 0 {
		b.WriteString(text.Wrap("These parts do not self-ratify: "+strings.Join(r.Excluded, "; ")+".", 0))
	}
	if claims := openClaims(s, n.Game); len(claims) > 0 {
		b.WriteString("Open Claims of Error:\n")
		for _, c := range claims {
			b.WriteString(text.WrapIndent(c.describe(), 0, "  ", "    "))
		}
	}
	var ratified []string
	for _, x := range s.toAnnounce(n.Game) {
		s.touchCitedDone(x)
		x.Announced = true
		s.announcedCited(x)
		ratified = append(ratified, fmt.Sprintf("%s (on %s)", x.ID, Stamp(x.Ratified)))
	}
	if len(ratified) > 0 {
		b.WriteString(text.Wrap("Self-ratified since the last: "+strings.Join(ratified, ", ")+".", 0))
	}
	n.Body = insertBeforeSignature(n.Body, b.String())
	s.Cited = append(slices.Clone(s.Cited), r)
	if s.Covered == nil {
		s.Covered = map[string]int64{}
	}
	logKey(s.undoLog(), s.Covered, n.Game)
	s.Covered[n.Game] = seq
	return r, nil
}

// insertBeforeSignature puts block before the body's signature ("-- \n"), or
// at its end.
func insertBeforeSignature(body, block string) string {
	// j: where the last line "-- " begins, the body's first line too.
	j := strings.LastIndex("\n"+body, "\n-- \n")
	if j < 0 {
		if body != "" && !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		return body + "\n" + block
	}
	head := body[:j]
	if head != "" && !strings.HasSuffix(head, "\n\n") {
		head += "\n"
	}
	return head + block + "\n" + body[j:]
}

// openClaims are the open claims of a game, every game's for "".
func openClaims(s *State, game string) []*Claim {
	var out []*Claim
	for _, c := range s.Claims {
		if game == "" || c.Game == game {
			out = append(out, c)
		}
	}
	return out
}

// describe is a claim's line in a report: a private claim's words are not
// quoted; a public claim's are, as the player wrote them.
func (c *Claim) describe() string {
	what := "made privately"
	if c.Public {
		what = "\"" + c.What + "\""
	}
	return fmt.Sprintf("#%d by %s on %s (%s): %s; awaiting the contestmaster", c.ID, c.Claimant, c.Report, Stamp(c.Filed), what)
}

func (s *State) cited(id string) *Cited {
	for _, x := range s.Cited {
		if strings.EqualFold(x.ID, id) {
			return x
		}
	}
	return nil
}

// touchCited saves a citable record before it changes, and counts the
// change (ratificationNext reads the records again).
func (s *State) touchCited(x *Cited) {
	s.aux().citedTouched++
	s.touchCitedDone(x)
}

// touchCitedDone saves a citable record before it leaves the records
// waiting for their ratification (it is ratified), or before a record not
// among them changes (a ratified one is announced): ratificationNext keeps
// its queue, and drops the record from it when reached. Undoing the change
// counts it as any change.
func (s *State) touchCitedDone(x *Cited) {
	s.undoLog().once(x, func() func() {
		cp := *x
		return func() {
			*x = cp
			s.aux().citedTouched++
		}
	})
}

// ratify is the core event of a record's ratification: it becomes true as
// published (AGORA "Reports and notices"). Ratified records are kept for the
// processed-message memory's horizon, then left to the journal.
func (e *Engine) ratify(s *State, id string, at time.Time) []Entry {
	x := s.ratifying(id)
	if x == nil || x.Status != "pending" {
		return nil
	}
	s.touchCitedDone(x)
	x.Status, x.Ratified = "ratified", at
	s.aux().ratification.noteRatified(x)
	cut := at.Add(-e.cfg.SeenHorizon)
	if s.mayDropCited(cut) && slices.ContainsFunc(s.Cited, func(y *Cited) bool { return y.Status == "ratified" && y.Announced && y.Ratified.Before(cut) }) {
		s.Cited = slices.DeleteFunc(slices.Clone(s.Cited), func(y *Cited) bool {
			return y.Status == "ratified" && y.Announced && y.Ratified.Before(cut)
		})
	}
	s.JournalSeq++
	return []Entry{{Seq: s.JournalSeq, Time: at, Game: x.Game, Verb: "ratification", Outcome: "event",
		Detail: map[string]any{"report": x.ID, "hash": x.Hash, "through": x.Seq}}}
}

// Cites is the citable record of the state, for tools: the records not yet
// ratified and those ratified recently, oldest first.
func (s *State) Cites() []Cited {
	out := make([]Cited, 0, len(s.Cited))
	for _, x := range s.Cited {
		out = append(out, *x)
	}
	return out
}
