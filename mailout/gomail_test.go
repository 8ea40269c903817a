package mailout

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"

	gomail "github.com/wneessen/go-mail"
)

// writeGoMail writes the message of f through go-mail's message builder,
// as Compose did before it wrote the bytes itself: the reference the
// direct writer is held to.
func writeGoMail(f *fields) ([]byte, error) {
	enc := gomail.NoEncoding
	if f.enc == encQP {
		enc = gomail.EncodingQP
	}
	msg := gomail.NewMsg(
		gomail.WithNoDefaultUserAgent(),
		gomail.WithCharset(gomail.CharsetUTF8),
		gomail.WithEncoding(enc),
	)
	msg.FromMailAddress(f.from.parsed)
	// go-mail writes no To or Cc header for an empty list.
	msg.ToMailAddress(parsedOf(f.to)...)
	msg.CcMailAddress(parsedOf(f.cc)...)
	// go-mail Q-encodes a value only when it needs it (RFC 2047 5(1)).
	msg.Subject(f.subject)
	msg.SetMessageIDWithValue(f.msgID)
	msg.SetDateWithValue(f.date)
	if f.inReplyTo != "" {
		msg.SetGenHeader(gomail.HeaderInReplyTo, "<"+f.inReplyTo+">")
	}
	if len(f.references) > 0 {
		// One space-separated value: go-mail joins several values with
		// ", ", which RFC 5322 3.6.4 does not allow in References.
		msg.SetGenHeader(gomail.HeaderReferences, "<"+strings.Join(f.references, "> <")+">")
	}
	msg.SetGenHeader(HeaderAutoSubmitted, f.autoSubmitted)
	msg.SetGenHeader(HeaderNotice, f.kind)
	if f.listID != "" {
		msg.SetGenHeader(HeaderListID, f.listID)
	}
	if f.listPost != "" {
		msg.SetGenHeader(HeaderListPost, "<mailto:"+f.listPost+">")
	}
	// The body as Compose held it whole before it wrote it line by line.
	body, _ := preparedBody(f.body)
	msg.SetBodyString(gomail.TypeTextPlain, body)

	var buf bytes.Buffer
	if _, err := msg.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("compose %s: write: %w", f.msgID, err)
	}
	out := buf.Bytes()
	if f.enc == enc7bit {
		out = relabel7bit(out)
	}
	return out, nil
}

// relabel7bit rewrites the Content-Transfer-Encoding header of an all-ASCII
// body from 8bit to 7bit (RFC 2045 2.7): go-mail writes "7bit" parts
// through a quoted-printable encoder, so ASCII bodies are written as 8bit
// and relabelled. go-mail writes the part's fields after the mail's, so
// that field always follows a CRLF. The first such field of the header is
// changed, in place.
func relabel7bit(raw []byte) []byte {
	end := bytes.Index(raw, []byte("\r\n\r\n"))
	if end < 0 {
		return raw
	}
	const field = "\r\nContent-Transfer-Encoding: "
	if i := bytes.Index(raw[:end+2], []byte(field+"8bit\r\n")); i >= 0 {
		raw[i+len(field)] = '7'
	}
	return raw
}

// parsedOf is the addresses as net/mail parsed them.
func parsedOf(list []addr) []*mail.Address {
	out := make([]*mail.Address, len(list))
	for i, a := range list {
		out[i] = a.parsed
	}
	return out
}
