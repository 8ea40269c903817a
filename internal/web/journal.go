package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// --- the journal ---

type journalPage struct {
	page
	Game, Player, Outcome string
	Games                 []string
	Outcomes              []string
	Entries               []publicEntry
	Total, Shown          int
	Error                 string
}

// journalLimit is how many entries the journal page shows, newest first.
const journalLimit = 500

func (s *Server) journalPage(w http.ResponseWriter, r *http.Request) {
	p := journalPage{page: s.page("Journal", ""), Game: r.FormValue("game"), Player: strings.TrimSpace(r.FormValue("player")),
		Outcome: r.FormValue("outcome"), Games: s.gameIDs(), Outcomes: []string{"applied", "rejected", "event", "held"}}
	if p.Game != "" && s.o.Engine.Game(p.Game) == nil {
		s.noGame(w, p.Game)
		return
	}
	if p.Outcome != "" && !slices.Contains(p.Outcomes, p.Outcome) {
		http.Error(w, fmt.Sprintf("no outcome %q (the outcomes are %s)", p.Outcome, strings.Join(p.Outcomes, ", ")), http.StatusBadRequest)
		return
	}
	v := s.journal.view()
	if v.err != nil {
		p.Error = v.err.Error()
	}
	p.add(v.tail)
	p.add(v.head)
	p.Shown = len(p.Entries)
	s.render(w, "journal", p)
}

// add counts the entries that pass the page's filters, newest (last)
// first, and keeps them while fewer than journalLimit are kept.
func (p *journalPage) add(entries []publicEntry) {
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		if (p.Game != "" && e.Game != p.Game) || (p.Outcome != "" && e.Outcome != p.Outcome) ||
			(p.Player != "" && !strings.EqualFold(e.Player, p.Player)) {
			continue
		}
		p.Total++
		if len(p.Entries) < journalLimit {
			p.Entries = append(p.Entries, *e)
		}
	}
}

// publicEntry is the public columns of a journal entry: its reason and
// detail are never read, for they can quote a private submission (a sealed
// bid) before its reveal.
type publicEntry struct {
	Seq     int64     `json:"seq"`
	Time    time.Time `json:"time"`
	MsgID   string    `json:"msgid"`
	Game    string    `json:"game"`
	Player  string    `json:"player"`
	Verb    string    `json:"verb"`
	Outcome string    `json:"outcome"`
}

// The journal page keeps what it has read of the journal file, so that a
// page view reads only the lines appended since the last one: the file's
// identity, the end of the last whole line read, the public columns of the
// entries before it, and a hash of the bytes just before that end. A view
// reads afresh when the file is another one (renamed over: referee check
// --repair, init --force), shorter than the end read (cut by OpenJournal,
// or by a failed save), or holds other bytes before that end (cut and
// written again as long or longer since the last view). The journal is
// otherwise only appended to (contract/store).
//
// The entries kept are never changed: a read appends past them, and
// views of the old ones read only as far as they were. A view reads the
// file with no lock held. Of the views that read on from the same kept
// read, the first to finish has its read kept; the others show what they
// read themselves (never less than what was journaled before they began).

// journalCache is what the journal page has read of the journal at path.
type journalCache struct {
	path string
	seed maphash.Seed
	mu   sync.Mutex
	last *journalRead // never nil; its fields never change
	// read counts the bytes of whole lines read, the same more than once
	// when read afresh.
	read atomic.Int64
	// readDone, when not nil, is called by a view between its read and
	// its keeping it (a test holds a view there).
	readDone func()
}

func newJournalCache(path string) *journalCache {
	return &journalCache{path: path, seed: maphash.MakeSeed(), last: &journalRead{}}
}

// journalRead is a journal file read up to a point.
type journalRead struct {
	file  os.FileInfo // the file read; nil: none (the journal was missing)
	off   int64       // the end of the last whole line read
	lines int         // the lines before off
	// mark is the hash of the markLen bytes before off (all of them when
	// fewer): bytes that change under it tell a journal written again.
	mark uint64
	// entries are the public entries before off. Never changed: the next
	// read appends past them.
	entries []publicEntry
	// err says why the line at off was not read (it does not decode, or
	// the file could not be read): the next read tries it again.
	err error
}

// markLen is how many bytes before the end read are checked.
const markLen = 256

// journalView is the entries of the journal, head then tail, and why the
// line after them was not read.
type journalView struct {
	head, tail []publicEntry
	err        error
}

