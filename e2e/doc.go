// Package e2e is the referee's end-to-end suite. It drives the real `referee
// run` binary as a separate process against a real Postfix + Dovecot stack on
// loopback, exactly as players see it: they send mail over SMTP submission
// (STARTTLS + AUTH) and read their mailboxes over IMAP (STARTTLS).
//
// Input: the MS_* variables written by scripts/mailstack.sh (the stack's
// addresses, users, lists and CA certificate). Output: test results, and on
// demand (REFEREE_E2E_BENCH=1) latency figures over the stack.
//
// It does not start the stack itself and tests no package in isolation: run it
// with scripts/e2e.sh, which starts the stack, runs
// `go test -tags e2e ./e2e/` and stops the stack on any exit. Every file but
// this one carries the build tag e2e, so `go test ./...` never needs a stack.
package e2e
