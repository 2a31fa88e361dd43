# shellcheck shell=sh
# Test VM: initramfs per kernel and the QEMU/TCG boot. The verdict comes
# from isa-debug-exit (33 = guest wrote 0x10 = pass) plus the guest's
# "N passed, N failed" line in the serial log.

BASE_MODS="vfio vfio_iommu_type1 mdev"
# virtio_pci is built into 6.12 and a module on 6.1 (skipped when built in).
HOST_SHARE_MODS="virtio_pci 9pnet_virtio 9p"

client_build() {
	make -s -C "$ROOT/tests/vm/client" OUT="$BUILD/vm" >"$BUILD/client-build.log" 2>&1 ||
		{ cat "$BUILD/client-build.log" >&2; die "guest client build failed"; }
}

# Other sub-projects' static guest tools land in build/vm-bin/.
vm_bin_build() {
	if [ -f "$ROOT/Makefile" ] && grep -q '^vm-bin:' "$ROOT/Makefile"; then
		make -s -C "$ROOT" vm-bin >"$BUILD/vm-bin.log" 2>&1 ||
			{ tail -n 20 "$BUILD/vm-bin.log" >&2; die "make vm-bin failed"; }
	fi
}

# Needs KREL/KDIR from kernel_fetch and MODKO (or "-" for no module).
# Sets INITRD.
vm_initramfs() {
	_vd=$BUILD/vm-$KREL
	rm -rf "$_vd/mods"
	mkdir -p "$_vd/mods"
	# shellcheck disable=SC2086
	kmod_stage "$_vd/mods" $BASE_MODS
	# shellcheck disable=SC2086
	kmod_stage "$_vd/mods/9p" $HOST_SHARE_MODS
	INITRD=$_vd/initrd.cpio
	_inner=
	if [ "${RIG_NESTED_BOOT:-}" ]; then
		_inner=$_vd/inner.cpio
		sh "$ROOT/tests/vm/mkinner.sh" "$_inner" || die "nested guest initramfs build failed"
	fi
	sh "$ROOT/tests/vm/mkinitramfs.sh" "$INITRD" "$_vd/mods" "$1" $_inner || die "initramfs build failed"
}

# vm_boot MODE LOG [interactive]: returns QEMU's exit status.
vm_boot() {
	_mode=$1 _log=$2 _how=${3:-} _extra='' _limit=${RIG_VM_TIMEOUT:-480}
	# Nested boot (case 65): the inner QEMU boots this same kernel image,
	# reached through the host share; it adds about 2 minutes.
	if [ "${RIG_NESTED_BOOT:-}" ]; then
		_extra=" rig.nestedboot rig.kimg=$KIMG"
		_limit=${RIG_VM_TIMEOUT:-900}
	fi
	# Long variants (test --long): case 31's create/open/close/remove x1000.
	if [ "${RIG_LONG:-}" ]; then
		_extra="$_extra rig.long"
		_limit=${RIG_VM_TIMEOUT:-2400}
	fi
	# RIG_APPEND: extra guest kernel arguments, e.g. rig.seed=N / rig.fuzzsecs=N (case 56) or
	# "slub_debug=FZPU,kmalloc-* kfence.sample_interval=10" (Debian has no KASAN kernel).
	[ -z "${RIG_APPEND:-}" ] || _extra="$_extra $RIG_APPEND"
	# The host root goes in read-only, for the real-client checks (QEMU, mdevctl).
	# Two vCPUs on one TCG thread: SMP paths and IPIs stay, but no guest
	# text_poke can race a stale translation on the other vCPU (seen with
	# multi-threaded TCG: "Oops: int3" in a patched static branch at boot).
	set -- -accel tcg,thread=single -m 1G -smp 2 -no-reboot -display none \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-kernel "$KIMG" -initrd "$INITRD" \
		-append "console=ttyS0 panic=-1 quiet rig.mode=$_mode rig.host${RIG_CASES:+ rig.cases=$RIG_CASES}$_extra"
	if [ "$_how" = interactive ]; then
		qemu-system-x86_64 "$@" -serial mon:stdio
		return $?
	fi
	timeout "$_limit" qemu-system-x86_64 "$@" -serial "file:$_log" -monitor none \
		</dev/null >"$_log.qemu" 2>&1
}
