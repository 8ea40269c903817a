//go:build profile

package main

import (
	"os"
	"strings"
	"testing"
)

// TestProfileCommand runs REFEREE_ARGS (the command line, split at white
// space) in the test binary, so that go test's -test.cpuprofile and
// -test.memprofile profile a referee command (bench/README.md, "Profiling
// a replay"). Built only with -tags profile; skipped without REFEREE_ARGS.
func TestProfileCommand(t *testing.T) {
	args := strings.Fields(os.Getenv("REFEREE_ARGS"))
	if len(args) == 0 {
		t.Skip("REFEREE_ARGS is not set")
	}
	if code := realMain(args, os.Stdout, os.Stderr); code != 0 {
		t.Fatalf("referee %s: exit status %d", strings.Join(args, " "), code)
	}
}
