#!/bin/sh
# fuzz.sh — the libFuzzer campaign of issue #12 §2 on a many-core machine (the GPU device
# machine's 16 cores) in one call: every target at once, each with its own number of
# -jobs/-workers, the flags of tests/fuzz/README.md's campaign (Makefile MAXLENS, -timeout=10,
# -rss_limit_mb=2048, -print_final_stats=1), nice 19 so that a guest run beside it keeps the CPU.
#
# usage: sh scripts/h200/fuzz.sh --bin DIR --out DIR [--seconds S] [--plan "t:n ..."]
#            [--corpus DIR]
# --bin DIR: fuzz_<target> binaries (make -C tests/fuzz, built elsewhere and carried)
# --out DIR: per target DIR/<t>/: run.log, fuzz-<i>.log (libFuzzer's job logs, final stats),
#          corpus/ (new units), crash-*/leak-*/timeout-*/oom-* (artifacts); DIR/summary.txt
# --seconds S (520): -max_total_time of each job
# --plan (hostd:5 vfu:3 mmu:2 gsp:1 boot:1 fifo:1 bar:1): workers per target
# --corpus DIR (tests/fuzz/corpus): the committed corpora (read only: new units go to DIR/<t>/corpus)
# The last line: "FUZZ <executions> executions, <n> findings"; exit 0 when no artifact was written.
set -u
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN="" OUT="" SECS=520 PLAN="hostd:5 vfu:3 mmu:2 gsp:1 boot:1 fifo:1 bar:1"
CORPUS=$VGSP_ROOT/tests/fuzz/corpus
while [ $# -gt 0 ]; do
	case $1 in
	--bin) BIN=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--seconds) SECS=$2; shift 2 ;;
	--plan) PLAN=$2; shift 2 ;;
	--corpus) CORPUS=$2; shift 2 ;;
	*) echo "fuzz: unknown argument $1" >&2; exit 2 ;;
	esac
done
if [ -z "$BIN" ] || [ -z "$OUT" ]; then sed -n '7,8p' "$0" >&2; exit 2; fi
BIN=$(cd "$BIN" && pwd) || exit 2
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
CORPUS=$(cd "$CORPUS" && pwd) || exit 2
MAXLENS=$(sed -n '/^MAXLENS :=/,/[^\\]$/p' "$VGSP_ROOT/tests/fuzz/Makefile" | sed 's/^MAXLENS :=//; s/\\//')
[ -n "$MAXLENS" ] || MAXLENS="gsp:140000 boot:8192 bar:4096 mmu:4096 fifo:16384 vfu:8192 hostd:65536"
maxlen() { echo $MAXLENS | tr ' ' '\n' | sed -n "s/^$1://p"; }

start=$(date -u +%FT%TZ) t0=$(date +%s)
pids=""
for p in $PLAN; do
	t=${p%%:*} n=${p#*:}
	ml=$(maxlen "$t")
	[ -x "$BIN/fuzz_$t" ] && [ -n "$ml" ] || { echo "fuzz: no fuzz_$t or no max_len for it" >&2; continue; }
	mkdir -p "$OUT/$t/corpus"
	(cd "$OUT/$t" && exec nice -n 19 "$BIN/fuzz_$t" -max_total_time="$SECS" -jobs="$n" -workers="$n" \
		-max_len="$ml" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$OUT/$t/" corpus "$CORPUS/$t" > run.log 2>&1) &
	pids="$pids $!"
	echo "fuzz: $t, $n workers, -max_len=$ml"
done
for p in $pids; do wait "$p"; done
end=$(date -u +%FT%TZ)

# The figures: executions and exec/s summed over a target's job logs (libFuzzer's stat::
# lines), cov/ft the largest of its jobs' last status lines, findings = artifacts.
{
	echo "campaign $start .. $end ($(($(date +%s) - t0)) s wall), -max_total_time=$SECS, plan: $PLAN"
	echo "nproc $(nproc), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	printf '%-6s %4s %12s %9s %6s %6s %7s %s\n' target jobs executions exec/s cov ft units findings
	tot=0 nf=0
	for p in $PLAN; do
		t=${p%%:*} n=${p#*:}
		d=$OUT/$t
		ex=$(cat "$d"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{ s += $1 } END { print s + 0 }')
		es=$(cat "$d"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::average_exec_per_sec: *//p' | awk '{ s += $1 } END { print s + 0 }')
		cov=0 ft=0
		for l in "$d"/fuzz-*.log; do
			[ -f "$l" ] || continue
			last=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$l" | tail -n 1)
			c=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p') f=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
			[ "${c:-0}" -gt "$cov" ] && cov=$c
			[ "${f:-0}" -gt "$ft" ] && ft=$f
		done
		units=$(find "$d/corpus" -type f | wc -l)
		fi=$(find "$d" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
		printf '%-6s %4s %12s %9s %6s %6s %7s %s\n' "$t" "$n" "$ex" "$es" "$cov" "$ft" "$units" "$fi"
		tot=$((tot + ex)) nf=$((nf + fi))
	done
	find "$OUT" -maxdepth 2 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sed "s|$OUT/|artifact: |"
	grep -l -E 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer)|SUMMARY: ' "$OUT"/*/fuzz-*.log 2>/dev/null | sed "s|$OUT/|report in: |"
	echo "FUZZ $tot executions, $nf findings"
} | tee "$OUT/summary.txt"
[ "$(tail -n 1 "$OUT/summary.txt" | sed -n 's/.*, \([0-9]*\) findings/\1/p')" = 0 ]
