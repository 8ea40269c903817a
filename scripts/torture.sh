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

# shellcheck source=with-stack.sh
. "$(dirname "$0")/with-stack.sh"
go run ./bench/torture "$@"
