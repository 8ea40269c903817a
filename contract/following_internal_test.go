package contract

import "testing"

// FuzzExpandFollowing: whatever the text, expandFollowing keeps its length
// and changes only list marks, each to "I" and spaces, so that every
// action's offset in the text stays where it was.
func FuzzExpandFollowing(f *testing.F) {
	for _, s := range []string{
		"I perform the following actions, in order:\n1. Transfer 3 Vials to Bob.\n2. Claim cell (1, 2) in Life.",
		"I hereby do the following:\n\n- transfer 2 Vials to Bob\n- I claim cell (1, 2)\n\n- x",
		"We do the following:\n(a) join Rumble\n10) leave Rumble",
		"Plans:\n- claim cell (5, 5) in Life",
		"I do the FoLLoWinG\n:\n- join Rumble",
		"we\ttake the following game actions\nin the following order :",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := expandFollowing(s)
		if !mayOpenFollowing(s) && followingHead().MatchString(s) {
			t.Fatalf("mayOpenFollowing(%q) is false, but a list opens in it", s)
		}
		if len(out) != len(s) {
			t.Fatalf("expandFollowing(%q) is %d bytes, want %d", s, len(out), len(s))
		}
		for i := range len(s) {
			if out[i] != s[i] && !(out[i] == 'I' || out[i] == ' ') {
				t.Fatalf("expandFollowing(%q) wrote %q at %d", s, out[i], i)
			}
			if out[i] != s[i] && s[i] != '-' && s[i] != '*' && s[i] != '(' && s[i] != ')' && s[i] != '.' &&
				!(s[i] >= '0' && s[i] <= '9') && !(s[i] >= 'a' && s[i] <= 'z') && s[i]&0x80 == 0 {
				t.Fatalf("expandFollowing(%q) changed %q at %d, not a list mark", s, s[i], i)
			}
		}
	})
}
