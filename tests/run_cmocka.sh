#!/bin/sh
# Run cmocka test binaries and print one summary line "N passed, N failed".
# cmocka reports "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)...";
# a binary that crashes or prints neither counts as one failure.
set -u
pass=0
fail=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=0
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "run_cmocka: $t exited $rc without a cmocka failure line" >&2
		f=1
	fi
	pass=$((pass + p))
	fail=$((fail + f))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
