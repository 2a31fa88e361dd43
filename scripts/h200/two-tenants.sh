#!/bin/sh
# two-tenants.sh — two stock guests on one H200 at the same time, in one device call (issue #11
# item 5): each has its own vgsp-vfu --backend hostd instance (its own RM client, FB store,
# mirrors and host channels: separate channel groups, which the GPU time-slices), both boot
# together, tenant B's first kernel stores where its context mapped nothing (rung3check
# --only fault, init.sh's rung3.pre), then both run rung 3 (rung3check: its fma test reports each
# tenant's FMA rate while the other runs too) and each is compared byte for byte with native
# goldens made in the same call (scripts/h200/rung3.sh --golden, once per tenant).
#
# usage: sh scripts/h200/two-tenants.sh --bundle DIR --out DIR [--r3-max-mib N] [--budget S]
# Writes DIR/{a,b}/ (rung3.sh's files per tenant) and DIR/two-tenants.txt; the last line is
# "TWO-TENANTS PASS|FAIL: <evidence>"; exit 0 on PASS.
set -u
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT" || exit 2
BUNDLE="" OUT="" MIB=16 BUDGET=500
while [ $# -gt 0 ]; do
	case $1 in
	--bundle) BUNDLE=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--r3-max-mib) MIB=$2; shift 2 ;;
	--budget) BUDGET=$2; shift 2 ;;
	*) echo "two-tenants: unknown argument $1" >&2; exit 2 ;;
	esac
done
if [ -z "$BUNDLE" ] || [ -z "$OUT" ]; then sed -n '10,12p' "$0" >&2; exit 2; fi
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
verdict() { echo "TWO-TENANTS $1" | tee -a "$OUT/two-tenants.txt"; [ "${1%%:*}" = PASS ]; }

# one build for both (the tenants' rung3.sh then find it up to date)
if ! HOSTD=1 MAKEFLAGS="-j$(nproc)" scripts/guest/build-vfu.sh worktree > "$OUT/build-vfu.txt" 2>&1; then
	tail -n 20 "$OUT/build-vfu.txt"
	verdict "FAIL: vgsp-vfu (HOSTD=1) did not build"
	exit 1
fi
start=$(date +%s)
for t in a b; do
	pre=""
	[ "$t" = b ] && pre="rung3.pre=--only,fault"
	sh scripts/h200/rung3.sh --bundle "$BUNDLE" --out "$OUT/$t" --hostd --golden \
		--r3-max-mib "$MIB" --budget "$BUDGET" --append "$pre" \
		--cudacheck-args "--iters 1 --max-mib 4" > "$OUT/$t.log" 2>&1 &
	eval "pid_$t=\$!"
done
# shellcheck disable=SC2154 # pid_a, pid_b set by eval above
wait "$pid_a"; rca=$?
# shellcheck disable=SC2154
wait "$pid_b"; rcb=$?
{
	echo "both tenants done in $(($(date +%s) - start)) s (rc a=$rca b=$rcb)"
	for t in a b; do
		echo "--- tenant $t"
		grep '^RUNG ' "$OUT/$t.log" | sed 's/^/  /'
		grep -h -E '^(rung3check|rung3pre): (note fma|note fault|fault|fma)' \
			"$OUT/$t/guest/console.txt" 2>/dev/null | sed 's/^/  /'
		grep -h '^launches ' "$OUT/$t/guest/vfu-stats.txt" 2>/dev/null | tail -n 1 | sed 's/^/  hostd: /'
	done
} | tee "$OUT/two-tenants.txt"

cmp_pass() { grep -q "^RUNG 3 vfio-user-hostd [0-9.]* PASS: [0-9]* tests byte-identical" "$OUT/$1.log"; }
fault_ok() { grep -q '^rung3pre: fault ok' "$OUT/b/guest/console.txt" 2>/dev/null; }
rate() {
	grep -h '^rung3check: note fma' "$OUT/$1/guest/console.txt" 2>/dev/null | tail -n 1 |
		sed -n 's/.* \([0-9.]*\) GFLOP\/s.*/\1/p'
}
if ! cmp_pass a; then
	verdict "FAIL: tenant A's rung 3 is not byte-identical to native ($(grep -m1 '^RUNG 3.*FAIL' "$OUT/a.log" || echo 'no RUNG line'))"
elif ! fault_ok; then
	verdict "FAIL: tenant B's out-of-bounds store was not refused in its own context ($(grep -m1 '^rung3pre: fault' "$OUT/b/guest/console.txt" 2>/dev/null || echo 'no fault line'))"
elif ! cmp_pass b; then
	verdict "FAIL: tenant B after its fault: rung 3 not byte-identical ($(grep -m1 '^RUNG 3.*FAIL' "$OUT/b.log" || echo 'no RUNG line'))"
else
	verdict "PASS: both guests at once on one H200, each rung 3 byte-identical to native; B's store to an unmapped VA faulted only B's context ($(grep -h '^rung3pre: note fault' "$OUT/b/guest/console.txt" | sed 's/^rung3pre: note fault //' | paste -sd ';' -)), B's later processes and all of A unaffected; FMA while both ran: A $(rate a) GFLOP/s, B $(rate b) GFLOP/s (separate channel groups, the GPU's default time-slicing)"
fi
