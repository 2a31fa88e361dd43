#!/bin/sh
# Tool tests without a GPU: perf.sh (with tests/fake_harness.sh replaying
# recorded H200 outputs), perf-validate, ab-report, benchmark_infrastructure.sh.
# Prints one line per check and "RESULT <passed> <failed>" last.
set -u
o=${1:-build}
cd "$(dirname "$0")/.." || exit 1
case $o in /*) ;; *) o="$PWD/$o" ;; esac
fx=tests/fixtures
schema=schema/open-iov-perf-1.schema.json
tmp=$(mktemp -d /tmp/perf-tools-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# expect RC NAME CMD...: runs CMD (output in $tmp/last), checks its status.
expect() {
	want=$1 name=$2
	shift 2
	"$@" >"$tmp/last" 2>&1
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$name"; else bad "$name (rc $got, want $want)"; sed 's/^/     /' "$tmp/last" | tail -n 5; fi
}
# has NAME FILE TEXT: FILE contains the fixed string TEXT.
has() {
	if grep -qF -- "$3" "$2"; then ok "$1"; else bad "$1 (no '$3' in $2)"; fi
}

perf() { # perf.sh NAME ARGS: the fake harness, the fixture debugfs, out in $tmp/NAME
	n=$1
	shift
	FAKE_HARNESS_STATE="$tmp/state.$n" VGSP_DEBUGFS=$fx/debugfs-after \
		sh perf.sh --bin "$o" --harness tests/fake_harness.sh --commit test --out "$tmp/$n" "$@"
}

# 1. perf.sh end to end
expect 0 "perf.sh: 3 runs aggregate and validate" perf p3 --runs 3
has "perf.sh: runs = 3" "$tmp/p3/results.json" '"runs": 3,'
has "perf.sh: metric n = 3" "$tmp/p3/results.json" '"n": 3,'
has "perf.sh: verification OK" "$tmp/p3/results.json" '"status": "OK"'
has "perf.sh: debugfs counters read" "$tmp/p3/results.json" '"inst0.work_gr"'
has "perf.sh: host_gr from gr_launches" "$tmp/p3/results.json" '"submit_to_ok_ms": 7.887'
has "perf.sh: clock digest recorded" "$tmp/p3/results.json" '"guest_gpu_clocks": "n/a: role=host'
has "perf.sh: progress shown" "$tmp/last" 'run 2/3 rc=0 status=OK'
has "perf.sh: command recorded" "$tmp/p3/command.txt" "'--runs' '3'"
[ -f "$tmp/p3/run-03.txt" ] && ok "perf.sh: raw run output kept" || bad "perf.sh: raw run output kept"

# 2. a failing run is reported, not hidden
FAKE_HARNESS_FAIL=2 expect 1 "perf.sh: failed run gives non-zero exit" perf pf --runs 3
has "perf.sh: failed run -> status FAIL" "$tmp/pf/results.json" '"status": "FAIL"'
has "perf.sh: failed run counted" "$tmp/pf/results.json" '"runs_failed": 1'
expect 0 "perf-validate: FAIL result is still well-formed" "$o/perf-validate" $schema "$tmp/pf/results.json"
expect 2 "perf.sh: --runs 0 refused" sh perf.sh --runs 0 --out "$tmp/p0"
expect 2 "perf.sh: bad role refused" sh perf.sh --role vm --out "$tmp/p0"

# 3. guest aggregation with host-side clocks (the pair flow's last step)
cp -r "$tmp/p3" "$tmp/g" && rm "$tmp/g/results.json"
expect 0 "perf.sh --aggregate-only as guest" sh perf.sh --role guest --bin "$o" --out "$tmp/g" \
	--aggregate-only --host-clocks $fx/nvidia-smi-clock-h200.txt
has "guest: host clocks digested" "$tmp/g/results.json" '"host_gpu_clocks": "driver 580.159.04'
has "guest: role" "$tmp/g/results.json" '"role": "guest"'

# 4. perf-validate rejects broken files
head -c 300 $fx/results-sample.json >"$tmp/trunc.json"
expect 1 "perf-validate: truncated JSON rejected" "$o/perf-validate" $schema "$tmp/trunc.json"
sed '0,/"mean": [0-9.]*/s//"mean": 1.5/' $fx/results-sample.json >"$tmp/edited.json"
expect 1 "perf-validate: hand-edited mean rejected" "$o/perf-validate" $schema "$tmp/edited.json"
has "perf-validate: says which field" "$tmp/last" 'aggregate.init_ms: mean = 1.5'
expect 2 "perf-validate: unreadable schema" "$o/perf-validate" "$tmp/none.json" $fx/results-sample.json

