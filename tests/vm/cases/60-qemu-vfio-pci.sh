#!/bin/sh
# Real VMM client: the host's own QEMU (run from the 9p host root) realizes
# -device vfio-pci,sysfsdev=<mdev> and reports it over QMP query-pci.
. /lib/rig.sh

Q=/usr/bin/qemu-system-x86_64
if ! host_chroot_ready || [ ! -x "/host$Q" ]; then
	skip nested.qemu_vfio_pci "no host share with $Q (boot with rig.host)"
	exit 0
fi
u=$(mk h100-10g) || { fail nested.create "create failed"; exit 0; }
t0=$(date +%s)
printf '%s\n' '{"execute":"qmp_capabilities"}' '{"execute":"query-pci"}' '{"execute":"quit"}' |
	timeout 120 chroot /host $Q -accel tcg -machine pc -m 64 -S -nodefaults -display none \
		-device "vfio-pci,sysfsdev=$DEVS/$u,id=vgsp0" -qmp stdio > /tmp/qmp.out 2> /tmp/qemu.err
rc=$?
echo "  nested qemu: exit $rc in $(($(date +%s) - t0)) s"
sed 's/^/  qemu: /' /tmp/qemu.err
eq nested.qemu_exit "$rc" 0
# A device without VFIO_DEVICE_FLAGS_RESET makes QEMU warn "Cannot reset
# device"; the contract promises reset, so that warning is a failure. Other
# warnings are shown above (e.g. "Could not enable error recovery": the
# contract gives ERR no vectors); anything that is not a warning fails.
check nested.no_reset_warning "$(grep -m1 -i 'reset' /tmp/qemu.err)" sh -c "! grep -qi 'Cannot reset' /tmp/qemu.err"
check nested.no_errors "$(grep -v 'warning:' /tmp/qemu.err | head -n 1)" sh -c "! grep -qv 'warning:' /tmp/qemu.err"

# One record per PCI device: split query-pci's answer at each device start.
dev=$(awk 'BEGIN { RS = "\\{\"bus\"" } /"qdev_id": "vgsp0"/ { print; exit }' /tmp/qmp.out)
if [ -z "$dev" ]; then
	fail nested.query_pci "no device vgsp0 in query-pci: $(head -c 300 /tmp/qmp.out)"
else
	pass nested.query_pci
	# 0x10de = 4318, 0x2330 = 9008, class 0x0302 = 770
	check nested.ids "$(echo "$dev" | grep -o '"id": {[^}]*}')" \
		sh -c "echo '$dev' | grep -q '\"vendor\": 4318' && echo '$dev' | grep -q '\"device\": 9008'"
	check nested.class "$(echo "$dev" | grep -o '"class_info": {[^}]*}')" \
		sh -c "echo '$dev' | grep -q '\"class\": 770'"
	bar0=$(echo "$dev" | tr '}' '\n' | grep '"bar": 0,')
	check nested.bar0_16mib_mem "bar0: $bar0" \
		sh -c "echo '$bar0' | grep -q '\"size\": 16777216' && echo '$bar0' | grep -q '\"type\": \"memory\"'"
	bar1=$(echo "$dev" | tr '}' '\n' | grep '"bar": 1,')
	check nested.bar1_256mib_64bit_prefetch "bar1: $bar1" \
		sh -c "echo '$bar1' | grep -q '\"size\": 268435456' && echo '$bar1' | grep -q '\"mem_type_64\": true' && echo '$bar1' | grep -q '\"prefetch\": true'"
fi
rm_inst "$u" || fail nested.remove "remove after qemu exit failed"
