package mailin

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func readAll(t *testing.T, a Archive) []*Raw {
	t.Helper()
	var out []*Raw
	for {
		r, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMbox(t *testing.T) {
	mbox := "From alice@example.org Sun Nov 29 10:00:00 2026\n" +
		"From: alice@example.org\nSubject: one\n\nI join the Life contest.\n>From the start I wanted to.\n>>From here too.\n\n" +
		"From bob@example.org  Mon Nov 30 09:05:01 2026\n" +
		"From: bob@example.org\nSubject: two\n\nI pass.\nFrom what I see (not a separator: no blank line before)\n\n" +
		"From MAILER-DAEMON Tue Dec  1 08:00:00 +0100 2026\n" +
		"From: carol@example.org\nSubject: three\n\nI bid 3 on Flight.\n"
	for _, crlf := range []bool{false, true} {
		data := mbox
		if crlf {
			data = strings.ReplaceAll(mbox, "\n", "\r\n")
		}
		path := filepath.Join(t.TempDir(), "box")
		writeFile(t, path, data)
		a, err := OpenArchive(path)
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, a)
		if len(got) != 3 {
			t.Fatalf("crlf=%v: %d messages, want 3", crlf, len(got))
		}
		nl := "\n"
		if crlf {
			nl = "\r\n"
		}
		want1 := strings.ReplaceAll("From: alice@example.org\nSubject: one\n\nI join the Life contest.\nFrom the start I wanted to.\n>From here too.\n", "\n", nl)
		if string(got[0].Data) != want1 {
			t.Errorf("crlf=%v: message 1 = %q, want %q", crlf, got[0].Data, want1)
		}
		if !strings.Contains(string(got[1].Data), "From what I see") {
			t.Errorf("message 2 lost a body line starting with From: %q", got[1].Data)
		}
		wantTimes := []time.Time{
			time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC),
			time.Date(2026, 11, 30, 9, 5, 1, 0, time.UTC),
			time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC),
		}
		for i, r := range got {
			if !r.Arrived.Equal(wantTimes[i]) || r.UID != uint32(i+1) {
				t.Errorf("message %d: Arrived %v UID %d, want %v %d", i+1, r.Arrived, r.UID, wantTimes[i], i+1)
			}
		}
		m, err := Parse(got[2].Data, got[2].Arrived, nil)
		if err != nil || m.Text != "I bid 3 on Flight." {
			t.Errorf("parse message 3: %v %q", err, m.Text)
		}
	}
}

func TestMboxBadFromDateUsesDateHeader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "box")
	writeFile(t, path, "From someone\nDate: Sun, 29 Nov 2026 10:00:00 +0000\n\nx\n")
	a, err := OpenArchive(path)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, a)
	if len(got) != 1 || !got[0].Arrived.Equal(time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("got %d messages, arrival %v", len(got), got[0].Arrived)
	}
}

func TestMaildir(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cur", "1764410000.M500000P1.host:2,S"), "Subject: second\n\nb\n")
	writeFile(t, filepath.Join(dir, "new", "1764400000.M1P1.host"), "Subject: first\n\na\n")
	writeFile(t, filepath.Join(dir, "cur", "1764410000.M600000P1.host:2,"), "Subject: third\n\nc\n")
	writeFile(t, filepath.Join(dir, "tmp", "1764300000.M1P1.host"), "Subject: unfinished\n\nx\n")
	noStamp := filepath.Join(dir, "cur", "imported-message:2,S")
	writeFile(t, noStamp, "Subject: fourth\n\nd\n")
	mt := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(noStamp, mt, mt); err != nil {
		t.Fatal(err)
	}
	a, err := OpenArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	var times []time.Time
	for _, r := range readAll(t, a) {
		h, _, _ := readHeader(r.Data)
		subjects = append(subjects, h.Get("Subject"))
		times = append(times, r.Arrived)
	}
	if diff := cmp.Diff([]string{"first", "second", "third", "fourth"}, subjects); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if want := time.Unix(1764410000, 500000000).UTC(); !times[1].Equal(want) {
		t.Errorf("second arrival = %v, want %v", times[1], want)
	}
	if !times[3].Equal(mt) {
		t.Errorf("mtime arrival = %v, want %v", times[3], mt)
	}
}

func TestEML(t *testing.T) {
	dir := t.TempDir()
	withDate := filepath.Join(dir, "a.eml")
	writeFile(t, withDate, "Date: Sun, 29 Nov 2026 10:00:00 +0100\nFrom: a@example.org\n\nI pass.\n")
	noDate := filepath.Join(dir, "b.eml")
	writeFile(t, noDate, "From: a@example.org\n\nI pass.\n")
	mt := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(noDate, mt, mt); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]time.Time{withDate: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC), noDate: mt} {
		a, err := OpenArchive(path)
		if err != nil {
			t.Fatal(err)
		}
		got := readAll(t, a)
		if len(got) != 1 || !got[0].Arrived.Equal(want) || got[0].Arrived.Location() != time.UTC {
			t.Errorf("%s: %d messages, arrival %v, want %v", path, len(got), got[0].Arrived, want)
		}
	}
}