// view reads the lines appended to the journal since the last read, or
// the whole journal when it is not the one last read.
func (c *journalCache) view() journalView {
	c.mu.Lock()
	prev := c.last
	c.mu.Unlock()
	next, head, tail, err := c.readFrom(prev)
	if err != nil {
		return journalView{err: err}
	}
	if next == prev {
		return journalView{head: prev.entries, err: prev.err}
	}
	if c.readDone != nil {
		c.readDone()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last != prev {
		// Another view read the file meanwhile: its read is kept, and
		// this view shows what it read itself.
		return journalView{head: head, tail: tail, err: next.err}
	}
	// Only here is an entries array appended to past its end, and only
	// once past prev's: prev is no longer the read kept.
	next.entries = append(head, tail...)
	c.last = next
	return journalView{head: next.entries, err: next.err}
}

// readFrom reads the journal from where prev ended, or from its start
// when the file is not the one prev read (see above). It returns the read
// (prev itself when nothing was appended), the entries it starts from
// (prev's or none) and those it read.
func (c *journalCache) readFrom(prev *journalRead) (next *journalRead, head, tail []publicEntry, err error) {
	f, err := os.Open(c.path)
	if errors.Is(err, os.ErrNotExist) {
		return &journalRead{}, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	from := &journalRead{}
	if prev.file != nil && os.SameFile(prev.file, fi) && fi.Size() >= prev.off {
		if mark, err := c.markAt(f, prev.off); err == nil && mark == prev.mark {
			from = prev
			if fi.Size() == prev.off && prev.err == nil {
				return prev, prev.entries, nil, nil // nothing appended
			}
		}
	}
	next = &journalRead{file: fi, off: from.off, lines: from.lines}
	tail = next.readLines(io.NewSectionReader(f, from.off, fi.Size()-from.off), fi.Size()-from.off)
	if next.mark, err = c.markAt(f, next.off); err != nil {
		return nil, nil, nil, err
	}
	c.read.Add(next.off - from.off)
	return next, from.entries, tail, nil
}

// markAt is the hash of the markLen bytes of f before off (all of them
// when fewer).
func (c *journalCache) markAt(f *os.File, off int64) (uint64, error) {
	b := make([]byte, min(off, markLen))
	if _, err := f.ReadAt(b, off-int64(len(b))); err != nil {
		return 0, err
	}
	return maphash.Bytes(c.seed, b), nil
}

// maxLine is the longest entry line read (an input line is passed over
// whatever its length).
const maxLine = 64 << 20

// readLines reads the whole lines of src, the size bytes of the journal
// from r.off, moving r.off and r.lines past each one read; it returns the
// public entries. It stops at
// the end, before a torn last line (a line being written, or cut at the
// next start), or before a line that does not decode or cannot be read
// (r.err says why).
func (r *journalRead) readLines(src io.Reader, size int64) []publicEntry {
	// The buffer holds most lines whole; a few appended lines, no more.
	br := bufio.NewReaderSize(src, int(min(max(size, 4<<10), 64<<10)))
	var out []publicEntry
	names := map[string]string{}
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		n := int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer, read piece by piece:
			// an input line's pieces are passed over, an entry's
			// gathered.
			input := isInputLine(line)
			long = long[:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				if !input {
					if len(long)+len(line) > maxLine {
						r.err = fmt.Errorf("journal line %d: longer than %d MB", r.lines+1, maxLine>>20)
						return out
					}
					long = append(long, line...)
				}
				line, err = br.ReadSlice('\n')
				n += int64(len(line))
			}
			if err != nil {
				// torn, or unreadable: not read
				if !errors.Is(err, io.EOF) {
					r.err = err
				}
				return out
			}
			if !input {
				long = append(long, line...)
				if !r.decode(long, &out, names) {
					return out
				}
			}
			r.lines++
			r.off += n
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				r.err = err
			}
			return out // the end, or a torn last line: not read until whole
		}
		if !isInputLine(line) && !r.decode(line, &out, names) {
			return out
		}
		r.lines++
		r.off += n
	}
}

// decode appends to out the public columns of a line that is not an
// input line by its first bytes, unless it is one by its seq (0); false,
// with r.err set, when it does not decode.
func (r *journalRead) decode(line []byte, out *[]publicEntry, names map[string]string) bool {
	// Without its newline (and a CR before it), as bufio.ScanLines gives
	// it: a line that does not decode is named as it was.
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	var e publicEntry
	if err := json.Unmarshal(line, &e); err != nil {
		r.err = fmt.Errorf("journal line %d: %w", r.lines+1, err)
		return false
	}
	if e.Seq == 0 {
		return true // an input line (it holds private text): never shown
	}
	e.Game, e.Player, e.Verb, e.Outcome = intern(names, e.Game), intern(names, e.Player), intern(names, e.Verb), intern(names, e.Outcome)
	*out = append(*out, e)
	return true
}

// intern returns the string equal to s kept in names, keeping s when there
// is none (and names has room): a journal's games, players, verbs and
// outcomes are few, each kept once.
func intern(names map[string]string, s string) string {
	if k, ok := names[s]; ok {
		return k
	}
	if len(names) < 4096 {
		names[s] = s
	}
	return s
}

// isInputLine reports whether a journal line, by its first bytes, is an
// input's: {"in":N, as contract/store writes it (jsonline.go; encoding/json
// writes inputRecord's fields in the same order). An entry's line starts
// {"seq":N, and any other line is decoded.
func isInputLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte(`{"in":`))
	return ok && len(rest) > 0 && '0' <= rest[0] && rest[0] <= '9'
}
