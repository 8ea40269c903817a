package contract_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"referee/contract"
)

// TestEncodeFieldAnywhere: a field added to State at any place, before,
// between or after the parts Encode writes itself (players, ledger, points,
// seen, receipts, the citable records, games), is saved like any other, and the rest of the file is unchanged.
// The state is rebuilt, for each place, as a struct with one field more.
func TestEncodeFieldAnywhere(t *testing.T) {
	e, err := contract.NewEngine(contract.Config{Referee: "referee@example.test"}, &toy{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s, _, err := e.NewState(nil, now)
	if err != nil {
		t.Fatal(err)
	}
	s.Seen.IDs = map[string]time.Time{"a@example.test": now, "b@example.test": now.Add(time.Hour)}
	s.Receipts = map[string][]time.Time{"alice@example.test": {now}}
	s.Cited = []*contract.Cited{{ID: "toy/report/1", Game: "toy", Subject: "Toy report", Published: now, Status: "pending"},
		{ID: "toy/notice/2", Game: "toy", Subject: "a: b", Published: now, Status: "ratified", Ratified: now}}
	want, err := contract.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	top := *s
	top.Players, top.Ledger, top.Points, top.Seen, top.Receipts, top.Games = nil, contract.Ledger{}, nil, contract.Seen{}, nil, nil
	src := reflect.ValueOf(top)
	var fields []reflect.StructField
	for i := range src.NumField() {
		if f := src.Type().Field(i); f.IsExported() {
			fields = append(fields, f)
		}
	}
	extra := reflect.StructField{Name: "Added", Type: reflect.TypeFor[string](), Tag: `yaml:"added"`}
	for at := 0; at <= len(fields); at++ {
		with := append(append(append([]reflect.StructField{}, fields[:at]...), extra), fields[at:]...)
		v := reflect.New(reflect.StructOf(with)).Elem()
		for _, f := range fields {
			v.FieldByName(f.Name).Set(src.FieldByName(f.Name))
		}
		v.FieldByName("Added").SetString("here")
		got, err := contract.EncodeTop(v.Addr().Interface(), s)
		if err != nil {
			t.Fatalf("a field before %s: %v", fieldName(fields, at), err)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(got, &doc); err != nil || doc["added"] != "here" {
			t.Errorf("a field before %s: the file does not hold it (%v):\n%s", fieldName(fields, at), err, got)
		}
		if rest := bytes.Replace(got, []byte("added: here\n"), nil, 1); !bytes.Equal(rest, want) {
			t.Errorf("a field before %s: the rest of the file changed:\n%s", fieldName(fields, at), got)
		}
	}
}

func fieldName(fields []reflect.StructField, i int) string {
	if i == len(fields) {
		return "the end"
	}
	return fields[i].Name
}