# 5. ab-report
expect 0 "ab-report: A vs A" "$o/ab-report" --schema $schema --md "$tmp/aa.md" --svg "$tmp/aa.svg" \
	$fx/results-sample.json $fx/results-sample.json
has "ab-report: A vs A reads 100%" "$tmp/aa.md" '| 100.0 | 100.0 |'
has "ab-report: nothing flagged" "$tmp/aa.md" '0 miss their target'
has "ab-report: svg written" "$tmp/aa.svg" '</svg>'
has "ab-report: md links svg" "$tmp/aa.md" '](aa.svg)'

sed 's/"n_warm": "100"/"n_warm": "50"/' $fx/results-sample.json >"$tmp/cfg.json"
expect 2 "ab-report: different run_cfg refused" "$o/ab-report" $fx/results-sample.json "$tmp/cfg.json"
has "ab-report: says what differs" "$tmp/last" 'run_cfg.n_warm differs (A: 100, B: 50)'
sed 's/"device": "NVIDIA H200"/"device": "NVIDIA H100"/' $fx/results-sample.json >"$tmp/dev.json"
expect 2 "ab-report: different device refused" "$o/ab-report" $fx/results-sample.json "$tmp/dev.json"
has "ab-report: says device" "$tmp/last" 'devices differ'
expect 2 "ab-report: invalid B refused with --schema" "$o/ab-report" --schema $schema \
	$fx/results-sample.json "$tmp/edited.json"
expect 2 "ab-report: missing file refused" "$o/ab-report" $fx/results-sample.json "$tmp/nope.json"

# B with 16 MiB H2D copies at about 80% of A: must be flagged.
for i in 1 2; do
	awk '$2 == "copy_htod_16777216_gbps" { $3 = $3 * 0.8 } { print }' \
		$fx/run-h200-$i.txt >"$tmp/slow-$i.txt"
done
"$o/perf-results" --role guest --env module_sha256=t --env insmod_args=t --env host_gpu_clocks=t \
	--env guest_gpu_clocks=t --env commit=t -o "$tmp/slow.json" "$tmp/slow-1.txt" "$tmp/slow-2.txt"
expect 0 "ab-report: slow B reported" "$o/ab-report" --md "$tmp/slow.md" $fx/results-sample.json "$tmp/slow.json"
has "ab-report: slow copy flagged" "$tmp/slow.md" '| `copy_htod_16777216_gbps` | bulk copy | >= 95% |'
has "ab-report: flag text" "$tmp/slow.md" '| 80.0 | 80.0 | '
has "ab-report: summary names it" "$tmp/slow.md" '1 miss their target: `copy_htod_16777216_gbps` (80.0%)'
expect 1 "ab-report --strict fails on a flag" "$o/ab-report" --strict --md "$tmp/s2.md" \
	$fx/results-sample.json "$tmp/slow.json"

# 6. benchmark_infrastructure.sh ab
expect 0 "benchmark_infrastructure.sh ab" env PERF_BIN="$o" sh ../../tools/benchmark_infrastructure.sh ab \
	$fx/results-sample.json "$tmp/slow.json" "$tmp/bi"
[ -s "$tmp/bi/ab-report.md" ] && [ -s "$tmp/bi/ab-report.svg" ] && ok "benchmark_infrastructure.sh: report files" ||
	bad "benchmark_infrastructure.sh: report files"
expect 2 "benchmark_infrastructure.sh: unknown command" sh ../../tools/benchmark_infrastructure.sh frobnicate

# A metric only one side has is listed, not dropped silently.
for i in 1 2; do grep -v '^metric module_load_ms ' $fx/run-h200-$i.txt >"$tmp/nomod-$i.txt"; done
"$o/perf-results" --role guest --env module_sha256=t --env insmod_args=t --env host_gpu_clocks=t \
	--env guest_gpu_clocks=t --env commit=t -o "$tmp/nomod.json" "$tmp/nomod-1.txt" "$tmp/nomod-2.txt"
