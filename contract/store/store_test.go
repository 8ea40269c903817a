package store_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/store"
)

func engine(t *testing.T) *contract.Engine {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// version makes state number n: its journal_seq is n and a player list of a size
// that varies, so versions differ in length and a torn write would show.
func version(n int) *contract.State {
	s := &contract.State{Version: contract.Version, JournalSeq: int64(n), Games: map[string]*contract.GameState{}}
	for i := 0; i < n%37; i++ {
		s.Players = append(s.Players, &contract.Player{Name: fmt.Sprintf("p%d-%d", n, i), Addresses: []string{fmt.Sprintf("p%d@example.test", i)}})
	}
	return s
}

// TestSaveLoop is the child process of TestKillDuringSave: it saves versions
// 1, 2, 3, ... until it is killed.
func TestSaveLoop(t *testing.T) {
	path := os.Getenv("REFEREE_SAVE_LOOP")
	if path == "" {
		t.Skip("child process of TestKillDuringSave only")
	}
	for n := 1; ; n++ {
		if err := store.Save(path, version(n)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.WriteFile(path+".n", []byte(strconv.Itoa(n)), 0o600)
	}
}

// TestKillDuringSave kills a process with SIGKILL at random points while it saves
// the state in a loop, and shows the file is always a whole version, never torn.
func TestKillDuringSave(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "state.yaml")
	rng := rand.New(rand.NewPCG(1, 2))
	kills := 0
	for round := 0; round < 15; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveLoop$")
		cmd.Env = append(os.Environ(), "REFEREE_SAVE_LOOP="+path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the child has saved at least once more (bounded), then kill
		// it after a random extra delay.
		deadline := time.Now().Add(10 * time.Second)
		start, _ := os.ReadFile(path + ".n")
		for {
			now, _ := os.ReadFile(path + ".n")
			if len(now) > 0 && string(now) != string(start) {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the child saved nothing in 10 s: %s", stderr.String())
			}
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		kills++
		s, err := store.Load(e, path)
		if err != nil {
			t.Fatalf("after SIGKILL %d the state does not load: %v", kills, err)
		}
		n := int(s.JournalSeq)
		b, _ := contract.Encode(s)
		want, _ := contract.Encode(version(n))
		if !bytes.Equal(b, want) {
			t.Fatalf("after SIGKILL %d the state is not version %d as written", kills, n)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("state mode %v, want 0600", fi.Mode().Perm())
		}
	}
	// Leftover temporary files are allowed (a kill between create and rename);
	// they never replace the state.
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if !strings.HasPrefix(en.Name(), ".state.yaml.tmp-") && en.Name() != "state.yaml" && en.Name() != "state.yaml.n" {
			t.Errorf("unexpected file %s", en.Name())
		}
	}
}

func TestJournalCutBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	j, err := store.OpenJournal(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var es []contract.Entry
	for i := int64(1); i <= 5; i++ {
		es = append(es, contract.Entry{Seq: i, Outcome: "applied", Verb: "v"})
	}
	if err := j.Append(es); err != nil {
		t.Fatal(err)
	}
	j.Close()
	// A torn line after them, as a crash mid-write would leave.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":6,"outc`)
	f.Close()
	// The saved state includes only up to 3: lines 4 and 5 and the torn one go.
	j, err = store.OpenJournal(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append([]contract.Entry{{Seq: 4, Verb: "again"}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	got, err := store.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []string
	for _, e := range got {
		seqs = append(seqs, fmt.Sprintf("%d:%s", e.Seq, e.Verb))
	}
	if strings.Join(seqs, " ") != "1:v 2:v 3:v 4:again" {
		t.Errorf("journal after cut-back: %v", seqs)
	}
}

func TestLoadRefusesBadState(t *testing.T) {
	e := engine(t)
	dir := t.TempDir()
	cases := map[string]string{
		"unknown key":    "version: 1\njournal_seq: 0\nplayers: []\ngames: {}\nbogus_key: 3\n",
		"future version": "version: 99\njournal_seq: 0\n",
		"no version":     "players: []\n",
		"not yaml":       "version: [1\n",
	}
	want := map[string]string{"unknown key": "bogus_key", "future version": "newer version", "no version": "version: missing", "not yaml": "yaml"}
	for name, body := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml")
		os.WriteFile(p, []byte(body), 0o600)
		_, err := store.Load(e, p)
		if err == nil || !strings.Contains(err.Error(), want[name]) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want one naming %q and the file", name, err, want[name])
		}
		after, _ := os.ReadFile(p)
		if string(after) != body {
			t.Errorf("%s: the refused file was changed", name)
		}
	}
}
