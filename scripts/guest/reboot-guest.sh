#!/bin/sh
# reboot-guest.sh — the STOCK NVIDIA 535 guest rebooted in flight on one vgsp-vfu instance, N
# times, without the VMM going away (issue 12 §3). One QEMU TCG guest (the rung-1 image of
# build-guest.sh) on one vgsp-vfu instance for the whole run. Each iteration:
#   1. a QMP system_reset at a random moment of the guest's run, cycling through three
#      stages: 0-0.3 s into `insmod nvidia.ko`, 0-3 s into `nvidia-smi -L` (the first open:
#      RmInitAdapter, the FSP/GSP boot and its RPCs), 0-4 s into `nvidia-smi -q` (RPCs): the
#      machine resets with the driver busy, as a watchdog or `reboot -f` would, and QEMU
#      resets the device through vfio-user (the connection stays);
#   2. the next boot must pass rung 1 in full on the same instance (nvidia.ko re-initialises
#      the GSP, nvidia-smi -L lists the instance's UUID, -q exits 0, no Xid, no guest crash);
#   3. the guest's final `poweroff -f` only pauses QEMU (-action shutdown=pause): a
#      system_reset + cont reboots it with the driver still loaded, for the next iteration.
# Throughout, vgsp-vfu serves the one connection (opens 1, closes 0) and never dies. At the
# end QEMU quits: the session is closed and the device reset (opens == closes, no DMA window,
# GSP off, no eventfd, resets >= 2 per iteration), vgsp-vfu's fds and threads are back to
# their baseline and it exits 0 on SIGTERM.
#
# usage: scripts/guest/reboot-guest.sh [--iters N] [--core COMMIT|worktree]
# --iters 2 is suite `guest-reboot` of the test command (~3 min); --iters 20 is the long run
# (`test --long`; last run recorded in docs/security.md). Prints "PASS name" / "FAIL name:
# why" lines, then "N passed, N failed". Run directory: .cache/guest/runs/<UTC stamp>-reboot/.
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT"
ITERS=2 CORE=HEAD
while [ $# -gt 0 ]; do
	case $1 in
	--iters) ITERS=$2; shift 2 ;;
	--core) CORE=$2; shift 2 ;;
	*) echo "reboot-guest: unknown argument $1" >&2; exit 2 ;;
	esac
done
npass=0 nfail=0
ok() { echo "PASS $1"; npass=$((npass + 1)); }
ko() { _n=$1; shift; echo "FAIL $_n: $*"; nfail=$((nfail + 1)); }

QEMU=$(scripts/guest/qemu-vfu.sh 2>/dev/null | sed -n 1p)
eval "$(scripts/guest/build-guest.sh 2>/dev/null | grep -E '^(KERNEL|INITRD|NV_VER)=')"
VFU=$(scripts/guest/build-vfu.sh "$CORE" | sed -n 1p)
RUN=$VGSP_ROOT/.cache/guest/runs/$(date -u +%Y%m%dT%H%M%SZ)-reboot
mkdir -p "$RUN"
SOCK=$RUN/vfu.sock STATS=$RUN/vfu-stats.txt LOG=$RUN/console.log
UUID=56677370-0000-4000-8000-00000000b007
"$VFU" --socket "$SOCK" --uuid "$UUID" --stats "$STATS" --persist 2>"$RUN/vfu-stderr.log" &
VPID=$!
QPID='' CPID=''
cleanup() {
	[ -z "$QPID" ] || kill -9 "$QPID" 2>/dev/null || true
	[ -z "$CPID" ] || kill "$CPID" 2>/dev/null || true
	kill "$VPID" 2>/dev/null || true
}
trap cleanup EXIT
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || { echo "reboot-guest: vgsp-vfu did not start" >&2; exit 1; }
fd0=$(ls /proc/$VPID/fd | wc -l) thr0=$(ls /proc/$VPID/task | wc -l)
echo "vgsp-vfu pid $VPID: $fd0 fds, $thr0 threads before the guest"

# QMP over a pipe chardev (QEMU opens both FIFOs read-write, so neither side blocks).
mkfifo "$RUN/qmp.in" "$RUN/qmp.out"
cat "$RUN/qmp.out" >"$RUN/qmp.log" &
CPID=$!
DEV='{"driver":"vfio-user-pci","socket":{"path":"'$SOCK'","type":"unix"},"bus":"rp0"}'
: >"$LOG"
"$QEMU" -accel tcg -cpu max -m 2G -smp 2 -nographic -action shutdown=pause \
	-chardev "pipe,id=qmp,path=$RUN/qmp" -mon chardev=qmp,mode=control \
	-object memory-backend-memfd,id=mem,size=2G,share=on \
	-machine q35,memory-backend=mem \
	-device pcie-root-port,id=rp0 -device "$DEV" \
	-kernel "$KERNEL" -initrd "$INITRD" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 rung1.cuinit=0" \
	>"$LOG" 2>&1 </dev/null &
QPID=$!
exec 3>"$RUN/qmp.in"
qmp() { printf '{"execute":"%s"}\n' "$1" >&3; }
qmp qmp_capabilities

