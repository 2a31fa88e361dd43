#!/bin/sh
# run-rung1.sh — rung 1 (or, with --rung2, rung 2) with the STOCK NVIDIA 535
# guest driver: start vgsp-vfu (the vgsp core behind a vfio-user socket), boot
# the guest image from build-guest.sh under QEMU 11.1 TCG with a vfio-user-pci
# device, capture the guest console, vgsp-vfu's transcript and counters, print
# the verdict.
#
# usage: scripts/guest/run-rung1.sh [--profile ID] [--core COMMIT|worktree]
#                                   [--nvopts a=b,c=d] [--cuinit] [--timeout S] [--san]
#                                   [--rung2 [--cudacheck-args "--iters 2 --max-mib 16"]]
#                                   [--uvmopts uvm_debug_prints=1]
#                                   [--run DIR] [--uuid UUID] [--mmap] [--driver VER]
# --rung2: the guest boots with rung2=1: nvidia.ko + nvidia-uvm.ko, nvidia-smi -L,
#          then cudacheck (scripts/guest/cudacheck.c: cuInit, attributes, contexts,
#          allocations, copies verified byte for byte, streams, events, PTX module,
#          a launch expected to fail cleanly on sim). Default timeout 900 s.
#          scripts/guest/run-rung2.sh is this mode.
# --cudacheck-args: cudacheck's options (passed as rung2.args=, see cudacheck.c).
# --uvmopts: insmod options for nvidia-uvm.ko, comma separated (rung2.uvmopts=).
# --san: vgsp-vfu and the core built with ASan+UBSan (findings land in vfu-stderr.log)
# --append "...": extra guest kernel arguments, e.g. "slub_debug=FZPU loglevel=7" to catch
#          guest heap corruption at the culprit
# --run DIR: this run's directory instead of .cache/guest/runs/<UTC stamp> (relative to the
#          repository root; two runs started in the same second need it: demo-two.sh)
# --uuid UUID: vgsp-vfu's instance UUID (the guest's GPU UUID derives from it)
# --mmap: vgsp-vfu --mmap: BAR3 mapped into the guest (opt-in; rung 1 only so far,
#          docs/rung1-guest.md "BAR3 mapped into the guest")
# --driver VER: the stock guest driver, 535.261.03 (default, Debian bookworm) or 550.163.01
#          (Debian trixie; build-guest.sh); the same as env NV_VER
# Results: .cache/guest/runs/<UTC stamp>/{console.log,vfu-transcript.log,
#          vfu-stats.txt,vfu-stderr.log,summary.txt}, one line per run appended to
#          .cache/guest/runs/history.tsv; exit 0 only on PASS.
# The last line of the output is the verdict, for the ladder:
#   RUNG <1|2> vfio-user <guest driver version> PASS|FAIL: <evidence>
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT"
PROFILE=h100-10g CORE=HEAD NVOPTS="" CUINIT=0 TMO="" XAPPEND="" RUNG=1 CCARGS="" UVMOPTS=""
RUNDIR="" UUID="" MMAP=""
while [ $# -gt 0 ]; do
	case $1 in
	--profile) PROFILE=$2; shift 2 ;;
	--core) CORE=$2; shift 2 ;;
	--nvopts) NVOPTS=$2; shift 2 ;;
	--cuinit) CUINIT=1; shift ;;
	--timeout) TMO=$2; shift 2 ;;
	--san) export VFU_SAN=1; shift ;;
	--append) XAPPEND=$2; shift 2 ;;
	--rung2) RUNG=2; shift ;;
	--cudacheck-args) CCARGS=$2; shift 2 ;;
	--uvmopts) UVMOPTS=$2; shift 2 ;;
	--run) RUNDIR=$2; shift 2 ;;
	--uuid) UUID=$2; shift 2 ;;
	--mmap) MMAP=--mmap; shift ;;
	--driver) NV_VER=$2; export NV_VER; shift 2 ;;
	*) echo "run-rung1: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$TMO" ] || { [ "$RUNG" = 2 ] && TMO=900 || TMO=300; }
NV_VER=${NV_VER:-535.261.03}
# Exactly one RUNG line, also when the rig itself fails before the guest's verdict.
RUNG_DONE=0
trap '[ "$RUNG_DONE" = 1 ] || echo "RUNG $RUNG vfio-user $NV_VER FAIL: rig error before the guest verdict (see above)"' EXIT
now() { date +%s.%N | cut -c1-14; }
el() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }

