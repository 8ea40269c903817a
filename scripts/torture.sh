#!/usr/bin/env bash
# torture.sh: run bench/torture's stack series (referee run SIGKILLed at
# random instants over a real Postfix + Dovecot) on a fresh mail stack.
# Starts the stack (as scripts/e2e.sh does, same ports and state dir), runs
# `go run ./bench/torture` with the stack's MS_* variables and the given
# flags, and stops the stack on any exit. The ports are the end-to-end
# suite's: run it under its lock.
#
# Usage: flock /tmp/referee-e2e.lock bash scripts/torture.sh -stack 250 [-hub N -replay N ...]
# Env:   MS_DIR (stack state dir, default /tmp/referee-mailstack).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v go >/dev/null || PATH=$PATH:/usr/local/go/bin
D=${MS_DIR:-/tmp/referee-mailstack}

stop_stack() { bash "$ROOT/scripts/mailstack.sh" stop "$D" >&2 || true; }
if [ -d "$D" ]; then stop_stack; fi
trap stop_stack EXIT
bash "$ROOT/scripts/mailstack.sh" start "$D"

set -a
# shellcheck disable=SC1091
. "$D/env"
set +a

cd "$ROOT"
go run ./bench/torture "$@"
