#!/bin/sh
# test-perf.sh — the guest half of the B/A pair without a guest or a GPU (seconds):
# console-emit.sh -> a console with kernel lines, CRs and a second emission in between ->
# console-extract.sh gives back the same bytes (text, binary, empty), each file once with -s, a
# changed file again (the later block wins); a spliced base64 line or a block cut short is BAD
# and exits 1 while the other files still come out; tags; refused names; under busybox sh when
# there is one; vfu-stats-dir.sh on a small stats file (pairs, prefixed pairs, a table, sections
# left out); scripts/h200/ba.sh --post-only on a made-up out dir (A from the recorded H200 runs,
# B's files on a console, vgsp-vfu snapshots at the marks): B aggregates as role guest with this
# side's fields, the A/B report has the bound column and both device names, "BA PASS"; with an
# A-sparse beside (a table of its own) and clock traces + stamped marks per side: the SM clock
# within the k_fma phase and overall (scripts/h200/clock-phases.sh), the launch gaps.
# usage: scripts/guest/test-perf.sh      last line "N passed, N failed"; exit 0 only if none failed
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
G=$ROOT/scripts/guest
EMIT=$G/console-emit.sh
EXTRACT=$G/console-extract.sh
FX=$ROOT/userspace/cuda/tests/fixtures
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=0 F=0
ok() { echo "PASS $1"; P=$((P + 1)); }
ko() { echo "FAIL $1${2:+: $2}"; F=$((F + 1)); }
check() {  # name command...: passes when the command succeeds
	_n=$1; shift
	if "$@" > "$T/out" 2>&1; then ok "$_n"; else ko "$_n" "$(tail -n 3 "$T/out" | tr '\n' ' ')"; fi
	cp "$T/out" "$T/last"
}
rc_is() {  # name want command...: passes when the command exits with want
	_n=$1 _w=$2; shift 2
	"$@" > "$T/out" 2>&1
	_r=$?
	if [ "$_r" = "$_w" ]; then ok "$_n"; else ko "$_n" "exit $_r, want $_w: $(tail -n 2 "$T/out" | tr '\n' ' ')"; fi
	cp "$T/out" "$T/last"
}
has() { grep -q -F -e "$2" "$1"; }      # file text ($T/last: the previous check's output)

# --- emit / extract ----------------------------------------------------------------------------
mkdir -p "$T/in"
head -c 70001 /dev/urandom > "$T/in/run-01.txt"
printf 'commit=abc\nharness_sha256=0\n' > "$T/in/env.txt"
: > "$T/in/empty.txt"
{
	echo "[    1.000000] Linux version 6.1.0"
	sh "$EMIT" -t perf -s "$T/state" "$T/in/env.txt" "$T/in/run-01.txt" "$T/in/empty.txt" "$T/in/nope.err"
	echo "[    2.000000] NVRM: loading"
	sh "$EMIT" -t perf -s "$T/state" "$T/in/env.txt" "$T/in/run-01.txt"   # nothing new: nothing out
	echo "rung2: [3.0] some line"
} > "$T/con0"
# a kernel line between two base64 lines of the big file, CRs on every line
awk 'NR == 12 { print "[    1.500000] nvidia-uvm: Loaded the UVM driver, major device number 243." } { print $0 "\r" }' \
	"$T/con0" > "$T/con1"
check "emit: every file once with -s (3 blocks, the second call adds none)" \
	sh -c "[ \$(grep -c '^==== vgsp-file begin perf ' '$T/con1') = 3 ]"
check "emit: a missing file is skipped silently" sh -c "! grep -q 'nope.err' '$T/con1'"
check "extract: 3 files ok through CRs and kernel lines" sh "$EXTRACT" "$T/con1" "$T/x1" perf
check "extract: says how many kernel lines it dropped" has "$T/last" "run-01.txt 70001 ok (1 non-base64 lines dropped)"
check "extract: the binary file is byte-identical" cmp "$T/in/run-01.txt" "$T/x1/run-01.txt"
check "extract: text file identical" cmp "$T/in/env.txt" "$T/x1/env.txt"
check "extract: empty file identical" cmp "$T/in/empty.txt" "$T/x1/empty.txt"

