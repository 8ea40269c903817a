package mailin

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"
)

// mboxArchive streams an mbox file one message at a time (constant memory
// apart from the current message). Messages start at a "From " line at the
// start of the file or after a blank line, or at any "From " line whose date
// reads. Quoted "From " lines are unescaped the mboxrd way (one '>' removed
// from ">From ", ">>From ", ...), which is also right for the mboxo lines it
// can tell apart. Arrival time is the From_ line's date (asctime, in UTC
// unless a zone is given); if it does not read, the Date header's.
type mboxArchive struct {
	f     *os.File
	r     *bufio.Reader
	from  string // the pending From_ line of the next message
	n     uint32
	eof   bool
	first bool
	size  int // the last message's size, a hint for the next one's
	// free holds the memory of the messages released (Raw.Release), of
	// length 0, for the next messages read. Its own list, not a sync.Pool,
	// so that a released message's memory is used again whatever the
	// collector and the scheduler do: a reader that releases each message
	// before the next holds one message's memory, and a pipeline that
	// parses a bounded number ahead (replay's reader) as many as it holds.
	free chan []byte
}

// mboxFree bounds the released messages an mbox keeps: more than replay's
// reader has read and not yet released (its batches ahead and the one
// being read).
const mboxFree = 1024

// maxSizeHint bounds the memory a large message makes the next one take.
const maxSizeHint = 1 << 20

func (a *mboxArchive) readLine() ([]byte, error) {
	line, err := a.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		buf := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = a.r.ReadSlice('\n')
			buf = append(buf, line...)
		}
		return buf, err
	}
	return line, err
}

func (a *mboxArchive) Next() (*Raw, error) {
	if !a.first {
		a.first = true
		// Never empty: OpenArchive took the file for an mbox because its
		// first five bytes, buffered, are "From ". An error after them
		// comes again from the next read.
		line, _ := a.readLine()
		a.from = strings.TrimRight(string(line), "\r\n")
	}
	// At the end no From_ line is pending: a From_ line read last ends
	// its message's read before the end is seen, and the next read, which
	// sees it, finds no other.
	if a.eof {
		return nil, io.EOF
	}
	// Sized for a message as long as the last one, so that it is written
	// in place instead of copied as it grows; the memory of a message
	// released (Raw.Release) is used again.
	buf := a.buffer(a.size + a.size/8 + 512)
	prevBlank := false
	next := ""
	for {
		// The lines whole in the reader's buffer are read where they are,
		// and copied a run of them at a time: the same steps as for a
		// line read by readLine below, without a call and a copy a line.
		if b, _ := a.r.Peek(a.r.Buffered()); bytes.IndexByte(b, '\n') >= 0 {
			i, run, stop := 0, 0, false
			for {
				j := bytes.IndexByte(b[i:], '\n')
				if j < 0 {
					break
				}
				line := b[i : i+j+1]
				if line[0] == 'F' && bytes.HasPrefix(line, []byte("From ")) {
					t := strings.TrimRight(string(line), "\r\n")
					if prevBlank || !fromLineDate(t).IsZero() {
						next, stop = t, true
						buf = append(buf, b[run:i]...)
						i += j + 1
						run = i
						break
					}
				}
				prevBlank = blankLine(line)
				if line[0] == '>' && quotedFromLine(line) {
					buf = append(append(buf, b[run:i]...), line[1:]...)
					run = i + j + 1
				}
				i += j + 1
			}
			buf = append(buf, b[run:i]...)
			a.r.Discard(i)
			if stop {
				break
			}
			continue
		}
		// A line not whole in the buffer: read (and the buffer filled)
		// by readLine, which also gives the end of the file and errors.
		line, err := a.readLine()
		if len(line) > 0 {
			if bytes.HasPrefix(line, []byte("From ")) {
				t := strings.TrimRight(string(line), "\r\n")
				if prevBlank || !fromLineDate(t).IsZero() {
					next = t
					break
				}
			}
			prevBlank = blankLine(line)
			if line[0] == '>' && quotedFromLine(line) {
				line = line[1:]
			}
			buf = append(buf, line...)
		}
		if err == io.EOF {
			a.eof = true
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read mbox: %w", err)
		}
	}
	fromLine := a.from
	a.from = next
	data := buf
	a.size = min(len(data), maxSizeHint)
	// The blank line before the next From_ line (or the end of the file)
	// belongs to the mbox format.
	if bytes.HasSuffix(data, []byte("\r\n\r\n")) {
		data = data[:len(data)-2]
	} else if bytes.HasSuffix(data, []byte("\n\n")) {
		data = data[:len(data)-1]
	}
	if len(bytes.TrimSpace(data)) == 0 && next == "" && a.eof {
		return nil, io.EOF
	}
	a.n++
	arrived := fromLineDate(fromLine)
	if arrived.IsZero() {
		arrived = headerDate(data)
	}
	// Every line of an mbox ends with a newline, its last one too.
	cut := a.eof && next == "" && !bytes.HasSuffix(data, []byte("\n"))
	return &Raw{Data: data, Arrived: arrived.UTC(), UID: a.n, CutShort: cut, free: a.free}, nil
}

// quotedFromLine reports whether line is a quoted From_ line, ">From ",
// ">>From ", ...: one '>' of it is taken away (mboxrd).
func quotedFromLine(line []byte) bool {
	j := 0
	for j < len(line) && line[j] == '>' {
		j++
	}
	return j > 0 && bytes.HasPrefix(line[j:], []byte("From "))
}

