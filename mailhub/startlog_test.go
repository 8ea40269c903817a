package mailhub

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestStartLogsPlayersOnce: the mailboxes made at start for the state's
// players are told in one log line with their count, not a line each (a
// game of 2,000 opened the log with 2,000 lines); a start that finds them
// made tells nothing of them; a mailbox made later, by a login, is told
// by its address.
func TestStartLogsPlayersOnce(t *testing.T) {
	var players []string
	for i := range 50 {
		players = append(players, fmt.Sprintf("player%02d@example.test", i))
	}
	dir := t.TempDir()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	h, err := Start(Options{Dir: dir, Users: []string{"referee@example.test"}, Players: players, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), "player"); n != 1 || !strings.Contains(logs.String(), `msg="mail hub created the players' mailboxes" count=50`) {
		t.Errorf("the start's log names players %d times, want one line with the count:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), `msg="mail hub created mailbox" addr=referee@example.test`) {
		t.Errorf("the referee's mailbox is not told:\n%s", logs.String())
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	h = startHub(t, Options{Dir: dir, Users: []string{"referee@example.test"}, Players: append(players, "newcomer@example.test"), Logger: log})
	if !strings.Contains(logs.String(), "count=1") || strings.Contains(logs.String(), "player0") {
		t.Errorf("a restart with one player more logs:\n%s", logs.String())
	}
	logs.Reset()
	watch(t, h, "visitor@example.test", "").stopIdle(t)
	if !strings.Contains(logs.String(), `msg="mail hub created mailbox" addr=visitor@example.test`) {
		t.Errorf("a mailbox made by a login is not told:\n%s", logs.String())
	}
}
