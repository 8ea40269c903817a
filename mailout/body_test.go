package mailout

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// preparedBody is the body as the message holds it before a
// quoted-printable encoding (prepareBody, then writeBody for 7bit and
// 8bit, a line break added for quoted-printable), and its encoding.
func preparedBody(s string) (string, transferEncoding) {
	var f fields
	f.body, f.enc, f.lines = prepareBody(s)
	if f.enc == encQP {
		if f.body != "" && !strings.HasSuffix(f.body, "\n") {
			f.body += "\n"
		}
		return f.body, f.enc
	}
	return string(f.writeBody(nil)), f.enc
}

// prepareBodyTwoPasses is the body as it was written before it was read
// once: UTF-8 made valid, CR and CRLF replaced, a line break added,
// each byte looked at for the encoding, then LF replaced by CRLF. Kept as
// the reference preparedBody must equal.
func prepareBodyTwoPasses(s string) (string, transferEncoding) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	enc := enc7bit
	lineLen := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			lineLen = 0
			continue
		}
		if c > 0x7f {
			if enc == enc7bit {
				enc = enc8bit
			}
		} else if c < 0x20 && c != '\t' && c != '\f' || c == 0x7f {
			enc = encQP
		}
		lineLen++
		if lineLen > maxLineOctets {
			enc = encQP
		}
	}
	if enc == encQP {
		return s, enc
	}
	return strings.ReplaceAll(s, "\n", "\r\n"), enc
}

// bodyPieces are what a random body is made of: the text of reports and
// receipts, the bytes that change the encoding (each control character,
// DEL, UTF-8, bytes that are not UTF-8), the line breaks in their three
// forms, and lines around the 998-octet limit.
var bodyPieces = func() []string {
	p := []string{"Received:\n", "> I claim (3, 4).\n", "  1 2 3 4 5 6\n", ". . # . .", " ", "x", "Rêve", "夢", "—",
		"\n", "\r\n", "\r", "\n\n", "\t", "\f", "\x7f", "\x80", "\xff", "\xe2\x80", "\xc3", "\xed\xa0\x80",
		strings.Repeat("x", 997), strings.Repeat("y", 998), strings.Repeat("z", 999), strings.Repeat("é", 499), "abcdefg", "01234567"}
	for c := range 0x20 {
		p = append(p, string(rune(c)))
	}
	return p
}()

// randomBody joins up to 40 pieces, each at any offset of the eight bytes
// lineEncoding reads at once.
func randomBody(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(40) {
		b.WriteString(strings.Repeat("a", r.IntN(8)))
		b.WriteString(bodyPieces[r.IntN(len(bodyPieces))])
	}
	return b.String()
}

// TestPrepareBodyIsTwoPasses: preparedBody gives the body and the
// encoding the two-pass one gave, on the encoding table's bodies and on
// 20,000 random ones made of the bytes and lines that change either.
func TestPrepareBodyIsTwoPasses(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	bodies := []string{"", "\n", "\r", "\r\n", "a", "a\n", "\n\n", grid + "\n", strings.Repeat(grid+"\n", 64)}
	// Each control character and DEL at each place of eight bytes read
	// at once, among bytes under 0x60 (which no other test of the eight
	// would send to the byte loop).
	for _, c := range append([]byte("\x7f"), []byte("\x00\x01\x08\t\v\f\x0e\x1b\x1f")...) {
		for k := range 8 {
			bodies = append(bodies, "ABCDEFG"[:k]+string(c)+"ABCDEFG"[k:]+"\n")
		}
	}
	for range 20000 {
		bodies = append(bodies, randomBody(r))
	}
	for _, s := range bodies {
		got, genc := preparedBody(s)
		want, wenc := prepareBodyTwoPasses(s)
		if got != want || genc != wenc {
			t.Fatalf("preparedBody(%q) = %q, %v; want %q, %v", s, got, genc, want, wenc)
		}
	}
}

// TestBodyWrittenOnce: a mail whose body is sent 7bit or 8bit is written
// in one allocation, the message's: the body is read without a copy and
// written into the message with the CRLF of each line counted before (a
// report's grid, a receipt without its last line break, lines of one
// byte: 1,000 of them need 3,000 bytes, which a size counting their
// bytes alone would not hold), and the date and the msg-ids are written
// without a string made of each.
func TestBodyWrittenOnce(t *testing.T) {
	m := baseMail()
	m.InReplyTo = "CAF00d@mail.example.test"
	m.References = []string{"root.1@mail.example.test", "mid.2@mail.example.test"}
	for _, s := range []string{strings.Repeat(grid+"\n", 64), "Received:\n\n> I join.\n\nApplied: Rêve joins", "\n\n\n", strings.Repeat("a\n", 22), strings.Repeat("a\n", 1000)} {
		m.Body = s
		f, err := prepare(m)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() { prepareBody(s) }); n != 0 {
			t.Errorf("prepareBody(%.40q...): %v allocations, want none", s, n)
		}
		if n := testing.AllocsPerRun(20, func() { f.write() }); n != 1 {
			t.Errorf("write of the body %.40q...: %v allocations, want 1", s, n)
		}
	}
}

func FuzzPrepareBody(f *testing.F) {
	for _, s := range []string{"", "a\r\nb\rc\n", "Rêve\x80\n", "12345678\x0112345678\t\f", strings.Repeat("x", 999), "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, genc := preparedBody(s)
		want, wenc := prepareBodyTwoPasses(s)
		if got != want || genc != wenc {
			t.Fatalf("preparedBody(%q) = %q, %v; want %q, %v", s, got, genc, want, wenc)
		}
	})
}

// BenchmarkPrepareBody: the body of BenchmarkCompose's report (and of a
// receipt), read once and written into a message's buffer (now) and in
// two passes (before) in the same loop,
// 16 calls of each timed by the thread's CPU time, so the figures hold on
// a loaded machine: now-ns/op, before-ns/op and their ratio.
//
//	go test ./mailout -run '^$' -bench '^BenchmarkPrepareBody$' -count 3
func BenchmarkPrepareBody(b *testing.B) {
	for _, body := range []struct{ name, text string }{
		{"report", strings.Repeat(grid+"\n", 64)},
		{"receipt", "Received:\n\n> I join the Life contest.\n\nApplied: Goethe joins the Life contest (Life R3).\n-- \nThe Life Contestmaster (referee)\n"},
	} {
		b.Run(body.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var now, before time.Duration
			n := 0
			var f fields
			buf := make([]byte, 0, 2*len(body.text))
			for b.Loop() {
				t0 := threadCPU(b)
				for range 16 {
					f.body, f.enc, f.lines = prepareBody(body.text)
					buf = f.writeBody(buf[:0])
				}
				t1 := threadCPU(b)
				for range 16 {
					prepareBodyTwoPasses(body.text)
				}
				before += threadCPU(b) - t1
				now += t1 - t0
				n += 16
			}
			b.ReportMetric(float64(now.Nanoseconds())/float64(n), "now-ns/op")
			b.ReportMetric(float64(before.Nanoseconds())/float64(n), "before-ns/op")
			b.ReportMetric(float64(now)/float64(before), "ratio")
		})
	}
}

// threadCPU is the CPU time the calling thread has used
// (CLOCK_THREAD_CPUTIME_ID; mailout imports nothing of the project's
// benchmarks).
func threadCPU(b *testing.B) time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		b.Fatal(errno)
	}
	return time.Duration(ts.Nano())
}
