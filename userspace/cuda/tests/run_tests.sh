#!/bin/sh
# make test driver: every cmocka binary in O, then the tool tests; sums the
# counts. Last line is exactly "N passed, N failed"; exit 1 if N failed > 0.
set -u
o=${1:-build}
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0
for t in test_stats test_run_parse test_json_schema test_results test_ab_metrics; do
	outp=$("$o/$t" 2>&1)
	rc=$?
	printf '%s\n' "$outp" | grep -E '^\[  (PASSED|FAILED|  ERROR  |   LINE   )|^\[  (ERROR|FAILED)' || true
	p=$(printf '%s\n' "$outp" | sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$outp" | sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0} f=${f:-0}
	# A crash leaves no summary: count the binary as one failure.
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
	echo "$t: $p passed, $f failed"
	pass=$((pass + p)) fail=$((fail + f))
done
tools=$(sh tests/test_tools.sh "$o" 2>&1)
printf '%s\n' "$tools" | grep -v '^RESULT ' || true
p=$(printf '%s\n' "$tools" | sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\1/p')
f=$(printf '%s\n' "$tools" | sed -n 's/^RESULT \([0-9]*\) \([0-9]*\)$/\2/p')
[ -n "$p" ] || { p=0; f=1; echo "test_tools.sh: no result line"; }
pass=$((pass + p)) fail=$((fail + f))
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
