package mailout

import (
	"strings"
	"testing"
)

// BenchmarkCompose measures composing a weekly report of about 8 KiB with a
// UTF-8 subject and a wide grid.
func BenchmarkCompose(b *testing.B) {
	m := baseMail()
	m.Subject = "OFF: [Life] Weekly Report — Rêve"
	m.Body = strings.Repeat(grid+"\n", 64)
	var size int
	for b.Loop() {
		raw, err := Compose(m)
		if err != nil {
			b.Fatal(err)
		}
		size = len(raw)
	}
	b.ReportMetric(float64(size), "bytes/msg")
}

// BenchmarkComposeGoMail composes a receipt and the report of
// BenchmarkCompose, written directly (now) and through go-mail's builder
// (go-mail), in the same run, for the ratio of the two.
//
//	go test ./mailout -run '^$' -bench '^BenchmarkComposeGoMail$' -count 3
func BenchmarkComposeGoMail(b *testing.B) {
	receipt := baseMail()
	receipt.To = []string{"Goethe <goethe@example.test>"}
	receipt.Cc = []string{"Life Contestmaster <cm@example.test>"}
	receipt.Subject = "Re: BUS: I join the Life contest"
	receipt.Body = "Received:\n\n> I join the Life contest.\n\nApplied: Goethe joins the Life contest (Life R3).\n-- \nThe Life Contestmaster (referee)\n"
	receipt.InReplyTo = "CAF00d@mail.example.test"
	receipt.References = []string{"root.1@mail.example.test", "mid.2@mail.example.test"}
	receipt.AutoSubmitted = "auto-replied"
	receipt.Kind = "receipt"
	report := baseMail()
	report.Subject = "OFF: [Life] Weekly Report — Rêve"
	report.Body = strings.Repeat(grid+"\n", 64)
	for _, m := range []struct {
		name string
		mail *Mail
	}{{"receipt", receipt}, {"report", report}} {
		for _, impl := range []struct {
			name  string
			write func(*fields) ([]byte, error)
		}{{"now", func(f *fields) ([]byte, error) { return f.write(), nil }}, {"go-mail", writeGoMail}} {
			b.Run(m.name+"/"+impl.name, func(b *testing.B) {
				for b.Loop() {
					f, err := prepare(m.mail)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := impl.write(f); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
