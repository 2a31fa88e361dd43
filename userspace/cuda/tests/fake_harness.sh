#!/bin/sh
# Stand-in for perf-harness in tests (no GPU): replays the recorded H200
# outputs in turn, checking it got the run_cfg knobs perf.sh must pass.
# FAKE_HARNESS_STATE names a counter file; FAKE_HARNESS_FAIL=N fails run N;
# FAKE_HARNESS_EXTRA: the options expected after the run_cfg ones.
set -eu
fx=$(cd "$(dirname "$0")/fixtures" && pwd)
[ "$*" = "--n-warm 100 --n-malloc 50 --n-thru 100 --sizes 4096,262144,4194304,16777216${FAKE_HARNESS_EXTRA:+ $FAKE_HARNESS_EXTRA}" ] ||
	{ echo "fake_harness: unexpected args: $*" >&2; exit 2; }
n=$(cat "$FAKE_HARNESS_STATE" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$FAKE_HARNESS_STATE"
if [ "${FAKE_HARNESS_FAIL:-0}" = "$n" ]; then
	cat "$fx/run-cuda-fail.txt"
	echo "error: cuLaunchKernel failed (fake)" >&2
	exit 3
fi
cat "$fx/run-h200-$(( (n - 1) % 2 + 1 )).txt"
