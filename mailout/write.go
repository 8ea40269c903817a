package mailout

import (
	"mime"
	"strings"
	"time"
)

// The message is written here directly, in the bytes go-mail v0.8.1 writes
// for the same fields (its Msg.WriteTo, with no User-Agent, charset UTF-8,
// one text/plain part). go-mail builds a map of headers, sorts it, joins,
// splits and re-joins each header line and copies the body through a
// buffer; here each line is written once, in its place
// (BenchmarkComposeGoMail times the two). TestWriteIsGoMails and
// FuzzWriteIsGoMails compare the two bytes over random mails.
//
// go-mail's rules, kept here:
//   - its own headers (every one but the addresses) come first, sorted by
//     name (Go string order, so MIME-Version before Message-ID), each value
//     Q-encoded when it holds anything but printable ASCII and tab
//     (mime.QEncoding, charset "UTF-8", RFC 2047 5(1));
//   - then From, To and Cc, each address as net/mail writes it (a To or Cc
//     without addresses is not written);
//   - then the part's Content-Transfer-Encoding and Content-Type, a blank
//     line and the body, as it is or quoted-printable (mime/quotedprintable,
//     which also turns its line breaks into CRLF);
//   - each header folded as foldHeader says.

// Folding of go-mail's header lines (its MaxHeaderLength).
const maxHeaderLength = 76

// write writes the message of f.
func (f *fields) write() []byte {
	// The header's lines, and the body with a CR more a line (a body
	// sent quoted-printable, rare, grows it again).
	b := make([]byte, 0, 768+len(f.body)+f.lines)

	// The date and the msg-ids are printable ASCII (validMsgID), which
	// go-mail does not Q-encode: they are folded as they are, written in
	// a buffer of the stack.
	var value [2 + 256]byte
	b = textHeader(b, HeaderAutoSubmitted, f.autoSubmitted)
	b = foldHeader(b, "Date", f.date.AppendFormat(value[:0], time.RFC1123Z))
	if f.inReplyTo != "" {
		b = foldHeader(b, "In-Reply-To", angled(value[:0], f.inReplyTo))
	}
	if f.listID != "" {
		b = textHeader(b, HeaderListID, f.listID)
	}
	if f.listPost != "" {
		b = textHeader(b, HeaderListPost, "<mailto:"+f.listPost+">")
	}
	b = textHeader(b, "MIME-Version", "1.0")
	b = foldHeader(b, "Message-ID", angled(value[:0], f.msgID))
	if len(f.references) > 0 {
		// One space-separated value (RFC 5322 3.6.4).
		var refs [512]byte
		v := refs[:0]
		for i, r := range f.references {
			if i > 0 {
				v = append(v, ' ')
			}
			v = angled(v, r)
		}
		b = foldHeader(b, "References", v)
	}
	b = textHeader(b, "Subject", f.subject)
	b = textHeader(b, HeaderNotice, f.kind)

	b = foldHeader(b, "From", f.from.text)
	b = addressHeader(b, "To", f.to)
	b = addressHeader(b, "Cc", f.cc)

	// The part's fields, as go-mail writes them: not Q-encoded.
	b = foldHeader(b, "Content-Transfer-Encoding", f.enc.String())
	b = foldHeader(b, "Content-Type", "text/plain; charset=UTF-8")
	b = append(b, "\r\n"...)
	return f.writeBody(b)
}

// addressHeader writes a To or Cc header of the addresses, joined by ", ";
// none for no address.
func addressHeader(b []byte, key string, list []addr) []byte {
	switch len(list) {
	case 0:
		return b
	case 1:
		return foldHeader(b, key, list[0].text)
	}
	all := make([]string, len(list))
	for i, a := range list {
		all[i] = a.text
	}
	return foldHeader(b, key, strings.Join(all, ", "))
}

// textHeader writes a header of go-mail's own: its value Q-encoded when it
// needs it, folded.
func textHeader(b []byte, key, value string) []byte {
	return foldHeader(b, key, mime.QEncoding.Encode("UTF-8", value))
}

// foldHeader writes "key: value" and CRLF, folded as go-mail folds it: the value is cut at each space
// into words (empty ones too), and a word starts a new line, after CRLF
// and one space, when fewer than two columns would be left of 76 with it
// on the line (the key, ": " and CRLF counted in the first line's, the
// leading space and CRLF in the others'); the space before a line break is
// dropped, the one after the key's colon too. A word longer than a line
// stays whole.
func foldHeader[T string | []byte](b []byte, key string, value T) []byte {
	b = append(b, key...)
	b = append(b, ": "...)
	left := maxHeaderLength - 2 - len(key) - 2
	for {
		word, more := value, false
		if i := indexSpace(value); i >= 0 {
			word, value, more = value[:i], value[i+1:], true
		}
		if left-len(word) <= 1 {
			// The space written last, after the colon or the last word.
			b = append(b[:len(b)-1], "\r\n "...)
			left = maxHeaderLength - 3
		}
		b = append(b, word...)
		left -= len(word)
		if !more {
			break
		}
		b = append(b, ' ')
		left--
	}
	return append(b, "\r\n"...)
}

// indexSpace is the index of the first space of s, -1 for none.
func indexSpace[T string | []byte](s T) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return i
		}
	}
	return -1
}

// angled appends "<id>" to b.
func angled(b []byte, id string) []byte {
	b = append(b, '<')
	b = append(b, id...)
	return append(b, '>')
}

// appender is an io.Writer appending to its bytes.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}