# a changed file goes out again with -s; the later block wins
printf 'commit=def\n' > "$T/in/env.txt"
{ cat "$T/con1"; sh "$EMIT" -t perf -s "$T/state" "$T/in/env.txt" "$T/in/run-01.txt"; } > "$T/con2"
check "emit -s: a changed file is sent again (and only it)" \
	sh -c "[ \$(grep -c '^==== vgsp-file begin perf env.txt' '$T/con2') = 2 ] && [ \$(grep -c 'begin perf run-01' '$T/con2') = 1 ]"
check "extract: the later block of a name wins" sh -c "sh '$EXTRACT' '$T/con2' '$T/x2' perf && cmp '$T/in/env.txt' '$T/x2/env.txt'"

# a kernel message spliced into a base64 line: that file BAD (exit 1), the others still written
awk '/^==== vgsp-file begin perf run-01/ { inb = 1 } inb && ++n == 20 { $0 = substr($0, 1, 30) "[ 9.9] NVRM: x" substr($0, 31) } { print }' \
	"$T/con0" > "$T/con3"
rc_is "extract: a spliced line makes that file BAD, exit 1" 1 sh "$EXTRACT" "$T/con3" "$T/x3" perf
check "extract: BAD names the file and why" has "$T/last" "run-01.txt 70001 BAD ("
check "extract: the other files still come out" sh -c "cmp '$T/in/empty.txt' '$T/x3/empty.txt' && [ ! -e '$T/x3/run-01.txt' ]"
# a base64 line with one character changed (still base64): the checksum catches it
awk '/^==== vgsp-file begin perf run-01/ { inb = 1 } inb && ++n == 5 { $0 = (substr($0, 1, 1) == "A" ? "B" : "A") substr($0, 2) } { print }' \
	"$T/con0" > "$T/con3b"
rc_is "extract: one flipped base64 character is caught (exit 1)" 1 sh "$EXTRACT" "$T/con3b" "$T/x3b" perf
# the console stops inside a block (a guest that timed out)
head -n 40 "$T/con0" > "$T/con4"
rc_is "extract: a block cut short is BAD, exit 1" 1 sh "$EXTRACT" "$T/con4" "$T/x4" perf
check "extract: says the block has no end" has "$T/last" "no end line"
# tags and no blocks
sh "$EMIT" -t other "$T/in/env.txt" > "$T/con5"
rc_is "extract: no block of the tag asked for -> exit 2" 2 sh "$EXTRACT" "$T/con5" "$T/x5" perf
check "extract: without a tag, every tag" sh "$EXTRACT" "$T/con5" "$T/x5"
printf 'x\n' > "$T/in/bad name"
rc_is "emit: a name outside [A-Za-z0-9._-] is refused (exit 1)" 1 sh "$EMIT" "$T/in/bad name"
rc_is "emit: a bad tag is refused (exit 2)" 2 sh "$EMIT" -t "a/b" "$T/in/env.txt"
rc_is "extract: usage (exit 2)" 2 sh "$EXTRACT" "$T/con5"
if command -v busybox > /dev/null 2>&1 && busybox base64 < /dev/null > /dev/null 2>&1; then
	mkdir -p "$T/bb"
	for a in sh base64 sha256sum wc cut grep tr; do ln -s "$(command -v busybox)" "$T/bb/$a"; done
	check "emit under busybox sh (the guest's) extracts identically" sh -c \
		"PATH='$T/bb' sh '$EMIT' -t perf '$T/in/run-01.txt' > '$T/con6' && sh '$EXTRACT' '$T/con6' '$T/x6' perf && cmp '$T/in/run-01.txt' '$T/x6/run-01.txt'"
else
	echo "note: no busybox here: the emitter under busybox sh is checked by the guest runs only"
fi

