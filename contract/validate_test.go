package contract_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"referee/contract"
	"referee/contract/contracttest"
)

// startedToy is the encoding of a started state of the toy game.
func startedToy(t *testing.T) (*contract.Engine, []byte) {
	t.Helper()
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.NewState(bytes.Repeat([]byte{0xc4}, 32), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	b, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return e, b
}

// lineOf is the 1-based line of the first line of b holding text.
func lineOf(t *testing.T, b []byte, text string) int {
	t.Helper()
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q in\n%s", text, b)
	return 0
}

// TestDecodeRefusesBadSecret: a master secret that is not 32 bytes of hex
// is a load error naming its line, never a panic at the first draw.
func TestDecodeRefusesBadSecret(t *testing.T) {
	e, good := startedToy(t)
	if _, err := e.Decode(good); err != nil {
		t.Fatalf("a good state: %v", err)
	}
	line := lineOf(t, good, "secret: ")
	for name, secret := range map[string]string{
		"not hex":   strings.Repeat("zz", 32),
		"too short": strings.Repeat("ab", 16),
		"too long":  strings.Repeat("ab", 33),
	} {
		b := []byte(strings.Replace(string(good), "secret: "+strings.Repeat("c4", 32), "secret: "+secret, 1))
		_, err := e.Decode(b)
		var de *contract.DecodeError
		if !errors.As(err, &de) || len(de.Problems) != 1 {
			t.Fatalf("%s: %v, want one problem", name, err)
		}
		p := de.Problems[0]
		if p.Line != line || p.Key != "secret" || !strings.Contains(p.Msg, "32 bytes written as 64 hex digits") {
			t.Errorf("%s: problem %+v, want line %d, key secret", name, p, line)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error repeats the secret: %v", name, err)
		}
	}
}

// TestDecodeListsEveryProblem: every fault of a state is listed at once,
// each on its line with its key, in words a person reads (no Go type).
func TestDecodeListsEveryProblem(t *testing.T) {
	e, good := startedToy(t)
	bad := strings.Replace(string(good), "      START: \"5\"", "      START: \"five\"\n      EXTRA: \"1\"", 1)
	bad = strings.Replace(bad, "    state:\n      rounds: 0", "    state:\n      rounds: many\n      colour: red", 1)
	bad = strings.Replace(bad, "journal_seq: 1", "journal_seq: one", 1)
	if bad == string(good) {
		t.Fatalf("the test's edits did not apply to\n%s", good)
	}
	_, err := e.Decode([]byte(bad))
	var de *contract.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("Decode: %v", err)
	}
	got := err.Error()
	// The top-level type error stops the decoding before the sections: fix
	// it, and the rest are listed together.
	if want := `line 5: journal_seq: "one" is not a whole number`; got != want {
		t.Errorf("with a bad journal_seq: %q, want %q", got, want)
	}
	bad = strings.Replace(bad, "journal_seq: one", "journal_seq: 1", 1)
	_, err = e.Decode([]byte(bad))
	got = err.Error()
	b := []byte(bad)
	want := strings.Join([]string{
		lineText(lineOf(t, b, "EXTRA:"), `games.toy.params.EXTRA: no such parameter`),
		lineText(lineOf(t, b, "rounds: many"), `games.toy.state.rounds: "many" is not a whole number`),
		lineText(lineOf(t, b, "colour: red"), `games.toy.state.colour: no such key`),
		lineText(lineOf(t, b, "START:"), `games.toy.params.START: START must be a whole number, not "five"`),
	}, "\n")
	if got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	for _, goName := range []string{"int", "toyState", "contract."} {
		if strings.Contains(got, " "+goName) {
			t.Errorf("a Go type name %q in %q", goName, got)
		}
	}
}

func lineText(n int, s string) string { return "line " + strconv.Itoa(n) + ": " + s }

// TestDecodeNamesGamesNotRun: a state holding a game this build does not run,
// or lacking one it runs, is refused naming each.
func TestDecodeNamesGamesNotRun(t *testing.T) {
	_, good := startedToy(t)
	e, err := contract.NewEngine(contract.Config{Referee: contracttest.Referee}, &other{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Decode(good)
	var de *contract.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("a state of another build decoded: %v", err)
	}
	for _, want := range []string{"games.toy: no such game in this build", "games.other: missing from the state"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
}

// TestProblemWithoutALine: a fault the YAML reader places on no line (a
// byte that is not UTF-8, a control character) is listed without one, in
// the file `referee check` names.
func TestProblemWithoutALine(t *testing.T) {
	e, good := startedToy(t)
	for bad, want := range map[string]string{
		"\xff": "referee.yaml: invalid leading UTF-8 octet",
		"\x01": "referee.yaml: control characters are not allowed",
	} {
		_, err := e.Decode([]byte(strings.Replace(string(good), "rounds: 0", "rounds: 0 # "+bad, 1)))
		var de *contract.DecodeError
		if !errors.As(err, &de) {
			t.Fatalf("%q: %v, want a decoding problem", bad, err)
		}
		de.File = "referee.yaml" // as the store names it
		if got := err.Error(); got != want {
			t.Errorf("%q: %q, want %q", bad, got, want)
		}
	}
}

// TestGameSectionKeyUnknown: a key a game's section does not have (a
// misspelt "contestmaster") is refused at its line, like any other.
func TestGameSectionKeyUnknown(t *testing.T) {
	e, good := startedToy(t)
	bad := []byte(strings.Replace(string(good), "\n  toy:\n", "\n  toy:\n    contestmastr: cm@example.test\n", 1))
	_, err := e.Decode(bad)
	if want := lineText(lineOf(t, bad, "contestmastr:"), "games.toy.contestmastr: no such key"); err == nil || err.Error() != want {
		t.Errorf("a misspelt key in a game's section: %v, want %q", err, want)
	}
}
