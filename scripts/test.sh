#!/usr/bin/env bash
# test.sh: the whole test suite, as CI runs it. Checks formatting, go vet and a
# pinned staticcheck, runs every package's tests with the race detector (fuzz
# targets run their seed corpora only), Rumble's largest games without it
# (its game of a thousand contestants, its random games of undone actions)
# and the games' cost tests (bytes allocated, which it makes vary), then the end-to-end suite against a real
# Postfix + Dovecot stack (scripts/e2e.sh; needs root to install and start them).
#
# The browser test (build tag browser) drives Debian's chromium against
# `referee run` and saves its screenshots under $REFEREE_BROWSER_OUT
# (default $TMPDIR/referee-browser).
#
# Usage: bash scripts/test.sh            everything
#        REFEREE_SKIP_E2E=1 bash scripts/test.sh   without the mail stack
#        REFEREE_SKIP_BROWSER=1 bash scripts/test.sh   without chromium
set -euo pipefail
cd "$(dirname "$0")/.."

STATICCHECK_VERSION=v0.8.2
export PATH="$PATH:/usr/local/go/bin"
export PATH="$PATH:$(go env GOPATH)/bin" # after the line above: it needs go on PATH

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$bad" ]; then
  echo "gofmt would change:"; echo "$bad"; exit 1
fi

echo "== go vet"
go vet ./...
go vet -tags e2e ./e2e/
go vet -tags browser ./cmd/referee/

echo "== staticcheck $STATICCHECK_VERSION"
if ! staticcheck -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
  go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi
staticcheck ./...

echo "== go test -race"
go test -race -count=1 -timeout 15m ./...

# Rumble's game of 1,000 contestants is played by 100 under the race
# detector, and one of its three random games of undone actions (each
# message costs several times more under it); here whole.
echo "== Rumble's game of a thousand and its undo games, without the race detector"
go test -count=1 -timeout 15m -run '^(TestGameOfAThousand|TestUndoPropertyRumble)$' ./contests/rumble/

# The games' cost tests count the bytes an action allocates, which the race
# detector's instrumentation and its sync.Pool drops make vary: they skip
# under it (contracttest.TryCost), and run here.
echo "== the games' cost tests, without the race detector"
go test -count=1 -run 'CostsWhatItTouches$' ./contests/...

echo "== browser test (Debian chromium)"
if [ "${REFEREE_SKIP_BROWSER:-}" = 1 ]; then
  echo "skipped (REFEREE_SKIP_BROWSER=1)"
else
  if ! command -v chromium >/dev/null; then
    apt-get install -y -qq chromium # needs root; .ci/run does it
  fi
  out="${REFEREE_BROWSER_OUT:-${TMPDIR:-/tmp}/referee-browser}"
  mkdir -p "$out"
  go test -count=1 -timeout 10m -tags browser -run TestBrowser -artifacts -outputdir "$out" ./cmd/referee/
  echo "screenshots: $(ls -d "$out"/_artifacts/* | tail -1)"
fi

if [ "${REFEREE_SKIP_E2E:-}" = 1 ]; then
  echo "== end-to-end suite skipped (REFEREE_SKIP_E2E=1)"
  exit 0
fi
echo "== end-to-end suite (Postfix + Dovecot)"
bash scripts/e2e.sh