expect 0 "ab-report: B lacking a metric" "$o/ab-report" --md "$tmp/nomod.md" $fx/results-sample.json "$tmp/nomod.json"
has "ab-report: lists the missing metric" "$tmp/nomod.md" '| `module_load_ms` | — | — | — | present | **missing in B** |'

# What bounds each metric (issue #11): a column, a legend, the chart's labels, --bound.
has "ab-report: bound of a compute metric" "$tmp/slow.md" '| `kernel_fma_gflops` | compute | >= 95% | GPU |'
has "ab-report: bound of a bulk copy" "$tmp/slow.md" '| `copy_htod_16777216_gbps` | bulk copy | >= 95% | data path |'
has "ab-report: bound of init" "$tmp/slow.md" '| `init_ms` | initialization | B <= 2x A | guest CPU (TCG) |'
has "ab-report: bound of event-timed launch" "$tmp/slow.md" '| `launch_warm_event_p50` | sync latency | none agreed | forwarding |'
has "ab-report: misses split by bound" "$tmp/slow.md" 'Of the misses, 0 are bound by the guest'"'"'s CPU'
expect 0 "ab-report --bound relabels" "$o/ab-report" --bound 'copy_*=host CPU' --bound 'copy_htod_*=never' \
	--md "$tmp/bound.md" --svg "$tmp/bound.svg" $fx/results-sample.json "$tmp/slow.json"
has "ab-report --bound: first match wins" "$tmp/bound.md" '| `copy_htod_16777216_gbps` | bulk copy | >= 95% | host CPU |'
has "ab-report: svg shows the bound" "$tmp/bound.svg" 'kernel_fma_gflops [GPU]'
has "ab-report: svg marks TCG-bound rows" "$tmp/bound.svg" 'init_ms [TCG]'
expect 2 "ab-report: --bound without =" "$o/ab-report" --bound nonsense $fx/results-sample.json "$tmp/slow.json"

# A guest's vGPU has its own name: allowed only with --devices-may-differ, A host, B guest.
sed 's/"device": "NVIDIA H200"/"device": "NVIDIA H100 80GB HBM3"/' "$tmp/slow.json" >"$tmp/gdev.json"
expect 2 "ab-report: guest device name refused by default" "$o/ab-report" $fx/results-sample.json "$tmp/gdev.json"
expect 0 "ab-report --devices-may-differ: host vs guest" "$o/ab-report" --devices-may-differ \
	--md "$tmp/gdev.md" $fx/results-sample.json "$tmp/gdev.json"
has "ab-report: both device names shown" "$tmp/gdev.md" '| guest | NVIDIA H100 80GB HBM3 |'
has "ab-report: says the names differ" "$tmp/gdev.md" 'The devices'"'"' names differ'
expect 2 "ab-report --devices-may-differ: B must be a guest" "$o/ab-report" --devices-may-differ \
	"$tmp/gdev.json" $fx/results-sample.json

# The chart colours a missed target red, and only then.
"$o/ab-report" --md "$tmp/slow2.md" --svg "$tmp/slow2.svg" $fx/results-sample.json "$tmp/slow.json" >/dev/null 2>&1
has "ab-report: svg marks the miss" "$tmp/slow2.svg" 'fill="#d62728"/>'
if grep -q 'fill="#d62728"/>' "$tmp/aa.svg"; then bad "ab-report: A vs A svg has no red bar"; else ok "ab-report: A vs A svg has no red bar"; fi

# 7. the pair flow, with the guest simulated by running locally (GUEST_EXEC=env)
FAKE_HARNESS_STATE="$tmp/state.pair" PERF_RESULTS_DIR="$tmp/pair" PERF_BIN="$o" GUEST_EXEC=env \
	VGSP_DEBUGFS=$fx/debugfs-after expect 0 "benchmark_infrastructure.sh pair (simulated guest)" \
	sh ../../tools/benchmark_infrastructure.sh pair --bin "$o" --harness tests/fake_harness.sh --commit test --runs 2
