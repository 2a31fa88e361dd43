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
#            [--bound GLOB=LABEL]... [--tar FILE] [--sim]
#        sh scripts/h200/ba.sh --post-only --out DIR [--bundle DIR]
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
# --post-only: redo the steps after the guest (extract, counters, aggregate, report) on an out
#          dir made by a run (here or on the host, with the host's own jansson)
# Out dir: ba.log (this output), host/ (A: perf.sh's run files, results.json), r3/ (rung3.sh's
#          files; r3/guest/console.txt is the guest console), guest/ (B: the files extracted
#          from the console, results.json), host-side/ (nvidia-smi clocks and vgsp-vfu counters
#          at the guest's "vgsp-perf-mark" lines, as counter dirs), ab/ (ab-report.md, .svg),
#          summary.txt. The last line: "BA PASS|FAIL: ...". Exit 0 when A and B both aggregated
#          with every run verified and the report was written.
set -u
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT" || exit 2
CMDLINE="sh scripts/h200/ba.sh $*"
BUNDLE="" OUT="" RA=10 RB=5 NWARM=100 NMALLOC=50 NTHRU=100 SIZES=4096,262144,4194304,16777216
FB=1056 BUDGET=530 ATMO=150 RUNG3=0 VFUARGS="" COMMIT=${R3_TREE:-} BOUNDS="" TAR="" POST=0 SIM=0
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
	*) echo "ba: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$OUT" ] || { sed -n '10,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ "$POST" = 1 ] || [ -n "$BUNDLE" ] || { echo "ba: --bundle DIR is required" >&2; exit 2; }
for v in "$RA" "$RB" "$NWARM" "$NMALLOC" "$NTHRU" "$FB" "$BUDGET" "$ATMO"; do
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
WATCH=""
cleanup() { [ -z "$WATCH" ] || kill "$WATCH" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

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
			grep '^| `' "$md" | awk -F'|' '{ printf "    %-28s %-16s %-26s %-26s %-8s %s\n", $2, $5, $6, $7, $9, $11 }' |
				sed 's/ (n=[0-9]*, ±[0-9.]*%)//g'
			grep -E '^\*\*Summary|^Of the misses' "$md" | sed 's/^/  /'
		fi
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

	# --- 2. A: natively on the GPU ----------------------------------------------------------
	t=$(el)
	echo "ba: A: perf.sh --role host, $RA runs (at most $ATMO s)"
	set -- --role host --runs "$RA" --n-warm "$NWARM" --n-malloc "$NMALLOC" --n-thru "$NTHRU" \
		--sizes "$SIZES" --out "$OUT/host" --bin "$BIN" --harness "$BIN/perf-harness" \
		--harness-args "--fma-blocks $FB" --commit "$COMMIT"
	[ "$tools" = 1 ] || set -- "$@" --no-aggregate
	timeout "$ATMO" sh "$CUDA/perf.sh" "$@" > "$W/a.log" 2>&1
	arc=$?
	grep -E '^perf.sh: (run|results)' "$W/a.log" | sed 's/^/  /'
	echo "ba: A done in $(($(el) - t)) s (rc $arc$([ "$arc" = 124 ] && echo ', timed out'))"

	# --- 3. B: the guest, with this side's snapshots at its marks ---------------------------
	mkdir -p "$OUT/host-side"
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
	pa="perf=1 perf.args=--runs,$RB,--n-warm,$NWARM,--n-malloc,$NMALLOC,--n-thru,$NTHRU perf.sizes=$SIZES perf.harness=--fma-blocks,$FB"
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
