package bridge_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/internal/bridge"
	"referee/mailin"
	"referee/mailout"
)

var update = flag.Bool("update", false, "rewrite golden files")

var addrs = bridge.Addresses{Referee: "referee@example.test", PublicList: "agora-business@example.test", OfficialList: "agora-official@example.test"}

// TestNoticeBytes fixes the bytes of every kind of notice as it leaves for SMTP.
func TestNoticeBytes(t *testing.T) {
	at := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	notices := map[string]*contract.Notice{
		"receipt": {ID: "receipt/abc@example.test", Kind: "receipt", Channel: contract.ChanPrivate, To: []string{"alice@example.test"},
			Subject: "Re: BUS: joining", Body: "> I join the Life contest.\n  Done: you are a contestant of Life.\n",
			InReplyTo: "abc@example.test", References: []string{"root@example.test", "abc@example.test"}, Time: at},
		"report": {ID: "life/report/2026-W50", Kind: "report", Game: "life", Channel: contract.ChanOfficial,
			Subject: "[Life] Weekly Report", Body: "Contestants\n-----------\n" + strings.Repeat(".", 80) + "\n", Time: at},
		"notice": {ID: "life/award/2026-12", Kind: "notice", Game: "life", Channel: contract.ChanPublic,
			Subject: "Life Contest: Notice of Award", Body: "Life awards 20 Points to Goethe.\n", Time: at},
		"randomness": {ID: "randomness/2026-W50", Kind: "randomness", Channel: contract.ChanOfficial,
			Subject: "Randomness: seed commitment for 2026-W51", Body: "Commitments\n", Time: at},
		"ruling": {ID: "rumble/ruling/1", Kind: "ruling", Game: "rumble", Channel: contract.ChanPrivate, To: []string{"cm@example.test"},
			Subject: "[Rumble] Ruling requested (#1)", Body: "Please rule — «Flight» ?\n", Time: at},
		"injection": {ID: "receipt/x", Kind: "receipt", Channel: contract.ChanPrivate, To: []string{"mallory@example.test"},
			Subject: "Re: hi\r\nBcc: victim@example.test", Body: "Not done.\n", InReplyTo: "x@example.test", Time: at},
	}
	for name, n := range notices {
		raw, err := mailout.Compose(bridge.Mail(n, addrs))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		path := filepath.Join("testdata", name+".eml")
		if *update {
			if err := os.WriteFile(path, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if string(want) != string(raw) {
			t.Errorf("%s: the bytes changed (run with -update and review the diff):\n%s", name, raw)
		}
		// The referee recognises its own mail when it comes back through a list.
		m, err := mailin.Parse(raw, at, &mailin.Config{Referee: addrs.Referee, PublicLists: []string{addrs.PublicList}, OfficialList: addrs.OfficialList})
		if err != nil {
			t.Fatalf("%s: read back: %v", name, err)
		}
		if m.Class != mailin.Ignorable || m.IgnoreReason != mailin.ReasonOwnMail {
			t.Errorf("%s: own mail read back as %v (%q)", name, m.Class, m.IgnoreReason)
		}
		if strings.Contains(string(raw), "\r\nBcc:") {
			t.Errorf("%s: a header was injected", name)
		}
	}
}

func TestSubjectsAndAddressing(t *testing.T) {
	cases := []struct {
		ch          contract.Channel
		subject, to string
	}{
		{contract.ChanOfficial, "OFF: [Life] Weekly Report", "agora-official@example.test"},
		{contract.ChanPublic, "BUS: [Life] Weekly Report", "agora-business@example.test"},
		{contract.ChanPrivate, "[Life] Weekly Report", "cm@example.test"},
	}
	for _, c := range cases {
		m := bridge.Mail(&contract.Notice{ID: "x", Channel: c.ch, To: []string{"cm@example.test"}, Subject: "[Life] Weekly Report"}, addrs)
		if m.Subject != c.subject || m.To[0] != c.to {
			t.Errorf("%s: subject %q to %v", c.ch, m.Subject, m.To)
		}
	}
	a := addrs
	a.OfficialTag = "[OFF]"
	if m := bridge.Mail(&contract.Notice{ID: "x", Channel: contract.ChanOfficial, Subject: "Report"}, a); m.Subject != "[OFF] Report" {
		t.Errorf("configured tag: %q", m.Subject)
	}
}
