package life

import (
	_ "embed"
	"strings"

	"referee/contract/text"
)

// regulationsText is the text of the regulations as of Suggestion #3, with both
// variants of regulations 21 and 23 (ruling L5) and regulation 6's values as
// placeholders filled from the parameters.
//
//go:embed regulations.txt
var regulationsText string

// regulations maps "6", "21 amended", "21 original", ... to their text.
var regulations = parseRegulations(regulationsText)

func parseRegulations(s string) map[string]string {
	out := map[string]string{}
	key := ""
	var b strings.Builder
	flush := func() {
		if key != "" {
			out[key] = strings.TrimSpace(b.String())
		}
		b.Reset()
	}
	for _, line := range strings.Split(s, "\n") {
		if k, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			key = k
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	flush()
	return out
}

// wrap72 reflows a regulation to 72 columns: its opening paragraph, and each
// "- " or "* " item with its continuation lines indented under the item.
func wrap72(t string) string {
	var blocks []string
	for _, l := range strings.Split(t, "\n") {
		s := strings.TrimSpace(l)
		if s == "" {
			continue
		}
		if len(blocks) == 0 || strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") {
			blocks = append(blocks, s)
			continue
		}
		blocks[len(blocks)-1] += " " + s
	}
	var b strings.Builder
	for _, bl := range blocks {
		rest := ""
		if strings.HasPrefix(bl, "- ") || strings.HasPrefix(bl, "* ") {
			rest = "    "
		}
		b.WriteString(text.WrapIndent(bl, 0, "", rest))
	}
	return strings.TrimRight(b.String(), "\n")
}

// regulation is the current text of regulation n under the given parameter
// values (a function so that the old and new texts of a change can be shown).
func regulation(n string, param func(string) string) string {
	switch n {
	case "21", "23":
		return wrap72(regulations[n+" "+param("R"+n)])
	case "6":
		t := regulations["6"]
		for _, p := range []string{"Xmin", "Xmax", "Ymin", "Ymax", "VPP", "VCFmin", "VCFmax"} {
			t = strings.ReplaceAll(t, "{"+p+"}", param(p))
		}
		return t
	}
	return wrap72(regulations[n])
}

// paramRegulation is the regulation a parameter belongs to.
func paramRegulation(name string) string {
	switch strings.ToUpper(name) {
	case "R21":
		return "21"
	case "R23", "PWIN", "PPP":
		return "23"
	}
	return "6"
}
