#!/bin/sh
# run-rung1-nested.sh — rung 1 on the PRODUCT path: the stock rung-1 guest
# (build-guest.sh: Debian 6.1 + NVIDIA 535 open modules + nvidia-smi) boots
# in QEMU with -device vfio-pci,sysfsdev=<mdev> on a vgsp.ko h100-10g
# instance. vgsp.ko needs a kernel, so this runs nested: the rig's 6.12 TCG
# VM loads vgsp.ko, and its case 70-rung1-nested starts the host's QEMU
# (chroot of the 9p host share) with the guest's kernel and initramfs.
# TCG inside TCG is ~30x slower than run-rung1.sh: expect tens of minutes.
#
# usage: scripts/guest/run-rung1-nested.sh [--timeout S] [--head] [--mem MIB]
#                                          [--qemu PATH-ON-HOST]
#                                          [--rung2 [--cudacheck-args "ARGS"]]
#                                          [--two]
# --rung2: the inner guest runs rung 2 (nvidia-uvm, cudacheck with ARGS; the
#          sim backend's SM work may be refused cleanly); the last line says
#          "RUNG 2 kernel ...".
# --timeout: outer QEMU wall-clock limit (default 2700 s); the inner QEMU
#            gets that minus 300 s. --head: build kernel/ as in HEAD.
# --qemu: inner QEMU (default the host's /usr/bin/qemu-system-x86_64).
# Results: .cache/guest/runs-nested/<UTC stamp>/{console.log,inner.txt,
#          views.txt,summary.txt}; then "1 passed, 0 failed" or
#          "0 passed, 1 failed", and the last line, for the ladder:
#          "RUNG 1 kernel <guest driver version> PASS|FAIL: <evidence>";
#          exit 0 only on PASS.
# --two: two vgsp.ko instances and two inner guests at once (issue 12 §4):
#          innerA.txt/innerB.txt, one RUNG line per guest ("guest A: RUNG
#          ..."), PASS only when both pass with their own instance's UUID.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/scripts/lib/common.sh"
. "$ROOT/scripts/lib/apt.sh"
. "$ROOT/scripts/lib/kernel.sh"
. "$ROOT/scripts/lib/module.sh"
. "$ROOT/scripts/lib/vm.sh"
TMO=2700 MEM=1536 IQEMU=/usr/bin/qemu-system-x86_64 RUNG=1 CCARGS="" TWO=0
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) TMO=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--qemu) IQEMU=$2; shift 2 ;;
	--head) VGSP_FROM_HEAD=1; shift ;;
	--rung2) RUNG=2; shift ;;
	--cudacheck-args) CCARGS=$2; shift 2 ;;
	--two) TWO=1; shift ;;
	*) echo "run-rung1-nested: unknown argument $1" >&2; exit 2 ;;
	esac
done
need qemu-system-x86_64 busybox cpio make gcc modinfo
t_all=$(now)

t=$(now)
eval "$("$ROOT/scripts/guest/build-guest.sh" 2>/dev/null | grep -E '^(KERNEL|INITRD|NV_VER)=')"
[ -f "${KERNEL:-}" ] && [ -f "${INITRD:-}" ] || die "build-guest.sh gave no KERNEL/INITRD"
# vm_initramfs below sets INITRD (the outer one): keep the guest's apart.
GKERNEL=$KERNEL GINITRD=$INITRD
t_guest=$(($(now) - t))

t=$(now)
kernel_fetch 6.12
# The guest client must sit where mkinitramfs.sh looks (build/vm/); the
# module and initramfs go to a private build dir so a parallel
# stack_manager run cannot swap vgsp.ko under us.
client_build
vm_bin_build
BUILD=$ROOT/build/rung1-nested
mkdir -p "$BUILD"
module_build
vm_initramfs "$MODKO"
t_build=$(($(now) - t))
CORE=$(git -C "$ROOT" rev-parse --short=12 HEAD)
[ "${VGSP_FROM_HEAD:-}" ] || git -C "$ROOT" diff --quiet HEAD -- kernel || CORE="$CORE+worktree"

