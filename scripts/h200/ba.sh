#!/bin/sh
# ba.sh — the B/A pair of issue #11 in ONE device call on the GPU machine: the open-iov-perf/1
# harness natively on the GPU (A, role host), then the same binary inside the stock 535 guest on
# the vgsp vGPU through vgsp-vfu --backend hostd (B, role guest; scripts/h200/rung3.sh boots it
# with init.sh's perf=1 hook), the guest's run files taken back from its console
# (scripts/guest/console-extract.sh), aggregated here with this side's clocks and vgsp-vfu's
# counters around the runs, and the A/B report (ab-report: Markdown + SVG, each metric labelled
# with what bounds it). Everything under --out.
#
# usage: sh scripts/h200/ba.sh --bundle DIR --out DIR [--runs-a N] [--runs-b N]
#            [--n-warm N] [--n-malloc N] [--n-thru N] [--sizes B,B,..] [--fma-blocks N]
#            [--budget S] [--a-timeout S] [--rung3] [--vfu-args "ARGS"] [--commit TEXT]
#            [--bound GLOB=LABEL]... [--tar FILE] [--sim] [--runs-sparse N]
#            [--sparse-gap-ms N] [--trace-ms N] [--idle-mhz N]
#        sh scripts/h200/ba.sh --post-only --out DIR [--bundle DIR] [--idle-mhz N]
# --bundle DIR: made by scripts/guest/make-bundle.sh DIR (carried with the call): the guest, its
#          QEMU, DIR/perf-harness (the guest image's harness: A runs this very binary) and
#          DIR/jansson.tar.gz (for perf-results/perf-validate/ab-report when the machine has no
#          jansson)
# --runs-a N (10), --runs-b N (5): runs on each side. The run_cfg is the same on both sides (the
#          A/B tool refuses a pair that differs): --n-warm 100 --n-malloc 50 --n-thru 100
#          --sizes 4096,262144,4194304,16777216 (the results template's) unless given
# --fma-blocks N (1056 = 132 SMs x 2048 threads / 256, the H200's own grid): k_fma's grid on
#          BOTH sides; the vGPU reports fewer SMs than the GPU that runs its kernels, so without
#          it the guest would size a smaller workload
# --budget S (530): the whole call's wall time; the guest gets what is left after A, less 45 s
#          for the work after it. --a-timeout S (150): A's limit
# --rung3: the guest also climbs rung 3 before perf (rung3.sh --golden: native goldens,
#          cudacheck strict, rung3check, the byte comparison); default: perf only (rung3.sh
#          --rung1 with perf=1: nvidia.ko + nvidia-uvm, nvidia-smi -L, perf)
# --vfu-args, --commit (default $R3_TREE, else git HEAD), --bound (to ab-report, relabels what
#          bounds a metric), --tar FILE (the out dir as a .tgz at the end, e.g. $OUT/ba.tgz)
# --sim: a dry run of the whole flow on a machine without the GPU: vgsp-vfu on the sim backend
#          (no --hostd) and the guest's harness with --skip-kernels (sim has no SMs); A fails
#          there (no libcuda), so no report, but the guest, its marks, the extraction, the
#          counters and B's aggregation run as on the device
# --runs-sparse N (= --runs-a; 0: none), --sparse-gap-ms N (100): "A-sparse", a third run
#          natively after A: the same harness with --fma-gap-ms N, the GPU idle N ms before each
#          timed k_fma launch, as B's guest leaves it between launches under TCG (each run's
#          "info kernel_fma_gap" says how long the gap really was on every side). If A-sparse
#          falls to B's kernel_fma, launch sparsity is what bounds B. Its own results.json
#          (host-sparse/), in the report as a table beside A and B (ab-report --ref); the main
#          table stays B vs A
# --trace-ms N (20), --idle-mhz N (345): the GPU's clocks are sampled during A, A-sparse and B
#          (nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,pstate -lms N,
#          in the background, stopped after each side; it only reads: no clock, power,
#          persistence or MIG setting is touched). The harness marks its phases
#          (--mark-file: a file natively, /dev/console in the guest) and a stamper here stamps
#          each mark line as it appears; scripts/h200/clock-phases.sh cuts the traces at them:
#          per side, the SM clock (min/p50/max, share at idle <= --idle-mhz) within the
#          kernel_fma phase and overall. VGSP_NVIDIA_SMI names another nvidia-smi for the trace
#          (a dry run's stand-in)
# --post-only: redo the steps after the guest (extract, counters, aggregate, report) on an out
#          dir made by a run (here or on the host, with the host's own jansson)
# Out dir: ba.log (this output), host/ (A: perf.sh's run files, results.json), r3/ (rung3.sh's
#          files; r3/guest/console.txt is the guest console), guest/ (B: the files extracted
#          from the console, results.json), host-side/ (nvidia-smi clocks and vgsp-vfu counters
#          at the guest's "vgsp-perf-mark" lines, as counter dirs), ab/ (ab-report.md, .svg),
#          host-sparse/ (A-sparse), clocks/ (trace-SIDE.csv, marks-SIDE.txt: the stamped marks,
#          phases.txt: the per-side clock summary, also in the report and summary.txt),
#          summary.txt. The last line: "BA PASS|FAIL: ...". Exit 0 when A and B both aggregated
#          with every run verified and the report was written.
set -u
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT" || exit 2
CMDLINE="sh scripts/h200/ba.sh $*"
BUNDLE="" OUT="" RA=10 RB=5 NWARM=100 NMALLOC=50 NTHRU=100 SIZES=4096,262144,4194304,16777216
FB=1056 BUDGET=530 ATMO=150 RUNG3=0 VFUARGS="" COMMIT=${R3_TREE:-} BOUNDS="" TAR="" POST=0 SIM=0
RS="" GAP=100 TRACE_MS=20 IDLE=345 NVSMI=${VGSP_NVIDIA_SMI:-nvidia-smi}
while [ $# -gt 0 ]; do
	case $1 in
	--bundle) BUNDLE=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--runs-a) RA=$2; shift 2 ;;
	--runs-b) RB=$2; shift 2 ;;
	--n-warm) NWARM=$2; shift 2 ;;
	--n-malloc) NMALLOC=$2; shift 2 ;;
	--n-thru) NTHRU=$2; shift 2 ;;
	--sizes) SIZES=$2; shift 2 ;;
	--fma-blocks) FB=$2; shift 2 ;;
	--budget) BUDGET=$2; shift 2 ;;
	--a-timeout) ATMO=$2; shift 2 ;;
	--rung3) RUNG3=1; shift ;;
	--vfu-args) VFUARGS=$2; shift 2 ;;
	--commit) COMMIT=$2; shift 2 ;;
	--bound) BOUNDS="$BOUNDS$2
