// Package scenario holds the scenario tests that play several games at once
// through the interpreter (mbox in, mails out, golden): corrections re-run
// a history that Life and Rumble share. It has no code of its own.
package scenario