RUN=$ROOT/.cache/guest/runs-nested/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$RUN"
APPEND="console=ttyS0 panic=-1 quiet rig.mode=test rig.host rig.cases=rung1-nested"
APPEND="$APPEND rig.rung1nested=1 rung1.kernel=$GKERNEL rung1.initrd=$GINITRD"
APPEND="$APPEND rung1.qemu=$IQEMU rung1.tmo=$((TMO - 300)) rung1.mem=$MEM"
[ "$RUNG" = 1 ] || APPEND="$APPEND rung1.inner2=1"
[ -z "$CCARGS" ] || APPEND="$APPEND rung1.ccargs=$(echo "$CCARGS" | tr ' ' ',')"
# RUNG1_VGSP_ARGS="bar1_mmap=1": vgsp.ko's parameters in the outer VM (A/B runs)
[ -z "${RUNG1_VGSP_ARGS:-}" ] || APPEND="$APPEND rig.vgsp=$(echo "$RUNG1_VGSP_ARGS" | tr ' ' ',')"
# two inner guests: their RAM and TCG code caches twice
OMEM=3G
[ "$TWO" = 0 ] || { APPEND="$APPEND rung1.two=1"; OMEM=5G; }
cat > "$RUN/cmd.txt" <<EOC
date: $(date -u +%FT%TZ)
outer: qemu-system-x86_64 ($(qemu-system-x86_64 --version | head -n 1)) kernel $KREL -m $OMEM, timeout ${TMO}s
vgsp.ko: $MODKO (core $CORE)
inner qemu: $IQEMU (chroot of the host share), -m $MEM, vfio-pci,sysfsdev= h100-10g
guest kernel: $GKERNEL
guest initrd: $GINITRD
outer append: $APPEND
EOC
log "rung1-nested: outer VM up to ${TMO}s; console in $RUN/console.log"
t=$(now)
rc=0
# The rig's VM (vm_boot) with more RAM: the inner QEMU holds the guest's
# RAM (1.5 GiB) plus its TCG code cache.
timeout "$TMO" qemu-system-x86_64 -accel tcg,thread=single -m "$OMEM" -smp 2 -no-reboot -display none \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	-kernel "$KIMG" -initrd "$INITRD" -append "$APPEND" \
	-serial "file:$RUN/console.log" -monitor none </dev/null >"$RUN/qemu.log" 2>&1 || rc=$?
t_outer=$(($(now) - t))

# Plain text: no CRs, no terminal escapes (SeaBIOS clears the screen).
tr -d '\r' < "$RUN/console.log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' > "$RUN/console.txt"
# Run records get committed as results: name paths relative to the repository.
sed -i "s|$ROOT/||g" "$RUN/cmd.txt" "$RUN/console.txt"
# Inner lines are "inner| <outer uptime>| text" (older case: "inner| text").
sed -n 's/^inner| \([0-9.]*| \)\{0,1\}//p' "$RUN/console.txt" > "$RUN/inner.txt"
if [ "$TWO" = 1 ]; then
	np=0 nf=0 lines=
	for g in A B; do
		sed -n "s/^inner$g| [0-9.]*| //p" "$RUN/console.txt" > "$RUN/inner$g.txt"
		v=$(grep -a 'VERDICT' "$RUN/inner$g.txt" | tail -n 1 | sed 's/.*VERDICT //')
		[ -n "$v" ] || v="FAIL: no inner VERDICT line (outer qemu rc=$rc)"
		grep -q "^PASS rung1.nested.two.$g\$" "$RUN/console.txt" || v="FAIL: ${v#PASS: }"
		case $v in PASS*) np=$((np + 1)) ;; *) nf=$((nf + 1)) ;; esac
		lines="${lines}guest $g: RUNG $RUNG kernel ${NV_VER:-535.261.03} $v
"
	done
	{
		echo "rung1-nested --two run $(basename "$RUN")"
		cat "$RUN/cmd.txt"
		echo "times: kernel+module+initramfs ${t_build}s outer-total ${t_outer}s all $(($(now) - t_all))s; outer qemu rc=$rc"
		echo "--- outer rig lines"
		grep -a -E '^(== |rung1n: |PASS |FAIL |SKIP |[0-9]+ passed)' "$RUN/console.txt" || true
		for g in A B; do
			echo "--- guest $g: rung lines"
			grep -a -E 'rung[12]:|^GPU [0-9]+:' "$RUN/inner$g.txt" | grep -v 'kernel log' || true
		done
		printf '%s' "$lines"
	} > "$RUN/summary.txt"
	cat "$RUN/summary.txt"
	echo "run-rung1-nested: results in $RUN"
	echo "$np passed, $nf failed"
	printf '%s' "$lines"
	[ "$nf" = 0 ]
	exit
