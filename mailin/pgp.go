package mailin

import "strings"

// inlinePGP handles inline OpenPGP (RFC 4880 §7): in a cleartext-signed
// block the text counts, the armour lines, the "Hash:" headers and the
// signature block do not, and dash-escaping ("- " before a line) is undone.
// An inline encrypted block cannot be read and is dropped with a note.
func inlinePGP(s string) (string, string) {
	if !strings.Contains(s, "-----BEGIN PGP ") {
		return s, ""
	}
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	note := ""
	const (
		outside = iota
		armourHeader
		signedText
		signature
		encrypted
	)
	state := outside
	for _, line := range lines {
		t := strings.TrimRight(line, " \t\r")
		switch state {
		case outside:
			switch t {
			case "-----BEGIN PGP SIGNED MESSAGE-----":
				state = armourHeader
				continue
			case "-----BEGIN PGP MESSAGE-----":
				state = encrypted
				note = "inline PGP encrypted block cannot be read"
				continue
			case "-----BEGIN PGP SIGNATURE-----":
				state = signature
				continue
			}
			out = append(out, line)
		case armourHeader:
			if t == "" {
				state = signedText
			}
		case signedText:
			if t == "-----BEGIN PGP SIGNATURE-----" {
				state = signature
				continue
			}
			line = strings.TrimPrefix(line, "- ")
			out = append(out, line)
		case signature, encrypted:
			if strings.HasPrefix(t, "-----END PGP ") {
				state = outside
			}
		}
	}
	return strings.Join(out, "\n"), note
}