# --- vfu-stats-dir.sh ------------------------------------------------------------------------
cat > "$T/stats" <<'EOF'
== counters
cfg_reads 435
bar0_writes 326841
== info
uuid 56677370-0000-4000-8000-000000000001
fb_bytes 10737418240
== gsp_rpc
function name req ok err
10 FREE 1496 1496 0
76 GSP_RM_CONTROL 1458 1457 1
== gsp_latency
le_2^14_ns 404
== vfu
msg VERSION 1 errors 0
msg DMA_MAP 31 errors 2
== backend
driver 580.159.04 fb_store_mib 10240 windows 0
launches 48 launch_errors 0 faults 0
resyncs 16 launch_us last 1096 max 63493 resync_us last 1991 max 50169
EOF
check "vfu-stats-dir: writes counter files" sh "$G/vfu-stats-dir.sh" "$T/stats" "$T/vd"
check "vfu-stats-dir: plain pairs" sh -c "grep -qx 'cfg_reads 435' '$T/vd/vfu0/counters' && grep -qx 'bar0_writes 326841' '$T/vd/vfu0/counters'"
check "vfu-stats-dir: several pairs a line, a version string skipped" sh -c \
	"grep -qx 'fb_store_mib 10240' '$T/vd/vfu0/backend' && grep -qx 'launch_errors 0' '$T/vd/vfu0/backend' && ! grep -q driver '$T/vd/vfu0/backend'"
check "vfu-stats-dir: a word names the pairs after it" sh -c \
	"grep -qx 'launch_us_last 1096' '$T/vd/vfu0/backend' && grep -qx 'resync_us_max 50169' '$T/vd/vfu0/backend' && grep -qx 'msg_DMA_MAP_errors 2' '$T/vd/vfu0/vfu'"
check "vfu-stats-dir: a table gives <row>_<column>" sh -c \
	"grep -qx 'GSP_RM_CONTROL_ok 1457' '$T/vd/vfu0/gsp_rpc' && grep -qx 'FREE_req 1496' '$T/vd/vfu0/gsp_rpc'"
check "vfu-stats-dir: odd key characters become _" grep -qx 'le_2_14_ns 404' "$T/vd/vfu0/gsp_latency"
check "vfu-stats-dir: info is not counters" test ! -e "$T/vd/vfu0/info"
check "vfu-stats-dir: every line is 'key integer'" sh -c "! cat '$T'/vd/vfu0/* | grep -qvE '^[A-Za-z0-9_.-]+ [0-9]+\$'"

# --- ba.sh --post-only on a made-up out dir ----------------------------------------------------
O=$T/ba
mkdir -p "$O/host" "$O/r3/guest" "$O/host-side" "$T/gfiles"
# A: the recorded H200 runs through perf.sh's fake harness, aggregated here by ba.sh's tools
cp "$FX/run-h200-1.txt" "$FX/run-h200-2.txt" "$T/"
# B's files as the guest writes them: the same runs under the vGPU's name
for i in 1 2; do
	sed 's/^device NVIDIA H200$/device NVIDIA H100 80GB HBM3/' "$FX/run-h200-$i.txt" > "$T/gfiles/run-0$i.txt"