t=$(now)
QEMU=$(scripts/guest/qemu-vfu.sh 2>/dev/null | sed -n 1p)
QVER=$("$QEMU" --version | head -1)
t_q=$(el "$t" "$(now)")
t=$(now)
eval "$(scripts/guest/build-guest.sh 2>/dev/null | grep -E '^(KERNEL|INITRD|NV_VER)=')"
t_g=$(el "$t" "$(now)")
t=$(now)
VFU_OUT=$(scripts/guest/build-vfu.sh "$CORE")
VFU=$(echo "$VFU_OUT" | sed -n 1p); CORE_SHA=$(echo "$VFU_OUT" | sed -n "2s/^core //p")
t_b=$(el "$t" "$(now)")

RUN=$VGSP_ROOT/.cache/guest/runs/$(date -u +%Y%m%dT%H%M%SZ)
case $RUNDIR in "") ;; /*) RUN=$RUNDIR ;; *) RUN=$VGSP_ROOT/$RUNDIR ;; esac
mkdir -p "$RUN"
SOCK=$RUN/vfu.sock
# shellcheck disable=SC2086 # ${UUID:+...} is two words or none, $MMAP one or none
"$VFU" --socket "$SOCK" --profile "$PROFILE" ${UUID:+--uuid "$UUID"} $MMAP --stats "$RUN/vfu-stats.txt" \
	--log "$RUN/vfu-transcript.log" --log-dma 2>"$RUN/vfu-stderr.log" &
VPID=$!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || { echo "run-rung1: vgsp-vfu did not start" >&2; cat "$RUN/vfu-stderr.log" >&2; exit 1; }

# oops=panic + panic=-1 + -no-reboot: a guest kernel oops ends the run at once.
# loglevel=7: NVRM lines reach the console as they happen, so they survive a crash.
APPEND="console=ttyS0 panic=-1 oops=panic loglevel=7 rung1.cuinit=$CUINIT"
[ -n "$NVOPTS" ] && APPEND="$APPEND rung1.nvopts=$NVOPTS"
# vgsp-vfu runs guest work on the sim backend, which has no SMs: cudacheck expects its SM work
# (DtoD, memsets, the launch) to verify or to be refused cleanly (--sm-work refused).
[ "$RUNG" = 2 ] && APPEND="$APPEND rung2=1 rung2.smwork=refused"
[ -n "$UVMOPTS" ] && APPEND="$APPEND rung2.uvmopts=$UVMOPTS"
[ -n "$CCARGS" ] && APPEND="$APPEND rung2.args=$(echo "$CCARGS" | tr ' ' ',')"
[ -n "$XAPPEND" ] && APPEND="$APPEND $XAPPEND"
DEV='{"driver":"vfio-user-pci","socket":{"path":"'$SOCK'","type":"unix"},"bus":"rp0"}'
cat > "$RUN/cmd.txt" <<EOC
date: $(date -u +%FT%TZ)
qemu: $QEMU ($QVER)
kernel: $KERNEL
initrd: $INITRD
vgsp-vfu: $VFU ($CORE_SHA) profile $PROFILE
append: $APPEND
device: $DEV
EOC
t=$(now)
rc=0
timeout "$TMO" "$QEMU" -accel tcg -cpu max -m 2G -smp 2 -nographic -no-reboot \
	-object memory-backend-memfd,id=mem,size=2G,share=on \
	-machine q35,memory-backend=mem \
	-device pcie-root-port,id=rp0 -device "$DEV" \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
	>"$RUN/console.log" 2>&1 || rc=$?
t_r=$(el "$t" "$(now)")
# vgsp-vfu exits when QEMU disconnects; make sure it does.
i=0
while kill -0 "$VPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill "$VPID" 2>/dev/null || true
wait "$VPID" 2>/dev/null || true

# Plain text: no CRs, no terminal escapes (SeaBIOS clears the screen).
tr -d '\r' < "$RUN/console.log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' > "$RUN/console.txt"
# Run records get committed as results: name paths relative to the repository.
sed -i "s|$VGSP_ROOT/||g" "$RUN/cmd.txt" "$RUN/console.txt" "$RUN/vfu-stderr.log"
verdict=$(grep -a 'VERDICT' "$RUN/console.txt" | tail -1 | sed 's/.*VERDICT //')
# The first sign of a guest crash (nvport's heap-fence assert comes before the
# kernel notices the damage); the panic line only if nothing else was printed.
crash=$(grep -a -m1 -E 'Assertion failed: "|kernel BUG|BUG:|general protection fault|Oops|invalid opcode' "$RUN/console.txt" ||
	grep -a -m1 'Kernel panic' "$RUN/console.txt" || true)
# Without a verdict (a hang until the timeout), the last check line says where.
lastcc=$(grep -a '^cudacheck: ' "$RUN/console.txt" | tail -1)
[ -n "$verdict" ] || verdict="FAIL: no verdict (qemu rc=$rc)${lastcc:+, last: $lastcc}"
[ -z "$crash" ] || verdict="FAIL: guest kernel crash: $crash"
# The first thing that went wrong, from the guest's point of view and from the
# emulated GSP's (first RPC answered with a non-zero status).
first_nvrm=$(grep -a -v '^dmesg: ' "$RUN/console.txt" | sed 's/^\[ *[0-9.]*\] //' |
	grep -a -m1 -E 'NVRM: .*(Assertion failed|Check failed|failed|Xid|Timeout|error|Cannot)' || true)
# The failure that ended the first RmInitAdapter: the last check before it
# (earlier asserts may be tolerated by the driver).
fatal_nvrm=$(grep -a -v '^dmesg: ' "$RUN/console.txt" | sed 's/^\[ *[0-9.]*\] //' |
	awk '/RmInitNvDevice: \*\*\*|RmInitAdapter: |RmInitAdapter failed!/ { print last; exit }
	     /Check failed|Assertion failed|Xid|Timeout/ { last = $0 }' || true)
first_rpc=$(sed -n '/^== rpc_log$/,/^== /p' "$RUN/vfu-stats.txt" 2>/dev/null | grep -v '^==' |
	awk 'NR > 1 && $5 != "0x0" { print; exit }')
hv=$verdict; [ "$RUNG" = 1 ] || hv="rung$RUNG $verdict"
echo "$(basename "$RUN")	$CORE_SHA	$hv	${first_rpc:--}	${fatal_nvrm:--}" \
	>> "$VGSP_ROOT/.cache/guest/runs/history.tsv"
{
	echo "rung$RUNG run $(basename "$RUN")"
	cat "$RUN/cmd.txt"
	echo "times: qemu-fetch ${t_q}s guest-build ${t_g}s vfu-build ${t_b}s boot+run ${t_r}s (qemu rc=$rc)"
	echo "verdict: $verdict"
	echo "first failing RPC still in rpc_log (a ring: early entries may be gone): ${first_rpc:-none}"
	echo "first failing NVRM line: ${first_nvrm:-none}"
	echo "failure that ended the first RmInitAdapter: ${fatal_nvrm:-none}"
	echo "--- guest rung$RUNG lines"
	grep -a -E 'rung[12]:|cuinit:|cudacheck:|^GPU [0-9]+:|No devices' "$RUN/console.txt" |
		grep -a -v -e 'kernel log' -e '^dmesg: ' || true
	echo "--- guest NVRM / nvidia-uvm / Xid lines (kernel log order, repeats dropped, first 60)"
	grep -a -v -E '^(dmesg|rung[12]|cudacheck): ' "$RUN/console.txt" | grep -a -E 'NVRM|Xid|nvidia-uvm|uvm_' | sed 's/^\[ *[0-9.]*\] //' | awk '!seen[$0]++' | head -60
	if [ -n "$crash" ]; then
		echo "--- guest crash"
		grep -a -A60 -F "$crash" "$RUN/console.txt" | grep -a -E 'kernel BUG|RIP:|Comm:|\+0x|Kernel panic' | head -24
	fi
	echo "--- vgsp-vfu counters"
	sed -n '/^== counters/,/^== /p' "$RUN/vfu-stats.txt" 2>/dev/null | grep -v '^==' | awk '$2 != 0'
	echo "--- vgsp-vfu frontend"
	sed -n '/^== vfu/,$p' "$RUN/vfu-stats.txt" 2>/dev/null | grep -v '^=='
	echo "--- bar0_unknown (first 30)"
	sed -n '/^== bar0_unknown/,/^== /p' "$RUN/vfu-stats.txt" 2>/dev/null | grep -v '^==' | head -30
	# GSP emulation views (whatever the core at this commit provides).
	# shellcheck disable=SC2013 # view names are single words
	for v in $(sed -n 's/^== \(gsp_[a-z_]*\|rpc_log\)$/\1/p' "$RUN/vfu-stats.txt" 2>/dev/null); do
		echo "--- $v (first 80 lines)"
		sed -n "/^== $v\$/,/^== /p" "$RUN/vfu-stats.txt" | grep -v '^==' | head -80
	done
} > "$RUN/summary.txt"
cat "$RUN/summary.txt"
echo "run-rung1: results in $RUN"
rung="RUNG $RUNG vfio-user $NV_VER $verdict"
echo "$rung" >> "$RUN/summary.txt"
echo "$rung"
RUNG_DONE=1
case $verdict in PASS*) exit 0 ;; *) exit 1 ;; esac
