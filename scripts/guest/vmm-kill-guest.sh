#!/bin/sh
# vmm-kill-guest.sh — the VMM killed with SIGKILL while the STOCK NVIDIA 535 guest uses the
# vGPU, then the same vgsp-vfu instance serves a fresh guest at once. One vgsp-vfu --persist
# instance; N times a QEMU TCG guest (the rung-1 image of build-guest.sh) boots against it
# and QEMU is SIGKILLed at a random moment of one of three stages, in turn: while nvidia.ko
# loads (RmInitAdapter: GSP boot and its RPCs), during `nvidia-smi -L`, during
# `nvidia-smi -q`. After each kill: vgsp-vfu is alive, its counters show the session closed
# and the device reset (opens == closes == resets, no DMA window, GSP off, no eventfd),
# its fd and thread counts are back to their baseline (QEMU also resets the device at boot,
# so resets >= sessions). Finally a whole rung-1 run on the
# same instance must PASS (nvidia-smi lists the vGPU, -q exits 0, no Xid).
# --copy: every kill lands in a CUDA copy instead (rung-2 guest: cudacheck --iters 10
# --max-mib 64, QEMU SIGKILLed 0-4 s after its first copy line, so with copy-engine work in
# flight: GPFIFO entries queued, doorbells rung, the fifo worker copying); after each kill also
# no channel left in the table and vgsp-vfu's RSS within 64 MiB of its level after the first kill; the fresh
# guest at the end runs rung 2 (cudacheck --iters 1 --max-mib 4) on the same instance.
#
# usage: scripts/guest/vmm-kill-guest.sh [--iters N] [--core COMMIT|worktree] [--copy]
# Opt-in (each kill is a guest boot: ~20-40 s under TCG); the last run is recorded in
# docs/security.md. Prints "PASS name" / "FAIL name: why" lines, then "N passed, N failed".
# Run directory: .cache/guest/runs/<UTC stamp>-vmmkill/.
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT"
ITERS=3 CORE=HEAD COPY=0
while [ $# -gt 0 ]; do
	case $1 in
	--iters) ITERS=$2; shift 2 ;;
	--copy) COPY=1; shift ;;
	--core) CORE=$2; shift 2 ;;
	*) echo "vmm-kill-guest: unknown argument $1" >&2; exit 2 ;;
	esac
done
npass=0 nfail=0
ok() { echo "PASS $1"; npass=$((npass + 1)); }
ko() { _n=$1; shift; echo "FAIL $_n: $*"; nfail=$((nfail + 1)); }

QEMU=$(scripts/guest/qemu-vfu.sh 2>/dev/null | sed -n 1p)
eval "$(scripts/guest/build-guest.sh 2>/dev/null | grep -E '^(KERNEL|INITRD|NV_VER)=')"
VFU=$(scripts/guest/build-vfu.sh "$CORE" | sed -n 1p)
RUN=$VGSP_ROOT/.cache/guest/runs/$(date -u +%Y%m%dT%H%M%SZ)-vmmkill
mkdir -p "$RUN"
SOCK=$RUN/vfu.sock STATS=$RUN/vfu-stats.txt
"$VFU" --socket "$SOCK" --stats "$STATS" --persist 2>"$RUN/vfu-stderr.log" &
VPID=$!
trap 'kill "$VPID" 2>/dev/null || true' EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || { echo "vmm-kill-guest: vgsp-vfu did not start" >&2; exit 1; }
fd0=$(ls /proc/$VPID/fd | wc -l) thr0=$(ls /proc/$VPID/task | wc -l)
echo "vgsp-vfu pid $VPID: $fd0 fds, $thr0 threads before the first guest"

# start_guest LOG: QEMU as run-rung1.sh runs it, in the background; sets QPID.
start_guest() {
	DEV='{"driver":"vfio-user-pci","socket":{"path":"'$SOCK'","type":"unix"},"bus":"rp0"}'
	"$QEMU" -accel tcg -cpu max -m 2G -smp 2 -nographic -no-reboot \
		-object memory-backend-memfd,id=mem,size=2G,share=on \
		-machine q35,memory-backend=mem \
		-device pcie-root-port,id=rp0 -device "$DEV" \
		-kernel "$KERNEL" -initrd "$INITRD" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=7 rung1.cuinit=0 $GARGS" \
		>"$1" 2>&1 </dev/null &
	QPID=$!
}
# The console file exists before the background QEMU opens it.
start_guest0() { : >"$1"; start_guest "$1"; }
stat_of() { sed -n "/^== $1\$/,/^== /p" "$STATS" | awk -v k="$2" '$1 == k { print $2; exit }'; }
rss_kib() { awk '$1 == "VmRSS:" { print $2 }' /proc/$VPID/status; }
GARGS=
[ "$COPY" = 0 ] || GARGS="rung2=1 rung2.smwork=refused rung2.args=--iters,10,--max-mib,64"
rss1=

