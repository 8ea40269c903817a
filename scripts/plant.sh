#!/usr/bin/env bash
# Plants one mutant, as gremlins names it, and runs its package's tests
# against it: the check behind "a test fails with it planted" in the notes,
# and the way to look again at a mutant gremlins counted timed out.
#
#   scripts/plant.sh contract/apply.go:108:20 CONDITIONALS_BOUNDARY
#   scripts/plant.sh contract/apply.go:108:20 CONDITIONALS_BOUNDARY -run TestX
#   TIMEOUT=10m scripts/plant.sh contests/life/board.go:88:10 CONDITIONALS_NEGATION
#
# FILE:LINE:COLUMN is the mutated operator's position (gremlins' log, the
# file's path from the module's root); MUTATOR is gremlins' name for the
# change, or one of two that gremlins does not make, for a save or a copy
# that no operator's flip removes:
#
#   scripts/plant.sh contests/wackyworld/actions.go:74:2 REMOVE_STATEMENT
#   scripts/plant.sh contests/wackyworld/state.go:107:14 UNWRAP_CALL
#
# REMOVE_STATEMENT deletes the line from the column on (a call or an
# assignment that ends there, its parentheses closed, not a block's
# opening); UNWRAP_CALL replaces the call of one argument that begins at
# the column, "slices.Clone(s.Assets)", by its argument, "s.Assets".
#
# The tree is not touched: the mutated file is handed to go test
# through -overlay, so it can run beside gremlins or an editor. Flags after
# MUTATOR go to go test (default: -short, as mutate.sh). It prints KILLED
# (a test failed, or the mutant does not build: gremlins counts that
# killed too), LIVED (every test passed) or TIMED OUT (after $TIMEOUT,
# default 5m: an endless loop, usually), and exits 0 only for KILLED, so
# a list of mutants a test is meant to kill can be checked in a loop.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || {
	sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}
