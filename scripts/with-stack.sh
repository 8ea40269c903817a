# with-stack.sh, sourced by e2e.sh and torture.sh: starts a fresh Postfix +
# Dovecot stack in $D (MS_DIR, default /tmp/referee-mailstack), stops it on
# the sourcing script's exit, exports its MS_* variables and leaves the
# shell in the project's root ($ROOT). A stack left over from an
# interrupted run is stopped first; a foreign process on the ports makes
# start fail with the port named.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v go >/dev/null || PATH=$PATH:/usr/local/go/bin # the usual place of a Go install
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
