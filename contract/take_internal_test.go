package contract

import (
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
