package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	netmail "net/mail"
	"os"
	"regexp"
	"slices"
	"strings"
)

// figures are what one series found.
type figures struct {
	series  string
	kills   int
	actions int // messages sent in (accepted by the server, or in the archive)
	lost    int // sent in, no journal entry
	doubled int // applied more than once
	notices int // notices that should have reached someone
	missing int // of those, never delivered (or never written)
	dupID   int // notices delivered again under a Message-ID already delivered to that mailbox
	dupFile int // replay: .eml files holding a Message-ID another file holds, or one too many
	secrets int // distinct master secrets seen in the state
	contra  int // Message-IDs of Randomness notices seen with different commitments
	// receipts: actions whose receipt arrived more than once (live series).
	receiptsTwice int
	live          bool
	notes         []string
}

func (f *figures) print(w io.Writer) {
	fmt.Fprintf(w, "== %s: %d kills, %d actions sent in, %d notices\n", f.series, f.kills, f.actions, f.notices)
	fmt.Fprintf(w, "   actions lost        %d\n", f.lost)
	fmt.Fprintf(w, "   actions doubled     %d\n", f.doubled)
	fmt.Fprintf(w, "   notices missing     %d\n", f.missing)
	fmt.Fprintf(w, "   notices doubled     %d by Message-ID", f.dupID)
	if !f.live {
		fmt.Fprintf(w, ", %d by .eml file", f.dupFile)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "   secrets drawn       %d\n", f.secrets)
	fmt.Fprintf(w, "   seeds contradicted  %d\n", f.contra)
	if f.live {
		fmt.Fprintf(w, "   receipts doubled    %d of %d actions (%.1f%%)\n", f.receiptsTwice, f.actions, f.receiptPct())
	}
	for _, n := range f.notes {
		fmt.Fprintf(w, "   note: %s\n", n)
	}
}

func (f *figures) receiptPct() float64 {
	if f.actions == 0 {
		return 0
	}
	return 100 * float64(f.receiptsTwice) / float64(f.actions)
}

// met says whether the series met the targets.
func (f *figures) met() bool {
	return f.lost == 0 && f.doubled == 0 && f.missing == 0 && f.dupFile == 0 &&
		f.secrets == 1 && f.contra == 0 && f.receiptPct() <= 5 && (f.live || f.dupID == 0)
}

// entry is the part of a journal line the figures need.
type entry struct {
	Seq     int64  `json:"seq"`
	MsgID   string `json:"msgid"`
	Verb    string `json:"verb"`
	Outcome string `json:"outcome"`
	Game    string `json:"game"`
}

// readJournal reads the journal's entries, and counts per Message-ID how
// many times a message was applied: a message's entries come as one run
// of seqs, so a second run of the same Message-ID is a second application.
func readJournal(path string) (map[string]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	applied := map[string]int{}
	last := ""
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s: %q: %v", path, line, err)
		}
		if e.MsgID != "" && e.MsgID != last && e.Outcome != "event" {
			applied[e.MsgID]++
		}
		if e.Outcome != "event" {
			last = e.MsgID
		}
	}
	return applied, nil
}

// mail is a message as a recipient sees it.
type mail struct {
	id, inReplyTo, from, subject string
	body                         string
}

func parseMail(raw []byte) (*mail, error) {
	m, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(m.Body)
	from := m.Header.Get("From")
	if a, err := netmail.ParseAddress(from); err == nil {
		from = a.Address
	}
	return &mail{id: strings.Trim(strings.TrimSpace(m.Header.Get("Message-Id")), "<>"),
		inReplyTo: strings.Trim(strings.TrimSpace(m.Header.Get("In-Reply-To")), "<>"),
		from:      strings.ToLower(from), subject: m.Header.Get("Subject"), body: string(body)}, nil
}

var hex64 = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// randomness collects the commitments of Randomness notices by Message-ID
// and counts the Message-IDs seen with two different sets.
type randomness map[string]string

func (r randomness) add(m *mail) (contradiction bool) {
	if !strings.Contains(m.body, "Randomness notice") {
		return false
	}
	hs := hex64.FindAllString(m.body, -1)
	slices.Sort(hs)
	key := strings.Join(hs, ",")
	old, seen := r[m.id]
	if !seen {
		r[m.id] = key
		return false
	}
	return old != key
}

// secretOf reads the master secret from a state file ("" when none).
func secretOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "secret: "); ok {
			return strings.Trim(s, `"`)
		}
	}
	return ""
}
