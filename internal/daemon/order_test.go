package daemon

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"referee/contract"
)

// TestNoticeWaitsForItsGamesReport: a game's notices go to the lists in the
// order the game made them, also when a report among them waits for its
// snapshot. A referee that was down through a Steemfield round's end and the
// next proposal period runs both at once: the results post that opens
// round 2 (a report) is held until a snapshot holds it, and the proposal post
// of round 2, made after it, waits with it, where it went first (a player
// read the round's proposal before the post that opened the round). A
// receipt, and another game's notices, do not wait.
func TestNoticeWaitsForItsGamesReport(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, start, 1)
	d.mu.Lock()
	defer d.mu.Unlock()
	ctx := context.Background()
	delegateThree(t, d, start)
	d.s.Outbox = nil // sent
	// A snapshot being written, as far as the daemon knows, so that the
	// report the advance queues is held.
	other := &bgSnapshot{done: make(chan struct{})}
	d.bg = other
	if _, err := d.write(ctx, &contract.Input{Kind: contract.InAdvance, At: time.Date(2026, 12, 5, 10, 30, 0, 0, time.UTC)}, false); err != nil {
		t.Fatal(err)
	}
	var queued []string
	for _, o := range d.s.Outbox {
		queued = append(queued, o.ID)
	}
	results, proposal := "steemfield/round/2/results-post", "steemfield/round/2/proposal-post"
	if i, j := slices.Index(queued, results), slices.Index(queued, proposal); i < 0 || j < i {
		t.Fatalf("the advance queued %v: want %s, then %s", queued, results, proposal)
	}
	offered := func() []string { return offeredNotices(d) }
	if ids := offered(); slices.Contains(ids, results) || slices.Contains(ids, proposal) {
		t.Errorf("while the results post waits for its snapshot the sender is offered %v: want neither it nor the proposal post after it", ids)
	}
	close(other.done)
	d.snapshotIfDue()
	d.waitSnapshot()
	ids := offered()
	if i, j := slices.Index(ids, results), slices.Index(ids, proposal); i < 0 || j < i {
		t.Errorf("after the snapshot the sender is offered %v: want %s, then %s", ids, results, proposal)
	}
}

// TestNoticeSentWithItsCommitWaitsForItsGamesReport: a notice sent with
// the commit that makes it (a message's change, prepare) keeps its game's
// order too. With the results post of round 2 held for its snapshot, a
// message arriving after the next proposal period opened made the proposal
// post of round 2, which went out at once with the message's commit, ahead
// of the results post that opens the round.
func TestNoticeSentWithItsCommitWaitsForItsGamesReport(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, start, 0)
	d.mu.Lock()
	ctx := context.Background()
	delegateThree(t, d, start)
	d.s.Outbox = nil // sent
	other := &bgSnapshot{done: make(chan struct{})}
	d.bg = other
	// The round ends (the results post, held), then a message arrives
	// after the next proposal period opened: its change makes the
	// proposal post before its own receipt.
	if _, err := d.write(ctx, &contract.Input{Kind: contract.InAdvance, At: time.Date(2026, 12, 4, 10, 30, 0, 0, time.UTC)}, false); err != nil {
		t.Fatal(err)
	}
	results, proposal := "steemfield/round/2/results-post", "steemfield/round/2/proposal-post"
	at := time.Date(2026, 12, 5, 10, 30, 0, 0, time.UTC)
	waiting := lateJoinWithItsCommit(t, d, at)
	defer d.mu.Unlock()
	if !slices.Contains(waiting, results) {
		t.Fatalf("the results post is not waiting: %v", waiting)
	}
	if !slices.Contains(waiting, proposal) {
		t.Errorf("the proposal post went with the message's commit while the results post before it waits for its snapshot; waiting: %v", waiting)
	}
	close(other.done)
}

