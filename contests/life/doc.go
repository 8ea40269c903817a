// Package life referees the Agora Life contest of 2002 (the regulations 1-23 as
// amended by Suggestion #3, and rulings L1-L9).
//
// Input: the interpreter's actions (joining, leaving, claiming Cells, Vial
// transfers, suggestions and consents, the contestmaster change of R1) and the
// passage of time. Output: changes to its state and to the Vial and points
// ledgers, and notices: Change of Regulations, Notice of Award, the weekly
// report with the Life Grid. The generation engine (Board) is bit-sliced, 64
// cells per word, and resolves Controllers only for Born cells.
//
// It does no I/O, reads no clock and draws nothing but the committed weekly
// seed; it does not send mail or parse it.
package life