spec=$1 mut=$2
shift 2
file=${spec%%:*}
rest=${spec#*:}
line=${rest%%:*}
col=${rest#*:}
[ -f "$file" ] && [[ $line =~ ^[0-9]+$ ]] && [[ $col =~ ^[0-9]+$ ]] || {
	echo "plant: want FILE:LINE:COLUMN of a file under $(pwd), got $spec" >&2
	exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The operator at the column, and what the mutator makes of it (gremlins
# v0.6.0's tokenMutations).
if ! awk -v L="$line" -v C="$col" -v M="$mut" '
	BEGIN {
		m["ARITHMETIC_BASE", "+"] = "-"; m["ARITHMETIC_BASE", "-"] = "+"
		m["ARITHMETIC_BASE", "*"] = "/"; m["ARITHMETIC_BASE", "/"] = "*"
		m["ARITHMETIC_BASE", "%"] = "*"
		m["CONDITIONALS_BOUNDARY", ">="] = ">"; m["CONDITIONALS_BOUNDARY", ">"] = ">="
		m["CONDITIONALS_BOUNDARY", "<="] = "<"; m["CONDITIONALS_BOUNDARY", "<"] = "<="
		m["CONDITIONALS_NEGATION", "=="] = "!="; m["CONDITIONALS_NEGATION", "!="] = "=="
		m["CONDITIONALS_NEGATION", ">="] = "<"; m["CONDITIONALS_NEGATION", ">"] = "<="
		m["CONDITIONALS_NEGATION", "<="] = ">"; m["CONDITIONALS_NEGATION", "<"] = ">="
		m["INCREMENT_DECREMENT", "++"] = "--"; m["INCREMENT_DECREMENT", "--"] = "++"
		m["INVERT_NEGATIVES", "-"] = "+"
		m["INVERT_LOGICAL", "&&"] = "||"; m["INVERT_LOGICAL", "||"] = "&&"
		m["INVERT_LOOPCTRL", "break"] = "continue"; m["INVERT_LOOPCTRL", "continue"] = "break"
		m["INVERT_ASSIGNMENTS", "+="] = "-="; m["INVERT_ASSIGNMENTS", "-="] = "+="
		m["INVERT_ASSIGNMENTS", "*="] = "/="; m["INVERT_ASSIGNMENTS", "/="] = "*="
	}
	# depth is the parentheses left open in t; in a string or a rune
	# literal they do not count.
	function depth(t,    i, d, ch, q) {
		d = 0; q = ""
		for (i = 1; i <= length(t); i++) {
			ch = substr(t, i, 1)
			if (q != "") { if (ch == "\\") i++; else if (ch == q) q = ""; continue }
			if (ch == "\"" || ch == "`" || ch == "\047") q = ch
			else if (ch == "(") d++
			else if (ch == ")") d--
		}
		return d
	}
	NR == L && M == "REMOVE_STATEMENT" {
		t = substr($0, C)
		if (t !~ /^[A-Za-z_*]/ || t ~ /[{,]$/ || depth(t) != 0 || substr($0, 1, C - 1) !~ /^[ \t]*$/) {
			printf "plant: no whole statement begins at column %d of line %d: %s\n", C, L, $0 > "/dev/stderr"
			bad = 1
			exit 2
		}
		$0 = substr($0, 1, C - 1)
		print "plant: " FILENAME ":" L ": (removed) " t > "/dev/stderr"
	}
	NR == L && M == "UNWRAP_CALL" {
		t = substr($0, C)
		if (!match(t, /^[A-Za-z_][A-Za-z0-9_.]*\(/) || substr($0, C - 1, 1) ~ /[A-Za-z0-9_.]/) {
			printf "plant: no call begins at column %d of line %d: %s\n", C, L, $0 > "/dev/stderr"
			bad = 1
			exit 2
		}
		op = RLENGTH
		for (e = op + 1; e <= length(t) && depth(substr(t, op, e - op + 1)) != 0; e++) {}
		arg = substr(t, op + 1, e - op - 1)
		if (e > length(t) || arg == "" || depth(arg) != 0 || arg ~ /,/) {
			printf "plant: the call at column %d of line %d is not of one argument closed on its line: %s\n", C, L, $0 > "/dev/stderr"
			bad = 1
			exit 2
		}
		$0 = substr($0, 1, C - 1) arg substr(t, e + 1)
		print "plant: " FILENAME ":" L ": " $0 > "/dev/stderr"
	}
	NR == L && M != "REMOVE_STATEMENT" && M != "UNWRAP_CALL" {
		tok = ""
		for (w = 8; w >= 1 && tok == ""; w--) {
			t = substr($0, C, w)
			if ((M, t) in m) tok = t
		}
		if (tok == "") {
			printf "plant: no operator %s mutates at column %d of line %d: %s\n", M, C, L, $0 > "/dev/stderr"
			print "plant: mutators: ARITHMETIC_BASE, CONDITIONALS_BOUNDARY, CONDITIONALS_NEGATION, INCREMENT_DECREMENT, INVERT_NEGATIVES, INVERT_LOGICAL, INVERT_LOOPCTRL, INVERT_ASSIGNMENTS, and by hand REMOVE_STATEMENT, UNWRAP_CALL" > "/dev/stderr"
			bad = 1
			exit 2
		}
		$0 = substr($0, 1, C - 1) m[M, tok] substr($0, C + length(tok))
		print "plant: " FILENAME ":" L ": " $0 > "/dev/stderr"
	}
	{ print }
	END {
		if (!bad && NR < L) printf "plant: %s has %d lines, no line %d\n", FILENAME, NR, L > "/dev/stderr"
		if (bad || NR < L) exit 2
	}
' "$file" >"$tmp/mutant.go"; then
	exit 2
fi
printf '{"Replace":{"%s":"%s"}}\n' "$PWD/$file" "$tmp/mutant.go" >"$tmp/overlay.json"

flags=("$@")
[ ${#flags[@]} -eq 0 ] && flags=(-short)
set +e
timeout "${TIMEOUT:-5m}" go test -count=1 -vet=off -overlay "$tmp/overlay.json" "${flags[@]}" "./$(dirname "$file")" >"$tmp/out" 2>&1
rc=$?
set -e
case $rc in
0) echo "LIVED $mut at $spec" ;;
124) echo "TIMED OUT $mut at $spec (after ${TIMEOUT:-5m})" ;;
*)
	grep -E '^(--- FAIL|FAIL|.*\.go:[0-9]+:[0-9]+: )|^ +[A-Za-z0-9_]+_test\.go:[0-9]+: ' "$tmp/out" | head -5 >&2 || true
	echo "KILLED $mut at $spec"
	exit 0
	;;
esac
exit 1
