#!/bin/sh
# rung3.sh — the whole stock-guest run on the GPU device machine in ONE device call: the
# machine's identity, the carried bundle checked against its MANIFEST, vgsp-vfu built from the
# carried tree (with the hostd backend under --hostd), an optional native command first (the
# rung-3 golden run), the stock 535 guest under the bundle's QEMU (TCG) through run-bundle.sh,
# an optional command after it (the rung-3 comparison), every log under --out, the RUNG lines
# last.
#
# usage: sh scripts/h200/rung3.sh --bundle DIR --out DIR [--hostd] [--rung3 | --rung1]
#            [--vfu-args "ARGS"] [--append "k=v ..."] [--cudacheck-args "ARGS"]
#            [--sm-work refused|run] [--native-first CMD] [--native-timeout S] [--after CMD]
#            [--budget S] [--golden [--r3-max-mib N]]
# --bundle DIR: made here by scripts/guest/make-bundle.sh DIR (carried with the call)
# --out DIR: everything goes there (the device call's $OUT): rung3.log (this output),
#          identity.txt, bundle.txt, build-vfu.log, native.log, guest/ (run-bundle.sh's files:
#          console.txt, summary.txt, vfu-stderr.log, vfu-stats.txt, cmd.txt), after.log
# --hostd: build vgsp-vfu with HOSTD=1 and run it with --backend hostd (guest work on the GPU;
#          a --backend in --vfu-args wins); the RUNG lines' path is then vfio-user-hostd, else
#          vfio-user-bundle
# --rung3: the guest boots with rung3=1 (rung 2 plus init.sh's rung-3 hook; SM work run, not
#          refused); default: rung 2 (cudacheck; SM work refused cleanly, as on sim); --rung1:
#          nvidia-smi only
# --vfu-args, --append, --cudacheck-args, --sm-work: passed to run-bundle.sh
# --native-first CMD: run with sh -c in the repository root before the guest, output in
#          native.log, at most --native-timeout seconds (120); its failure is reported, the
#          guest still runs. --after CMD: the same after the guest (e.g. the comparison). Both
#          see R3_OUT (the out dir), R3_BUNDLE, R3_GUEST (the guest's out dir; its console.txt
#          is the guest console) and R3_VFU (the vgsp-vfu binary)
# --budget S: the whole run's wall time (540 s: a device call may run 600 s); the guest gets
#          what is left after the build and the native command, less 30 s
# --golden: implies --rung3; the native golden run and the byte-for-byte comparison are the
#          --native-first / --after commands (rung3check with --max-mib --r3-max-mib, 16)
# Exit 0 when the guest's RUNG line (and the --after command) passed.
# Rung 3 on the H200 in one command (issue #10):
#   R3_TREE=<commit> sh scripts/h200/rung3.sh --bundle .r3 --out $OUT --hostd --golden
# Example (one device call; carry [".r3"]):
#   sh scripts/h200/rung3.sh --bundle .r3 --out $OUT --hostd --rung3 \
#       --native-first 'gcc -O2 -o /tmp/r3c scripts/guest/rung3check.c -ldl && /tmp/r3c'
set -u
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT" || exit 2
BUNDLE="" OUT="" HOSTD=0 RUNG=2 VFUARGS="" XAPPEND="" CCARGS="" SMWORK="" NATIVE="" NTMO=120
AFTER="" BUDGET=540 R3MIB=16 GOLDEN=0
while [ $# -gt 0 ]; do
	case $1 in
	--bundle) BUNDLE=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--hostd) HOSTD=1; shift ;;
	--rung3) RUNG=3; shift ;;
	--rung1) RUNG=1; shift ;;
	--vfu-args) VFUARGS=$2; shift 2 ;;
	--append) XAPPEND=$2; shift 2 ;;
	--cudacheck-args) CCARGS=$2; shift 2 ;;
	--sm-work) SMWORK=$2; shift 2 ;;
	--native-first) NATIVE=$2; shift 2 ;;
	--native-timeout) NTMO=$2; shift 2 ;;
	--after) AFTER=$2; shift 2 ;;
	--golden) GOLDEN=1; shift ;;
	--r3-max-mib) R3MIB=$2; shift 2 ;;
	--budget) BUDGET=$2; shift 2 ;;
	*) echo "rung3: unknown argument $1" >&2; exit 2 ;;
	esac
