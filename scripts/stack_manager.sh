#!/bin/sh
# vgsp stack manager: set up, build, test and demo vgsp.ko on Debian test
# kernels under QEMU/TCG. Every subcommand installs what it needs.
#
#   setup                      host tools + both test kernels (idempotent)
#   build [--kernel K]         vgsp.ko per kernel, the guest client, vm-bin
#                              (newest: vgsp.ko only)
#   test  [--kernel K] [--quick] [--no-unit] [--no-rung1]
#                              make unit, make -C userspace/*/ test, a 60 s
#                              fuzz run, VM tests (+ nested QEMU, mdevctl)
#                              per kernel, the compile check against the newest
#                              kernel Debian ships (suite module-newest),
#                              kernel lint (checkpatch, sparse),
#                              the ladder with the stock NVIDIA guest driver
#                              over vfio-user up to VGSP_DEFAULT_RUNG (1 today,
#                              scripts/lib/suites.sh); last line "N passed, N failed"
#   test  --rung N [--path vfio-user|kernel]
#                              the ladder only: rung 1 .. N on that path (default
#                              vfio-user), one suite per rung, each ending with
#                              "RUNG <n> <path> <driver> PASS|FAIL: <evidence>".
#                              rung 1: nvidia-smi lists the vGPU (run-rung1.sh;
#                              kernel path: run-rung1-nested.sh, ~10 min);
#                              rung 2: CUDA driver API checks (run-rung2.sh;
#                              not wired on the kernel path yet). A failed rung
#                              stops the climb.
#   test  --rung N --driver 550.163.01
#                              the same ladder with the stock NVIDIA 550 guest (Debian
#                              trixie's driver, abi/r550; vfio-user path only); the
#                              default driver is 535.261.03
#   demo                       two stock-driver guests at once (QEMU TCG, NVIDIA 535
#                              guest driver), each on its own vgsp-vfu instance:
#                              nvidia-smi -L/-q and a small CUDA copy check in
#                              each, then both instances' counters side by side
#                              (scripts/guest/demo-two.sh)
#   demo  --kernel [K]         the vgsp.ko demo: a TCG VM loads vgsp.ko, creates two
#                              instances and drives them with the smoke client
#   vm    [--kernel K]         interactive shell in the VM, vgsp.ko loaded
# K is 6.12 (default for demo/vm), 6.1, newest (the newest kernel Debian ships, a
# compile check: no boot) or all (= 6.12 6.1 newest, default for build/test).
# --quick: 6.12 only, no unit/fuzz/lint/ladder suites. --no-rung1: no
# ladder. --head: build kernel/ as committed
# in HEAD (ignores uncommitted edits in the working tree). --nested-boot:
# also boot a guest Linux through the mdev in nested QEMU (+2 min/kernel).
# --long: the long lifecycle variants (vgsp.ko create/open/close/remove
# x1000 + rmmod, case 31; vgsp-vfu VMM kill x1000; 16 tenants for 60 s).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/lib/common.sh"
. "$ROOT/scripts/lib/apt.sh"
. "$ROOT/scripts/lib/kernel.sh"
. "$ROOT/scripts/lib/module.sh"
. "$ROOT/scripts/lib/vm.sh"
. "$ROOT/scripts/lib/suites.sh"

cmd=${1:-}
[ $# -gt 0 ] && shift
kernels='' unit=1 rung='' rpath=vfio-user kdemo= drv=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel)
		kdemo=1
		# `demo --kernel` alone: the vgsp.ko demo on the default kernel
		case ${2:-} in
		"" | --*) [ "$cmd" = demo ] || die "--kernel needs 6.12, 6.1, newest or all" ;;
		*) kernels=$2; shift ;;
		esac ;;
	--kernel=*) kdemo=1 kernels=${1#--kernel=} ;;
	--quick) kernels=6.12 unit= ;;
	--no-unit) unit= ;;
	--no-rung1) VGSP_NO_RUNG1=1 ;;
	--rung) [ $# -ge 2 ] || die "--rung needs a rung number (1 or 2)"; rung=$2; shift ;;
	--rung=*) rung=${1#--rung=} ;;
	--path) [ $# -ge 2 ] || die "--path needs vfio-user or kernel"; rpath=$2; shift ;;
	--path=*) rpath=${1#--path=} ;;
	--driver) [ $# -ge 2 ] || die "--driver needs 535.261.03 or 550.163.01"; drv=$2; shift ;;
	--driver=*) drv=${1#--driver=} ;;
	--head) VGSP_FROM_HEAD=1 ;;
	--nested-boot) RIG_NESTED_BOOT=1 ;;
	--long) RIG_LONG=1 ;;
	*) die "unknown option '$1' (see the header of $0)" ;;
	esac
	shift