done
cat > "$T/gfiles/env.txt" <<'EOF'
commit=guest image built from 0000
module_sha256=n/a: kernel/vgsp.ko not present (role=guest)
insmod_args=n/a: vgsp not loaded on this machine (role=guest)
guest_driver_version=535.261.03
guest_kernel=6.1.0-50-amd64
harness_sha256=1111
harness_args=--fma-blocks 1056
perf_command=sh userspace/cuda/perf.sh '--role' 'guest'
EOF
cp "$FX/nvidia-smi-no-clocks.txt" "$T/gfiles/clocks-guest-before.txt"
cp "$FX/nvidia-smi-no-clocks.txt" "$T/gfiles/clocks-guest-after.txt"
{
	echo "perf: [1.0] guest up"
	echo "vgsp-perf-mark before"
	sh "$EMIT" -t perf "$T/gfiles/env.txt" "$T/gfiles/clocks-guest-before.txt" "$T/gfiles/run-01.txt"
	echo "[    7.000000] NVRM: something"
	sh "$EMIT" -t perf "$T/gfiles/run-02.txt" "$T/gfiles/clocks-guest-after.txt"
	echo "vgsp-perf-mark after"
	echo "perf: [9.0] VERDICT PASS: perf: 2 of 2 runs status OK"
} > "$O/r3/guest/console.txt"
echo "vgsp-vfu: .cache/none/vgsp-vfu (worktree), profile h100-10g, args: --backend hostd" > "$O/r3/guest/cmd.txt"
sed 's/^cfg_reads 435/cfg_reads 400/' "$T/stats" > "$O/host-side/vfu-stats-before.txt"
cp "$T/stats" "$O/host-side/vfu-stats-after.txt"
cp "$FX/nvidia-smi-clock-h200.txt" "$O/host-side/clocks-host-before.txt"
cp "$FX/nvidia-smi-clock-h200.txt" "$O/host-side/clocks-host-after.txt"
echo 580.159.04 > "$O/host-driver.txt"
echo "test-commit" > "$O/commit.txt"
FAKE_HARNESS_STATE=$T/fh-state VGSP_DEBUGFS=$T/no-debugfs
export FAKE_HARNESS_STATE VGSP_DEBUGFS
(
	cd "$ROOT/userspace/cuda" &&
	make -s O="$T/cb" "$T/cb/perf-results" "$T/cb/perf-validate" > "$T/cb.log" 2>&1 &&
	sh perf.sh --role host --runs 2 --bin "$T/cb" --harness tests/fake_harness.sh --commit test \
		--harness-args "" --out "$O/host" > "$T/a.log" 2>&1
) || true
check "ba: A made from the recorded runs" test -f "$O/host/results.json"
# A-sparse: the same recorded runs, the harness given the gap (the fake checks its arguments)
(
	cd "$ROOT/userspace/cuda" &&
	FAKE_HARNESS_STATE=$T/fh-state2 FAKE_HARNESS_EXTRA="--fma-gap-ms 100" sh perf.sh --role host --runs 2 \
		--bin "$T/cb" --harness tests/fake_harness.sh --commit test --harness-args "--fma-gap-ms 100" \
		--out "$O/host-sparse" > "$T/as.log" 2>&1
) || true
check "ba: A-sparse made" test -f "$O/host-sparse/results.json"
# Clock traces as nvidia-smi -lms writes them and marks as the stamper writes them: A's k_fma
# phase all at 1980 MHz, B's all at the 345 MHz idle clock; A-sparse had no nvidia-smi
mkdir -p "$O/clocks"
awk 'BEGIN { for (i = 0; i < 200; i++) { ms = i * 20; sm = (i >= 50 && i < 100) ? 1980 : 345
	printf "2026/12/03 14:40:%02d.%03d, %d MHz, 3201 MHz, %d %%, P%d\n", int(ms / 1000), ms % 1000, sm, (sm > 345 ? 100 : 0), (sm > 345 ? 0 : 8) } }' \
	> "$O/clocks/trace-a.csv"
printf '%s\n' "2026/12/03 14:40:01.000 vgsp-perf-mark phase kernel_fma begin" \
	"2026/12/03 14:40:01.990 vgsp-perf-mark phase kernel_fma end" > "$O/clocks/marks-a.txt"
awk 'BEGIN { for (i = 0; i < 200; i++) { ms = i * 20
	printf "2026/12/03 14:42:%02d.%03d, 345 MHz, 3201 MHz, %d %%, P0\n", int(ms / 1000), ms % 1000, (i % 10 ? 0 : 100) } }' \
	> "$O/clocks/trace-b.csv"
printf '%s\n' "2026/12/03 14:42:00.000 vgsp-perf-mark before" "2026/12/03 14:42:01.000 vgsp-perf-mark phase kernel_fma begin" \
	"2026/12/03 14:42:02.000 vgsp-perf-mark phase kernel_fma end" "2026/12/03 14:42:03.900 vgsp-perf-mark after" \
	> "$O/clocks/marks-b.txt"
