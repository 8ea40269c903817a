package web

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"referee/contract"
)

// SentPath is the sent-mail store beside a state file: one JSON line per
// public or official notice delivered, in the order sent. It lives with the
// state and the journal because it is part of the game's public record, is
// backed up with them, and must outlive the state's outbox, which forgets a
// notice once it is sent.
func SentPath(statePath string) string {
	return filepath.Join(filepath.Dir(statePath), "sent.jsonl")
}

// Sent is one archived notice: what the lists received.
type Sent struct {
	contract.Notice
	// MessageID is the mail's Message-ID, without angle brackets.
	MessageID string    `json:"message_id"`
	SentAt    time.Time `json:"sent_at"` // the referee's clock when delivered
}

// Archive is the sent-mail store. Append is called by the daemon; the web
// server only reads.
type Archive struct {
	path string
	mu   sync.Mutex
}

// OpenArchive names the store at path; the file is created on the first
// Append.
func OpenArchive(path string) *Archive { return &Archive{path: path} }

// Path is the store's file.
func (a *Archive) Path() string { return a.path }

// Append records a delivered notice and syncs the file. Private notices
// (receipts, private replies) are never archived: the store is public.
func (a *Archive) Append(n *contract.Notice, messageID string, at time.Time) error {
	if a == nil || !public(n.Channel) {
		return nil
	}
	b, err := json.Marshal(Sent{Notice: *n, MessageID: messageID, SentAt: at.UTC()})
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("sent-mail store: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("sent-mail store: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sent-mail store: %w", err)
	}
	return f.Close()
}

// All reads every archived notice, oldest first. A notice sent again after a
// crash (same ID, same Message-ID) is listed once; a torn last line, from a
// crash mid-append, is skipped.
func (a *Archive) All() ([]*Sent, error) {
	if a == nil {
		return nil, nil
	}
	f, err := os.Open(a.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sent-mail store: %w", err)
	}
	defer f.Close()
	var out []*Sent
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var s Sent
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.ID == "" {
			continue
		}
		if seen[s.ID] || !public(s.Channel) {
			continue
		}
		seen[s.ID] = true
		out = append(out, &s)
	}
	return out, sc.Err()
}

// public reports whether mail on the channel goes to a list.
func public(ch contract.Channel) bool {
	return ch == contract.ChanPublic || ch == contract.ChanOfficial
}
