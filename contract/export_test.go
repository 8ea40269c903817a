package contract

// EncodeTop lets the tests encode a state through a struct other than State.
var EncodeTop = new(Encoder).encodeTop

// ExtractCorrections is Engine.extractCorrections, for its fuzz test.
func ExtractCorrections(e *Engine, text string) ([]*Action, string) {
	return e.extractCorrections(text)
}

// SetMaxEvents bounds the events of one Advance at n until the test ends.
func SetMaxEvents(t interface{ Cleanup(func()) }, n int) {
	old := maxEvents
	maxEvents = n
	t.Cleanup(func() { maxEvents = old })
}