echo "unavailable: nvidia-smi not found" > "$O/clocks/trace-a-sparse.txt"
for i in 1 2; do
	echo "info kernel_fma_gap gap_ms_set=0 host_gap_ms_min=90.000 host_gap_ms_p50=10$i.500 host_gap_ms_max=120.000" \
		>> "$T/gfiles/run-0$i.txt"
done
{
	echo "perf: [1.0] guest up"
	echo "vgsp-perf-mark before"
	sh "$EMIT" -t perf "$T/gfiles/env.txt" "$T/gfiles/clocks-guest-before.txt" "$T/gfiles/run-01.txt"
	echo "[    7.000000] NVRM: something"
	sh "$EMIT" -t perf "$T/gfiles/run-02.txt" "$T/gfiles/clocks-guest-after.txt"
	echo "vgsp-perf-mark after"
	echo "perf: [9.0] VERDICT PASS: perf: 2 of 2 runs status OK"
} > "$O/r3/guest/console.txt"
check "ba.sh --post-only: BA PASS" sh -c "sh '$ROOT/scripts/h200/ba.sh' --post-only --out '$O' > '$T/ba.log' 2>&1; tail -n 1 '$T/ba.log' | grep -q '^BA PASS'"
J=$O/guest/results.json
check "ba: B aggregated as role guest, 2 runs, status OK" sh -c \
	"grep -q '\"role\": \"guest\"' '$J' && grep -q '\"runs\": 2,' '$J' && grep -q '\"status\": \"OK\"' '$J'"
check "ba: B's device is the vGPU's name" grep -q '"device": "NVIDIA H100 80GB HBM3"' "$J"
check "ba: this side's commit overrides the guest's" grep -q '"commit": "test-commit"' "$J"
check "ba: host clocks and driver recorded for B" sh -c \
	"grep -q '\"host_gpu_clocks\": \"driver 580.159.04' '$J' && grep -q '\"host_gpu_clocks_before\": \"driver' '$J' && grep -q '\"host_driver_version\": \"580.159.04\"' '$J'"
check "ba: vgsp-vfu counters between the marks (delta 35 cfg reads)" sh -c \
	"tr -d ' \\n' < '$J' | grep -q '\"delta\":{\"vfu0.backend\".*\"vfu0.counters\":{\"cfg_reads\":35'"
check "ba: the recipe names vgsp-vfu's arguments" grep -q '"insmod_args": "vgsp-vfu --profile h100-10g --backend hostd' "$J"
check "ba: the guest's harness sha256 kept, A's beside it" sh -c \
	"grep -q '\"harness_sha256\": \"1111\"' '$J' && grep -q '\"host_harness_sha256\": \"' '$J'"
M=$O/ab/ab-report.md
check "ba: report written, both device names" sh -c \
	"grep -q '| A | .* | host | NVIDIA H200 |' '$M' && grep -q '| B | .* | guest | NVIDIA H100 80GB HBM3 |' '$M'"
check "ba: report rows carry their bound" sh -c \
	"grep -q '| \`kernel_fma_gflops\` | compute | >= 95% | GPU |' '$M' && grep -q '| \`init_ms\` | initialization | B <= 2x A | guest CPU (TCG) |' '$M'"
check "ba: svg written" grep -q '</svg>' "$O/ab/ab-report.svg"
check "ba: summary lists the rows" grep -q 'kernel_fma_gflops.*GPU' "$O/summary.txt"
check "ba: the report's main table stays B vs A, A-sparse in a table of its own" sh -c \
	"grep -q '^### Reference run: A-sparse' '$M' && ! awk '/^### Reference/ { exit } /A-sparse/' '$M' | grep -q ."
