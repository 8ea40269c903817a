// Package contract is the interpreter every game plugs into. Its input is a parsed
// message (Message) or the passage of time; its output is a changed State, journal
// entries and notices waiting in the outbox. It owns the players, the asset and points
// ledgers, dependent actions (ruling G7), parameters, the Agoran calendar (G1),
// committed randomness (G5), the contestmasters (G8) and the schema of the state.
//
// It is pure: it does no I/O, never reads the wall clock and never uses global
// randomness. Time and randomness come in as values, so the same mail on the same
// state gives byte-identical state and notices (DESIGN invariant 1). It knows nothing
// of IMAP, SMTP or files: reading and writing the state is contract/store's job.
package contract
