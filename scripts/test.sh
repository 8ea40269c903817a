#!/usr/bin/env bash
# test.sh: the whole test suite, as CI runs it. Checks formatting, go vet and a
# pinned staticcheck, runs every package's tests with the race detector (fuzz
# targets run their seed corpora only), then the end-to-end suite against a real
# Postfix + Dovecot stack (scripts/e2e.sh; needs root to install and start them).
#
# Usage: bash scripts/test.sh            everything
#        REFEREE_SKIP_E2E=1 bash scripts/test.sh   without the mail stack
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

echo "== staticcheck $STATICCHECK_VERSION"
if ! staticcheck -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
  go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi
staticcheck ./...

echo "== go test -race"
go test -race -count=1 -timeout 15m ./...

if [ "${REFEREE_SKIP_E2E:-}" = 1 ]; then
  echo "== end-to-end suite skipped (REFEREE_SKIP_E2E=1)"
  exit 0
fi
echo "== end-to-end suite (Postfix + Dovecot)"
bash scripts/e2e.sh
