# shellcheck shell=sh
# Helpers for guest test cases (/cases/*.sh source /lib/rig.sh).
# Result protocol: one line per check, "PASS name", "FAIL name: reason" or
# "SKIP name: reason"; /init counts them. A case starts with vgsp.ko loaded
# with default parameters and no instances; /init restores that afterwards.

VGSP_KO=/lib/vgsp/vgsp.ko
TYPES=/sys/class/mdev_bus/vgsp/mdev_supported_types
DEVS=/sys/bus/mdev/devices
DBG=/sys/kernel/debug/vgsp
PARAMS=/sys/module/vgsp/parameters

pass() { echo "PASS $1"; }
fail() { _n=$1; shift; echo "FAIL $_n: $*"; }
skip() { _n=$1; shift; echo "SKIP $_n: $*"; }
# check NAME REASON CMD...: PASS if CMD succeeds, else FAIL with REASON.
check() {
	_n=$1 _r=$2; shift 2
	if "$@"; then pass "$_n"; else fail "$_n" "$_r"; fi
}
# eq NAME GOT WANT
eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

vgsp_loaded() { [ -d /sys/module/vgsp ]; }
vgsp_load() { insmod "$VGSP_KO" "$@"; }
# rig.vgsp=a=1,b=2 on the command line: vgsp.ko's parameters for /init's
# loads between cases and the demo (e.g. bar1_mmap=1); default none.
rig_vgsp_args() { sed -n 's/.*\brig\.vgsp=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' '; }
vgsp_unload() {
	for _d in "$DEVS"/*; do
		[ -e "$_d/remove" ] && echo 1 > "$_d/remove"
	done
	vgsp_loaded && rmmod vgsp
	! vgsp_loaded
}

new_uuid() { cat /proc/sys/kernel/random/uuid; }
# mk TYPE: create an instance, print its uuid; non-zero (and the shell's
# error on stderr) if the kernel refused.
mk() {
	_u=$(new_uuid)
	echo "$_u" > "$TYPES/vgsp-$1/create" || return 1
	echo "$_u"
}
rm_inst() { echo 1 > "$DEVS/$1/remove"; }
avail() { cat "$TYPES/vgsp-$1/available_instances"; }
ninst() { ls "$DEVS" 2>/dev/null | wc -l; }
# key VALUE from a "key value" file
kv() { awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$1"; }
# number of dmesg lines matching an extended regex
dmesg_count() { dmesg | grep -cE "$1"; }

# The host's root, shared read-only over 9p at /host, made usable as a
# chroot (kernel filesystems and scratch tmpfs mounted over it).
host_chroot_ready() {
	[ -x /host/bin/sh ] || return 1
	for _m in "proc proc" "sysfs sys" "devtmpfs dev" "tmpfs tmp" "tmpfs run"; do
		set -- $_m
		grep -q " /host/$2 " /proc/mounts || mount -t "$1" "$1" "/host/$2" || return 1
	done
	grep -q " /host/sys/kernel/debug " /proc/mounts ||
		mount -t debugfs debugfs /host/sys/kernel/debug 2>/dev/null
	return 0
}

# Kernel memory and log baselines for the cases that must give everything
# back (56, 58): kmalloc objects in use (KiB, after dropping caches),
# VmallocUsed (KiB), and the count of warning lines in dmesg.
kmalloc_kib() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	awk 'NR > 2 && $1 ~ /^kmalloc-(cg-)?[0-9]+k?$/ { t += $2 * $4 } END { print int(t / 1024) }' /proc/slabinfo
}
vmalloc_kib() { awk '$1 == "VmallocUsed:" { print $2 }' /proc/meminfo; }
bad_dmesg() { dmesg | grep -cE 'WARNING:|BUG:|Oops|general protection|Call Trace|KFENCE|list_(add|del) corruption|refcount_t:'; }

# nothing_left PREFIX K0 M0 W0 [NOTE]: kmalloc within 256 KiB and
# VmallocUsed within 1 MiB of K0/M0, and no new dmesg warning since W0;
# NOTE (e.g. a seed) goes into each failure message.
nothing_left() {
	_p=$1 _k0=$2 _m0=$3 _w0=$4 _note=${5:+"; $5"}
	_k1=$(kmalloc_kib) _m1=$(vmalloc_kib)
	echo "  kmalloc objects in use $_k0 -> $_k1 KiB, VmallocUsed $_m0 -> $_m1 KiB"
	check "$_p.kmalloc_back" "kmalloc objects in use grew by $((_k1 - _k0)) KiB (bound 256$_note)" \
		test $((_k1 - _k0)) -le 256
	check "$_p.vmalloc_back" "VmallocUsed grew by $((_m1 - _m0)) KiB (bound 1024$_note)" \
		test $((_m1 - _m0)) -le 1024
	_w1=$(bad_dmesg)
	if [ "$_w1" = "$_w0" ]; then
		pass "$_p.dmesg_clean"
	else
		fail "$_p.dmesg_clean" "$((_w1 - _w0)) new lines$_note: $(dmesg | grep -m1 -E 'WARNING:|BUG:|Oops|general protection|KFENCE')"
	fi
}
