#!/usr/bin/env bash
# Mutation testing of the packages that hold rules or data, with gremlins:
# each mutant (a flipped comparison, an arithmetic operator swapped, a sign
# inverted, ...) is built and the package's tests run against it; a mutant
# that every test survives ("lived") marks a rule no test holds.
#
#   scripts/mutate.sh                  every package below, one at a time
#   scripts/mutate.sh contests/rumble  the packages named
#   FILES='cond|intent' scripts/mutate.sh contract   only those files (regexp
#                                      on the file name, without .go)
#
# It prints, per package, efficacy (killed / (killed + lived)) and mutator
# coverage ((killed + lived) / all mutants), and lists the lived and the
# uncovered mutants; the full logs and JSON go to $OUT (default
# /tmp/referee-mutate). Targets: efficacy >= 95%, coverage >= 90%.
#
# Not run in CI: each mutant is a build and a test run, so a package takes
# from minutes (contract, mailout) to hours (a game, whose tests replay
# whole scenarios). WORKERS (default 1) is gremlins' parallel mutants; on a
# shared machine keep it low. TIMEOUT_COEFFICIENT (default 10) multiplies the
# package's test time to give each mutant's deadline; a loaded machine needs
# more, or mutants are counted "timed out", which is neither killed nor
# lived. Never pass --test-cpu: gremlins v0.6.0 hands "-cpu N" to go test
# as one argument, every mutant then fails to build its test run and is
# counted killed.
#
# DRY_RUN=1 lists the mutants and the mutator coverage without running any.
#
# Notes: mutants that stay alive by design (equivalent: no input can tell
# them from the code as written), by package and line, and lines removed as
# unreachable:
# - contract/intent.go, Intent.Ripe: its test of the 14-day expiry could
#   never fire (the "intent expired" event drops the intent before any
#   message at or after its expiry is performed), so every mutant of it
#   lived; it was removed, and TestIntentExpires holds the expiry.
# The equivalent mutants of contract, contract/store, mailin and mailout,
# and the "UNMAPPED" ones, are in scripts/mutate-notes/core.md; the games'
# in scripts/mutate-notes/games.md; every other
# lived mutant is a missing test. Which files of contract have had an
# efficacy run, and their figures, is in core.md's "contract" section.
# scripts/mutate-notes/SUMMARY.md gathers the figures of each package (its
# first run and its latest, how efficacy is counted, the files never run,
# the equivalent mutants) and, for each of the twelve hand-planted bugs
# that once got through every test, the test that fails with it planted.
set -euo pipefail

GREMLINS_VERSION=v0.6.0
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/referee-mutate}
WORKERS=${WORKERS:-1}
TIMEOUT_COEFFICIENT=${TIMEOUT_COEFFICIENT:-10}
FILES=${FILES:-}
dry=()
[ -n "${DRY_RUN:-}" ] && dry=(--dry-run)
# go test's vet step is a quarter of each mutant's time and tells nothing
# about the mutant (a vet failure would count it killed). -short: a
# package's costliest tests trim iterations (property tests draw fewer random
# games and inputs; each test says what it drops; contract: ~14 s of CPU to
# ~7 s for the package's tests); CI runs them whole. gremlins' go test runs
# take GOFLAGS from here. -ldflags=-w (no DWARF) halves the link, most of a
# mutant's build. -count=1: gremlins times its coverage run to set each
# mutant's deadline; a cached test result would make that a second, and
# every mutant would time out.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-vet=off -short -ldflags=-w -count=1"