"; shift 2 ;;
	--tar) TAR=$2; shift 2 ;;
	--post-only) POST=1; shift ;;
	--sim) SIM=1; shift ;;
	--runs-sparse) RS=$2; shift 2 ;;
	--sparse-gap-ms) GAP=$2; shift 2 ;;
	--trace-ms) TRACE_MS=$2; shift 2 ;;
	--idle-mhz) IDLE=$2; shift 2 ;;
	*) echo "ba: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$OUT" ] || { sed -n '10,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ "$POST" = 1 ] || [ -n "$BUNDLE" ] || { echo "ba: --bundle DIR is required" >&2; exit 2; }
RS=${RS:-$RA}
for v in "$RA" "$RB" "$NWARM" "$NMALLOC" "$NTHRU" "$FB" "$BUDGET" "$ATMO" "$RS" "$GAP" "$TRACE_MS" "$IDLE"; do
	case $v in ''|*[!0-9]*) echo "ba: '$v' is not a count" >&2; exit 2 ;; esac
done
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
[ -z "$BUNDLE" ] || BUNDLE=$(cd "$BUNDLE" 2>/dev/null && pwd) || { echo "ba: no bundle directory" >&2; exit 2; }
CUDA=userspace/cuda
SCHEMA=$CUDA/schema/open-iov-perf-1.schema.json
W=$(mktemp -d /tmp/ba-work.XXXXXX) || exit 2
BIN=$W/bin
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }
WATCH="" TRPID="" STPID=""
CLK=$OUT/clocks
cleanup() {
	[ -z "$WATCH" ] || kill "$WATCH" 2>/dev/null
	trace_stop
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# --- the GPU's clocks and the phase marks, per side (A, A-sparse, B) --------------------------
# trace_start SIDE: nvidia-smi samples the clocks into clocks/trace-SIDE.csv until trace_stop.
# Reads only; never sets clocks, power, persistence or MIG.
trace_start() {
	mkdir -p "$CLK"
	TRPID=""
	if ! command -v "$NVSMI" > /dev/null 2>&1; then
		echo "unavailable: $NVSMI not found" > "$CLK/trace-$1.txt"
		return 0
	fi
	lp="-lms $TRACE_MS"
	if ! "$NVSMI" -h 2>&1 | grep -q -- '-lms'; then
		lp="-l 1"
		echo "nvidia-smi has no -lms: 1 s samples" > "$CLK/trace-$1.txt"
	fi
	# shellcheck disable=SC2086 # lp is two words
	# under timeout: the sampler never outlives the call's budget, whatever happens to ba.sh
	timeout "$((BUDGET + 30))" "$NVSMI" --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,pstate \
		--format=csv,noheader $lp > "$CLK/trace-$1.csv" 2> "$CLK/trace-$1.err" &
	TRPID=$!
}
# trace_stop: ends the sampler and the stamper, whichever runs (the stamper's tail first: its
# pipeline then drains and ends by itself)
trace_stop() {
	if [ -n "$TRPID" ]; then kill "$TRPID" 2>/dev/null; wait "$TRPID" 2>/dev/null; fi
	TRPID=""
	for pf in "$W"/tail-*.pid; do
		[ -f "$pf" ] || continue
		kill "$(cat "$pf")" 2>/dev/null
		rm -f "$pf"
	done
	if [ -n "$STPID" ]; then wait "$STPID" 2>/dev/null; fi
	STPID=""
	for f in "$CLK"/trace-*.err; do [ -s "$f" ] || rm -f "$f"; done
}
# stamp_start FILE SIDE: every "vgsp-perf-mark" line FILE gets (the guest's console, or the
# harness's --mark-file natively), as it is written, with this machine's time in the trace's
# format, into clocks/marks-SIDE.txt
stamp_start() {
	mkdir -p "$CLK"
	# shellcheck disable=SC2016 # $$ and $0.. belong to the inner sh
	sh -c 'echo $$ > "$0"; exec tail -n +1 -F -s 0.02 --pid="$2" "$1" 2> /dev/null' \
		"$W/tail-$2.pid" "$1" "$$" | grep --line-buffered -a '^vgsp-perf-mark ' |
		while IFS= read -r l; do
			printf '%s %s\n' "$(date '+%Y/%m/%d %H:%M:%S.%3N')" "${l%"$CR"}"
		done >> "$CLK/marks-$2.txt" &
	STPID=$!
}
CR=$(printf '\r')
# nlines PATTERN FILE: how many lines of FILE match (0 when none or no file)
nlines() { n=$(grep -c -- "$1" "$2" 2>/dev/null); echo "${n:-0}"; }

# The clock summary per side, the launch gaps the harness saw, into clocks/phases.txt
clocks_summary() {
	mkdir -p "$CLK"
	{
		echo "GPU clocks per side (nvidia-smi every ${TRACE_MS} ms; phases cut at the harness's marks, stamped here; idle = SM <= $IDLE MHz; p50 nearest rank):"
		for s in a a-sparse b; do
			if [ -s "$CLK/trace-$s.csv" ] && [ -s "$CLK/marks-$s.txt" ]; then
				sh scripts/h200/clock-phases.sh --idle-mhz "$IDLE" --label "$s" \
					"$CLK/trace-$s.csv" "$CLK/marks-$s.txt" kernel_fma
				[ ! -f "$CLK/trace-$s.txt" ] || echo "$s note: $(cat "$CLK/trace-$s.txt")"
			elif [ -f "$CLK/trace-$s.txt" ] || [ -f "$CLK/marks-$s.txt" ]; then
				echo "$s: no clock figures: $(cat "$CLK/trace-$s.txt" 2>/dev/null || echo "$(nlines . "$CLK/trace-$s.csv") samples")$([ -s "$CLK/marks-$s.txt" ] && echo "; $(nlines ' phase ' "$CLK/marks-$s.txt") phase marks stamped" || echo '; no marks stamped')"
			fi
		done
		echo "Host time from one k_fma's end to the next launch (info kernel_fma_gap: each run's p50; the median over runs):"
		ng=0
		for d in host:A host-sparse:A-sparse guest:B; do
			g=$(cat "$OUT/${d%%:*}"/run-*.txt 2>/dev/null | sed -n 's/^info kernel_fma_gap .*host_gap_ms_p50=\([0-9.]*\).*/\1/p' | sort -n)
			set=$(cat "$OUT/${d%%:*}"/run-*.txt 2>/dev/null | sed -n 's/^info kernel_fma_gap gap_ms_set=\([0-9]*\).*/\1/p' | head -n 1)
			[ -n "$g" ] || continue
			n=$(echo "$g" | wc -l)
			echo "  ${d#*:}: $(echo "$g" | sed -n "$(((n + 1) / 2))p") ms (runs: $(echo "$g" | tr '\n' ' ' | sed 's/ $//'); --fma-gap-ms ${set:-0})"
			ng=$((ng + 1))
		done
		[ "$ng" -gt 0 ] || echo "  none: no run printed info kernel_fma_gap (no k_fma ran, or an older harness)"
	} > "$CLK/phases.txt" 2>&1
}

# --- the tools: perf-results, perf-validate, ab-report (jansson: the bundle's, else the system's)
build_tools() {
	jp=""
	if [ -n "$BUNDLE" ] && [ -f "$BUNDLE/jansson.tar.gz" ]; then
		mkdir -p "$W/jansson" && gzip -dc "$BUNDLE/jansson.tar.gz" | tar -x -C "$W/jansson" && jp=$W/jansson
	fi
	make -s -C "$CUDA" O="$BIN" ${jp:+JANSSON_PREFIX="$jp"} "$BIN/perf-results" "$BIN/perf-validate" \
		"$BIN/ab-report" > "$W/tools.log" 2>&1
}

# --- the steps after the guest: extract, counters, aggregate, report ------------------------
post() {
	G=$OUT/guest HS=$OUT/host-side
	mkdir -p "$G" "$HS"
	[ -n "$COMMIT" ] || COMMIT=$(cat "$OUT/commit.txt" 2>/dev/null)
	echo "ba: B's files from the guest console"
	if [ -f "$OUT/r3/guest/console.txt" ]; then
		sh scripts/guest/console-extract.sh "$OUT/r3/guest/console.txt" "$G" perf > "$W/extract.log" 2>&1
		xrc=$?
		sed 's/^/  /' "$W/extract.log" | grep -v ' ok$' | tail -n 12
		echo "  $(grep -c ' ok$' "$W/extract.log") files extracted (rc $xrc): $(find "$G" -name 'run-*.txt' | wc -l) run files"
	else
		echo "  no guest console ($OUT/r3/guest/console.txt)"
	fi
	# vgsp-vfu's counters at the guest's marks (else: none before, the final file after)
	for s in before after; do
		rm -rf "$HS/debugfs-$s"
		[ -f "$HS/vfu-stats-$s.txt" ] && sh scripts/guest/vfu-stats-dir.sh "$HS/vfu-stats-$s.txt" "$HS/debugfs-$s"
	done
	window="the guest's perf runs (vgsp-vfu --stats copied at its vgsp-perf-mark lines)"
	if { [ ! -d "$HS/debugfs-before" ] || [ ! -d "$HS/debugfs-after" ]; } && [ -f "$OUT/r3/guest/vfu-stats.txt" ]; then
		# no snapshot at a mark: the whole vgsp-vfu session (it starts from zero for this guest)
		rm -rf "$HS/debugfs-before" "$HS/debugfs-after"
		sh scripts/guest/vfu-stats-dir.sh "$OUT/r3/guest/vfu-stats.txt" "$HS/debugfs-after"
		mkdir -p "$HS/debugfs-before"
		for d in "$HS/debugfs-after"/*; do
			mkdir -p "$HS/debugfs-before/${d##*/}"
			for f in "$d"/*; do awk '{ print $1, 0 }' "$f" > "$HS/debugfs-before/${d##*/}/${f##*/}"; done
		done
		window="the whole vgsp-vfu session, boot included (no snapshot at the guest's marks; 'before' is the zero it starts from)"
		echo "  counters: $window"
	fi
	# the clocks per side and each side's launch gaps (B's from the files just extracted)
	[ ! -d "$CLK" ] || clocks_summary
	if ! ls "$G"/run-*.txt > /dev/null 2>&1 || [ ! -f "$G/env.txt" ]; then
		echo "ba: B has no run files or no env.txt: nothing to aggregate"
		return 1
	fi
	# The guest's own env.txt says what the guest knows; this side adds what only it knows.
	vfu=$(sed -n 's/^vgsp-vfu: \([^ ]*\) .*/\1/p' "$OUT/r3/guest/cmd.txt" 2>/dev/null)
	vargs=$(sed -n 's/^vgsp-vfu: .*, args: //p' "$OUT/r3/guest/cmd.txt" 2>/dev/null)
	prof=$(sed -n 's/^vgsp-vfu: .*, profile \([^ ,]*\).*/\1/p' "$OUT/r3/guest/cmd.txt" 2>/dev/null)
	if [ -n "$vfu" ] && [ -f "$vfu" ]; then
		vsha="$(sha256sum "$vfu" | cut -d' ' -f1) (vgsp-vfu: the vfio-user path, no vgsp.ko)"
	else
		vsha=$(cat "$HS/vfu-sha256.txt" 2>/dev/null || echo "unknown: vgsp-vfu binary not found")
	fi
	echo "$vsha" > "$HS/vfu-sha256.txt"
	set -- --role guest --out "$G" --bin "$BIN" --aggregate-only \
		--env "commit=${COMMIT:-unknown}" \
		--env "module_sha256=$vsha" \
		--env "insmod_args=vgsp-vfu --profile ${prof:-?}${vargs:+ $vargs} (vfio-user; QEMU TCG guest)" \
		--env "counters_window=$window" \
		--env "guest_image=$(sed -n 1p "$BUNDLE/MANIFEST" 2>/dev/null || sed -n 's/^manifest: //p' "$OUT/r3/bundle.txt" 2>/dev/null | head -n 1)" \
		--env "guest_image_build=$(tr '\n' ' ' < "$G/build.txt" 2>/dev/null)" \
		--env "host_harness_sha256=$(sed -n 's/^harness_sha256=//p' "$OUT/host/env.txt" 2>/dev/null)" \
		--env "ba_command=$(cat "$OUT/command.txt" 2>/dev/null)"
	[ -f "$HS/clocks-host-after.txt" ] && set -- "$@" --host-clocks "$HS/clocks-host-after.txt"
	[ -f "$HS/clocks-host-before.txt" ] && set -- "$@" --host-clocks-before "$HS/clocks-host-before.txt"
	[ -s "$OUT/host-driver.txt" ] && set -- "$@" --host-driver "$(cat "$OUT/host-driver.txt")"
	[ -d "$HS/debugfs-before" ] && set -- "$@" --debugfs-before "$HS/debugfs-before"
	[ -d "$HS/debugfs-after" ] && set -- "$@" --debugfs-after "$HS/debugfs-after"
	# no debugfs snapshot given: point at none, so the local machine's vgsp debugfs is never read
	[ -d "$HS/debugfs-before" ] || set -- "$@" --debugfs-before "$HS/none"
	[ -d "$HS/debugfs-after" ] || set -- "$@" --debugfs-after "$HS/none"
	rm -f "$G/results.json"
	echo "ba: aggregating B (perf.sh --aggregate-only, role guest)"
	sh "$CUDA/perf.sh" "$@" > "$W/agg-b.log" 2>&1
	brc=$?
	sed 's/^/  /' "$W/agg-b.log" | tail -n 6
	[ -f "$G/results.json" ] || return 1

	echo "ba: A/B report"
	mkdir -p "$OUT/ab"
	set -- --schema "$SCHEMA" --devices-may-differ --md "$OUT/ab/ab-report.md" --svg "$OUT/ab/ab-report.svg"
	[ ! -f "$OUT/host-sparse/results.json" ] || set -- "$@" --ref "A-sparse=$OUT/host-sparse/results.json"
	while IFS= read -r b; do [ -z "$b" ] || set -- "$@" --bound "$b"; done <<EOF
$BOUNDS
EOF
	"$BIN/ab-report" "$@" "$OUT/host/results.json" "$G/results.json" > "$W/ab.log" 2>&1
	arc=$?
	if [ "$arc" = 2 ] && grep -q 'not a valid open-iov-perf/1 result' "$W/ab.log"; then
		# a side that does not validate (a metric no run produced): compare what there is,
		# said at the top of the report
		shift 2
		"$BIN/ab-report" "$@" "$OUT/host/results.json" "$G/results.json" > "$W/ab2.log" 2>&1
		arc=$?
		if [ -f "$OUT/ab/ab-report.md" ]; then
			{
				echo "> **An input failed perf-validate**, so this report was made without"
				echo "> --schema and compares what both sides have; perf-validate said:"
				sed "s|$OUT/||g; s/^/> /" "$W/ab.log"
				echo
				cat "$OUT/ab/ab-report.md"
			} > "$W/ab.md" && mv "$W/ab.md" "$OUT/ab/ab-report.md"
		fi
	fi
	sed 's/^/  /' "$W/ab.log" | tail -n 5
	[ -f "$OUT/ab/ab-report.md" ] || return 1
	if [ -s "$CLK/phases.txt" ]; then
		{
			echo
			echo "## GPU clocks during the runs (ba.sh: \`clocks/\`)"
			echo
			echo '```'
			cat "$CLK/phases.txt"
			echo '```'
		} >> "$OUT/ab/ab-report.md"
	fi
	return "$((brc != 0 || arc != 0))"
}

