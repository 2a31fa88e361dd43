#!/bin/sh
# perf.sh: run the open-iov-perf/1 harness RUNS times and write results.json.
#
#   perf.sh [--role host|guest] [--runs N] [--n-warm N] [--n-malloc N]
#           [--n-thru N] [--sizes B,B,..] [--out DIR] [--bin DIR]
#           [--harness FILE] [--commit SHA] [--module FILE | --module-sha256 HEX]
#           [--insmod-args TEXT] [--host-clocks FILE] [--host-driver TEXT]
#           [--debugfs-before DIR] [--debugfs-after DIR]
#           [--harness-args "ARGS"] [--after-run CMD] [--env FIELD=TEXT]...
#           [--host-clocks-before FILE] [--no-aggregate] [--aggregate-only]
#
# Phases: capture the environment (env.txt, nvidia-smi clocks before/after,
# vgsp debugfs snapshots), run the harness, aggregate with perf-results and
# validate with perf-validate against schema/open-iov-perf-1.schema.json.
# --no-aggregate / --aggregate-only split the last phase off, so a host can
# aggregate a guest's runs together with host-side clocks and debugfs.
# Everything lands in --out (default results/<UTC stamp>-<role>): run-NN.txt
# (raw harness output), perf.log, command.txt, env.txt, clocks-*.txt,
# results.json. Exit 0 only if every run verified and the file validates.
# --harness-args: more harness options for every run (e.g. "--fma-blocks 1056",
# "--skip-kernels"), recorded in env.txt as harness_args. --after-run CMD: run
# as sh -c CMD after-run RUN_FILE OUT_DIR after each run (the guest streams
# its files to the console with it). --env FIELD=TEXT (repeatable): set or
# override an environment field at aggregation (a host aggregating a guest's
# runs names the commit, the vGPU server's sha256, ...).
set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

role=host runs=10 n_warm=100 n_malloc=50 n_thru=100
sizes=4096,262144,4194304,16777216
out='' bin="$here/build" harness='' commit='' module='' module_sha='' insmod_args=''
host_clocks='' host_driver='' dbg_before='' dbg_after=''
harness_args='' after_run='' extra_env='' host_clocks_before=''
do_runs=1 do_agg=1
debugfs_root=${VGSP_DEBUGFS:-/sys/kernel/debug/vgsp}

# The exact command, quoted so it can be pasted back.
cmdline="sh userspace/cuda/perf.sh"
for a in "$@"; do
	cmdline="$cmdline '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
done

usage() {
	sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--no-aggregate) do_agg=0; shift; continue ;;
	--aggregate-only) do_runs=0; shift; continue ;;
	-h|--help) usage ;;
	esac
	[ $# -ge 2 ] || usage
	case $1 in
	--role) role=$2 ;;
	--runs) runs=$2 ;;
	--n-warm) n_warm=$2 ;;
	--n-malloc) n_malloc=$2 ;;
	--n-thru) n_thru=$2 ;;
	--sizes) sizes=$2 ;;
	--out) out=$2 ;;
	--bin) bin=$2 ;;
	--harness) harness=$2 ;;
	--commit) commit=$2 ;;
	--module) module=$2 ;;
	--module-sha256) module_sha=$2 ;;
	--insmod-args) insmod_args=$2 ;;
	--host-clocks) host_clocks=$2 ;;
	--host-driver) host_driver=$2 ;;
	--debugfs-before) dbg_before=$2 ;;
	--debugfs-after) dbg_after=$2 ;;
	--harness-args) harness_args=$2 ;;
	--after-run) after_run=$2 ;;
	--host-clocks-before) host_clocks_before=$2 ;;
	--env)
		case $2 in
		?*=*) ;;
		*) echo "perf.sh: --env wants FIELD=TEXT" >&2; exit 2 ;;
		esac
		extra_env="$extra_env$2
" ;;
	*) usage ;;
	esac
	shift 2
done