done
case $kernels in
all) kernels="6.12 6.1 newest" ;;
"") case $cmd in demo | vm) kernels=6.12 ;; *) kernels="6.12 6.1 newest" ;; esac ;;
6.12 | 6.1) ;;
newest) case $cmd in demo | vm) die "$cmd boots a kernel: newest is a compile check only" ;; esac ;;
*) die "--kernel: want 6.12, 6.1, newest or all, got '$kernels'" ;;
esac
case $rung in "" | 1 | 2) ;; *) die "--rung: want 1 or 2, got '$rung'" ;; esac
case $rpath in vfio-user | kernel) ;; *) die "--path: want vfio-user or kernel, got '$rpath'" ;; esac
[ -n "$rung" ] || [ "$rpath" = vfio-user ] || die "--path needs --rung N"
[ -z "$rung" ] || [ "$cmd" = test ] || die "--rung is a 'test' option"
case ${drv:-} in
"") ;;
535.261.03 | 550.163.01)
	[ -n "$rung" ] || die "--driver is a ladder option: it needs --rung N"
	[ "$rpath" = vfio-user ] || [ "$drv" = 535.261.03 ] ||
		die "--driver $drv: the vfio-user path only"
	NV_VER=$drv; export NV_VER ;;
*) die "--driver: want 535.261.03 or 550.163.01, got '$drv'" ;;
esac

host_setup() {
	apt_install $HOST_PKGS mdevctl libcmocka-dev libjansson-dev libpci-dev pkg-config libvirt-clients dkms clang libclang-rt-14-dev sparse perl
	need qemu-system-x86_64 busybox cpio make gcc xz modinfo flock
	mkdir -p "$BUILD/logs"
}

# Fetch kernel $1 and build everything the VM needs for it.
prepare_kernel() {
	kernel_fetch "$1"
	module_build
	client_build
	vm_bin_build
	vm_initramfs "$MODKO"
}

case $cmd in
setup)
	apt_update force
	host_setup
	for k in $kernels; do
		case $k in newest) newest_fetch ;; *) kernel_fetch "$k" ;; esac
		echo "kernel $k: $KREL"
	done
	;;
build)
	host_setup
	for k in $kernels; do
		if [ "$k" = newest ]; then
			newest_fetch
			newest_module_build
			echo "built $MODKO (compile check: ${NEWEST_CC:-?})"
			continue
		fi
		prepare_kernel "$k"
		echo "built $MODKO and $INITRD"
	done
	;;
test)
	host_setup
	if [ -n "$rung" ]; then
		run_ladder_suites "$rung" "$rpath"
	else
		run_all_suites "$unit" $kernels
	fi
	;;
demo | vm)
	host_setup
	if [ "$cmd" = demo ] && [ -z "$kdemo" ]; then
		log "demo: two stock-driver guests sharing the vGPU core (about 2-3 min once cached;" \
			"the first run builds the guest image, ~10 min)"
		exec sh "$ROOT/scripts/guest/demo-two.sh"
	fi
	# shellcheck disable=SC2086
	set -- $kernels
	[ $# = 1 ] || die "$cmd boots one kernel: pass --kernel 6.12 or --kernel 6.1"
	prepare_kernel "$1"
	if [ "$cmd" = vm ]; then
		log "booting $KREL (Ctrl-A X quits)"
		vm_boot shell - interactive
		exit 0
	fi
	log "demo on $KREL (TCG boot takes a few seconds)"
	rc=0
	vm_boot demo "$BUILD/logs/demo.log" || rc=$?
	# Guest output without the kernel's own lines.
	grep -avE '^\[ *[0-9]+\.[0-9]+\]' "$BUILD/logs/demo.log" | tr -d '\r'
	[ "$rc" = 33 ] || die "demo failed (QEMU exit $rc; log $BUILD/logs/demo.log)"
	;;
*)
	sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
	;;
esac