sessions=0
k=0
while [ "$k" -lt "$ITERS" ]; do
	case $((k % 3 + COPY * 3)) in
	[345]) stage="CUDA copy" mark='^cudacheck: copy\.' span=40 ;;
	0) stage="nvidia.ko load" mark='insmod nvidia.ko' span=4 ;;
	1) stage="nvidia-smi -L" mark='nvidia-smi -L$' span=30 ;;
	*) stage="nvidia-smi -q" mark='nvidia-smi -q$' span=40 ;;
	esac
	log=$RUN/kill$k.console.log
	start_guest0 "$log"
	i=0
	while ! tr -d '\r' <"$log" | grep -aq "$mark" && [ $i -lt 1800 ] && kill -0 "$QPID" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	# a random moment of the stage (0 .. span/10 s: insmod nvidia takes ~0.5 s under TCG,
	# nvidia-smi 4-8 s)
	d=$(awk -v s="$(od -An -N2 -tu2 /dev/urandom)" -v m="$span" 'BEGIN { printf "%.1f", (s % m) / 10 }')
	sleep "$d"
	last=$(tr -d '\r' <"$log" | grep -a -E '^rung[12]: |^cudacheck: ' | tail -n 1)
	db0=$(stat_of channels doorbells)
	if kill -9 "$QPID" 2>/dev/null; then
		wait "$QPID" 2>/dev/null || true
		sessions=$((sessions + 1))
		echo "kill $k: QEMU SIGKILLed ${d}s into '$stage' (guest's last line: ${last:-none})"
	else
		wait "$QPID" 2>/dev/null || true
		ko "vmm_kill_guest.kill$k" "QEMU ended before the kill (stage '$stage' never seen?)"
		sessions=$((sessions + 1))
	fi
	# vgsp-vfu writes --stats after each disconnect
	i=0
	while [ "$(stat_of counters closes)" != "$sessions" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if ! kill -0 "$VPID" 2>/dev/null; then
		ko vmm_kill_guest.server_alive "vgsp-vfu died after kill $k (see $RUN/vfu-stderr.log)"
		break
	fi
	# QEMU resets the device itself at boot too: resets >= sessions
	got="$(stat_of counters opens)/$(stat_of counters closes) $(stat_of vfu dma_windows) $(stat_of gsp_state boot) $(stat_of vfu irq_mode)"
	rs=$(stat_of counters resets)
	fds=$(ls /proc/$VPID/fd | wc -l) thr=$(ls /proc/$VPID/task | wc -l)
	if [ "$got" = "$sessions/$sessions 0 off none" ] && [ "${rs:-0}" -ge "$sessions" ] &&
	   [ "$fds" = "$fd0" ] && [ "$thr" = "$thr0" ]; then
		ok "vmm_kill_guest.kill$k.clean"
	else
		ko "vmm_kill_guest.kill$k.clean" "opens/closes dma_windows gsp irq_mode: '$got', want '$sessions/$sessions 0 off none'; resets $rs; fds $fds threads $thr (baseline $fd0/$thr0)"
	fi
	if [ "$COPY" = 1 ]; then
		# in flight: the guest was copying (no summary yet) and rang doorbells right up to the kill
		rss=$(rss_kib); [ -n "$rss1" ] || rss1=$rss
		live=$(stat_of channels chan_allocs) fr=$(stat_of channels chan_frees)
		nch=$(sed -n '/^== channels$/,/^== /p' "$STATS" | grep -c '^channel chid' || true)
		echo "  doorbells before the kill $db0, at close $(stat_of channels doorbells); chan_allocs $live chan_frees $fr, $nch channels left; RSS $rss KiB"
		[ "$nch" = 0 ] || ko "vmm_kill_guest.kill$k.no_channel" "$nch channels still in the table after the reset"
		case $last in
		"cudacheck: "*summary*|"rung2: "*VERDICT*) ko "vmm_kill_guest.kill$k.in_flight" "cudacheck had finished: $last" ;;
		"cudacheck: "*) ok "vmm_kill_guest.kill$k.in_flight" ;;
		*) ko "vmm_kill_guest.kill$k.in_flight" "the guest's last line is not cudacheck's: $last" ;;
		esac
		if [ "$rss" -le $((rss1 + 65536)) ]; then ok "vmm_kill_guest.kill$k.rss"
		else ko "vmm_kill_guest.kill$k.rss" "vgsp-vfu RSS $rss KiB, $rss1 after the first kill"; fi
	fi
	k=$((k + 1))
done

# A fresh guest on the same instance, at once: rung 1 in full (rung 2 after --copy).
log=$RUN/fresh.console.log
t0=$(date +%s)
[ "$COPY" = 0 ] || GARGS="rung2=1 rung2.smwork=refused rung2.args=--iters,1,--max-mib,4"
start_guest0 "$log"
i=0
while kill -0 "$QPID" 2>/dev/null && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
kill -9 "$QPID" 2>/dev/null || true
wait "$QPID" 2>/dev/null || true
v=$(tr -d '\r' <"$log" | grep -a 'VERDICT' | tail -n 1 | sed 's/.*VERDICT //')
case $v in
PASS*) ok vmm_kill_guest.fresh_guest_rung$((COPY + 1)) ;;
*) ko vmm_kill_guest.fresh_guest_rung$((COPY + 1)) "${v:-no verdict} (console $log)" ;;
esac
echo "fresh guest after $ITERS kills: ${v:-no verdict} ($(($(date +%s) - t0)) s)"
if kill -0 "$VPID" 2>/dev/null; then ok vmm_kill_guest.server_alive
else ko vmm_kill_guest.server_alive "vgsp-vfu died"; fi
sed -i "s|$VGSP_ROOT/||g" "$RUN/vfu-stderr.log"
echo "vmm-kill-guest: runs in ${RUN#"$VGSP_ROOT"/}"
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