case $role in host|guest) ;; *) echo "perf.sh: --role must be host or guest" >&2; exit 2 ;; esac
case $runs in ''|*[!0-9]*|0) echo "perf.sh: --runs must be a positive integer" >&2; exit 2 ;; esac
[ -n "$out" ] || out="$repo/results/$(date -u +%Y%m%dT%H%MZ)-$role"
mkdir -p "$out" || exit 2
log="$out/perf.log"

say() {
	printf 'perf.sh: %s\n' "$*" | tee -a "$log" >&2
}

# Copies DIR and DIR/*/ regular files (debugfs is not cp-friendly).
snapshot() {
	src=$1 dst=$2
	[ -d "$src" ] || return 1
	mkdir -p "$dst"
	for f in "$src"/* "$src"/*/*; do
		[ -f "$f" ] || continue
		rel=${f#"$src"/}
		mkdir -p "$dst/$(dirname "$rel")"
		cat "$f" >"$dst/$rel" 2>/dev/null || rm -f "$dst/$rel"
	done
	return 0
}

clocks() { # clocks FILE: nvidia-smi -q -d CLOCK, or a note why not
	if command -v nvidia-smi >/dev/null 2>&1; then
		nvidia-smi -q -d CLOCK >"$1" 2>&1 || true
	else
		echo "nvidia-smi not found" >"$1"
	fi
}

driver_version() {
	v=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
	[ -n "$v" ] || v=$(head -n 1 /proc/driver/nvidia/version 2>/dev/null)
	printf '%s' "${v:-unknown: no nvidia-smi or /proc/driver/nvidia/version}"
}

capture_env() {
	if [ -z "$commit" ]; then
		commit=$(git -C "$repo" rev-parse HEAD 2>/dev/null) ||
			commit="unknown: not a git checkout (pass --commit)"
	fi
	[ -n "$module" ] || module="$repo/kernel/vgsp.ko"
	if [ -z "$module_sha" ]; then
		if [ -f "$module" ]; then
			module_sha=$(sha256sum "$module" | cut -d' ' -f1)
		else
			module_sha="n/a: ${module#"$repo"/} not present (role=$role)"
		fi
	fi
	if [ -z "$insmod_args" ]; then
		if [ -d /sys/module/vgsp/parameters ]; then
			insmod_args="from /sys/module/vgsp/parameters:"
			for p in /sys/module/vgsp/parameters/*; do
				insmod_args="$insmod_args $(basename "$p")=$(cat "$p" 2>/dev/null)"
			done
		else
			insmod_args="n/a: vgsp not loaded on this machine (role=$role)"
		fi
	fi
	# One "field=value" a line: aggregate() turns them into --env options.
	{
		echo "commit=$commit"
		echo "module_sha256=$module_sha"
		echo "insmod_args=$insmod_args"
		echo "${role}_driver_version=$(driver_version)"
		echo "${role}_kernel=$(uname -r)"
		echo "harness_sha256=$(sha256sum "$harness" | cut -d' ' -f1)"
		[ -z "$harness_args" ] || echo "harness_args=$harness_args"
		echo "perf_command=$cmdline"
	} >"$out/env.txt"
}

run_all() {
	[ -n "$harness" ] || harness="$bin/perf-harness"
	[ -x "$harness" ] || { say "no harness at $harness (make -C userspace/cuda)"; exit 2; }
	printf '%s\n' "$cmdline" >"$out/command.txt"
	capture_env
	clocks "$out/clocks-$role-before.txt"
	[ -n "$dbg_before" ] || { snapshot "$debugfs_root" "$out/debugfs-before" && dbg_before="$out/debugfs-before"; }
	say "role=$role runs=$runs n_warm=$n_warm n_malloc=$n_malloc n_thru=$n_thru sizes=$sizes out=$out"
	i=1
	while [ "$i" -le "$runs" ]; do
		f=$(printf '%s/run-%02d.txt' "$out" "$i")
		# shellcheck disable=SC2086 # harness_args is a list of options
		"$harness" --n-warm "$n_warm" --n-malloc "$n_malloc" --n-thru "$n_thru" \
			--sizes "$sizes" $harness_args >"$f" 2>"$f.err"
		rc=$?
		# One line of progress: status and a few headline numbers; the
		# copies shown are those of the last (largest by default) size.
		summary=$(awk '$1 == "metric" { m[$2] = $3 }
			$1 == "metric" && $2 ~ /^copy_htod_/ { h = $2 "=" $3 }
			$1 == "metric" && $2 ~ /^copy_dtoh_/ { d = $2 "=" $3 }
			$1 == "status" { s = $2 }
			END { printf "status=%s init=%.1fms launch_p50=%.1fus fma=%.0fGFLOP/s %s %s",
			      s, m["init_ms"], m["launch_warm_p50"] * 1000, m["kernel_fma_gflops"], h, d }' "$f")
		say "run $i/$runs rc=$rc $summary"
		{ echo "=== run $i rc=$rc"; cat "$f"; cat "$f.err"; } >>"$log"
		[ -s "$f.err" ] || rm -f "$f.err"
		[ -z "$after_run" ] || sh -c "$after_run" after-run "$f" "$out" ||
			say "after-run command failed after run $i"
		i=$((i + 1))
	done
	clocks "$out/clocks-$role-after.txt"
	[ -n "$dbg_after" ] || { snapshot "$debugfs_root" "$out/debugfs-after" && dbg_after="$out/debugfs-after"; }
}

aggregate() {
	[ -f "$out/env.txt" ] || { say "no $out/env.txt: run the harness first"; exit 2; }
	set -- --role "$role" -o "$out/results.json"
	while IFS= read -r line; do
		set -- "$@" --env "$line"
	done <"$out/env.txt"
	set -- "$@" --clocks "${role}_gpu_clocks=$out/clocks-$role-after.txt" \
		--clocks "${role}_gpu_clocks_before=$out/clocks-$role-before.txt"
	if [ "$role" = host ]; then
		set -- "$@" --env "guest_gpu_clocks=n/a: role=host (bare metal, no guest)"
	elif [ -n "$host_clocks" ]; then
		set -- "$@" --clocks "host_gpu_clocks=$host_clocks"
	else
		set -- "$@" --env "host_gpu_clocks=unavailable: guest run without --host-clocks FILE"
	fi
	[ -z "$host_clocks_before" ] || set -- "$@" --clocks "host_gpu_clocks_before=$host_clocks_before"
	[ -z "$host_driver" ] || set -- "$@" --env "host_driver_version=$host_driver"
	# --env last: it overrides env.txt (perf-results keeps a field's last value)
	while IFS= read -r line; do
		[ -z "$line" ] || set -- "$@" --env "$line"
	done <<EOF
$extra_env
EOF
	[ -n "$dbg_before" ] || { [ -d "$out/debugfs-before" ] && dbg_before="$out/debugfs-before"; }
	[ -n "$dbg_after" ] || { [ -d "$out/debugfs-after" ] && dbg_after="$out/debugfs-after"; }
	set -- "$@" --debugfs-before "${dbg_before:-$debugfs_root}" \
		--debugfs-after "${dbg_after:-$debugfs_root}"
	"$bin/perf-results" "$@" "$out"/run-*.txt
	rc=$?
	[ -f "$out/results.json" ] || { say "perf-results wrote nothing (rc=$rc)"; exit 1; }
	vout=$("$bin/perf-validate" "$here/schema/open-iov-perf-1.schema.json" "$out/results.json" 2>&1)
	vrc=$?
	printf '%s\n' "$vout" | tee -a "$log" >&2
	say "results: $out/results.json (verification rc=$rc, schema rc=$vrc)"
	[ "$rc" -eq 0 ] && [ "$vrc" -eq 0 ]
}

[ "$do_runs" -eq 0 ] || run_all
[ "$do_agg" -eq 0 ] || aggregate
