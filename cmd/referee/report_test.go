package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/contract/store"
	"referee/internal/bridge"
)

// TestReportAsMailed: `referee report GAME` prints the report as the
// daemon mails it (contract's MailedReport, through the mail layer the
// daemon uses): the subject with the list's tag, and the body with its
// citation block, laid out as in the weekly report the replay mailed; the
// state is not changed.
func TestReportAsMailed(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	stateFile := filepath.Join(dir, "data", "state.yaml")
	before, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCmd(t, dir, "report", "life")
	if code != 0 {
		t.Fatalf("report life: exit %d: %s", code, errs)
	}
	if after, _ := os.ReadFile(stateFile); string(after) != string(before) {
		t.Error("referee report changed the state file")
	}

	cfg, err := loadConfig(filepath.Join(dir, "referee.yaml"), false)
	if err != nil {
		t.Fatal(err)
	}
	cfg.State = stateFile
	e, err := newEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Load(e, cfg.State)
	if err != nil {
		t.Fatal(err)
	}
	n, err := e.MailedReport(s, "life", s.Clock)
	if err != nil {
		t.Fatal(err)
	}
	m := bridge.Mail(n, addresses(cfg))
	if want := "Subject: " + m.Subject + "\n\n" + m.Body; out != want {
		t.Errorf("referee report life printed:\n%s\n--- the report as mailed:\n%s", out, want)
	}

	// The weekly report the replay mailed has the same blocks.
	var mailed string
	emls, _ := filepath.Glob(filepath.Join(dir, "out", "*.eml"))
	for _, f := range emls {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), "Subject: OFF: [Life] Weekly Report") {
			mailed = strings.ReplaceAll(string(b), "\r\n", "\n")
		}
	}
	if mailed == "" {
		t.Fatalf("the replay mailed no Life report (%d mails)", len(emls))
	}
	for _, part := range []string{"Subject: OFF: [Life] Weekly Report", "Citation\n--------\n", "Cite as: life/report/", "Covers: journal lines ", "State hash (HMAC-SHA256", "self-ratifies on ", "The Life Contestmaster (referee)"} {
		if !strings.Contains(mailed, part) {
			t.Errorf("the mailed report has no %q", part)
		}
		if !strings.Contains(out, part) {
			t.Errorf("referee report life has no %q, which the mailed report has:\n%s", part, out)
		}
	}
}

// TestReportGameAsWritten: referee report takes a game as players write it,
// "Life" or "LIFE", as well as its id, and prints the same report; a name
// that is no game is bad usage naming the games.
func TestReportGameAsWritten(t *testing.T) {
	dir := t.TempDir()
	replayInto(t, dir)
	_, want, _ := runCmd(t, dir, "report", "life")
	for _, g := range []string{"Life", "LIFE"} {
		if code, out, errs := runCmd(t, dir, "report", g); code != 0 || out != want {
			t.Errorf("report %s: exit %d, %s; want the report of life", g, code, errs)
		}
	}
	if code, _, errs := runCmd(t, dir, "report", "chess"); code != 2 || !strings.Contains(errs, `no game "chess" (the games are life, rumble, steemfield, wackyworld)`) {
		t.Errorf("report chess: exit %d, %q", code, errs)
	}
}
