package contract_test

import (
	"strings"
	"testing"

	"referee/contract"
	"referee/contract/contracttest"
	"referee/contract/text"
)

// signer is the toy game with a verb whose public notice is its signature
// alone.
type signer struct{ toy }

func (g *signer) Verbs() []*contract.Verb {
	return append(g.toy.Verbs(), &contract.Verb{Name: "sign", Pattern: `sign the register`, Syntax: "I sign the register in Toy", Rule: "T1",
		Do: func(c *contract.Ctx, a *contract.Action) error {
			c.Notify(&contract.Notice{ID: "toy/signed", Channel: contract.ChanOfficial, Subject: "[Toy] Signed", Body: text.Signature("The Toy register")})
			c.Did("signed")
			return nil
		}})
}

// TestCitationBeforeABareSignature: a public notice that is its signature
// alone gets its Citation block before the signature, a blank line between
// them, as a notice with text does.
func TestCitationBeforeABareSignature(t *testing.T) {
	h := contracttest.New(t, "2026-12-01T10:00:00Z", &signer{})
	h.Public("2026-12-01T10:05:00Z", alice, "I join the Toy game.")
	body := aliceNotice(t, h, "I sign the register in Toy.", "toy/signed")
	if !strings.HasPrefix(body, "Citation\n--------\nCite as: toy/signed\n") || !strings.HasSuffix(body, "before then.\n\n-- \nThe Toy register\n") {
		t.Errorf("the notice as sent, its Citation first and its signature last:\n%s", body)
	}
}