fi
sed -n 's/^view| //p' "$RUN/console.txt" > "$RUN/views.txt"
verdict=$(grep -a 'VERDICT' "$RUN/inner.txt" | tail -n 1 | sed 's/.*VERDICT //')
[ -n "$verdict" ] || verdict="FAIL: no inner VERDICT line (outer qemu rc=$rc)"
# Wall-clock phases of the inner run, on the outer VM's clock (which keeps
# wall time; the inner guest's own clock lags under nested TCG).
s0=$(sed -n 's/^rung1n: phase inner-start uptime \([0-9.]*\).*/\1/p' "$RUN/console.txt")
phases=$(awk -v s0="${s0:-0}" '
	function mark(n) { if (t > 0 && !(n in seen)) { seen[n] = 1
		printf "  %-36s +%7.1f s  (phase %6.1f s)\n", n, t - s0, t - prev; prev = t } }
	BEGIN { prev = s0 + 0 }
	/^inner\| [0-9.]+\| / { t = $2 + 0; mark("first inner output (vfio-pci realized)") }
	/^inner\| .*Linux version/ { mark("inner kernel starts") }
	/^inner\| .*rung1: .*guest up/ { mark("guest /init up") }
	/^inner\| .*insmod nvidia rc=/ { mark("nvidia.ko loaded") }
	/^inner\| .*nvidia-smi -L rc=/ { mark("nvidia-smi -L done") }
	/^inner\| .*nvidia-smi -q (done|rc=)/ { mark("nvidia-smi -q done") }
	/^inner\| .*cudacheck: cuInit / { mark("cuInit done") }
	/^inner\| .*cudacheck: sm-work|cudacheck: sm\./ { mark("SM work begins") }
	/^inner\| .*cudacheck: summary/ { mark("cudacheck done") }
	/^inner\| .*VERDICT/ { mark("VERDICT printed") }
	/^rung1n: phase inner-end/ { t = $5 + 0; mark("inner QEMU exited") }' "$RUN/console.txt")
case_up=$(sed -n 's/^== case 70-rung1-nested (uptime \([0-9.]*\) s)/\1/p' "$RUN/console.txt")
inner_s=$(sed -n 's/.*inner-seconds \([0-9]*\).*/\1/p' "$RUN/console.txt")
{
	echo "rung1-nested run $(basename "$RUN")"
	cat "$RUN/cmd.txt"
	echo "times: guest-image ${t_guest}s kernel+module+initramfs ${t_build}s outer-total ${t_outer}s" \
		"(outer boot to case ${case_up:-?}s, inner qemu ${inner_s:-?}s) all $(($(now) - t_all))s; outer qemu rc=$rc"
	echo "verdict: $verdict"
	echo "--- inner phases (wall clock, from inner QEMU start)"
	echo "${phases:-  (no outer timestamps on the inner lines)}"
	echo "--- outer rig lines"
	grep -a -E '^(== |rung1n: |PASS |FAIL |SKIP |[0-9]+ passed)' "$RUN/console.txt" || true
	echo "--- inner rung1 lines (guest uptime in brackets)"
	grep -a -E 'rung[12]:|^GPU [0-9]+:|No devices|^cudacheck: ' "$RUN/inner.txt" | grep -v 'kernel log' || true
	echo "--- inner NVRM / Xid lines (repeats dropped, first 60)"
	grep -a -v '^dmesg: ' "$RUN/inner.txt" | grep -a -E 'NVRM|Xid' | sed 's/^\[ *[0-9.]*\] //' |
		awk '!seen[$0]++' | head -n 60
	echo "--- vgsp debugfs views of the instance after the inner run (counters non-zero only)"
	grep -a -v '^counters: ' "$RUN/views.txt" | head -n 200
	grep -a '^counters: ' "$RUN/views.txt" | awk '$NF != 0'
	if [ ! -s "$RUN/inner.txt" ]; then
		echo "--- no inner output: last outer console lines"
		tail -n 40 "$RUN/console.txt"
	fi
} > "$RUN/summary.txt"
cat "$RUN/summary.txt"
echo "run-rung1-nested: results in $RUN"
rung="RUNG $RUNG kernel ${NV_VER:-535.261.03} $verdict"
echo "$rung" >> "$RUN/summary.txt"
case $verdict in
PASS*) echo "1 passed, 0 failed"; echo "$rung"; exit 0 ;;
*) echo "0 passed, 1 failed"; echo "$rung"; exit 1 ;;
esac