done
if [ -z "$BUNDLE" ] || [ -z "$OUT" ]; then sed -n '9,12p' "$0" >&2; exit 2; fi
# --golden: rung 3's verdict against native goldens made in this call (the whole issue-#10
# check in one command): rung3check built here and run natively first, the guest runs it
# with the same --r3-max-mib, rung3-compare.sh judges the guest's console after.
if [ "$GOLDEN" = 1 ]; then
	RUNG=3
	case " $XAPPEND " in *" rung3.args="*) ;; *) XAPPEND="$XAPPEND rung3.args=--max-mib,$R3MIB" ;; esac
	[ -n "$NATIVE" ] || NATIVE="gcc -std=c11 -O2 -o \"\$R3_OUT/rung3check-native\" scripts/guest/rung3check.c -ldl &&
		{ \"\$R3_OUT/rung3check-native\" --max-mib $R3MIB > \"\$R3_OUT/native.txt\" 2>&1; cat \"\$R3_OUT/native.txt\"; } &&
		sh scripts/guest/rung3-compare.sh --make-golden \"\$R3_OUT/native.txt\" \"\$R3_OUT/golden\""
	[ -n "$AFTER" ] || AFTER="sh scripts/guest/rung3-compare.sh \"\$R3_OUT/golden\" \"\$R3_GUEST/console.txt\""
fi
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
BUNDLE=$(cd "$BUNDLE" 2>/dev/null && pwd) || { echo "rung3: no bundle directory" >&2; exit 2; }
NV_VER=535.261.03
RPATH=vfio-user-bundle
if [ "$HOSTD" = 1 ]; then
	RPATH=vfio-user-hostd
	# The hostd build still starts on sim unless told: --backend hostd, unless --vfu-args names one.
	case " $VFUARGS " in *" --backend "*) ;; *) VFUARGS="--backend hostd${VFUARGS:+ $VFUARGS}" ;; esac
fi
T0=$(date +%s)
el() { echo $(($(date +%s) - T0)); }

