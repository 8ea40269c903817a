package mailin

import (
	"fmt"
	"mime"
	"strings"
)

const maxDepth = 30 // nesting limit for multiparts

// textKind ranks what a part yielded: plain text is preferred to text
// converted from HTML (requirement: text/plain preferred, HTML-only converted).
type textKind int

const (
	kindNone textKind = iota
	kindHTML
	kindPlain
)

// bodyWalker collects the readable text of a MIME tree (RFC 2045/2046).
type bodyWalker struct {
	notes  []string
	limit  int  // stop decoding once this much text is collected
	digest bool // a multipart/digest was seen
	report string
}

func (w *bodyWalker) note(format string, args ...any) {
	if len(w.notes) < 20 {
		w.notes = append(w.notes, fmt.Sprintf(format, args...))
	}
}

// entity returns the text of one entity (a message or a body part) and its
// kind. defType is the type implied when Content-Type is absent (text/plain,
// or message/rfc822 inside a digest: RFC 2046 §5.1.5).
func (w *bodyWalker) entity(h header, body []byte, depth int, path string, defType string) (string, textKind) {
	if depth > maxDepth {
		w.note("%s nested too deep; skipped", partName(path))
		return "", kindNone
	}
	ctRaw := h.get("Content-Type")
	typ, params, ok := mediaType(ctRaw)
	if !ok {
		w.note("malformed Content-Type in %s", partName(path))
	}
	if typ == "" || !strings.Contains(typ, "/") {
		if typ != "" {
			w.note("invalid media type %q in %s; %s assumed", cleanLine(typ), partName(path), defType)
		}
		typ, params = defType, map[string]string{}
	}
	// RFC 2183 §2.2: an attachment is not part of the message's text.
	disp, dparams, _ := mime.ParseMediaType(h.get("Content-Disposition"))
	if disp == "attachment" {
		return "", kindNone
	}
	main, sub, _ := strings.Cut(typ, "/")
	switch main {
	case "multipart":
		return w.multipart(sub, params, body, depth, path)
	case "text":
		if sub != "plain" && sub != "html" && sub != "enriched" && sub != "markdown" {
			return "", kindNone // text/calendar, text/x-vcard, ...
		}
		if dparams["filename"] != "" && depth > 0 && path != "1" {
			return "", kindNone // a named text file sent inline (Apple Mail)
		}
		data, n := decodeTransfer(h.get("Content-Transfer-Encoding"), body)
		if n != "" {
			w.note("%s in %s", n, partName(path))
		}
		if w.limit > 0 && len(data) > w.limit*4 {
			data = data[:w.limit*4]
			w.note("%s cut at %d bytes", partName(path), len(data))
		}
		s, n := toUTF8(params["charset"], data)
		if n != "" {
			w.note("%s in %s", n, partName(path))
		}
		s = cleanText(s)
		if sub == "html" {
			return htmlToText(s), kindHTML
		}
		if strings.EqualFold(params["format"], "flowed") {
			s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
		}
		return s, kindPlain
	case "message":
		return "", kindNone // a forwarded or bounced message is not the sender's text
	}
	return "", kindNone
}

func (w *bodyWalker) multipart(sub string, params map[string]string, body []byte, depth int, path string) (string, textKind) {
	boundary := params["boundary"]
	if boundary == "" {
		w.note("multipart without boundary in %s; read as text", partName(path))
		s, _ := toUTF8(params["charset"], body)
		return cleanText(s), kindPlain
	}
	parts, closed := splitMultipart(body, boundary)
	if !closed {
		w.note("multipart in %s not closed; kept what could be read", partName(path))
	}
	if len(parts) == 0 {
		w.note("multipart in %s has no parts", partName(path))
		return "", kindNone
	}
	child := func(i int, def string) (string, textKind) {
		h, b, notes := readHeader(parts[i])
		for _, n := range notes {
			w.note("%s in %s", n, partName(subPath(path, i)))
		}
		return w.entity(h, b, depth+1, subPath(path, i), def)
	}
	switch sub {
	case "alternative":
		// RFC 2046 §5.1.4: the parts are the same content; take the
		// first that yields plain text, else the first HTML-derived one.
		// An empty text/plain beside a real HTML part (some webmails)
		// loses to the HTML.
		var html, emptyPlain string
		foundHTML, foundPlain := false, false
		for i := range parts {
			s, k := child(i, "text/plain")
			if k == kindPlain {
				if strings.TrimSpace(s) != "" {
					return s, kindPlain
				}
				emptyPlain, foundPlain = s, true
			}
			if k == kindHTML && !foundHTML && strings.TrimSpace(s) != "" {
				html, foundHTML = s, true
			}
		}
		switch {
		case foundHTML:
			return html, kindHTML
		case foundPlain:
			return emptyPlain, kindPlain
		}
		return "", kindNone
	case "signed":
		// RFC 1847 §2.1 / RFC 3156 §5: the first part is the signed
		// content; the second is the signature.
		return child(0, "text/plain")
	case "encrypted":
		w.note("encrypted %s cannot be read", partName(path))
		return "", kindNone
	case "digest":
		w.digest = true
		return "", kindNone
	case "report":
		// RFC 6522: the first part is the human-readable explanation.
		w.report = strings.ToLower(params["report-type"])
		if w.report == "" {
			w.report = "unknown"
		}
		return child(0, "text/plain")
	}
	// mixed, related, parallel and unknown subtypes (RFC 2046 §5.1.7):
	// concatenate the inline text of the parts in order.
	var texts []string
	kind := kindNone
	for i := range parts {
		s, k := child(i, "text/plain")
		if k == kindNone {
			continue
		}
		if strings.TrimSpace(s) != "" {
			texts = append(texts, strings.TrimRight(s, "\n"))
		}
		if k > kind {
			kind = k
		}
	}
	return strings.Join(texts, "\n\n"), kind
}

func subPath(path string, i int) string {
	if path == "" {
		return fmt.Sprint(i + 1)
	}
	return fmt.Sprintf("%s.%d", path, i+1)
}

// partName names a part for notes: the IMAP part number (RFC 3501 §6.4.5),
// or "the body" for the top level.
func partName(path string) string {
	if path == "" {
		return "the body"
	}
	return "part " + path
}
