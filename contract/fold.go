package contract

import "strings"

// Lower-case comparisons without the lower-case copy: a player's name,
// nickname or address is compared with a reference already lower-cased,
// on every lookup, against every player.

// lowerIs reports whether strings.ToLower(s) == lower. An ASCII s is
// compared byte by byte (ToLower changes only its letters A-Z, in place);
// anything else is lower-cased as before.
func lowerIs(s, lower string) bool {
	if !isASCII(s) {
		return strings.ToLower(s) == lower
	}
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

// lowerHasPrefix reports whether strings.HasPrefix(strings.ToLower(s),
// prefix), as lowerIs does.
func lowerHasPrefix(s, prefix string) bool {
	if !isASCII(s) {
		return strings.HasPrefix(strings.ToLower(s), prefix)
	}
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

// lowerASCII is the lower case of an ASCII byte.
func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