# unmapped FILE: the NOT COVERED mutants of the log that Go's coverage
# profile cannot place (gremlins #298): a condition of a tagless switch's
# case whose body ran, a package-level constant or variable (evaluated
# whenever the package loads). gremlins does not run them; they are
# printed "UNMAPPED", and counted apart in the summary.
unmapped() {
	local log=$1 p=$2 prof=$3
	{ grep -E '^ *NOT COVERED ' "$log" || true; } | while read -r _ _ mut _ at; do
		f=${at%%:*}
		l=${at#*:}
		l=${l%%:*}
		awk -v L="$l" -v F="$(go list "./$p")/$f" -v prof="$prof" -v mut="$mut" -v at="$at" '
			/^(const|var) \($/ { top = 1 }
			NR == L { line = $0; if (top || /^(const|var) /) kind = "package-level" }
			top && /^\)/ { top = 0 }
			END {
				if (kind == "" && line ~ /^[ \t]*case /) {
					# The next block of the profile after the case is its body.
					best = 0
					while ((getline pl < prof) > 0) {
						if (index(pl, F ":") != 1) continue
						split(substr(pl, length(F) + 2), a, /[.,: ]/)
						if (a[1] + 0 >= L && (best == 0 || a[1] + 0 < best)) { best = a[1] + 0; cnt = a[6] + 0 }
					}
					if (best && cnt > 0) kind = "switch case, its body ran"
				}
				if (kind != "") printf "UNMAPPED %s at %s (%s)\n", mut, at, kind
			}' "$p/$f"
	done
}

# testmap PKG MAP: runs each test, fuzz target and example of the package
# alone with coverage, and writes MAP: one line per source line that some
# test ran, "file.go:LINE Test1|Test2|...". scripts/mutate-go, standing in
# for go on gremlins' PATH, gives a mutant's test run only the tests of its
# line. If a test fails when run alone (it would lean on an earlier test),
# MAP is left empty and every mutant runs the whole package.
testmap() {
	local p=$1 map=$2 dir bin t rc=0
	dir=$(mktemp -d "$OUT/testmap.XXXXXX")
	bin=$dir/pkg.test
	: >"$map"
	GOFLAGS=-vet=off go test -c -cover -covermode=set -o "$bin" "./$p"
	"$bin" -test.list '.*' 2>/dev/null | grep -E '^(Test|Fuzz|Example)' >"$dir/names" || true
	while read -r t; do
		(cd "$p" && "$bin" -test.short -test.count=1 -test.run "^$t\$" -test.coverprofile "$dir/$t.cover" >/dev/null 2>&1) || {
			echo "  $p: $t fails when run alone: every mutant runs the whole package" >&2
			rc=1
			break
		}
	done <"$dir/names"
	if [ $rc -eq 0 ]; then
		for t in $(cat "$dir/names"); do
			awk -v t="$t" 'NR > 1 && $NF > 0 {
				split($1, a, ":"); n = split(a[1], parts, "/"); f = parts[n]
				split(a[2], r, /[.,]/)
				for (l = r[1]; l <= r[3]; l++) print f ":" l, t
			}' "$dir/$t.cover"
		done | sort -u | awk '$1 != k { if (k != "") print k, ts; k = $1; ts = $2; next } { ts = ts "|" $2 } END { if (k != "") print k, ts }' >"$map"
	fi
	rm -rf "$dir"
}

GOBIN_DIR=$(go env GOPATH)/bin
G=$GOBIN_DIR/gremlins
if ! [ -x "$G" ] || ! "$G" --version 2>/dev/null | grep -q "${GREMLINS_VERSION#v}\|dev"; then
	echo "installing gremlins $GREMLINS_VERSION into $GOBIN_DIR" >&2
	GOBIN=$GOBIN_DIR go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"
fi

pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
	pkgs=(contract contract/store mailin mailout contests/life contests/rumble contests/steemfield contests/wackyworld)
fi
mkdir -p "$OUT"

# Test selection: gremlins finds "go" on PATH; put scripts/mutate-go first.
# SELECT=0 runs every test of the package for every mutant instead.
export MUTATE_REAL_GO
MUTATE_REAL_GO=$(command -v go)
export MUTATE_ORIG=$PWD MUTATE_MODULE
MUTATE_MODULE=$(go list -m)
if [ "${SELECT:-1}" != 0 ]; then
	mkdir -p "$OUT/bin"
	ln -sf "$PWD/scripts/mutate-go" "$OUT/bin/go"
	PATH=$OUT/bin:$PATH
fi

