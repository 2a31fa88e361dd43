#!/bin/sh
# rung3-compare.sh — rung 3's verdict: every test of rung3check (scripts/guest/rung3check.c) run
# in the stock guest must hash exactly the bytes the same program hashed natively on the same GPU.
#
# usage: scripts/guest/rung3-compare.sh GOLDEN_DIR CONSOLE_LOG
#        scripts/guest/rung3-compare.sh --make-golden NATIVE_LOG GOLDEN_DIR
#
# --make-golden: NATIVE_LOG is the output of a native run (rung3check > native.log); each test's
#   line "rung3check: <test> ok sha256=<hex> bytes=<n>" becomes GOLDEN_DIR/<test>.golden (earlier
#   *.golden there are removed), the run's rung3check lines are kept as GOLDEN_DIR/native.txt.
#   Refused (exit 1, nothing written) when the native run failed: a FAIL line, no summary line,
#   a summary with failed != 0, or no test line.
# compare: CONSOLE_LOG is the guest's console (CRs and text before "rung3check:" are tolerated).
#   One line per test, in the native run's order (GOLDEN_DIR/native.txt; else alphabetical):
#     R3 <test> PASS (<native sha256> / <guest sha256>)
#     R3 <test> FAIL (<native sha256> / <guest sha256 or ->): <why>
#   then exactly one line
#     RUNG 3 <path> <driver> PASS: <n> tests byte-identical to native (<tests>)
#     RUNG 3 <path> <driver> FAIL: <first failing test>: <why>
#   A test FAILs when the guest printed a FAIL line for it, printed no ok line, or hashed other
#   bytes (sha256 or byte count); a guest test without a golden file FAILs too. Exit 0 on PASS.
#   Both runs must use the same rung3check options (--max-mib changes the memcpy test's bytes).
# env: RUNG3_PATH (vfio-user-hostd), NV_VER (535.261.03): the RUNG line's path and driver.
set -eu
RPATH=${RUNG3_PATH:-vfio-user-hostd}
DRV=${NV_VER:-535.261.03}

usage() {
	sed -n '4,5p' "$0" | sed 's/^# //' >&2
	exit 2
}

# The result lines of a log: "rung3check: <test> ok ..." / "rung3check: <test> FAIL ...", from the
# text "rung3check: " on (console prefixes and CRs dropped).
results() {
	tr -d '\r' < "$1" | awk '{
		i = index($0, "rung3check: "); if (!i) next
		l = substr($0, i); n = split(l, f, " ")
		if (n >= 3 && (f[3] == "ok" || f[3] == "FAIL")) print l
	}'
}

# field NAME LINE: the value of NAME=... in LINE.
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | tail -n 1; }
# A well-formed ok line: 64 hex digits and a byte count.
wellformed() {
	_s=$(field sha256 "$1") _b=$(field bytes "$1")
	[ "${#_s}" = 64 ] && [ -z "$(echo "$_s" | tr -d '0-9a-f')" ] &&
		[ -n "$_b" ] && [ -z "$(echo "$_b" | tr -d '0-9')" ]
}
validname() { [ -n "$1" ] && [ -z "$(echo "$1" | tr -d 'A-Za-z0-9_.-')" ]; }

