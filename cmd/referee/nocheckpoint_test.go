package main

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contract"
	"referee/internal/bridge"
)

// TestReplayWithoutItsCheckpointWritesNoMailTwice: a replay killed at
// several points, its checkpoint then deleted (as the refusal of a replay
// of other arguments allows), and run again, leaves the mails an
// uninterrupted replay leaves: the notices of the killed replay's saves
// after its last snapshot, which the journal re-done holds as not written,
// are written over their own files, and said, where they were written
// again under new numbers after the last, each mail twice in --out.
func TestReplayWithoutItsCheckpointWritesNoMailTwice(t *testing.T) {
	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	said := 0
	for _, k := range []string{"message:3", "message:4", "message:5", "eml:2", "eml:4", "saved:3", "saving:4"} {
		dir := secretDir(t)
		if code, errs := replayChild(t, dir, k, syscall.SIGKILL, replayArgs(t, true)); code != -1 {
			t.Fatalf("killed at %s: exit %d %s", k, code, errs)
		}
		if err := os.Remove(filepath.Join(dir, "data/state.yaml.replay")); err != nil {
			t.Fatalf("killed at %s: %v", k, err)
		}
		code, errs := replayChild(t, dir, "", 0, replayArgs(t, true))
		if code != 0 {
			t.Fatalf("killed at %s, its checkpoint deleted, run again: exit %d %s", k, code, errs)
		}
		if strings.Contains(errs, "of the state's outbox found in out already") {
			said++
			wants(t, "killed at "+k+", run again", errs, "of the state's outbox found in out already (a replay of this state stopped before its end, its checkpoint gone, wrote them): written again over their own files, not after the last")
		}
		got := resultOf(t, dir)
		sameResult(t, "killed at "+k+", its checkpoint deleted, run again", got, want)
	}
	if said == 0 {
		t.Error("no kill left notices written and not snapshotted")
	}
}

// TestReplayRefusesAnotherStatesOut: two states replay the same archive
// into one --out (the mails' Message-IDs come from the messages they
// answer, and a receipt of the same action reads the same in both, byte
// for byte). The second, killed after journaling a save and before writing
// its mails, its checkpoint deleted, and run again, took such a receipt of
// the first state's for its own, wrote it over that file and left its own
// missing. The folder now names the state whose mails it holds
// (out/state-id), and the second state's replay is refused, exit status 2,
// the folder left as it was: a state made by the replay at its first
// message, and one that exists. The first state's own replay again, and
// another state's into a folder whose mails were removed, are not.
func TestReplayRefusesAnotherStatesOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	args := func(out string) []string {
		a := replayArgs(t, true)
		for i := range a {
			if a[i] == "out" {
				a[i] = out
			}
		}
		return a
	}
	first := secretDir(t)
	if code, errs := replayChild(t, first, "", 0, args(out)); code != 0 {
		t.Fatalf("the first state's replay: exit %d %s", code, errs)
	}
	before := filesIn(t, out)
	if !strings.Contains(before[outMarkName], "\ncreated: ") {
		t.Fatalf("the folder names no state:\n%s", before[outMarkName])
	}
	second := t.TempDir()
	os.WriteFile(filepath.Join(second, "secret"), []byte(strings.Repeat("7", 64)), 0o600)
	refused := func(what string) {
		t.Helper()
		code, errs := replayChild(t, second, "", 0, args(out))
		if code != 2 || !strings.Contains(errs, "--out "+out+" holds the mails of another state's replay ("+filepath.Join(out, outMarkName)+" names that state: created: ") ||
			!strings.Contains(errs, "name another --out, or empty this one") {
			t.Errorf("%s: exit %d %s; want 2 and the folder refused", what, code, errs)
		}
		if now := filesIn(t, out); !maps.Equal(now, before) {
			t.Errorf("%s: the first state's folder changed", what)
		}
	}
	refused("a state the replay makes")
	if _, err := os.Stat(filepath.Join(second, "data/state.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused replay made its state: %v", err)
	}
	// The second state replayed into a folder of its own, killed after a
	// save, its checkpoint deleted, then given the first state's folder.
	if code, errs := replayChild(t, second, "saved:1", syscall.SIGKILL, args("own")); code != -1 {
		t.Fatalf("the second state's replay killed: exit %d %s", code, errs)
	}
	if err := os.Remove(filepath.Join(second, "data/state.yaml.replay")); err != nil {
		t.Fatal(err)
	}
	refused("a state that exists, its checkpoint deleted")
	if code, errs := replayChild(t, first, "", 0, args(out)); code != 0 {
		t.Errorf("the first state's replay again into its folder: exit %d %s", code, errs)
	}
	// Its mails removed, the folder is the next state's.
	for name := range before {
		if strings.HasSuffix(name, ".eml") {
			os.Remove(filepath.Join(out, name))
		}
	}
	if code, errs := replayChild(t, second, "", 0, args(out)); code != 0 {
		t.Fatalf("the second state's replay into the folder emptied of mails: exit %d %s", code, errs)
	}
	if mark := string(readFile(t, filepath.Join(out, outMarkName))); mark == before[outMarkName] {
		t.Errorf("the folder still names the first state:\n%s", mark)
	}
}

