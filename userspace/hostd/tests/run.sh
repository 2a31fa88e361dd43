#!/bin/sh
# run.sh - run cmocka test binaries and print one summary line
# "N passed, M failed" (last line of output).  A binary that exits non-zero
# without a failed test (crash, abort) counts as one failure.
passed=0
failed=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	run=$(printf '%s\n' "$out" | grep -c '^\[ RUN      \]')
	ok=$(printf '%s\n' "$out" | grep -c '^\[       OK \]')
	bad=$((run - ok))
	if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
		bad=1
	fi
	passed=$((passed + ok))
	failed=$((failed + bad))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
