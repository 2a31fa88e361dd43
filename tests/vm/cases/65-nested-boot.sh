#!/bin/sh
# rig-timeout: 420
# A guest Linux boots in the host's QEMU with the vgsp mdev assigned
# (vfio-pci,sysfsdev=) and enumerates it: 10de:2330, class 0x030200, BAR0
# 16 MiB, BAR1 per profile. TCG inside TCG takes about 2 minutes, so this
# runs only with RIG_NESTED_BOOT=1 (stack_manager.sh test --nested-boot).
. /lib/rig.sh

if ! grep -q rig.nestedboot /proc/cmdline; then
	skip nested.boot "opt-in: stack_manager.sh test --nested-boot (about 2 minutes)"
	exit 0
fi
kimg=$(sed -n 's/.*rig\.kimg=\([^ ]*\).*/\1/p' /proc/cmdline)
if ! host_chroot_ready || [ ! -f "/host$kimg" ] || [ ! -f /lib/inner.cpio ]; then
	fail nested.boot "no host share, kernel image '$kimg' or /lib/inner.cpio"
	exit 0
fi
cp /lib/inner.cpio /host/tmp/inner.cpio
u=$(mk h100-10g) || { fail nested.boot "create failed"; exit 0; }
before=$(kv "$DBG/$u/counters" cfg_reads)
t0=$(date +%s)
timeout 400 chroot /host qemu-system-x86_64 -accel tcg -machine pc -m 256 -nodefaults \
	-display none -no-reboot -serial stdio -kernel "$kimg" -initrd /tmp/inner.cpio \
	-append "console=ttyS0 quiet panic=-1" \
	-device "vfio-pci,sysfsdev=$DEVS/$u" > /tmp/inner.out 2>&1
rc=$?
echo "  nested boot: exit $rc in $(($(date +%s) - t0)) s"
grep -E '^inner:|warning|error' /tmp/inner.out | tr -d '\r' | sed 's/^/  /'
check nested.boot.completed "inner guest did not finish (exit $rc)" grep -q '^inner: done' /tmp/inner.out
check nested.boot.sees_device "no 0x10de:0x2330 class 0x030200 in the inner guest" \
	grep -q 'inner: .* 0x10de:0x2330 class 0x030200' /tmp/inner.out
check nested.boot.bar0 "BAR0 not 16 MiB" grep -q 'inner: bar0 size 16777216 ' /tmp/inner.out
check nested.boot.bar1 "BAR1 not 256 MiB" grep -q 'inner: bar1 size 268435456 ' /tmp/inner.out
after=$(kv "$DBG/$u/counters" cfg_reads)
check nested.boot.config_traffic "cfg_reads $before -> $after" test "$after" -gt "$before"
rm_inst "$u" || fail nested.boot.remove "remove failed"
