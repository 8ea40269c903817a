package contract_test

import (
	"testing"
)

// indentedTexts begin with a space and hold a line break: the YAML encoder
// writes each as a block scalar with an indentation indicator, which it
// misplaces in an item of a list when it indents by 4 (decodeStrict).
var indentedTexts = []string{
	" a\nb",
	"  a\nb",
	"  a\n  b",
	"    a\n    b",
	"      deep\n      lines\n",
	" \n",
	"  \n  b",
	" a\n\n\n",
	"   quoted from a mail:\n   > - item\n   > # heading\n",
	" \u2028 a\nb",
}

// TestTextIndentedRoundTrip: a state whose every text (in every list,
// map and game's data) begins with a space and holds a line break is
// saved and loaded back identical, its state hash unchanged, by Encode and
// by an Encoder's kept text alike.
func TestTextIndentedRoundTrip(t *testing.T) {
	for _, text := range indentedTexts {
		checkTextRoundTrip(t, textState(t, text))
	}
}