// TestReportOfACommitWaitsForItsSnapshot: a message whose change makes a
// report (it arrives after a Steemfield round's end, and its change ends
// the round first) does not send that report with the message's commit:
// the report waits, as the sender loop's do, for a snapshot that holds it;
// the message's receipt goes at once.
func TestReportOfACommitWaitsForItsSnapshot(t *testing.T) {
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	d := smtpDaemon(t, func(*smtp.Conn) smtp.Session { return &replySession{srv: &replySMTP{}} }, start, 0)
	d.mu.Lock()
	ctx := context.Background()
	delegateThree(t, d, start)
	// Up to just before the round's end, every notice sent.
	if _, err := d.write(ctx, &contract.Input{Kind: contract.InAdvance, At: time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)}, false); err != nil {
		t.Fatal(err)
	}
	d.s.Outbox = nil
	other := &bgSnapshot{done: make(chan struct{})}
	d.bg = other // a snapshot being written: the report's must wait for it
	at := time.Date(2026, 12, 4, 10, 30, 0, 0, time.UTC)
	waiting := lateJoinWithItsCommit(t, d, at)
	defer d.mu.Unlock()
	results := "steemfield/round/2/results-post"
	if !slices.Contains(waiting, results) {
		t.Errorf("the results post the message's change made went with its commit, before a snapshot held it; waiting: %v", waiting)
	}
	if slices.Contains(waiting, "receipt/late@example.test") {
		t.Errorf("the message's receipt did not go with its commit; waiting: %v", waiting)
	}
	close(other.done)
}

// delegateThree has Alice, Bob and Carol delegate in Steemfield, a minute
// apart from start: a round with players, whose end makes its results post
// (a report) and the next round's proposal post. Call with d.mu held.
func delegateThree(t *testing.T, d *Daemon, start time.Time) {
	t.Helper()
	for i, who := range []string{"Alice", "Bob", "Carol"} {
		at := start.Add(time.Duration(i) * time.Minute)
		m := &contract.Message{ID: fmt.Sprintf("m%d@example.test", i), From: fmt.Sprintf("p%d@example.test", i), Name: who, Arrived: at, Date: at,
			Subject: "s", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "{DELEGATE: 1}"}
		if _, err := d.write(context.Background(), &contract.Input{Kind: contract.InMessage, At: at, Msg: m}, false); err != nil {
			t.Fatal(err)
		}
	}
}

// lateJoinWithItsCommit writes Alice's "I join the Life contest." arriving
// at at, with the first notice of its change sent while its journal is
// synced (prepare), waits for that send and returns the IDs left in the
// outbox. Call with d.mu held; it returns with d.mu held.
func lateJoinWithItsCommit(t *testing.T, d *Daemon, at time.Time) []string {
	t.Helper()
	d.clk.Start = at
	m := &contract.Message{ID: "late@example.test", From: "p0@example.test", Name: "Alice", Arrived: at, Date: at,
		Subject: "s", Channel: contract.ChanPublic, ListCopy: true, Authenticated: true, Text: "I join the Life contest."}
	if _, err := d.write(context.Background(), &contract.Input{Kind: contract.InMessage, At: at, Msg: m}, true); err != nil {
		t.Fatal(err)
	}
	d.mu.Unlock()
	d.preparing.Wait()
	d.mu.Lock()
	var waiting []string
	for _, o := range d.s.Outbox {
		waiting = append(waiting, o.ID)
	}
	return waiting
}

// offeredNotices is what the sender loop would send now, one after
// another, each taken as being sent so that the next is offered; nothing
// is sent. Call with d.mu held.
func offeredNotices(d *Daemon) []string {
	var ids []string
	held := map[string]bool{}
	for {
		o, _ := d.nextToSend()
		if o == nil {
			break
		}
		ids = append(ids, o.ID)
		held[o.ID] = true
		d.inflight = held // as if being sent: the next one is offered
	}
	d.inflight = nil
	return ids
}
