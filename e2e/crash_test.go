//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"
)

// Scenario 3: crash safety (invariants 2 and 3). Five contestants send a
// burst of 50 claims of distinct cells (ten each: VPP, Life R6, buys exactly
// ten cells, R16); the daemon is SIGKILLed while it works through them and
// restarted. Afterwards every claim is applied exactly once and every receipt
// was delivered at least once, any duplicate carrying the same Message-ID.
func TestCrashSafety(t *testing.T) {
	const players, perPlayer = 5, 10
	r := newReferee(t)
	d := r.run()
	joinLife(t, ms.players[:players]...)

	boxes := make([]*mailbox, players)
	for i := range players {
		boxes[i] = openMailbox(t, ms.players[i])
	}
	ids := make([][]string, players)
	var all []string
	cells := map[[2]int]string{} // claimed Cell -> its claimant's name
	for i := range players {
		var mails []*outMail
		for k := range perPlayer {
			// Distinct cells, no two adjacent: a claim never depends on another.
			x, y := 5+8*i, 3+4*k
			cells[[2]int{x, y}] = strings.TrimSuffix(ms.players[i], "@"+"example.test")
			mails = append(mails, &outMail{
				to:      []string{ms.businessList},
				subject: fmt.Sprintf("Claim %d", k+1),
				body:    fmt.Sprintf("I claim cell (%d, %d) in Life.\n", x, y),
			})
		}
		ids[i] = send(t, ms.players[i], mails...)
		all = append(all, ids[i]...)
	}

	// Kill the daemon once it has applied some of the burst but, as far as
	// the bound allows, not all of it.
	claimsDone := func() int {
		j, n := r.journal(), 0
		for _, id := range all {
			n += len(applied(j, id))
		}
		return n
	}
	deadline := time.NewTimer(receiptTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var atKill int
wait:
	for {
		if atKill = claimsDone(); atKill >= 3 {
			break
		}
		select {
		case <-deadline.C:
			d.mustBeRunning()
			t.Fatalf("the referee applied %d of the %d claims within %v", atKill, len(all), receiptTimeout)
		case <-tick.C:
			continue wait
		}
	}
	d.kill()
	atKill = claimsDone()
	t.Logf("SIGKILL with %d of %d claims applied", atKill, len(all))
	if atKill == len(all) {
		t.Logf("the daemon had finished the burst before the kill: this run checks the restart only")
	}

	d = r.run()
	for i, mb := range boxes {
		mb.waitFor(2*receiptTimeout, fmt.Sprintf("receipts for all %d claims", perPlayer), func(mails []*inMail) bool {
			for _, id := range ids[i] {
				if findReply(mails, id) == nil {
					return false
				}
			}
			return true
		})
		for k, id := range ids[i] {
			var replyIDs []string
			for _, m := range mb.mails {
				if m.from == ms.referee && m.repliesTo(id) {
					replyIDs = append(replyIDs, m.msgID)
				}
			}
			for _, rid := range replyIDs[1:] {
				if rid != replyIDs[0] {
					t.Errorf("%s claim %d: duplicate receipts with different Message-IDs %v", ms.players[i], k+1, replyIDs)
					break
				}
			}
			if len(replyIDs) > 1 {
				t.Logf("%s claim %d: receipt delivered %d times, one Message-ID", ms.players[i], k+1, len(replyIDs))
			}
			checkReceipt(t, findReply(mb.mails, id), fmt.Sprintf("Claim %d", k+1), ms.players[i])
		}
	}
	d.mustBeRunning()
	d.stop()

	j := r.journal()
	for i := range players {
		for k, id := range ids[i] {
			if got := applied(j, id); len(got) != 1 {
				t.Errorf("%s claim %d (<%s>): applied %d times, want exactly once", ms.players[i], k+1, id, len(got))
			}
		}
	}
	seqs := map[int]bool{}
	for _, l := range j {
		if seqs[l.Seq] {
			t.Errorf("journal: seq %d appears twice", l.Seq)
		}
		seqs[l.Seq] = true
	}
	rep := r.report("life")
	if got := lifeGrid(t, rep); !maps.Equal(got, cells) {
		t.Errorf("report life: living Cells %v, want the %d claimed %v; report:\n%s", got, len(cells), cells, rep)
	}
}
