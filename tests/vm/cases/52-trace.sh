#!/bin/sh
# vgsp.ko's trace events through tracefs (kernel/mdev/vgsp_trace.h,
# docs/tracing.md): the nine events are registered under events/vgsp/;
# during the RPC microbenchmark (vgsp-gsp-replay bench) every round trip
# reads doorbell -> rpc_begin -> rpc_end in that order, GSP_RM_CONTROL with
# status 0; the round trip's split into its stages is printed (TRACESPLIT)
# with one round trip's raw lines (TRACE), as docs/tracing.md shows.
. /lib/rig.sh

BIN=vgsp-gsp-replay
T=/sys/kernel/tracing
N=${TRACE_BENCH_N:-50}
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null
if [ ! -d $T/events ]; then
	skip trace "no tracefs in this kernel"
	exit 0
fi
for e in doorbell rpc_begin rpc_end irq gpfifo_fetch methods work_done op launch; do
	check "trace.event.$e" "no $T/events/vgsp/vgsp_$e" test -r "$T/events/vgsp/vgsp_$e/format"
done
if ! command -v $BIN >/dev/null 2>&1; then
	skip trace.bench "$BIN not in the initramfs (make vm-bin)"
	exit 0
fi
u=$(mk h100-10g) || { fail trace.create "create failed"; exit 0; }
echo 0 > $T/tracing_on
echo > $T/trace
echo 2048 > $T/buffer_size_kb
echo 1 > $T/events/vgsp/enable
echo 1 > $T/tracing_on
$BIN "$u" bench "$N" > /tmp/trace-bench.out 2>&1
echo 0 > $T/tracing_on
echo 0 > $T/events/vgsp/enable
cat $T/trace > /tmp/trace.txt
rm_inst "$u" || fail trace.remove "remove failed"
grep '^BENCH ' /tmp/trace-bench.out
check trace.bench "bench failed: $(grep FAIL /tmp/trace-bench.out)" grep -q '^PASS gsp_replay.bench' /tmp/trace-bench.out

# "<time> <event> <rest>" per vgsp line of the trace file
awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^vgsp_[a-z_]+:$/) {
	t = $(i - 1); sub(/:$/, "", t); e = $i; sub(/:$/, "", e); $0 = substr($0, index($0, $i) + length($i) + 1)
	print t, e, $0; break } }' /tmp/trace.txt > /tmp/trace.ev
check trace.lines "no vgsp event in the trace" test -s /tmp/trace.ev
check trace.dev "events without this instance's name" grep -q "dev=$u" /tmp/trace.ev

# Every rpc_end follows its own rpc_begin, with nothing begun in between;
# every control (sent one at a time, as the pings) follows a GSP doorbell
# (the boot's first RPCs may share one); the pings are answered NV_OK.
bad=$(awk '
	$2 == "vgsp_doorbell" && / queue=gsp / { db = 1 }
	$2 == "vgsp_rpc_begin" { if (open || ($4 == "fn=76" && !db)) bad++; open = $4; db = 0 }
	$2 == "vgsp_rpc_end" { if ($4 != open) bad++; open = "" }
	END { print bad + 0 }' /tmp/trace.ev)
eq trace.order "$bad" 0
ctl=$(awk '$2 == "vgsp_rpc_end" && $4 == "fn=76" && / status=0x0 / { n++ } END { print n + 0 }' /tmp/trace.ev)
check trace.rpc_end "only $ctl GSP_RM_CONTROL ends with status 0 (want >= $N)" test "$ctl" -ge "$N"

# The round trip in stages, for the pings (the last N GSP_RM_CONTROLs): BAR
# trap of the doorbell -> worker begins the RPC -> handler done.
awk -v n="$N" '
	$2 == "vgsp_doorbell" && / queue=gsp / { db = $1 }
	$2 == "vgsp_rpc_begin" { b = $1; wake[++k] = (b - db) * 1e6 }
	$2 == "vgsp_rpc_end" { run[k] = ($1 - b) * 1e6 }
	function p(a, q,   i, j, m, t, s) {
		m = 0; for (i = k - n + 1; i <= k; i++) s[++m] = a[i]
		for (i = 2; i <= m; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
		return s[int((m - 1) * q) + 1]
	}
	END { if (k >= n) printf "TRACESPLIT n=%d doorbell_to_begin_p50_us=%.0f p99_us=%.0f begin_to_end_p50_us=%.0f p99_us=%.0f\n",
		n, p(wake, 0.5), p(wake, 0.99), p(run, 0.5), p(run, 0.99) }' /tmp/trace.ev
# One round trip as tracefs prints it (the last ping).
awk '/vgsp_doorbell: .* queue=gsp / { n = NR } END { print n + 0 }' /tmp/trace.txt > /tmp/trace.last
sed -n "$(cat /tmp/trace.last),\$p" /tmp/trace.txt | head -n 4 | sed 's/^/TRACE /'