main() {
	echo "rung3: start $(date -u +%FT%TZ), budget $BUDGET s, rung $RUNG, path $RPATH"

	# --- 1. the machine ---------------------------------------------------------------------
	{
		echo "date: $(date -u +%FT%TZ)"
		echo "kernel: $(uname -srm)"
		echo "os: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
		echo "cpus: $(nproc), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
		echo "memory: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
		if command -v nvidia-smi > /dev/null; then
			# No UUID or serial: name, driver, memory, bus, VBIOS, compute capability.
			nvidia-smi --query-gpu=index,name,driver_version,memory.total,pci.bus_id,vbios_version,compute_cap \
				--format=csv,noheader 2>&1 | sed 's/^/gpu: /'
			nvidia-smi 2>/dev/null | sed -n 's/.*\(CUDA Version: [0-9.]*\).*/cuda driver: \1/p' | head -n 1
		else
			echo "gpu: nvidia-smi absent (no NVIDIA driver here)"
		fi
		[ -e /dev/kvm ] && echo "kvm: /dev/kvm present (unused: the guest runs under TCG)" || echo "kvm: none"
		echo "gcc: $(gcc --version 2>/dev/null | head -n 1)"
		# the device's copy of .git may lag the tree it carries: the caller names the
		# commit (R3_TREE) and the sources' digest ties the run to that tree
		[ -z "${R3_TREE:-}" ] || echo "tree: as carried, $R3_TREE"
		echo "sources: sha256 $(find kernel userspace scripts tests -type f \( -name '*.[ch]' -o -name '*.sh' \) 2>/dev/null |
			LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16) (tools/tree-digest.sh)"
		if git rev-parse HEAD > /dev/null 2>&1; then
			echo "tree: commit $(git rev-parse --short=12 HEAD), $(git status --porcelain 2>/dev/null | wc -l) changed paths"
		else
			echo "tree: no git metadata carried (the bundle's MANIFEST names the commit it was made from)"
		fi
	} > "$OUT/identity.txt" 2>&1
	cat "$OUT/identity.txt"

	# --- 2. the bundle ----------------------------------------------------------------------
	{
		bad=0
		for f in "$BUNDLE"/*; do
			b=$(basename "$f")
			[ "$b" = MANIFEST ] && continue
			size=$(wc -c < "$f") sum=$(sha256sum "$f" | cut -d' ' -f1)
			want=$(awk -v f="$b" '$1 == "file" && $2 == f { print $3, $4 }' "$BUNDLE/MANIFEST" 2>/dev/null)
			if [ -z "$want" ]; then
				st="not in MANIFEST"
			elif [ "$want" = "$size $sum" ]; then
				st="matches MANIFEST"
			else
				st="DIFFERS from MANIFEST ($want)"; bad=1
			fi
			echo "bundle: $b $size $sum $st"
		done
		sed -n '1,3s/^/manifest: /p' "$BUNDLE/MANIFEST" 2>/dev/null || echo "manifest: none"
		[ "$bad" = 0 ]
	} > "$OUT/bundle.txt" 2>&1
	brc=$?
	cat "$OUT/bundle.txt"
	if [ "$brc" != 0 ]; then
		echo "RUNG $RUNG $RPATH $NV_VER FAIL: the carried bundle differs from its MANIFEST (bundle.txt)"
		return 1
	fi

	# --- 3. vgsp-vfu ------------------------------------------------------------------------
	t=$(el)
	if ! VFU_OUT=$(HOSTD=$HOSTD MAKEFLAGS="-j$(nproc)" scripts/guest/build-vfu.sh worktree 2>"$OUT/build-vfu.log"); then
		echo "rung3: vgsp-vfu build FAILED (HOSTD=$HOSTD), last lines of build-vfu.log:"
		tail -n 25 "$OUT/build-vfu.log" | sed "s|$VGSP_ROOT/||g; s|^|  |"
		echo "RUNG $RUNG $RPATH $NV_VER FAIL: vgsp-vfu did not build (HOSTD=$HOSTD): $({ grep -m1 -E 'error|Error' "$OUT/build-vfu.log" || tail -n 1 "$OUT/build-vfu.log"; } | sed "s|$VGSP_ROOT/||g")"
		return 1
	fi
	VFU=$(echo "$VFU_OUT" | sed -n 1p)
	echo "rung3: vgsp-vfu built (HOSTD=$HOSTD) in $(($(el) - t)) s"

	export R3_OUT="$OUT" R3_BUNDLE="$BUNDLE" R3_GUEST="$OUT/guest" R3_VFU="$VFU"
	# --- 4. the native command --------------------------------------------------------------
	if [ -n "$NATIVE" ]; then
		t=$(el)
		echo "rung3: native command (at most $NTMO s): $NATIVE"
		timeout "$NTMO" sh -c "$NATIVE" > "$OUT/native.log" 2>&1
		nrc=$?
		echo "NATIVE rc=$nrc in $(($(el) - t)) s$([ "$nrc" = 124 ] && echo ' (timed out)'), last lines of native.log:"
		tail -n 8 "$OUT/native.log" | sed 's/^/  /'
	fi

	# --- 5. the guest -----------------------------------------------------------------------
	left=$((BUDGET - $(el) - 30))
	if [ "$left" -lt 60 ]; then
		echo "RUNG $RUNG $RPATH $NV_VER FAIL: only $left s left of the $BUDGET s budget for the guest"
		return 1
	fi
	echo "rung3: guest (rung $RUNG, timeout $left s)"
	set -- --bundle "$BUNDLE" --out "$OUT/guest" --rung "$RUNG" --vfu "$VFU" --path "$RPATH" --timeout "$left"
	[ -n "$VFUARGS" ] && set -- "$@" --vfu-args "$VFUARGS"
	[ -n "$XAPPEND" ] && set -- "$@" --append "$XAPPEND"
	[ -n "$CCARGS" ] && set -- "$@" --cudacheck-args "$CCARGS"
	[ -n "$SMWORK" ] && set -- "$@" --sm-work "$SMWORK"
	t=$(el)
	scripts/guest/run-bundle.sh "$@" > "$OUT/run-bundle.log" 2>&1
	grc=$?
	echo "rung3: guest done in $(($(el) - t)) s (rc $grc); guest lines:"
	sed -n '/^--- guest rung lines/,/^--- guest NVRM/p' "$OUT/guest/summary.txt" 2>/dev/null |
		grep -v '^---' | grep -v '^dmesg: ' | tail -n 40 | sed 's/^/  /'
	echo "  first NVRM/Xid lines:"
	sed -n '/^--- guest NVRM/,/^--- vgsp-vfu counters/p' "$OUT/guest/summary.txt" 2>/dev/null |
		grep -v '^---' | head -n 8 | sed 's/^/  /'
	grep -q '^RUNG ' "$OUT/run-bundle.log" || tail -n 20 "$OUT/run-bundle.log" | sed 's/^/  /'
	if [ "$grc" != 0 ]; then
		echo "  vgsp-vfu stderr, last lines:"
		tail -n 8 "$OUT/guest/vfu-stderr.log" 2>/dev/null | sed "s|$VGSP_ROOT/||g; s|^|  |"
	fi

	# --- 6. the command after ---------------------------------------------------------------
	arc=0
	if [ -n "$AFTER" ]; then
		echo "rung3: after command: $AFTER"
		left=$((BUDGET - $(el)))
		[ "$left" -gt 10 ] || left=10
		timeout "$left" sh -c "$AFTER" > "$OUT/after.log" 2>&1
		arc=$?
		echo "AFTER rc=$arc, last lines of after.log:"
		tail -n 12 "$OUT/after.log" | grep -v '^RUNG ' | sed 's/^/  /'
	fi

	echo "rung3: done in $(el) s; the RUNG lines:"
	grep -h '^RUNG ' "$OUT/native.log" "$OUT/run-bundle.log" "$OUT/after.log" 2>/dev/null
	[ "$grc" = 0 ] && [ "$arc" = 0 ]
}

# Live output and rung3.log at once; main's status through a file (a pipeline's is tee's).
{ main; echo $? > "$OUT/.rc"; } 2>&1 | tee "$OUT/rung3.log"
rc=$(cat "$OUT/.rc" 2>/dev/null || echo 1)
rm -f "$OUT/.rc"
# Run records get committed as results: name paths relative to the repository and the out dir.
for f in "$OUT"/*.txt "$OUT"/*.log "$OUT"/guest/*.txt "$OUT"/guest/*.log; do
	[ -f "$f" ] && sed -i "s|$VGSP_ROOT/||g; s|$OUT/||g" "$f"
done
exit $rc