// TestReplayWithoutItsCheckpointWritesOverAFileCutShort: a replay killed
// while it wrote a mail leaves that file cut short (empty, or its header
// cut); its checkpoint deleted and run again, it writes that mail over the
// file cut short, not after it: the same mails as a replay never killed,
// and no file empty or cut.
func TestReplayWithoutItsCheckpointWritesOverAFileCutShort(t *testing.T) {
	base := secretDir(t)
	if code, errs := replayChild(t, base, "", 0, replayArgs(t, true)); code != 0 {
		t.Fatalf("replay: exit %d %s", code, errs)
	}
	want := resultOf(t, base)
	for _, keep := range []int{0, 40} { // empty, or cut inside its header
		dir := secretDir(t)
		if code, errs := replayChild(t, dir, "eml:4", syscall.SIGKILL, replayArgs(t, true)); code != -1 {
			t.Fatalf("killed: exit %d %s", code, errs)
		}
		ents, _ := os.ReadDir(filepath.Join(dir, "out"))
		last := filepath.Join(dir, "out", ents[len(ents)-1].Name())
		b := readFile(t, last)
		if err := os.WriteFile(last, b[:keep], 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, "data/state.yaml.replay")); err != nil {
			t.Fatal(err)
		}
		if code, errs := replayChild(t, dir, "", 0, replayArgs(t, true)); code != 0 {
			t.Fatalf("run again: exit %d %s", code, errs)
		}
		sameResult(t, fmt.Sprintf("the last mail cut to %d bytes, the checkpoint deleted, run again", keep), resultOf(t, dir), want)
	}
}

// TestReplayWithoutItsCheckpointReadsTheOutboxsFiles: a replay that starts
// without its checkpoint, on a state whose outbox holds four notices (a
// killed replay wrote the first two, the second cut short, after 300 mails
// of its earlier saves), writes the two over their own files and reads the
// headers of the folder's last four files alone, where it read every file
// of the folder, 302 here: a replay's --out holds every mail it ever
// wrote, and the outbox a few seconds' notices.
func TestReplayWithoutItsCheckpointReadsTheOutboxsFiles(t *testing.T) {
	addr := bridge.Addresses{Referee: "referee@example.test", PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test", PublicTag: "BUS:", OfficialTag: "OFF:"}
	notices := func(kind string, n int) []*contract.Outgoing {
		var out []*contract.Outgoing
		for i := range n {
			out = append(out, &contract.Outgoing{Notice: contract.Notice{ID: fmt.Sprintf("%s/%d@example.test", kind, i), Kind: "receipt",
				Channel: contract.ChanPrivate, To: []string{"alice@example.test"}, Subject: fmt.Sprintf("Re: claim %d", i), Body: "Done.\n",
				Time: time.Date(2026, 11, 2, 8, 0, i, 0, time.UTC)}})
		}
		return out
	}
	earlier, outbox := notices("earlier", 300), notices("receipt", 4)
	dir := t.TempDir()
	w, err := newEmlWriter(dir, addr)
	if err != nil {
		t.Fatal(err)
	}
	nop := func(string) {}
	if err := w.write(earlier, 1, nop); err != nil {
		t.Fatal(err)
	}
	if err := w.write(outbox[:2], 301, nop); err != nil {
		t.Fatal(err)
	}
	if err := w.sync(); err != nil {
		t.Fatal(err)
	}
	w.close()
	want := filesIn(t, dir)
	cut := filepath.Join(dir, "0302.eml")
	if err := os.Truncate(cut, 40); err != nil {
		t.Fatal(err)
	}

	var read []string
	defer func(open func(string) (*os.File, error)) { openHeader = open }(openHeader)
	openHeader = func(name string) (*os.File, error) {
		read = append(read, filepath.Base(name))
		return os.Open(name)
	}
	w, err = newEmlWriter(dir, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	rest, again, err := w.writeAgain(outbox, nop)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.sync(); err != nil {
		t.Fatal(err)
	}
	if again != 2 || len(rest) != 2 || rest[0] != outbox[2] || rest[1] != outbox[3] {
		t.Errorf("written again: %d, left %d; want the outbox's first two written again, its last two left", again, len(rest))
	}
	if got := filesIn(t, dir); !maps.Equal(got, want) {
		t.Errorf("the folder is not as the killed replay would have left it whole")
	}
	if want := []string{"0299.eml", "0300.eml", "0301.eml", "0302.eml"}; !slices.Equal(read, want) {
		t.Errorf("headers read: %d files (%v ...); want %v, the folder's last files, as many as the outbox has notices", len(read), read[:min(len(read), 6)], want)
	}
}
