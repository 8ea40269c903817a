package contract

// EncodeTop lets the tests encode a state through a struct other than State.
var EncodeTop = new(Encoder).encodeTop