summary() {
	md=$OUT/ab/ab-report.md
	{
		cfg=$(tr -d '\n ' < "$OUT/guest/results.json" 2>/dev/null | sed -n 's/.*"run_cfg":{\([^}]*\)}.*/\1/p' | tr -d '"')
		echo "ba: A = $OUT/host, B = $OUT/guest; run_cfg ${cfg:-?}; harness args: $(sed -n 's/^harness_args=//p' "$OUT/guest/env.txt" 2>/dev/null)"
		for s in host guest; do
			j=$OUT/$s/results.json
			[ -f "$j" ] || { echo "  $s: no results.json"; continue; }
			echo "  $s: device $(sed -n 's/^  "device": "\(.*\)",$/\1/p' "$j"), runs $(sed -n 's/^  "runs": \([0-9]*\),$/\1/p' "$j"), verification $(tr -d ' \n' < "$j" | sed -n 's/.*"verification":{"status":"\([A-Z]*\)".*/\1/p')"
		done
		ha=$(sed -n 's/^harness_sha256=//p' "$OUT/host/env.txt" 2>/dev/null)
		hb=$(sed -n 's/^harness_sha256=//p' "$OUT/guest/env.txt" 2>/dev/null)
		if [ -n "$ha" ] && [ "$ha" = "$hb" ]; then
			echo "  the same harness binary on both sides: sha256 $ha"
		else
			echo "  harness sha256: A ${ha:-?}, B ${hb:-?}"
		fi
		if [ -f "$md" ]; then
			echo "  report: $md (+ .svg); the rows (metric | bound | A | B | perf % | verdict):"
			awk '/^### Reference run/ { exit } /^\| `/' "$md" |
				awk -F'|' '{ printf "    %-28s %-16s %-26s %-26s %-8s %s\n", $2, $5, $6, $7, $9, $11 }' |
				sed 's/ (n=[0-9]*, ±[0-9.]*%)//g'
			grep -E '^\*\*Summary|^Of the misses|skipped on the other' "$md" | sed 's/^/  /'
			if grep -q '^### Reference run: A-sparse' "$md"; then
				echo "  A-sparse beside A and B (metric | A | A-sparse | B | A-sparse vs A % | B vs A % | B vs A-sparse %):"
				sed -n '/^### Reference run: A-sparse/,/^#/p' "$md" | grep -E '^\| `kernel_fma' |
					sed 's/ (n=[0-9]*, ±[0-9.]*%)//g; s/^/    /'
			fi
		fi
		[ ! -s "$CLK/phases.txt" ] || sed 's/^/  /' "$CLK/phases.txt"
	}
}