func TestOpenArchiveErrors(t *testing.T) {
	if _, err := OpenArchive(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing path: no error")
	}
	if _, err := OpenArchive(t.TempDir()); err == nil {
		t.Error("directory without cur/ or new/: no error")
	}
	// A file that is neither an mbox nor a message is refused, not read as
	// one message without a header.
	for name, text := range map[string]string{
		"text":    "hello world\nthis is not mail\n",
		"binary":  "\x89PNG\r\n\x1a\n\x00\x00",
		"empty":   "",
		"blank":   "\nFrom: a@example.org\n\nx\n",
		"colon":   ": x\n\ny\n",
		"spaced":  "Sub ject: x\n\ny\n",
		"no line": "Subject",
	} {
		path := filepath.Join(t.TempDir(), "x.eml")
		writeFile(t, path, text)
		if a, err := OpenArchive(path); err == nil {
			a.Close()
			t.Errorf("%s: %q opened as an archive", name, text)
		} else if !strings.Contains(err.Error(), "neither an mbox") {
			t.Errorf("%s: error %q does not say what the file is not", name, err)
		}
	}
	// A message's first field, whatever it is, makes it a message.
	for _, text := range []string{"Return-Path: <a@example.org>\r\nFrom: a@example.org\r\n\r\nx\r\n", "X-Y:\n\nx\n"} {
		path := filepath.Join(t.TempDir(), "x.eml")
		writeFile(t, path, text)
		a, err := OpenArchive(path)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := readAll(t, a); len(got) != 1 {
			t.Errorf("%q: %d messages, want 1", text, len(got))
		}
	}
}

// TestCorpusAsMbox replays the corpus through an mbox and checks that every
// message comes back byte for byte, which also covers mboxrd escaping of
// bodies that contain "From " lines.
func TestCorpusAsMbox(t *testing.T) {
	var b strings.Builder
	var want [][]byte
	for _, f := range corpusFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raw = []byte(strings.ReplaceAll(string(raw), "\r\n", "\n"))
		if !strings.HasSuffix(string(raw), "\n") {
			raw = append(raw, '\n')
		}
		want = append(want, raw)
		b.WriteString("From corpus@example.test Sun Nov 29 12:00:00 2026\n")
		for _, line := range strings.SplitAfter(string(raw), "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, ">"), "From ") {
				b.WriteString(">")
			}
			b.WriteString(line)
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "corpus.mbox")
	writeFile(t, path, b.String())
	a, err := OpenArchive(path)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, a)
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d", len(got), len(want))
	}
	for i := range got {
		if string(got[i].Data) != string(want[i]) {
			t.Errorf("message %d differs:\n%s", i+1, cmp.Diff(string(want[i]), string(got[i].Data)))
		}
	}
}