check "ba: summary shows kernel_fma for A, A-sparse and B" grep -q '^    | .kernel_fma_ms. | 8.688 | 8.688 | 8.688 | 100.0 | 100.0 | 100.0 |' "$O/summary.txt"
check "ba: the summary's rows are the main table's only" sh -c "[ \$(grep -c '^ *\`kernel_fma_ms\`' '$O/summary.txt') = 1 ]"
C=$O/clocks/phases.txt
check "ba: A's k_fma phase at the top clock" grep -q '^a kernel_fma: n=50 windows=1 sm_mhz min/p50/max 1980/1980/1980 idle<=345 0% ' "$C"
check "ba: B's k_fma phase at idle" grep -q '^b kernel_fma: n=51 windows=1 sm_mhz min/p50/max 345/345/345 idle<=345 100% ' "$C"
check "ba: B overall is the guest's perf window" grep -q '^b overall: n=196 windows=1 ' "$C"
check "ba: a side without a trace says why" grep -q '^a-sparse: no clock figures: unavailable: nvidia-smi not found; no marks stamped' "$C"
check "ba: B's launch gap from the guest's runs" grep -q '^  B: 101.500 ms (runs: 101.500 102.500; --fma-gap-ms 0)' "$C"
check "ba: clocks in the report and the summary" sh -c "grep -q '^## GPU clocks during the runs' '$M' && grep -q '^  b kernel_fma: n=51' '$O/summary.txt'"
# a phase across midnight, a sample without a clock value, a phase with no sample
printf '%s\n' "2026/12/03 23:59:59.990, 1980 MHz, 3201 MHz, 100 %, P0" "2026/12/04 00:00:00.010, 1755 MHz, 3201 MHz, 99 %, P0" \
	"2026/12/04 00:00:00.030, [N/A], 3201 MHz, [N/A], P0" "2026/12/04 00:00:09.000, 345 MHz, 3201 MHz, 0 %, P8" > "$T/mid.csv"
printf '%s\n' "2026/12/03 23:59:59.980 vgsp-perf-mark phase kernel_fma begin" "2026/12/04 00:00:00.040 vgsp-perf-mark phase kernel_fma end" \
	"2026/12/04 00:00:05.000 vgsp-perf-mark phase copy begin" "2026/12/04 00:00:05.100 vgsp-perf-mark phase copy end" > "$T/mid.marks"
sh "$ROOT/scripts/h200/clock-phases.sh" "$T/mid.csv" "$T/mid.marks" kernel_fma copy > "$T/mid.out" 2>&1
check "clock-phases: a phase across midnight" grep -q '^kernel_fma: n=2 windows=1 sm_mhz min/p50/max 1755/1755/1980 idle<=345 0% ' "$T/mid.out"
check "clock-phases: a phase without samples says n=0" grep -qx 'copy: n=0 windows=1' "$T/mid.out"
check "clock-phases: unreadable samples counted, not used" grep -qx '1 trace lines without a clock value (left out)' "$T/mid.out"
check "clock-phases: usage" sh -c "sh '$ROOT/scripts/h200/clock-phases.sh' 2>&1; [ \$? = 2 ]"

# --- tools/vgsp-trace-stats: the stages of a vgsp-vfu trace (VGSP_TRACE=FILE) ----------------
TS=$ROOT/tools/vgsp-trace-stats
printf '%s\n' "10.000000 vgsp_doorbell: dev=U queue=gsp token=0x0" \
	"10.000010 vgsp_rpc_begin: dev=U fn=76 GSP_RM_CONTROL bytes=100" \
	"10.000013 vgsp_rpc_end: dev=U fn=76 GSP_RM_CONTROL status=0x0 reply=100 cmd=0x1" \
	"11.000000 vgsp_doorbell: dev=U queue=channel token=0x10005" \
	"11.000050 vgsp_work_done: dev=U chid=5 get=1 latency_ns=50000" \
	"11.004450 vgsp_doorbell: dev=U queue=channel token=0x10005" \
	"11.013100 vgsp_op: dev=U chid=5 class=gr submit_ns=2000 exec_ns=8600000" \
	"11.013150 vgsp_work_done: dev=U chid=5 get=2 latency_ns=8700000" \
	"11.013200 vgsp_doorbell: dev=V queue=channel token=0x1a" \
	"11.013300 vgsp_work_done: dev=V chid=26 get=2 latency_ns=100000" > "$T/tr"