// blankLine reports whether line, as readLine gives it (one '\n' at
// most, at its end), is blank: bytes.TrimRight(line, "\r\n") is empty.
// Next asks it of every line of the archive: TrimRight builds its table
// of the bytes to cut at each call, which costs more than the few bytes
// looked at here (a line that is not blank ends the loop at its first).
func blankLine(line []byte) bool {
	for _, c := range line {
		if c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// buffer is an empty slice of at least size bytes of capacity: a released
// message's, if the one released first is large enough (a smaller one is
// left to the collector). A new one is made of whole pages of 4 KiB, so
// that most of the messages after it, whose sizes vary by a few hundred
// bytes around the last one's, fit in it when it is released.
func (a *mboxArchive) buffer(size int) []byte {
	select {
	case b := <-a.free:
		if cap(b) >= size {
			return b
		}
	default:
	}
	return make([]byte, 0, (size+bufferPage-1)/bufferPage*bufferPage)
}

// bufferPage is what the size of a message's buffer is rounded up to.
const bufferPage = 4 << 10

func (a *mboxArchive) Close() error { return a.f.Close() }

var fromLineLayouts = []string{
	"Mon Jan _2 15:04:05 2006",
	"Mon Jan _2 15:04:05 -0700 2006",
	"Mon Jan _2 15:04:05 MST 2006",
	"Mon Jan _2 15:04 2006",
	"Mon Jan _2 15:04:05 2006 -0700",
	"Mon, _2 Jan 2006 15:04:05 -0700",
	time.RFC3339,
}

// fromLineDate reads the date of an mbox From_ line: "From sender date",
// where date is asctime(3) output, sometimes with a zone. The sender may be
// missing or contain spaces, so the date is tried from each word on.
func fromLineDate(line string) time.Time {
	if t, ok := asctimeFromLine(line); ok {
		return t
	}
	f := strings.Fields(strings.TrimPrefix(line, "From "))
	// The date usually follows a one-word sender; try that first. It is
	// five words or more (asctime), or one (RFC 3339).
	for _, i := range []int{1, 0, 2, 3, 4} {
		if i >= len(f) || !isWeekdayOrDigit(f[i]) {
			continue
		}
		rest := strings.Join(f[i:], " ")
		for _, l := range fromLineLayouts {
			if t, err := time.Parse(l, rest); err == nil {
				return t
			}
		}
	}
	return time.Time{}
}

// asctimeFromLine reads the From_ line nearly every mbox writes, "From "
// a sender of printable ASCII, one space and asctime(3)'s date, "Mon Nov
// 2 08:03:44 2026" (the day padded by a space or a digit), as
// fromLineDate's loop does: the date follows the one-word sender, and
// the first layout reads it; ok is false for any other line (another
// form, a name in another case, a date time.Parse refuses), left to the
// loop. It spares each message the loop's words, joined date and
// time.Parse.
func asctimeFromLine(line string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(line, "From ")
	if !ok {
		return time.Time{}, false
	}
	sp := 0
	for sp < len(rest) && rest[sp] > ' ' && rest[sp] < 0x7f {
		sp++
	}
	// "Mon Nov  2 08:03:44 2026": 24 bytes after the space.
	d := rest[min(sp+1, len(rest)):]
	if sp == 0 || sp == len(rest) || rest[sp] != ' ' || len(d) != 24 ||
		d[3] != ' ' || d[7] != ' ' || d[10] != ' ' || d[13] != ':' || d[16] != ':' || d[19] != ' ' {
		return time.Time{}, false
	}
	return fixedDate(d[0:3], d[4:7], d[8:10], d[8] == ' ', d[20:24], d[11:13], d[14:16], d[17:19])
}

// fixedDate is the time, in UTC, of a date whose parts stand at fixed
// places, as time.Parse reads it: the weekday and the month as its
// layouts spell them ("Mon", "Nov"), the day in two ASCII digits (one
// after a space, padded), the year in four, the hour, minute and second
// in two. ok is false for anything else, and for a date time.Parse
// refuses (an hour past 23, a day past the month's end). The weekday is
// not checked against the date, as time.Parse does not.
func fixedDate(weekday, month, day string, padded bool, year, hour, minute, sec string) (time.Time, bool) {
	if strings.Index("SunMonTueWedThuFriSat", weekday)%3 != 0 {
		return time.Time{}, false
	}
	m := strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", month)
	if m < 0 || m%3 != 0 {
		return time.Time{}, false
	}
	d, ok1 := digits(day, padded)
	y, ok2 := digits(year, false)
	h, ok3 := digits(hour, false)
	mi, ok4 := digits(minute, false)
	se, ok5 := digits(sec, false)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) || d < 1 || h > 23 || mi > 59 || se > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m/3+1), d, h, mi, se, 0, time.UTC)
	if t.Day() != d { // past the month's end, which time.Parse refuses
		return time.Time{}, false
	}
	return t, true
}

// digits is the number written by two ASCII digits, or by one after a
// space with padded.
func digits(s string, padded bool) (int, bool) {
	if padded {
		s = s[1:]
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func isWeekdayOrDigit(w string) bool {
	if w == "" {
		return false
	}
	if unicode.IsDigit(rune(w[0])) { // no byte above 0x7f is a digit
		return true
	}
	switch strings.TrimSuffix(w, ",") {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
		return true
	}
	return false
}