// openMbox opens an mbox file holding text.
func openMbox(t *testing.T, text string) Archive {
	t.Helper()
	path := filepath.Join(t.TempDir(), "box")
	writeFile(t, path, text)
	a, err := OpenArchive(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMboxReleasedMemory reads an mbox releasing each message once it is
// parsed (Raw.Release): a later message is read into the memory of an
// earlier one, and neither the earlier message's Parse nor the later
// message's bytes change by it.
func TestMboxReleasedMemory(t *testing.T) {
	var mbox strings.Builder
	var want []string // each message as written
	for i := range 40 {
		// Messages of varied lengths, each longer than the last but for
		// every eighth, and a multipart among them.
		body := strings.Repeat(fmt.Sprintf("I transfer %d coins to Bob.\n", i), 1+(i%8)*3)
		msg := fmt.Sprintf("From: p%d@example.org\nTo: agora-business@example.test\nList-Id: <agora-business.example.test>\nMessage-ID: <%d@example.org>\nSubject: %d\n\n%s", i, i, i, body)
		if i%5 == 0 {
			msg = fmt.Sprintf("From: p%d@example.org\nMessage-ID: <%d@example.org>\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain; charset=utf-8\n\n%s--b\nContent-Type: text/html\n\n<p>%d</p>\n--b--\n", i, i, body, i)
		}
		want = append(want, msg)
		fmt.Fprintf(&mbox, "From p%d@example.org Sun Nov 29 10:%02d:00 2026\n%s\n", i, i, msg)
	}
	a := openMbox(t, mbox.String())
	defer a.Close()
	type parsed struct{ got, want *Message }
	var done []parsed
	seen := map[*byte]bool{} // the first byte of each message's memory, kept from the collector
	reused := 0
	for i := 0; ; i++ {
		r, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Data) != want[i] {
			t.Fatalf("message %d read as %q, want %q", i, r.Data, want[i])
		}
		m, err := Parse(r.Data, r.Arrived, parseCfg)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := Parse([]byte(want[i]), r.Arrived, parseCfg)
		done = append(done, parsed{m, fresh})
		if first := &r.Data[:1][0]; seen[first] {
			reused++
		} else {
			seen[first] = true
		}
		r.Release()
		if r.Data != nil {
			t.Fatal("Release left the message's Data")
		}
		// Every message parsed so far reads as it did.
		for k, p := range done {
			if !reflect.DeepEqual(p.got, p.want) {
				t.Fatalf("after message %d, message %d's Parse changed:\n%+v\nwant\n%+v", i, k, p.got, p.want)
			}
		}
	}
	if len(done) != len(want) {
		t.Fatalf("read %d messages, want %d", len(done), len(want))
	}
	// A message is read into released memory when that is as large as an
	// eighth and 512 bytes more than the message before: here, all but
	// those growing past the memory the first eight grew to (30 of 40).
	// The archive keeps the memory itself, so neither the collector nor the
	// scheduler takes it away.
	if reused < len(want)*3/4 {
		t.Errorf("%d of %d messages read into a released message's memory, want three in four at least", reused, len(want))
	}
	// A message of another archive, or one never released, is not taken.
	r := &Raw{Data: []byte("From: a@example.org\n\nhi\n")}
	r.Release()
	if string(r.Data) != "From: a@example.org\n\nhi\n" {
		t.Error("Release of a message no mbox read changed it")
	}
}

// TestMboxReleasedMemoryReadAgain: messages released once read are read
// into the memory the one before released, when it is as large as the next
// one asks for (a buffer sized for a message as long as the one before): so
// for messages of one length, and for short messages after a long one,
// whose memory is larger than they ask: every message from the third on
// (the first two are read into memory sized before any message was).
func TestMboxReleasedMemoryReadAgain(t *testing.T) {
	short := "From: p@example.org\nTo: agora-business@example.test\nSubject: bid\n\nI bid 5.\n"
	long := "From: p@example.org\nSubject: bids\n\n" + strings.Repeat("I bid 5 on the next auction.\n", 150)
	oneLength := slices.Repeat([]string{short}, 30)
	for name, msgs := range map[string][]string{"one length": oneLength, "a long one first": append([]string{long}, oneLength[1:]...)} {
		var mbox strings.Builder
		for i, m := range msgs {
			fmt.Fprintf(&mbox, "From p@example.org Sun Nov 29 10:%02d:00 2026\n%s\n", i, m)
		}
		a := openMbox(t, mbox.String())
		var last *byte // the first byte of the message released last
		n, reused := 0, 0
		for ; ; n++ {
			r, err := a.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Data) != msgs[n] {
				t.Fatalf("%s: message %d read as %q, want %q", name, n+1, r.Data, msgs[n])
			}
			if first := &r.Data[:1][0]; first == last && n >= 2 {
				reused++
			} else {
				last = first
			}
			r.Release()
		}
		a.Close()
		if n != len(msgs) || reused != len(msgs)-2 {
			t.Errorf("%s: %d messages read, %d of the third on into the memory of the one before; want %d, all %d", name, n, reused, len(msgs), len(msgs)-2)
		}
	}
}

// TestMboxReleaseNeverWaits: an mbox keeps at most mboxFree released
// messages' memory; releasing more, all read before any is released, from
// goroutines of their own, neither waits nor fails, and the archive reads
// on into the memory it kept.
func TestMboxReleaseNeverWaits(t *testing.T) {
	var mbox strings.Builder
	n := mboxFree + 40
	for i := range 2 * n {
		fmt.Fprintf(&mbox, "From p@example.org Sun Nov 29 10:00:00 2026\nFrom: p@example.org\nSubject: %04d\n\nI bid %04d.\n\n", i, i)
	}
	a := openMbox(t, mbox.String())
	defer a.Close()
	// The first message is read into memory sized before any message was,
	// too small for the next ones: it is released and left.
	first, err := a.Next()
	if err != nil {
		t.Fatal(err)
	}
	first.Release()
	var held []*Raw
	for range n {
		r, err := a.Next()
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, r)
	}
	kept := map[*byte]bool{}
	var wg sync.WaitGroup
	for _, r := range held {
		kept[&r.Data[:1][0]] = true
		wg.Go(r.Release)
	}
	wg.Wait()
	reused := 0
	for i := n + 1; ; i++ {
		r, err := a.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("Subject: %04d\n", i); !strings.Contains(string(r.Data), want) {
			t.Fatalf("message %d read as %q", i+1, r.Data)
		}
		if kept[&r.Data[:1][0]] {
			reused++
		}
	}
	if reused != mboxFree {
		t.Errorf("%d messages read into memory released before, want %d (as many as the archive keeps)", reused, mboxFree)
	}
}
