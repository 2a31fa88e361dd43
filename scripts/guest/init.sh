#!/bin/busybox sh
# /init of the rung-1 guest initramfs (built by scripts/guest/build-guest.sh).
# Loads nvidia.ko, creates device nodes by hand (no udev, no nvidia-modprobe), runs nvidia-smi and
# a cuInit probe, prints a one-line verdict and powers off. The verdict looks for a "GPU 0:" line
# from `nvidia-smi -L`: its exit code is 0 even when it prints "No devices found".
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp && mount -t tmpfs tmp /tmp
t() { cut -d' ' -f1 /proc/uptime; }
say() { echo "rung1: [$(t)] $*"; }

arg() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
NVOPTS=$(arg rung1.nvopts | tr ',' ' ')

say "guest up, kernel $(uname -r)"
# busybox lspci has no -nn; read the IDs from sysfs.
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x10de ] && say "pci $(basename "$d") $(cat "$d/vendor"):$(cat "$d/device") class $(cat "$d/class")"
done
while read -r m; do
	case $m in
	nvidia) say "insmod nvidia.ko $NVOPTS"
		# shellcheck disable=SC2086
		insmod /lib/vgsp/nvidia.ko $NVOPTS; rc=$?; say "insmod nvidia rc=$rc" ;;
	*) insmod "/lib/vgsp/$m.ko" || say "insmod $m failed" ;;
	esac
done < /lib/vgsp/load-order

# 535 registers major 195 as "nvidia-frontend" (older builds: "nvidia").
maj=$(awk '$2 == "nvidia" || $2 == "nvidia-frontend" { print $1; exit }' /proc/devices)
if [ -n "$maj" ]; then
	mknod -m 666 /dev/nvidiactl c "$maj" 255
	for n in 0 1 2 3; do mknod -m 666 "/dev/nvidia$n" c "$maj" "$n"; done
	say "device nodes: major $maj"
	cat /proc/driver/nvidia/version 2>/dev/null
	ls /proc/driver/nvidia/gpus/ 2>/dev/null
	say "nvidia-smi -L"
	nvidia-smi -L > /tmp/smi-L.txt 2>&1; rc=$?
	cat /tmp/smi-L.txt; say "nvidia-smi -L rc=$rc"
	say "nvidia-smi -q"
	# Full output kept and its exit status checked: rung 1 needs -q to
	# complete, not just to start.
	nvidia-smi -q > /tmp/smi-q.txt 2>&1; qrc=$?
	cat /tmp/smi-q.txt
	say "nvidia-smi -q rc=$qrc lines=$(wc -l < /tmp/smi-q.txt)"
	if [ "$(arg rung1.cuinit)" = 1 ]; then
		# libcuda needs nvidia-uvm and its nodes (dynamic major).
		insmod /lib/vgsp/nvidia-uvm.ko; say "insmod nvidia-uvm rc=$?"
		umaj=$(awk '$2 == "nvidia-uvm" { print $1; exit }' /proc/devices)
		if [ -n "$umaj" ]; then
			mknod -m 666 /dev/nvidia-uvm c "$umaj" 0
			mknod -m 666 /dev/nvidia-uvm-tools c "$umaj" 1
		fi
		say "cuinit-test"; cuinit-test; say "cuinit-test rc=$?"
	fi
else
	say "nvidia not in /proc/devices:"; cat /proc/devices
fi

say "kernel log (NVRM / nvidia / drm):"
dmesg | grep -iE 'NVRM|nvidia|Xid|01:00\.0|drm' | sed 's/^/dmesg: /'
# Rung 1: -L names the vGPU with a UUID, -q completes (exit 0, a product
# name printed), and the driver logged no Xid.
if ! grep -q '^GPU 0: .*(UUID: GPU-' /tmp/smi-L.txt 2>/dev/null; then
	say "VERDICT FAIL: nvidia-smi -L listed no GPU"
elif [ "${qrc:-1}" != 0 ] || ! grep -q 'Product Name' /tmp/smi-q.txt; then
	say "VERDICT FAIL: nvidia-smi -q did not complete (rc=${qrc:-none})"
elif dmesg | grep -q 'Xid'; then
	say "VERDICT FAIL: Xid in the kernel log"
else
	say "VERDICT PASS: $(grep '^GPU 0:' /tmp/smi-L.txt)"
fi
sync
poweroff -f
