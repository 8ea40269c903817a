package contract

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestSamePlayerEveryField: samePlayer, which decides whether a player's
// kept text may stand for it in a snapshot, sees a change to every field
// of Player, so a field added to Player and not compared fails here.
func TestSamePlayerEveryField(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	base := &Player{Name: "Alice", Nicknames: []string{"Al"}, Addresses: []string{"alice@example.test"},
		Joined: map[string]time.Time{"life": at}, Left: map[string]time.Time{"life": at}, Member: []string{"life"}}
	typ := reflect.TypeFor[Player]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		p := clonePlayer(base)
		if !samePlayer(p, base) {
			t.Fatalf("a copy differs from the player")
		}
		v := reflect.ValueOf(p).Elem().Field(i)
		switch f.Type.Kind() {
		case reflect.String:
			v.SetString(v.String() + " changed")
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.ValueOf("changed")))
		case reflect.Map:
			v.SetMapIndex(reflect.ValueOf("changed"), reflect.ValueOf(at))
		default:
			t.Fatalf("Player.%s: a %s, which this test does not change: teach it, and samePlayer", f.Name, f.Type)
		}
		if samePlayer(p, base) {
			t.Errorf("Player.%s changed, and samePlayer does not see it: the snapshot would write the old text", f.Name)
		}
		if reflect.DeepEqual(clonePlayer(p), base) {
			t.Errorf("Player.%s: clonePlayer does not copy it", f.Name)
		}
	}
	// In place: a copy shares nothing with the player.
	p := clonePlayer(base)
	p.Nicknames[0], p.Addresses[0], p.Member[0] = "x", "x", "x"
	p.Joined["life"], p.Left["life"] = at.Add(time.Hour), at.Add(time.Hour)
	if d := diff("player", reflect.ValueOf(base).Elem(), reflect.ValueOf(&Player{Name: "Alice", Nicknames: []string{"Al"}, Addresses: []string{"alice@example.test"},
		Joined: map[string]time.Time{"life": at}, Left: map[string]time.Time{"life": at}, Member: []string{"life"}}).Elem()); d != "" {
		t.Errorf("changing a copy in place changed the player: %s", d)
	}
	// Written alike needs the same location, not only the same instant.
	p = clonePlayer(base)
	p.Joined["life"] = at.In(time.FixedZone("CET", 3600))
	if samePlayer(p, base) {
		t.Errorf("a join time in another zone is written differently, and samePlayer does not see it")
	}
}

// TestKeptTextIsTheEncoders: the players and a section's recent events,
// written item by item from kept text, are what the YAML encoder writes
// for the whole list, byte for byte, whatever the text (quotes, colons,
// line breaks, non-ASCII, long lines, other time zones).
func TestKeptTextIsTheEncoders(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	cet := time.FixedZone("CET", 3600)
	texts := []string{"Alice", "Bob: the second", `"Quoted" 'single'`, "ünïcödé ✓", "- dash", "null", "12", "yes",
		strings.Repeat("long text ", 30), "#hash", "tab\there", "two\nlines", "trailing newline\n", " leading space", "", "a: b\n  c: d", "\u2028sep", "bom\ufeff"}
	var players []*Player
	var recent []Happening
	for i, x := range texts {
		p := &Player{Name: x, Addresses: []string{fmt.Sprintf("p%d@example.test", i)}, Member: []string{"life"},
			Joined: map[string]time.Time{"life": at.Add(time.Duration(i) * time.Minute)}}
		if i%2 == 0 {
			p.Nicknames = []string{x + x, "n"}
			p.Left = map[string]time.Time{"rumble": at.In(cet), x: at}
		}
		if i%5 == 0 {
			p.Addresses, p.Member = []string{}, nil
		}
		players = append(players, p)
		recent = append(recent, Happening{Time: at.Add(time.Duration(i) * time.Second).In([]*time.Location{time.UTC, cet}[i%2]), Who: x, What: texts[len(texts)-1-i]})
	}
	players = append(players, nil)
	want, err := encodeYAML(struct {
		P []*Player `yaml:"players"`
	}{players})
	if err != nil {
		t.Fatal(err)
	}
	var c playersCache
	for round := range 2 { // the first encodes every item, the second writes the kept text
		got, err := c.render(nil, c.take(players, true), true)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("round %d: players written as\n%s\nthe YAML encoder writes\n%s", round, got, want)
		}
	}
	g := &GameState{Contestmaster: "cm@example.test", Params: map[string]string{"recent": "x", "PPP": "5"}, LastReport: at, Recent: recent,
		Data: map[string]any{"recent": []string{"x"}, "cells": 3}}
	want, err = encodeYAML(g)
	if err != nil {
		t.Fatal(err)
	}
	var kept map[Happening][]byte
	for round := range 2 {
		got, err := encodeSection(g, kept)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.text) != string(want) {
			t.Fatalf("round %d: section written as\n%s\nthe YAML encoder writes\n%s", round, got.text, want)
		}
		kept = got.recent
	}
	if len(kept) != len(recent) {
		t.Errorf("%d recent events' text kept, want %d", len(kept), len(recent))
	}
}