if [ "$POST" = 1 ]; then
	build_tools || { echo "ba: the tools did not build:"; tail -n 20 "$W/tools.log"; exit 1; }
	post; prc=$?
	summary | tee "$OUT/summary.txt"
	echo "BA $([ "$prc" = 0 ] && echo PASS || echo FAIL): post-only on $OUT (rc $prc)" | tee -a "$OUT/summary.txt"
	exit "$prc"
fi

main() {
	# main runs in a pipeline's subshell: its samplers are stopped here, whatever ends it
	trap 'trace_stop' EXIT
	trap 'exit 1' INT TERM
	echo "ba: start $(date -u +%FT%TZ), budget $BUDGET s; A $RA runs, B $RB runs; run_cfg n_warm $NWARM n_malloc $NMALLOC n_thru $NTHRU sizes $SIZES; --fma-blocks $FB"
	if [ -z "$COMMIT" ]; then
		COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown) (git HEAD as carried; the tree's sources digest $(sh tools/tree-digest.sh 2>/dev/null))"
	fi
	echo "$COMMIT" > "$OUT/commit.txt"
	nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 > "$OUT/host-driver.txt"

	# --- 1. tools and the harness -----------------------------------------------------------
	t=$(el)
	mkdir -p "$BIN"
	if [ -f "$BUNDLE/perf-harness" ]; then
		cp "$BUNDLE/perf-harness" "$BIN/perf-harness" && chmod +x "$BIN/perf-harness"
		hsrc="the bundle's (the guest image's binary)"
	else
		make -s -C "$CUDA" O="$BIN" "$BIN/perf-harness" >> "$W/tools.log" 2>&1
		hsrc="built here (the bundle has none: A and B are different builds)"
	fi
	tools=1
	build_tools || { tools=0; echo "ba: perf-results/perf-validate/ab-report did not build (A and B still run; redo the rest with --post-only):"; tail -n 10 "$W/tools.log" | sed 's/^/  /'; }
	echo "ba: harness $hsrc, sha256 $(sha256sum "$BIN/perf-harness" | cut -d' ' -f1); tools $([ "$tools" = 1 ] && echo built || echo MISSING) in $(($(el) - t)) s"

	# --- 2. A: natively on the GPU; then A-sparse, the same with idle gaps before k_fma -------
	mkdir -p "$CLK"
	# native_side NAME DIR RUNS "EXTRA HARNESS ARGS": perf.sh in clocks/ (the mark file's path
	# stays relative in the recorded harness_args), the clocks sampled and the marks stamped
	native_side() {
		echo "ba: $([ "$1" = a ] && echo A || echo A-sparse): perf.sh --role host, $3 runs (at most $ATMO s)${4:+, harness$4}"
		t=$(el)
		: > "$CLK/marks-$1.raw"
		trace_start "$1"
		stamp_start "$CLK/marks-$1.raw" "$1"
		set -- "$1" --role host --runs "$3" --n-warm "$NWARM" --n-malloc "$NMALLOC" --n-thru "$NTHRU" \
			--sizes "$SIZES" --out "$OUT/$2" --bin "$BIN" --harness "$BIN/perf-harness" \
			--harness-args "--fma-blocks $FB$4 --mark-file marks-$1.raw" --commit "$COMMIT"
		[ "$tools" = 1 ] || set -- "$@" --no-aggregate
		n=$1
		shift
		(cd "$CLK" && timeout "$ATMO" sh "$VGSP_ROOT/$CUDA/perf.sh" "$@") > "$W/$n.log" 2>&1
		nrc=$?
		sleep 0.2   # the stamper's last marks and samples
		trace_stop
		rm -f "$CLK/marks-$n.raw"
		grep -E '^perf.sh: (run|results)' "$W/$n.log" | sed 's/^/  /'
		echo "ba: $([ "$n" = a ] && echo A || echo A-sparse) done in $(($(el) - t)) s (rc $nrc$([ "$nrc" = 124 ] && echo ', timed out')); $(nlines ' phase ' "$CLK/marks-$n.txt") phase marks, $(nlines . "$CLK/trace-$n.csv") clock samples"
		return "$nrc"
	}
	native_side a host "$RA" ""
	arc=$?
	if [ "$RS" -gt 0 ]; then
		native_side a-sparse host-sparse "$RS" " --fma-gap-ms $GAP"
		echo "ba: A-sparse rc $? (not part of the verdict: a control)"
	fi

	# --- 3. B: the guest, with this side's snapshots at its marks ---------------------------
	mkdir -p "$OUT/host-side" "$OUT/r3/guest"
	trace_start b
	stamp_start "$OUT/r3/guest/console.log" b
	(
		con=$OUT/r3/guest/console.log
		for s in before after; do
			while ! grep -q "^vgsp-perf-mark $s" "$con" 2>/dev/null; do
				[ -f "$OUT/r3/guest/console.txt" ] && exit 0   # the guest is over
				sleep 0.3
			done
			# vgsp-vfu rewrites its stats every second; the guest keeps quiet 3 s after a mark
			sleep 1.3
			cp "$OUT/r3/guest/vfu-stats.txt" "$OUT/host-side/vfu-stats-$s.txt" 2>/dev/null
			nvidia-smi -q -d CLOCK > "$OUT/host-side/clocks-host-$s.txt" 2>&1
			echo "$s $(date -u +%FT%TZ)" >> "$OUT/host-side/marks.txt"
		done
	) &
	WATCH=$!
	left=$((BUDGET - $(el) - 45))
	pa="perf=1 perf.args=--runs,$RB,--n-warm,$NWARM,--n-malloc,$NMALLOC,--n-thru,$NTHRU perf.sizes=$SIZES perf.harness=--fma-blocks,$FB,--mark-file,/dev/console"
	set -- --bundle "$BUNDLE" --out "$OUT/r3" --budget "$left"
	if [ "$SIM" = 1 ]; then
		pa="$pa,--skip-kernels"
	else
		set -- "$@" --hostd
	fi
	set -- "$@" --append "$pa"
	if [ "$RUNG3" = 1 ]; then set -- "$@" --golden; else set -- "$@" --rung1; fi
	[ -z "$VFUARGS" ] || set -- "$@" --vfu-args "$VFUARGS"
	echo "ba: B: scripts/h200/rung3.sh $* (budget $left s)"
	t=$(el)
	R3_TREE=$COMMIT sh scripts/h200/rung3.sh "$@" > "$W/r3.log" 2>&1
	grc=$?
	kill "$WATCH" 2>/dev/null; wait "$WATCH" 2>/dev/null; WATCH=""
	trace_stop
	echo "ba: B's clocks: $(nlines ' phase ' "$CLK/marks-b.txt") phase marks stamped from the console, $(nlines . "$CLK/trace-b.csv") clock samples"
	grep -E '^(rung3: (vgsp-vfu|guest|done)|  perf|  rung|RUNG |NATIVE|AFTER)' "$OUT/r3/rung3.log" | sed 's/^/  /' | tail -n 30
	echo "ba: B done in $(($(el) - t)) s (rung3.sh rc $grc); host-side marks: $(tr '\n' ' ' < "$OUT/host-side/marks.txt" 2>/dev/null)"

	# --- 4. after the guest -----------------------------------------------------------------
	if [ "$tools" = 1 ]; then
		post; prc=$?
	else
		prc=1
	fi
	echo "ba: done in $(el) s"
	[ "$arc" = 0 ] && [ "$prc" = 0 ] && [ "$grc" = 0 ]
}

printf '%s\n' "$CMDLINE" > "$OUT/command.txt"
{ main; echo $? > "$W/rc"; } 2>&1 | tee "$OUT/ba.log"
rc=$(cat "$W/rc" 2>/dev/null || echo 1)
summary | tee "$OUT/summary.txt"
echo "BA $([ "$rc" = 0 ] && echo PASS || echo FAIL): A $OUT/host, B $OUT/guest, report $OUT/ab/ab-report.md ($(el) s)" |
	tee -a "$OUT/summary.txt"
for f in "$OUT"/*.txt "$OUT"/*.log; do
	[ -f "$f" ] && sed -i "s|$VGSP_ROOT/||g; s|$OUT/||g" "$f"
done
[ -z "$TAR" ] || tar -C "$(dirname "$OUT")" -czf "$TAR" "$(basename "$OUT")"
exit "$rc"
