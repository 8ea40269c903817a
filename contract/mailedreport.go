package contract

import "time"

// MailedReport is a game's current report as it would be mailed at now:
// the report with the citation block a published report carries (its
// identifier, the journal lines it covers, the state hash, when it
// self-ratifies, the claims open and the reports ratified since the last).
// It is worked out on a copy of s as the game's report event would leave
// it (recent events kept to those since the last report, the journal one
// line on), so it is what a report event at now, with nothing else to do,
// would mail. s is not changed.
func (e *Engine) MailedReport(s *State, game string, now time.Time) (*Notice, error) {
	g := e.games[game]
	if g == nil {
		return e.Report(s, game, now) // the error naming the games
	}
	cp := Snapshot(s)
	tx := cp.Begin()
	defer tx.End()
	c := e.ctx(cp, game, now, nil)
	var n *Notice
	if err := run(func() error {
		var err error
		if n, err = g.Report(c); err != nil {
			return err
		}
		c.Notify(n)
		c.ReportSent()
		return nil
	}); err != nil {
		return nil, err
	}
	e.flush(cp, c)
	return n, nil
}

// WithoutCitation is a notice's body without its citation block: what it
// reports, as a page showing the report as it stands has it.
func WithoutCitation(body string) string { return reported(body) }