// TestSameCitedEveryField: sameCited, which decides whether a citable
// record's kept text may stand for it in a snapshot, sees a change to every
// field of Cited, and cloneCited copies every field, so a field added to
// Cited and not compared or not copied fails here.
func TestSameCitedEveryField(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	base := &Cited{ID: "life/report/2026-W49", Game: "life", Kind: "report", Subject: "Life report", From: 3, Seq: 9,
		LastMsgID: "m@example.test", Hash: "ab", Published: at, Ratifies: at.Add(time.Hour), Status: "pending",
		Ratified: at.Add(2 * time.Hour), Announced: true, Excluded: []string{"vials"}}
	typ := reflect.TypeFor[Cited]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		x := cloneCited(base)
		if !sameCited(x, base) {
			t.Fatalf("a copy differs from the record")
		}
		v := reflect.ValueOf(x).Elem().Field(i)
		switch {
		case f.Type.Kind() == reflect.String:
			v.SetString(v.String() + " changed")
		case f.Type.Kind() == reflect.Int64:
			v.SetInt(v.Int() + 1)
		case f.Type.Kind() == reflect.Bool:
			v.SetBool(!v.Bool())
		case f.Type == reflect.TypeFor[time.Time]():
			v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Second)))
		case f.Type.Kind() == reflect.Slice:
			v.Set(reflect.Append(v, reflect.ValueOf("changed")))
		default:
			t.Fatalf("Cited.%s: a %s, which this test does not change: teach it, and sameCited", f.Name, f.Type)
		}
		if sameCited(x, base) {
			t.Errorf("Cited.%s changed, and sameCited does not see it: the snapshot would write the old text", f.Name)
		}
		if !reflect.DeepEqual(cloneCited(x), x) {
			t.Errorf("Cited.%s: cloneCited does not copy it", f.Name)
		}
		if f.Type == reflect.TypeFor[time.Time]() {
			x = cloneCited(base)
			v = reflect.ValueOf(x).Elem().Field(i)
			v.Set(reflect.ValueOf(v.Interface().(time.Time).In(time.FixedZone("CET", 3600))))
			if sameCited(x, base) {
				t.Errorf("Cited.%s in another zone (written with another offset), and sameCited does not see it", f.Name)
			}
		}
	}
	x := cloneCited(base)
	x.Excluded[0] = "changed in place"
	if base.Excluded[0] != "vials" {
		t.Errorf("changing a copy's Excluded in place changed the record")
	}
}

// TestCitedTextIsTheEncoders: the records of "cited:" written from kept
// text, in chunks of itemChunk and across rounds in which records leave the
// front of the list, change in place and are added, are what the YAML
// encoder writes for the whole list, texts it must quote included.
func TestCitedTextIsTheEncoders(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	cet := time.FixedZone("CET", 3600)
	texts := []string{"Life report", "Rumble: game 2", `"Quoted" 'single'`, "ünïcödé ✓", "- dash", "null", "12", "yes",
		strings.Repeat("long text ", 30), "#hash", "tab\there", "two\nlines", "trailing newline\n", " leading space", "",
		"a: b\n  c: d", "\u2028sep", "bom\ufeff", "\nbegins with a break", "\tbegins with a tab", "  - looks like an item"}
	var xs []*Cited
	for i := range 150 {
		x := &Cited{ID: fmt.Sprintf("g/commit/%d", i), Game: "rumble", Kind: "notice", Subject: texts[i%len(texts)],
			From: int64(i), Seq: int64(i + 1), Hash: fmt.Sprintf("%064x", i), Published: at.Add(time.Duration(i) * time.Minute),
			Ratifies: at.Add(7 * 24 * time.Hour), Status: "pending"}
		if i%3 == 0 {
			x.Published = x.Published.In(cet)
			x.Excluded = []string{texts[(i+1)%len(texts)], "vials"}
		}
		if i%7 == 0 {
			x.LastMsgID = texts[(i+2)%len(texts)]
		}
		xs = append(xs, x)
	}
	rounds := []func(){
		func() {},
		func() { xs[5].Status, xs[5].Ratified = "ratified", at.Add(time.Hour) },
		func() { xs = xs[10:] },
		func() { xs = append(xs[:3], xs[4:]...) },
		func() {
			xs = append(xs, &Cited{ID: "new", Subject: "\nnew", Published: at, Status: "claimed", Excluded: []string{}})
		},
		func() { xs[0].Excluded = append(xs[0].Excluded, "more") },
		func() { xs[len(xs)-1], xs[0] = xs[0], xs[len(xs)-1] },
	}
	var c citedCache
	for round, change := range rounds {
		change()
		want, err := encodeYAML(struct {
			C []*Cited `yaml:"cited"`
		}{xs})
		if err != nil {
			t.Fatal(err)
		}
		for _, clone := range []bool{false, true} {
			taken, ok := c.take(xs, clone)
			if !ok {
				t.Fatal("a list without a nil record not taken")
			}
			pieces, err := c.renderPieces(taken, clone)
			if err != nil {
				t.Fatal(err)
			}
			got := bytes.Join(pieces, nil)
			if string(got) != string(want) {
				t.Fatalf("round %d (clone %v): records written as\n%s\nthe YAML encoder writes\n%s", round, clone, got, want)
			}
		}
	}
	if _, ok := c.take(append(xs, nil), true); ok {
		t.Error("a list holding a nil record was taken: it must be encoded whole")
	}
}
