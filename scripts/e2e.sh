#!/usr/bin/env bash
# e2e.sh: run the referee's end-to-end suite against a real Postfix + Dovecot
# stack. Starts the stack (installing Debian's packages if missing; needs
# root), stops it on any exit, runs `go test -tags e2e -count=1 -v ./e2e/`
# with the stack's MS_* variables and exits with the tests' status.
#
# Usage: scripts/e2e.sh [go test flags...]     e.g. scripts/e2e.sh -run Life -race
# Env:   MS_DIR (stack state dir, default /tmp/referee-mailstack),
#        REFEREE_E2E_BENCH=1 to also run the latency benchmark (E2E_BENCHTIME,
#        default 100x; add -run '^$' to skip the tests),
#        E2E_TIMEOUT (go test -timeout, default 15m).
set -euo pipefail

# shellcheck source=with-stack.sh
. "$(dirname "$0")/with-stack.sh"
bench=()
if [ "${REFEREE_E2E_BENCH:-0}" = 1 ]; then
  # On demand only: 100 messages through the stack, with and without the referee.
  bench=(-bench ReceiptLatency -benchtime "${E2E_BENCHTIME:-100x}")
fi
rc=0
go test -tags e2e -count=1 -v -timeout "${E2E_TIMEOUT:-15m}" "${bench[@]}" "$@" ./e2e/ || rc=$?
if [ "$rc" != 0 ]; then
  echo "e2e: tests failed (status $rc); last stack log lines:" >&2
  tail -n 30 "$D/log/postfix.log" "$D/log/dovecot.log" >&2 || true
fi
exit "$rc"
