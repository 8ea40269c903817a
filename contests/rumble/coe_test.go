package rumble

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// coeMail are Claims of Error and previews made while the first game's bids
// are sealed: a preview of a new bid, a private claim that quotes a sealed
// bid, a public claim, and the contestmaster's denial of the private one.
const coeMail = `From bob@example.test Wed Dec  2 09:35:00 2026
From: Bob <bob@example.test>
To: referee@example.test
Date: Wed, 02 Dec 2026 09:35:00 +0000
Message-ID: <coe1.bob@example.test>
Subject: preview
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

I bid 44 on Flight.

From carol@example.test Wed Dec  2 09:36:00 2026
From: Carol <carol@example.test>
To: referee@example.test
Date: Wed, 02 Dec 2026 09:36:00 +0000
Message-ID: <coe2.carol@example.test>
Subject: CoE
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

I CoE on rumble/1/commit/ru6.alice@example.test: my bid Earthquake: 12
is not among the commitments.

From alice@example.test Wed Dec  2 09:37:00 2026
From: Alice <alice@example.test>
To: agora-business@example.test
List-Id: Agora Business <agora-business.example.test>
Date: Wed, 02 Dec 2026 09:37:00 +0000
Message-ID: <coe3.alice@example.test>
Subject: BUS: CoE
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

CoE on rumble/1/commit/ru7.bob@example.test: the hash looks short.

From cm@example.test Wed Dec  2 09:38:00 2026
From: Mars <cm@example.test>
To: referee@example.test
Date: Wed, 02 Dec 2026 09:38:00 +0000
Message-ID: <coe4.cm@example.test>
Subject: Re: CoE
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

I deny CoE #1: the commitments are of the submissions as sent.

`

// TestSecrecyWithClaimsAndPreviews: the scenario with Claims of Error and
// previews made while bids are sealed keeps every sealed value off the lists
// until its reveal (DESIGN invariant 4): a private claim's words are not
// quoted in the reports or the denial, and a preview tells its sender
// nothing of anyone else's submission.
func TestSecrecyWithClaimsAndPreviews(t *testing.T) {
	raw, at := scenarioAt(t, beforeDaveBids)
	path := mboxFile(t, raw[:at], []byte(coeMail), raw[at:])
	h := contracttest.New(t, "2026-12-01T09:00:00Z", New())
	h.Mbox(path)
	h.Advance("2026-12-22T00:00:00Z")
	checkSecrecy(t, h)

	var preview, claimed, denied bool
	for _, o := range h.Sent {
		switch {
		case o.ID == "preview/coe1.bob@example.test":
			preview = true
			if !strings.Contains(o.Body, "nothing was performed") || o.To[0] != "bob@example.test" {
				t.Errorf("the preview reply:\n%s", o.Body)
			}
			for _, other := range []string{"Iron Skin", "Fire Breath", "Earthquake", "Lucky Star"} {
				if strings.Contains(o.Body, other) {
					t.Errorf("Bob's preview names %s:\n%s", other, o.Body)
				}
			}
		case o.ID == "rumble/coe/1/denied":
			denied = true
			if strings.Contains(o.Body, "Earthquake") {
				t.Errorf("the denial quotes a private claim:\n%s", o.Body)
			}
		case o.Channel != contract.ChanPrivate && strings.Contains(o.Body, "#2 by Alice on rumble/1/commit/ru7.bob@example.test"):
			claimed = true
		}
	}
	if !preview || !claimed || !denied {
		t.Errorf("preview answered %v, public claim listed %v, denial published %v", preview, claimed, denied)
	}
	for _, en := range h.Entries {
		if en.MsgID == "coe1.bob@example.test" {
			t.Errorf("the preview left a journal line: %+v", en)
		}
	}
}

// beforeDaveBids is the scenario's mbox line of Dave's bids, the last of
// the bids while they are sealed.
const beforeDaveBids = "From dave@example.test Wed Dec  2 09:40:00 2026"

// scenarioAt reads testdata/scenario.mbox and the offset of its message
// whose mbox "From " line is line; the test fails when the scenario no
// longer holds it.
func scenarioAt(t *testing.T, line string) ([]byte, int) {
	t.Helper()
	raw, err := os.ReadFile("testdata/scenario.mbox")
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(raw), line)
	if at < 0 {
		t.Fatalf("the scenario changed: no message %q", line)
	}
	return raw, at
}

// mboxFile writes parts, one after another, as an mbox file in a temporary
// directory and returns its path.
func mboxFile(t *testing.T, parts ...[]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.mbox")
	if err := os.WriteFile(path, slices.Concat(parts...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
