package wackyworld

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"referee/contract"
	"referee/mailin"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var mailCfg = &mailin.Config{
	Referee:         "referee@example.test",
	PublicLists:     []string{"agora-business@example.test"},
	OfficialList:    "agora-official@example.test",
	DiscussionLists: []string{"agora-discussion@example.test"},
}

var channels = map[mailin.Class]contract.Channel{
	mailin.Public: contract.ChanPublic, mailin.Official: contract.ChanOfficial,
	mailin.Discussion: contract.ChanDiscussion, mailin.Private: contract.ChanPrivate,
	mailin.Ignorable: contract.ChanIgnore,
}

// replay applies an mbox through the real mail parser, in arrival order.
func (h *harness) replay(path string) {
	h.t.Helper()
	arc, err := mailin.OpenArchive(path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer arc.Close()
	for {
		raw, err := arc.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			h.t.Fatalf("read %s: %v", path, err)
		}
		m, err := mailin.Parse(raw.Data, raw.Arrived, mailCfg)
		if err != nil {
			h.t.Fatalf("parse message %d of %s: %v", raw.UID, path, err)
		}
		msg := &contract.Message{ID: m.MessageID, From: m.From, Name: m.FromName, Date: m.Date, Arrived: m.Arrived,
			Subject: m.Subject, InReplyTo: m.InReplyTo, References: m.References, Channel: channels[m.Class],
			IgnoreReason: m.IgnoreReason, Authenticated: m.Authenticated, AuthNote: m.AuthNote, Text: m.Text, TooLarge: m.TooLarge}
		if _, err := h.e.Apply(h.s, msg); err != nil {
			h.t.Fatalf("apply %s: %v", msg.ID, err)
		}
	}
}

// transcript writes notices as the golden files hold them.
func transcript(ns []*contract.Notice) string {
	var b strings.Builder
	for _, n := range ns {
		fmt.Fprintf(&b, "=== %s\nkind: %s  channel: %s  to: %s  time: %s\nsubject: %s\n\n%s\n", n.ID, n.Kind, n.Channel,
			strings.Join(n.To, ","), contract.Stamp(n.Time), n.Subject, n.Body)
	}
	return b.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// TestScenario: three parties over four turns, mbox in, mails out, golden.
// The joins place the parties at random tiles; the scenario then starts from a
// fixed layout (the state before of the play), as a scenario fixture would.
func TestScenario(t *testing.T) {
	h := newHarness(t, "2026-12-01T09:00:00Z")
	h.replay("testdata/scenario/joins.mbox")
	if n := len(h.s.Members(ID)); n != 3 {
		t.Fatalf("%d parties after the joins, want 3", n)
	}
	// The layout of the play: Alice (4, 4), Bob (6, 4), Carol (5, 7); (5, 4),
	// (3, 4) and (10, 10) Fertile; (12, 3) Wall.
	h.data().resize(0, 0)
	h.data().resize(16, 16)
	h.terrain(`5,4="`, `3,4="`, `10,10="`, "12,3=#")
	h.place(aAddr, 4, 4)
	h.place(bAddr, 6, 4)
	h.place(cAddr, 5, 7)
	h.replay("testdata/scenario/play.mbox")
	ns := h.advance("2026-12-14T12:00:00Z")

	st := h.data()
	wantAt(t, h, aAddr, 4, 4)
	wantAt(t, h, bAddr, 4, 4)
	wantAt(t, h, cAddr, 5, 5)
	if st.at(Pos{3, 5}) != Wall || st.at(Pos{4, 5}) != Fallow {
		t.Errorf("the pushed wall is not on (3, 5)")
	}
	// Alice: 2 x-points from reaping after the amendment, 1 spent on the wall,
	// 2 y-points for the spoon; Bob: 1 x-point.
	if got := h.s.Score("Alice", ID); got != 3 {
		t.Errorf("Alice's score %d, want 3", got)
	}
	if got := h.s.Ledger.Balance(XPoint, "Alice"); got != 1 {
		t.Errorf("Alice holds %d x-points, want 1", got)
	}
	if got := h.s.Score("Bob", ID); got != 1 {
		t.Errorf("Bob's score %d, want 1", got)
	}
	if st.Turn != 4 {
		t.Errorf("turn %d, want 4", st.Turn)
	}
	searches := 0
	for _, n := range ns {
		if strings.HasPrefix(n.ID, ID+"/search/") {
			searches++
			if n.Channel != contract.ChanPrivate || len(n.To) != 1 {
				t.Errorf("search result %s is not private to one party", n.ID)
			}
		}
	}
	if searches != 2 {
		t.Errorf("%d search results, want 2", searches)
	}
	golden(t, "testdata/scenario/mails.golden", transcript(ns))
}
