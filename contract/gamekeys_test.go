package contract_test

import (
	"fmt"
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
)

// vault is a game that uses what the referee gives games for keys and
// secrets (Ctx.Key, Ctx.Secret) and saves its own data for undo
// (DataSaver, SaveValue), as Life and Rumble do.
type vault struct{ toy }

type vaultState struct {
	Note *vaultNote `yaml:"note"`
}

type vaultNote struct {
	Text string `yaml:"text"`
}

// SaveTop saves the fields by value; the note, reached through a pointer,
// is saved with SaveValue before it is changed.
func (st *vaultState) SaveTop() func() {
	cp := *st
	return func() { *st = cp }
}

func (g *vault) Spec() contract.Spec {
	return contract.Spec{ID: "vault", Title: "Vault", Aliases: []string{"vault"}, Guide: "The vault.\n"}
}
func (g *vault) NewState() any                               { return &vaultState{Note: &vaultNote{Text: "blank"}} }
func (g *vault) Next(c *contract.Ctx) (contract.Event, bool) { return contract.Event{}, false }
func (g *vault) Report(c *contract.Ctx) (*contract.Notice, error) {
	return nil, nil
}
func (g *vault) Verbs() []*contract.Verb {
	return []*contract.Verb{
		{Name: "deal", Pattern: `deal the cards`, Syntax: "I deal the cards in Vault", Rule: "V1",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Did("the deal's key is %x", c.Key("deal"))
				return nil
			}},
		{Name: "commit", Pattern: `commit to a nonce`, Syntax: "I commit to a nonce in Vault", Rule: "V2",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Did("the nonce is %x", c.Secret("nonce"))
				return nil
			}},
		{Name: "scribble", Pattern: `scribble (?P<w>\w+)`, Syntax: "I scribble <word> in Vault", Rule: "V3",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				note := c.Data().(*vaultState).Note
				contract.SaveValue(c, note)
				note.Text = a.Arg("w")
				if note.Text == "oops" {
					return contract.Reject("V3", "oops is no word for the vault")
				}
				c.Did("the note reads %s", note.Text)
				return nil
			}},
		{Name: "peek", Pattern: `peek at the note`, Syntax: "I peek at the note in Vault", Rule: "V4",
			Do: func(c *contract.Ctx, a *contract.Action) error {
				c.Did("the note reads %s", c.Data().(*vaultState).Note.Text)
				return nil
			}},
	}
}

// TestGameKeysAndSecrets: a game's key for the week is the one a player
// recomputes from the week's seed once it is revealed, and the journal
// records its label as a draw with no outcomes; a game's secret is derived
// from the master secret under the game's name.
func TestGameKeysAndSecrets(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &vault{})
	n := len(h.Entries)
	key := contract.KeyFor(contract.SeedFor(contracttest.Secret[:], "2026-W49"), "vault/2026-W49/deal")
	if r := h.Public("2026-12-01T10:05:00Z", alice, "I deal the cards in Vault."); r == nil || !strings.Contains(flat(r.Body), fmt.Sprintf("Done: the deal's key is %x", key)) {
		t.Errorf("the receipt does not give the key recomputed from the week's seed (%x):\n%v", key, r)
	}
	var drawn []contract.Draw
	for _, en := range h.Entries[n:] {
		d, _ := en.Detail["draws"].([]contract.Draw)
		drawn = append(drawn, d...)
	}
	if len(drawn) != 1 || drawn[0] != (contract.Draw{Label: "vault/2026-W49/deal"}) {
		t.Errorf("the journal's draws: %+v, want the key's label with N 0", drawn)
	}
	nonce := contract.KeyFor(contracttest.Secret[:], "secret/vault/nonce")
	if r := h.Public("2026-12-01T10:06:00Z", alice, "I commit to a nonce in Vault."); r == nil || !strings.Contains(flat(r.Body), fmt.Sprintf("Done: the nonce is %x", nonce)) {
		t.Errorf("the receipt does not give the nonce of the master secret (%x):\n%v", nonce, r)
	}
}

// TestSavedValueUndone: a change a game makes through a pointer of its
// data, saved first (SaveValue), is undone with the action that is
// refused; the state keeps what it had.
func TestSavedValueUndone(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &vault{})
	for _, c := range []struct{ at, text, want string }{
		{"2026-12-01T10:05:00Z", "I scribble hello in Vault.", "Done: the note reads hello"},
		{"2026-12-01T11:05:00Z", "I scribble oops in Vault.", "oops is no word for the vault"},
		{"2026-12-01T12:05:00Z", "I peek at the note in Vault.", "Done: the note reads hello"},
	} {
		if r := h.Public(c.at, alice, c.text); r == nil || !strings.Contains(flat(r.Body), c.want) {
			t.Errorf("%s: the receipt lacks %q:\n%v", c.text, c.want, r)
		}
	}
	b, err := contract.Encode(h.S)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\n    state:\n      note:\n        text: hello\n") {
		t.Errorf("the saved state's note is not hello:\n%s", b)
	}
}