gdir=$(ls -d "$tmp"/pair/*-guest 2>/dev/null | head -n 1)
has "pair: B aggregated as guest" "$gdir/results.json" '"role": "guest"'
has "pair: B carries host-side debugfs" "$gdir/results.json" '"inst0.work_gr"'
has "pair: report written" "$gdir/ab-report.md" '| `kernel_fma_gflops` | compute |'

# 8. perf.sh's guest-side hooks: harness options, a command after each run, --env overrides
FAKE_HARNESS_EXTRA="--fma-blocks 7 --skip-kernels" expect 0 "perf.sh --harness-args reach the harness" \
	perf ha --runs 2 --harness-args "--fma-blocks 7 --skip-kernels" \
	--after-run 'echo "after $(basename "$1") in $(basename "$2")" >>"$2/after.txt"'
has "perf.sh: harness_args recorded" "$tmp/ha/env.txt" 'harness_args=--fma-blocks 7 --skip-kernels'
has "perf.sh: --after-run after run 1" "$tmp/ha/after.txt" 'after run-01.txt in ha'
has "perf.sh: --after-run after run 2" "$tmp/ha/after.txt" 'after run-02.txt in ha'
rm "$tmp/ha/results.json"
expect 0 "perf.sh --aggregate-only --env overrides env.txt" sh perf.sh --role guest --bin "$o" --out "$tmp/ha" \
	--aggregate-only --env "commit=from the host" --env "guest_image=bundle x" \
	--host-clocks $fx/nvidia-smi-clock-h200.txt --host-clocks-before $fx/nvidia-smi-clock-h200.txt
has "perf.sh --env: commit overridden" "$tmp/ha/results.json" '"commit": "from the host"'
has "perf.sh --env: new field" "$tmp/ha/results.json" '"guest_image": "bundle x"'
has "perf.sh: host clocks before digested" "$tmp/ha/results.json" '"host_gpu_clocks_before": "driver 580.159.04'
expect 2 "perf.sh: --env without = refused" sh perf.sh --env nonsense --out "$tmp/p0"
# a run with skipped metrics parses; the skipped ones are absent, not zero
{ grep -v -E '^metric (launch|throughput|kernel_fma|clock64)' $fx/run-h200-1.txt |
	sed '/^metric module_load_ms/a skipped launch_first_ms --skip-kernels'; } >"$tmp/skip-1.txt"
"$o/perf-results" --role guest --env module_sha256=t --env insmod_args=t --env host_gpu_clocks=t \
	--env guest_gpu_clocks=t --env commit=t -o "$tmp/skip.json" "$tmp/skip-1.txt" >"$tmp/last" 2>&1
if grep -q '"launch_first_ms": {' "$tmp/skip.json"; then bad "perf-results: skipped metric absent"; else ok "perf-results: skipped metric absent"; fi
has "perf-results: skipped metric listed with its reason" "$tmp/skip.json" '"launch_first_ms": "--skip-kernels"' 
has "perf-results: copies of a skip-kernels run kept" "$tmp/skip.json" '"copy_htod_16777216_gbps"'

# 8. device -> device copies (issue #11: D2D 16 MiB >= 90%): measured on A, skipped with the
# harness's reason on B (--skip-kernels), then measured slow on B; a reference run beside A and B
res() { # res OUT RUN...: perf-results with placeholder environment fields
	out=$1
	shift
	"$o/perf-results" --role guest --env module_sha256=t --env insmod_args=t --env host_gpu_clocks=t \
		--env guest_gpu_clocks=t --env commit=t --env "harness_args=--fma-gap-ms 100" -o "$out" "$@"
}
for i in 1 2; do
	awk -v f=20 '{ print } $1 == "metric" && $2 ~ /^copy_htod_/ { n = $2; sub(/htod/, "dtod", n); print "metric", n, $3 * f }' \
		$fx/run-h200-$i.txt >"$tmp/d2d-a-$i.txt"
	awk '{ print } $1 == "metric" && $2 ~ /^copy_htod_/ { n = $2; sub(/htod/, "dtod", n)
		print "skipped", n, "--skip-kernels: libcuda 535 runs cuMemcpyDtoD as an sm_90 kernel" }' \
		$fx/run-h200-$i.txt >"$tmp/d2d-s-$i.txt"
	awk -v f=17 '{ print } $1 == "metric" && $2 ~ /^copy_htod_/ { n = $2; sub(/htod/, "dtod", n); print "metric", n, $3 * f }' \
		$fx/run-h200-$i.txt >"$tmp/d2d-b-$i.txt"
	awk '$2 == "kernel_fma_ms" { $3 = $3 * 4 } $2 == "kernel_fma_gflops" { $3 = $3 / 4 } { print }' \
		"$tmp/d2d-a-$i.txt" >"$tmp/d2d-r-$i.txt"
done
res "$tmp/d2d-a.json" "$tmp/d2d-a-1.txt" "$tmp/d2d-a-2.txt" >"$tmp/last" 2>&1
res "$tmp/d2d-s.json" "$tmp/d2d-s-1.txt" "$tmp/d2d-s-2.txt" >"$tmp/last" 2>&1
res "$tmp/d2d-b.json" "$tmp/d2d-b-1.txt" "$tmp/d2d-b-2.txt" >"$tmp/last" 2>&1
res "$tmp/d2d-r.json" "$tmp/d2d-r-1.txt" "$tmp/d2d-r-2.txt" >"$tmp/last" 2>&1
expect 0 "perf-validate: D2D measured" "$o/perf-validate" $schema "$tmp/d2d-a.json"
expect 0 "perf-validate: D2D skipped with a reason" "$o/perf-validate" $schema "$tmp/d2d-s.json"
has "perf-results: D2D's skip reason kept" "$tmp/d2d-s.json" '"copy_dtod_16777216_gbps": "--skip-kernels: libcuda 535'
grep -v '^skipped copy_dtod_4096' "$tmp/d2d-s-1.txt" >"$tmp/d2d-x-1.txt"
res "$tmp/d2d-x.json" "$tmp/d2d-x-1.txt" >"$tmp/last" 2>&1
expect 1 "perf-validate: one D2D size neither measured nor skipped" "$o/perf-validate" $schema "$tmp/d2d-x.json"
has "perf-validate: names the D2D size" "$tmp/last" 'size 4096 has no copy_dtod_4096_gbps'
expect 0 "ab-report: D2D skipped in B" "$o/ab-report" --schema $schema --md "$tmp/d2d-s.md" "$tmp/d2d-a.json" "$tmp/d2d-s.json"
has "ab-report: skipped D2D row with its reason" "$tmp/d2d-s.md" \
	'| `copy_dtod_16777216_gbps` | device copy | >= 90% | GPU | present | **skipped in B**: --skip-kernels: libcuda 535'
has "ab-report: skipped is not measured" "$tmp/d2d-s.md" 'not measured |'
has "ab-report: skips counted apart" "$tmp/d2d-s.md" '4 metrics measured on one side only were skipped on the other'
has "ab-report: skips are no pass" "$tmp/d2d-s.md" '0 miss their target.'
expect 0 "ab-report: D2D measured in B" "$o/ab-report" --schema $schema --ref "A-sparse=$tmp/d2d-r.json" \
	--md "$tmp/d2d-b.md" "$tmp/d2d-a.json" "$tmp/d2d-b.json"
has "ab-report: D2D 16 MiB at 85% misses 90%" "$tmp/d2d-b.md" '| `copy_dtod_16777216_gbps` | device copy | >= 90% | GPU |'
has "ab-report: D2D named in the summary" "$tmp/d2d-b.md" '`copy_dtod_16777216_gbps` (85.0%)'
has "ab-report --ref: its own table" "$tmp/d2d-b.md" '### Reference run: A-sparse'
has "ab-report --ref: harness args shown" "$tmp/d2d-b.md" 'harness_args `--fma-gap-ms 100`'
has "ab-report --ref: kernel_fma_ms at 25% of A, B at 400% of A-sparse" "$tmp/d2d-b.md" ' | 25.0 | 100.0 | 400.0 |'
if awk '/^### Reference/ { exit } /copy_dtod_16777216_gbps/ && /A-sparse/ { f = 1 } END { exit !f }' "$tmp/d2d-b.md"; then
	bad "ab-report --ref: the main table stays B vs A"; else ok "ab-report --ref: the main table stays B vs A"; fi
sed 's/"n_warm": "100"/"n_warm": "50"/' "$tmp/d2d-r.json" >"$tmp/d2d-rc.json"
expect 0 "ab-report --ref: another run_cfg left out, not compared" "$o/ab-report" --ref "x=$tmp/d2d-rc.json" \
	--md "$tmp/d2d-rc.md" "$tmp/d2d-a.json" "$tmp/d2d-b.json"
has "ab-report --ref: says why" "$tmp/d2d-rc.md" 'Left out: its run_cfg differs'
expect 2 "ab-report: --ref without =" "$o/ab-report" --ref nonsense "$tmp/d2d-a.json" "$tmp/d2d-b.json"

# 10. the harness itself end to end against tests/fake_libcuda.c (device memory = host memory):
# D2D measured and read back, the --fma-gap-ms gap, the phase marks, --skip-kernels, a corrupt D2D
fh() { # fh NAME ARGS: the harness on the fake libcuda, output in $tmp/NAME.txt, marks in $tmp/NAME.marks
	n=$1
	shift
	LD_LIBRARY_PATH="$o/fakecuda" "$o/perf-harness" --sizes 4096,1048576 --fma-reps 3 \
		--mark-file "$tmp/$n.marks" "$@" >"$tmp/$n.txt" 2>"$tmp/$n.err"
}
expect 0 "harness (fake libcuda): a run verifies" fh h1 --fma-gap-ms 20
has "harness: D2D measured per size" "$tmp/h1.txt" 'metric copy_dtod_1048576_gbps '
has "harness: D2D read back byte for byte" "$tmp/h1.txt" 'check copy_dtod_1048576_bytes checks=1048576 bad=0'
if awk '$2 == "kernel_fma_gap" { split($4, m, "="); exit !(m[1] == "host_gap_ms_min" && m[2] >= 20) } END { if (NR == 0) exit 1 }' "$tmp/h1.txt" &&
	grep -q '^info kernel_fma_gap gap_ms_set=20 ' "$tmp/h1.txt"; then
	ok "harness: --fma-gap-ms 20 leaves >= 20 ms before each timed launch"
else bad "harness: --fma-gap-ms 20 leaves >= 20 ms before each timed launch"; fi
if [ "$(grep -c '^vgsp-perf-mark phase [a-z0-9_]* \(begin\|end\)$' "$tmp/h1.marks")" = 12 ] &&
	grep -qx 'vgsp-perf-mark phase kernel_fma begin' "$tmp/h1.marks"; then
	ok "harness: six phases marked, begin and end"
else bad "harness: six phases marked, begin and end"; fi
expect 0 "harness (fake libcuda): --skip-kernels" fh h2 --skip-kernels
has "harness: D2D skipped with its reason" "$tmp/h2.txt" 'skipped copy_dtod_4096_gbps --skip-kernels: libcuda 535 runs cuMemcpyDtoD'
if grep -q '^metric copy_dtod' "$tmp/h2.txt" || grep -q 'phase kernel_fma' "$tmp/h2.marks"; then
	bad "harness: no D2D and no kernel phase with --skip-kernels"; else ok "harness: no D2D and no kernel phase with --skip-kernels"; fi
FAKE_CUDA_DTOD_CORRUPT=1 expect 1 "harness: a corrupt D2D copy fails the run" fh h3
unset FAKE_CUDA_DTOD_CORRUPT
has "harness: the D2D check counts it" "$tmp/h3.txt" 'check copy_dtod_4096_bytes checks=4096 bad=1'
has "harness: status FAIL" "$tmp/h3.txt" 'status FAIL'
expect 2 "harness: --mark-file that cannot be opened" fh h4 --mark-file "$tmp/no/such/dir/marks"
res "$tmp/h1.json" "$tmp/h1.txt" >"$tmp/last" 2>&1
expect 0 "perf-validate: the fake run's results with D2D" "$o/perf-validate" $schema "$tmp/h1.json"

# 9. the committed embedded PTX matches kernels/kernels.ptx
sh kernels/embed_ptx.sh kernels/kernels.ptx "$tmp/kernels_ptx.c"
expect 0 "src/kernels_ptx.c is in sync with kernels/kernels.ptx" cmp "$tmp/kernels_ptx.c" src/kernels_ptx.c

echo "RESULT $pass $fail"