make_golden() {
	native=$1 dir=$2
	[ -r "$native" ] || { echo "rung3-compare: cannot read $native" >&2; exit 2; }
	res=$(results "$native")
	refuse() { echo "rung3-compare: refusing to make golden files from $native: $*" >&2; exit 1; }
	[ -n "$res" ] || refuse "no rung3check test lines"
	bad=$(echo "$res" | awk '$3 == "FAIL"' | head -n 1)
	[ -z "$bad" ] || refuse "the native run failed: $bad"
	summ=$(tr -d '\r' < "$native" | sed -n 's/.*\(rung3check: summary .*\)/\1/p' | tail -n 1)
	[ -n "$summ" ] || refuse "no summary line (the native run did not finish)"
	[ "$(field failed "$summ")" = 0 ] || refuse "native summary: $summ"
	tests=$(echo "$res" | awk '{ print $2 }' | awk '!seen[$0]++')
	for t in $tests; do
		validname "$t" || refuse "bad test name '$t'"
		lines=$(echo "$res" | awk -v t="$t" '$2 == t' | sort -u)
		[ "$(echo "$lines" | wc -l)" = 1 ] || refuse "test $t has different results in one log"
		wellformed "$lines" || refuse "malformed line: $lines"
	done
	mkdir -p "$dir"
	rm -f "$dir"/*.golden
	n=0
	for t in $tests; do
		echo "$res" | awk -v t="$t" '$2 == t' | tail -n 1 > "$dir/$t.golden"
		n=$((n + 1))
	done
	tr -d '\r' < "$native" | sed -n 's/.*\(rung3check: .*\)/\1/p' > "$dir/native.txt"
	echo "rung3-compare: wrote $n golden files to $dir ($(echo "$tests" | tr '\n' ' ' | sed 's/ $//'))"
}

compare() {
	dir=$1 log=$2
	[ -d "$dir" ] || { echo "rung3-compare: no golden directory $dir" >&2; exit 2; }
	[ -r "$log" ] || { echo "rung3-compare: cannot read $log" >&2; exit 2; }
	res=$(results "$log")
	first="" passed="" n=0
	verdict() {  # test PASS|FAIL native guest [why]
		if [ "$2" = PASS ]; then
			echo "R3 $1 PASS ($3 / $4)"
			passed="$passed $1" n=$((n + 1))
		else
			echo "R3 $1 FAIL ($3 / $4): $5"
			[ -n "$first" ] || first="$1: $5"
		fi
	}
	# The native run's order (native.txt) where known, then any other golden file.
	order=$( { [ -r "$dir/native.txt" ] && results "$dir/native.txt" | awk '{ print $2 }'
		for g in "$dir"/*.golden; do [ -e "$g" ] && basename "$g" .golden; done; } | awk '!seen[$0]++')
	gtests=""
	for t in $order; do
		g=$dir/$t.golden
		[ -e "$g" ] || continue
		gtests="$gtests $t"
		gl=$(sed -n 1p "$g" | tr -d '\r')
		gsha=$(field sha256 "$gl") gbytes=$(field bytes "$gl")
		if [ "$(echo "$gl" | awk '{ print $1, $2, $3 }')" != "rung3check: $t ok" ] || ! wellformed "$gl"; then
			verdict "$t" FAIL - - "bad golden file $g"
			continue
		fi
		mine=$(echo "$res" | awk -v t="$t" '$2 == t')
		failed=$(echo "$mine" | awk '$3 == "FAIL"' | head -n 1)
		ok=$(echo "$mine" | awk '$3 == "ok"' | tail -n 1)
		if [ -n "$failed" ]; then
			verdict "$t" FAIL "$gsha" - "guest FAIL: $(echo "$failed" | cut -d' ' -f4-)"
		elif [ -z "$ok" ]; then
			verdict "$t" FAIL "$gsha" - "no result line in the guest log"
		elif ! wellformed "$ok"; then
			verdict "$t" FAIL "$gsha" - "malformed guest line: $ok"
		else
			sha=$(field sha256 "$ok") bytes=$(field bytes "$ok")
			if [ "$bytes" != "$gbytes" ]; then
				verdict "$t" FAIL "$gsha" "$sha" "hashed $bytes bytes, native $gbytes (same rung3check options?)"
			elif [ "$sha" != "$gsha" ]; then
				verdict "$t" FAIL "$gsha" "$sha" "sha256 differs over $bytes bytes"
			else
				verdict "$t" PASS "$gsha" "$sha"
			fi
		fi
	done
	# Guest results with no golden file cannot be called identical to native.
	for t in $(echo "$res" | awk '{ print $2 }' | awk '!seen[$0]++'); do
		case " $gtests " in *" $t "*) continue ;; esac
		ok=$(echo "$res" | awk -v t="$t" '$2 == t && $3 == "ok"' | tail -n 1)
		gs=$(field sha256 "$ok")
		verdict "$t" FAIL - "${gs:--}" "no golden file $t.golden"
	done
	if [ -z "$gtests" ]; then
		first="no golden files (*.golden) in $dir"
	fi
	if [ -z "$first" ]; then
		echo "RUNG 3 $RPATH $DRV PASS: $n tests byte-identical to native (${passed# })"
		exit 0
	fi
	echo "RUNG 3 $RPATH $DRV FAIL: $first"
	exit 1
}

case ${1:-} in
--make-golden) [ $# = 3 ] || usage; make_golden "$2" "$3" ;;
-h | --help | "") usage ;;
*) [ $# = 2 ] || usage; compare "$1" "$2" ;;
esac