sh "$TS" -L 1000 "$T/tr" > "$T/ts.out" 2>&1
check "trace-stats: rpc wake and handler" sh -c "grep -Eq '^rpc wake +1 +10.0 +10.0' '$T/ts.out' && grep -Eq '^rpc GSP_RM_CONTROL +1 +3.0 +3.0' '$T/ts.out'"
check "trace-stats: work p50 over three submissions" grep -Eq '^work +3 +100.0 +100.0' "$T/ts.out"
check "trace-stats: idle = a channel idle -> its next doorbell" grep -Eq '^idle +1 +4400.0 +4400.0' "$T/ts.out"
check "trace-stats: -L keeps the long submission and the idle before it" sh -c \
	"grep -Eq '^work >= 1000 +1 +8700.0' '$T/ts.out' && grep -Eq '^idle before work >= 1000 +1 +4400.0' '$T/ts.out'"
check "trace-stats: an operation's submit and exec" sh -c "grep -Eq '^op gr submit +1 +2.0' '$T/ts.out' && grep -Eq '^op gr exec +1 +8600.0' '$T/ts.out'"
check "trace-stats: -L splits a long submission into its operations and the rest" sh -c \
	"grep -Eq '^ops in work >= 1000 +1 +8602.0' '$T/ts.out' && grep -Eq '^rest of work >= 1000 +1 +98.0' '$T/ts.out'"
# launches alternating between two channels: the ones after the other channel's apart
printf '%s\n' "30.000100 vgsp_op: dev=W chid=4 class=gr submit_ns=0 exec_ns=175000" \
	"30.000200 vgsp_op: dev=W chid=5 class=gr submit_ns=0 exec_ns=176000" \
	"30.000300 vgsp_op: dev=W chid=5 class=gr submit_ns=0 exec_ns=9000" \
	"30.000400 vgsp_op: dev=W chid=4 class=gr submit_ns=0 exec_ns=174000" > "$T/sw"
sh "$TS" "$T/sw" > "$T/sw.out" 2>&1
check "trace-stats: launches after another channel's and after their own apart" sh -c \
	"grep -Eq '^op gr exec, other channel before +2 +174.0' '$T/sw.out' && grep -Eq '^op gr exec, same channel before +1 +9.0' '$T/sw.out'"
check "trace-stats: -d keeps one instance" sh -c "sh '$TS' -d V '$T/tr' | grep -Eq '^work +1 +100.0'"
rc_is "trace-stats: -L needs a number" 2 sh "$TS" -L x "$T/tr"
# tools/vgsp-trace-segments: a segment with two operations split into decode, ops, gap, tail
printf '%s\n' "20.000000 vgsp_gpfifo_fetch: dev=U chid=5 get=1 put=2 dwords=388" \
	"20.000019 vgsp_launch: dev=U chid=5 qmd=0x7f0000 grid=1x1x1" \
	"20.000195 vgsp_op: dev=U chid=5 class=gr submit_ns=1000 exec_ns=174000" \
	"20.000196 vgsp_launch: dev=U chid=5 qmd=0x7f0100 grid=1056x1x1" \
	"20.008910 vgsp_op: dev=U chid=5 class=gr submit_ns=1000 exec_ns=8700000" \
	"20.008925 vgsp_methods: dev=U chid=5 dwords=388 done" \
	"21.000000 vgsp_gpfifo_fetch: dev=U chid=6 get=1 put=2 dwords=10" \
	"21.000020 vgsp_op: dev=U chid=6 class=ce submit_ns=0 exec_ns=12000" \
	"21.000025 vgsp_methods: dev=U chid=6 dwords=10 done" > "$T/seg"
sh "$ROOT/tools/vgsp-trace-segments" -L 1000 "$T/seg" > "$T/seg.out" 2>&1
check "trace-segments: decode, each op with its grid, the gap between, the tail" grep -qxF \
	'chid=5 dwords=388 ops=2 decode=20 op1=175[1x1x1] gap1=14 op2=8701[1056x1x1] tail=15 total=8925' "$T/seg.out"
check "trace-segments: a segment without a long op is left out" sh -c "! grep -q 'chid=6' '$T/seg.out' && grep -q '^p50 over 1 segments:' '$T/seg.out'"

echo "$P passed, $F failed"
[ "$F" = 0 ]