summary=()
for p in "${pkgs[@]}"; do
	p=${p#./}
	p=${p%/}
	[ -d "$p" ] || { echo "no package directory $p" >&2; exit 2; }
	name=${p//\//_}
	# gremlins mutates the files under the path, sub-packages too: each
	# sub-package is measured on its own, so exclude them here.
	ex=()
	for sub in "$p"/*/; do
		sub=$(basename "$sub")
		[ "$sub" = testdata ] && continue
		ex+=(-E "^$sub/")
	done
	if [ -n "$FILES" ]; then
		# Keep only the files whose names match FILES: exclude the others.
		for f in "$p"/*.go; do
			b=$(basename "$f" .go)
			case $b in *_test) continue ;; esac
			if ! [[ $b =~ ^($FILES)$ ]]; then
				ex+=(-E "^$b\.go$")
			fi
		done
	fi
	echo "== $p" >&2
	log=$OUT/$name.log
	export MUTATE_MAP=""
	if [ "${SELECT:-1}" != 0 ] && [ -z "${DRY_RUN:-}" ]; then
		testmap "$p" "$OUT/$name.tests"
		[ -s "$OUT/$name.tests" ] && MUTATE_MAP=$OUT/$name.tests
	fi
	set +e
	"$G" unleash "${dry[@]}" --workers "$WORKERS" --timeout-coefficient "$TIMEOUT_COEFFICIENT" \
		-o "$OUT/$name.json" "${ex[@]}" "./$p" >"$log" 2>&1
	rc=$?
	set -e
	go test -count=1 -coverprofile="$OUT/$name.cover" "./$p" >/dev/null 2>&1 || true
	unmapped "$log" "$p" "$OUT/$name.cover" >"$OUT/$name.unmapped"
	grep -E '^ *(LIVED|NOT COVERED|TIMED OUT) ' "$log" | grep -vFf <(sed 's/^UNMAPPED \([A-Z_]*\) at \([^ ]*\) .*/\1 at \2/' "$OUT/$name.unmapped"; echo '@@none@@') | sed "s|^ *|  $p: |" >&2 || true
	sed "s|^|  $p: |" "$OUT/$name.unmapped" >&2
	nu=$(wc -l <"$OUT/$name.unmapped")
	eff=$(sed -n 's/.*Test efficacy: \([0-9.]*\)%.*/\1/p' "$log" | tail -1)
	cov=$(sed -n 's/.*Mutator coverage: \([0-9.]*\)%.*/\1/p' "$log" | tail -1)
	counts=$(sed -n 's/.*\(Killed: [0-9]*, Lived: [0-9]*, Not covered: [0-9]*\).*/\1/p' "$log" | tail -1)
	# Coverage with the unmapped mutants counted as covered (not run).
	runnable=$(sed -n 's/.*Runnable: \([0-9]*\), Not covered: \([0-9]*\).*/\1 \2/p' "$log" | tail -1)
	mapped=""
	if [ -n "$runnable" ]; then
		mapped=$(echo "$runnable $nu" | awk '{ printf "%.2f", 100 * ($1 + $3) / ($1 + $2) }')
	elif [ -n "$counts" ]; then
		mapped=$(echo "$counts $nu" | awk -F'[^0-9]+' '{ printf "%.2f", 100 * ($2 + $3 + $5) / ($2 + $3 + $4) }')
	fi
	unm="unmapped $nu (coverage $mapped% counting them)"
	if [ -n "${DRY_RUN:-}" ] && [ -n "$cov" ]; then
		summary+=("$(printf '%-22s coverage %6s%%  %s  %s' "$p" "$cov" "$(sed -n 's/.*\(Runnable: [0-9]*, Not covered: [0-9]*\).*/\1/p' "$log" | tail -1)" "$unm")")
		continue
	fi
	if [ -z "$eff" ]; then
		summary+=("$(printf '%-22s failed (exit %d), see %s' "$p" "$rc" "$log")")
		continue
	fi
	ok=yes
	awk -v e="$eff" -v c="$cov" 'BEGIN { exit !(e >= 95 && c >= 90) }' || ok=no
	summary+=("$(printf '%-22s efficacy %6s%%  coverage %6s%%  %s  targets met: %s; %s' "$p" "$eff" "$cov" "$counts" "$ok" "$unm")")
done

echo
printf '%s\n' "${summary[@]}"
