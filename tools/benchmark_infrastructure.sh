#!/bin/sh
# benchmark_infrastructure.sh: the A/B runner of the evaluation contract
# (seed 004 section 3.5). A = bare metal on the host, B = the identical
# workload in a guest on the emulated vGPU; report B/A per metric.
#
#   benchmark_infrastructure.sh build
#   benchmark_infrastructure.sh host  [perf.sh options]   A side, on the host
#   benchmark_infrastructure.sh guest [perf.sh options]   B side, in the guest
#   benchmark_infrastructure.sh ab A/results.json B/results.json [OUTDIR]
#   benchmark_infrastructure.sh pair [perf.sh options]    A, then B through
#       $GUEST_EXEC (a command prefix that runs its arguments in the guest
#       with this repository at the same path, e.g. a vgpu_vm.py exec
#       wrapper); the host snapshots vgsp debugfs and clocks around B and
#       aggregates B's runs itself, so B's results.json carries both sides.
#       Results go to $PERF_RESULTS_DIR (default results/) as <stamp>-host
#       and <stamp>-guest.
#
# Same binary, same run_cfg on both sides: ab refuses otherwise. Reports go
# to OUTDIR (default: beside B) as ab-report.md and ab-report.svg.
set -u

repo=$(cd "$(dirname "$0")/.." && pwd)
cuda="$repo/userspace/cuda"
bin=${PERF_BIN:-$cuda/build}
schema="$cuda/schema/open-iov-perf-1.schema.json"

die() {
	echo "benchmark_infrastructure.sh: $*" >&2
	exit 2
}

ab() {
	[ $# -ge 2 ] || die "usage: ab A.json B.json [OUTDIR]"
	a=$1 b=$2 dir=${3:-$(dirname "$2")}
	mkdir -p "$dir" || exit 2
	"$bin/ab-report" --schema "$schema" --md "$dir/ab-report.md" \
		--svg "$dir/ab-report.svg" "$a" "$b" || exit $?
	echo "benchmark_infrastructure.sh: wrote $dir/ab-report.md and $dir/ab-report.svg" >&2
}

pair() {
	[ -n "${GUEST_EXEC:-}" ] || die "pair needs GUEST_EXEC (command prefix that runs in the guest)"
	stamp=$(date -u +%Y%m%dT%H%MZ)
	root=${PERF_RESULTS_DIR:-$repo/results}
	a_dir="$root/$stamp-host" b_dir="$root/$stamp-guest"
	sh "$cuda/perf.sh" --role host --out "$a_dir" "$@" || echo "A side reported failures" >&2
	mkdir -p "$b_dir/host-side"
	nvidia-smi -q -d CLOCK >"$b_dir/host-side/clocks-before.txt" 2>&1 || true
	dbg=${VGSP_DEBUGFS:-/sys/kernel/debug/vgsp}
	snap() { # DIR -> copy of vgsp debugfs files (one level of instances)
		mkdir -p "$1"
		for f in "$dbg"/* "$dbg"/*/*; do
			[ -f "$f" ] || continue
			rel=${f#"$dbg"/}
			mkdir -p "$1/$(dirname "$rel")"
			cat "$f" >"$1/$rel" 2>/dev/null || rm -f "$1/$rel"
		done
	}
	snap "$b_dir/host-side/debugfs-before"
	# shellcheck disable=SC2086 # GUEST_EXEC is a command prefix
	$GUEST_EXEC sh "$cuda/perf.sh" --role guest --out "$b_dir" --no-aggregate "$@" ||
		echo "B side reported failures" >&2
	snap "$b_dir/host-side/debugfs-after"
	nvidia-smi -q -d CLOCK >"$b_dir/host-side/clocks-after.txt" 2>&1 || true
	sh "$cuda/perf.sh" --role guest --out "$b_dir" --aggregate-only \
		--host-clocks "$b_dir/host-side/clocks-after.txt" \
		--host-driver "$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)" \
		--debugfs-before "$b_dir/host-side/debugfs-before" \
		--debugfs-after "$b_dir/host-side/debugfs-after" "$@"
	ab "$a_dir/results.json" "$b_dir/results.json" "$b_dir"
}

[ $# -ge 1 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cmd=$1
shift
case $cmd in
build) make -C "$cuda" all ;;
host) sh "$cuda/perf.sh" --role host "$@" ;;
guest) sh "$cuda/perf.sh" --role guest "$@" ;;
ab) ab "$@" ;;
pair) pair "$@" ;;
*) die "unknown command '$cmd' (build, host, guest, ab, pair)" ;;
esac
