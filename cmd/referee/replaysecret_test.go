package main

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filesUnder reads every file under dir, by its path from dir.
func filesUnder(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			got[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(path)
		got[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// sameFiles fails unless dir holds the files of before, each as it was.
func sameFiles(t *testing.T, what, dir string, before map[string]string) {
	t.Helper()
	after := filesUnder(t, dir)
	for name, b := range before {
		if a, ok := after[name]; !ok {
			t.Errorf("%s removed %s", what, name)
		} else if a != b {
			t.Errorf("%s changed %s", what, name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s left %s behind", what, name)
		}
	}
}

// TestReplaySecretFileOfAnExistingState: a replay into a state that exists
// takes --secret-file holding the state's own secret (in either form), and
// refuses one holding another as bad usage (exit 2), naming the file and
// saying the state has its own secret, writing nothing and naming neither
// secret; where the file was set aside without a word. A starting state,
// which holds none, is refused, with --secret-file or without.
func TestReplaySecretFileOfAnExistingState(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir) // its secret: 32 bytes of 9
	arch := replayArchive(t)
	os.WriteFile(filepath.Join(dir, "same.hex"), []byte(strings.Repeat("09", 32)+"\n"), 0o600)
	other := bytes.Repeat([]byte{8}, 32)
	os.WriteFile(filepath.Join(dir, "other"), other, 0o600)
	before := filesUnder(t, dir)

	for _, f := range []string{"secret", "same.hex"} {
		code, out, errs := runCmd(t, dir, "replay", "--secret-file", f, "--until", "2026-12-15T00:00:00Z", "--out", "out", arch)
		if code != 0 || !strings.Contains(out, "0 messages applied, 5 skipped (applied before)") {
			t.Errorf("replay again with the state's own secret in %s: exit %d, %s%s", f, code, out, errs)
		}
	}
	sameFiles(t, "a replay again with the state's own secret", dir, before)

	code, out, errs := runCmd(t, dir, "replay", "--secret-file", "other", "--until", "2026-12-15T00:00:00Z", "--out", "out", arch)
	want := "--secret-file other: data/state.yaml exists and has its own master secret, not this one; a replay takes --secret-file only for a state it creates"
	if code != 2 || !strings.Contains(errs, want) || out != "" {
		t.Errorf("replay with another secret: exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errs, want)
	}
	for _, sec := range []string{hex.EncodeToString(other), strings.Repeat("09", 32)} {
		if strings.Contains(errs, sec) {
			t.Errorf("the refusal names a secret: %q", errs)
		}
	}
	sameFiles(t, "a replay refused for its secret", dir, before)

	start := t.TempDir()
	os.MkdirAll(filepath.Join(start, "data"), 0o700)
	if code, _, errs := runCmd(t, start, "init", "--template"); code != 0 {
		t.Fatalf("init --template: %d %s", code, errs)
	}
	os.WriteFile(filepath.Join(start, "secret"), other, 0o600)
	before = filesUnder(t, start)
	// With or without --secret-file: the mail applied to a state with no
	// secret ran no scheduled event and left a state that referee check
	// calls broken (its secret missing from a started state).
	want = "data/state.yaml exists and holds no master secret (a starting state, as referee init --template writes it): a replay applies mail to a working state; name a --state that does not exist yet"
	for _, args := range [][]string{{"replay", "--secret-file", "secret", arch}, {"replay", arch}} {
		code, out, errs = runCmd(t, start, args...)
		if code != 2 || !strings.Contains(errs, want) || out != "" {
			t.Errorf("%s onto a starting state: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(args[:len(args)-1], " "), code, out, errs, want)
		}
		sameFiles(t, strings.Join(args[:len(args)-1], " ")+" onto a starting state", start, before)
	}
}
