package contract_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"referee/contract"
)

// unranged is the toy with an int parameter that declares no range.
type unranged struct{ toy }

func (g *unranged) Spec() contract.Spec {
	s := g.toy.Spec()
	s.Params = append(s.Params, contract.Param{Name: "BONUS", Type: "int", Default: "0", Rule: "T1"})
	return s
}

// TestDecodeChecksParameterValues: a parameter edited into a state file is
// checked as an amendment's would be (G9): an int within its declared range,
// ends included, is kept; one past either end is refused naming the range
// and the value, at its line; an int declaring no range takes any number;
// the self-ratification period must be a duration above zero.
func TestDecodeChecksParameterValues(t *testing.T) {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &unranged{})
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := e.NewState(bytes.Repeat([]byte{0xc4}, 32), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	good, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line, refusal string // refusal "": the value is kept
	}{
		{`START: "0"`, ""},
		{`START: "100"`, ""},
		{`START: "-1"`, "START must be between 0 and 100, not -1"},
		{`START: "101"`, "START must be between 0 and 100, not 101"},
		{`BONUS: "-7"`, ""},
		{`BONUS: "1000000"`, ""},
		{`ratification: 1s`, ""},
		{`ratification: 0s`, `ratification must be a duration such as 72h, not "0s"`},
		{`ratification: -1h`, `ratification must be a duration such as 72h, not "-1h"`},
	} {
		key, _, _ := strings.Cut(c.line, ":")
		b := bytes.Clone(good)
		i := bytes.Index(b, []byte("      "+key+": "))
		if i < 0 {
			// The ratification period is not in a new state: add it.
			i = bytes.Index(b, []byte("      START: "))
			b = append(b[:i:i], append([]byte("      "+c.line+"\n"), b[i:]...)...)
		} else {
			j := i + bytes.IndexByte(b[i:], '\n')
			b = append(b[:i:i], append([]byte("      "+c.line), b[j:]...)...)
		}
		got, err := e.Decode(b)
		if c.refusal == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.line, err)
				continue
			}
			name, value, _ := strings.Cut(c.line, ": ")
			if v := got.Games["toy"].Params[name]; v != strings.Trim(value, `"`) {
				t.Errorf("%s: read as %q", c.line, v)
			}
			continue
		}
		var de *contract.DecodeError
		if !errors.As(err, &de) || len(de.Problems) != 1 {
			t.Errorf("%s: %v, want one problem", c.line, err)
			continue
		}
		want := lineText(lineOf(t, b, c.line), "games.toy.params."+key+": "+c.refusal)
		if err.Error() != want {
			t.Errorf("%s: %q, want %q", c.line, err, want)
		}
	}
}
