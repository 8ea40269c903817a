package mailin

import "strings"

// unflow decodes format=flowed text (RFC 3676 §4): a line ending in a space
// is soft-broken and joins the next line of the same quote depth; the space
// is removed too when DelSp=yes (§4.2). Space-stuffing is undone (§4.4), the
// signature separator "-- " stays a line of its own (§4.3), and quoted lines
// come out as "> " per level, so that quote stripping sees them.
func unflow(s string, delsp bool) string {
	if plainFlowed(s) {
		return s
	}
	var out strings.Builder // the paragraphs, one a line
	out.Grow(len(s))
	started, open := false, false
	curDepth := 0
	for line := range strings.SplitSeq(s, "\n") {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		body := line[depth:]
		body = strings.TrimPrefix(body, " ") // space-stuffing, or the space after the quote marks
		if open && (depth != curDepth || body == "-- ") {
			open = false // §4.5: a quote-depth change ends the paragraph; §4.3: so does the signature separator
		}
		curDepth = depth
		flowed := strings.HasSuffix(body, " ") && body != "-- "
		if flowed && delsp {
			body = body[:len(body)-1]
		}
		if !open {
			if started {
				out.WriteByte('\n')
			}
			started, open = true, true
			if depth > 0 {
				out.WriteString(strings.Repeat(">", depth))
				out.WriteByte(' ')
			}
		}
		out.WriteString(body)
		if !flowed {
			open = false
		}
	}
	return out.String()
}

// plainFlowed reports whether unflow would give s back as it is: no line
// is quoted (">") or space-stuffed, and none but a signature separator
// ("-- ") ends in a space, so that no line joins the next (RFC 3676 §4.2).
func plainFlowed(s string) bool {
	for line := range strings.SplitSeq(s, "\n") {
		if line != "-- " && (strings.HasPrefix(line, ">") || strings.HasPrefix(line, " ") || strings.HasSuffix(line, " ")) {
			return false
		}
	}
	return true
}