# The console of the current boot: the lines after L0.
L0=0
seg() { tail -n +$((L0 + 1)) "$LOG" | tr -d '\r'; }
stat_of() { sed -n "/^== $1\$/,/^== /p" "$STATS" | awk -v k="$2" '$1 == k { print $2; exit }'; }
# wait_for REGEX SECONDS: 0 once the current boot printed a matching line.
wait_for() {
	_i=0
	while ! seg | grep -aqE "$1"; do
		kill -0 "$QPID" 2>/dev/null || return 1
		[ $_i -lt $(($2 * 10)) ] || return 1
		sleep 0.1; _i=$((_i + 1))
	done
}
# reboot: system_reset (and cont, for a guest QEMU paused at its poweroff); the new boot's
# console starts after L0.
reboot_now() {
	qmp system_reset
	qmp cont
	sleep 0.3
	L0=$(wc -l <"$LOG")
}
CRASH='kernel BUG|BUG:|general protection fault|Oops|invalid opcode|Kernel panic|Call Trace'

t00=$(date +%s)
k=0
while [ "$k" -lt "$ITERS" ]; do
	case $((k % 3)) in
	0) stage="nvidia.ko load" mark='insmod nvidia.ko' span=4 ;;
	1) stage="nvidia-smi -L" mark='nvidia-smi -L$' span=30 ;;
	*) stage="nvidia-smi -q" mark='nvidia-smi -q$' span=40 ;;
	esac
	if ! wait_for "rung1: .*$mark" 300; then
		ko "reboot_guest.reboot$k" "stage '$stage' never began (QEMU alive: $(kill -0 "$QPID" 2>/dev/null && echo yes || echo no))"
		break
	fi
	d=$(awk -v s="$(od -An -N2 -tu2 /dev/urandom)" -v m="$span" 'BEGIN { printf "%.1f", (s % m) / 10 }')
	sleep "$d"
	last=$(seg | grep -a -E '^rung1: ' | tail -n 1)
	cr=$(seg | grep -a -m1 -E "$CRASH" || true)
	[ -z "$cr" ] || ko "reboot_guest.reboot$k.before" "guest crash before the reset: $cr"
	reboot_now
	echo "reboot $k: system_reset ${d}s into '$stage' (guest's last line: ${last:-none})"
	t0=$(date +%s)
	if ! wait_for 'VERDICT' 420; then
		ko "reboot_guest.reboot$k.rung1" "no verdict after the reboot (console $LOG)"
		break
	fi
	v=$(seg | grep -a 'VERDICT' | tail -n 1 | sed 's/.*VERDICT //')
	cr=$(seg | grep -a -m1 -E "$CRASH" || true)
	case $v in
	*"PASS: GPU 0: "*"(UUID: GPU-$UUID)"*)
		if [ -n "$cr" ]; then ko "reboot_guest.reboot$k.rung1" "verdict PASS but a guest crash: $cr"
		else ok "reboot_guest.reboot$k.rung1"; fi ;;
	*) ko "reboot_guest.reboot$k.rung1" "${v:-no verdict}" ;;
	esac
	echo "  next boot on the same instance: ${v:-no verdict} ($(($(date +%s) - t0)) s)"
	# one session throughout: the reset came through vfio-user, not a reconnect
	got="$(stat_of counters opens)/$(stat_of counters closes)"
	if ! kill -0 "$VPID" 2>/dev/null; then
		ko reboot_guest.server_alive "vgsp-vfu died in iteration $k (see $RUN/vfu-stderr.log)"
		break
	fi
	[ "$got" = 1/0 ] || ko "reboot_guest.reboot$k.one_session" "opens/closes $got, want 1/0"
	k=$((k + 1))
	# the guest powers off after its verdict (QEMU pauses): the next iteration's boot
	wait_for 'reboot: Power down|poweroff' 30 || true
	[ "$k" -lt "$ITERS" ] && reboot_now
done
echo "$k iterations in $(($(date +%s) - t00)) s"
rs0=$(stat_of counters resets)
qmp quit
i=0
while kill -0 "$QPID" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -9 "$QPID" 2>/dev/null || true
wait "$QPID" 2>/dev/null || true
QPID=''
exec 3>&-
i=0
while [ "$(stat_of counters closes)" != 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
got="$(stat_of counters opens)/$(stat_of counters closes) $(stat_of vfu dma_windows) $(stat_of gsp_state boot) $(stat_of vfu irq_mode)"
rs=$(stat_of counters resets)
fds=$(ls /proc/$VPID/fd 2>/dev/null | wc -l) thr=$(ls /proc/$VPID/task 2>/dev/null | wc -l)
echo "vgsp-vfu after QEMU quit: opens/closes dma_windows gsp irq_mode '$got'; resets $rs (before the quit $rs0); fds $fds threads $thr"
if [ "$got" = "1/1 0 off none" ] && [ "${rs:-0}" -ge $((2 * ITERS)) ] && [ "$fds" = "$fd0" ] && [ "$thr" = "$thr0" ]; then
	ok reboot_guest.end_clean
else
	ko reboot_guest.end_clean "want '1/1 0 off none', resets >= $((2 * ITERS)), fds/threads $fd0/$thr0"
fi
if kill "$VPID" 2>/dev/null && wait "$VPID"; then ok reboot_guest.server_exit0
else ko reboot_guest.server_exit0 "vgsp-vfu did not exit 0 on SIGTERM"; fi
if [ "$k" = "$ITERS" ]; then ok "reboot_guest.x$ITERS"
else ko "reboot_guest.x$ITERS" "$k of $ITERS iterations"; fi
tr -d '\r' <"$LOG" | sed "s|$VGSP_ROOT/||g" >"$RUN/console.txt"
sed -i "s|$VGSP_ROOT/||g" "$RUN/vfu-stderr.log"
echo "reboot-guest: runs in ${RUN#"$VGSP_ROOT"/}"
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
