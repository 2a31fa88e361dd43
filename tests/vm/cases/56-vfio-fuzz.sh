#!/bin/sh
# A randomized hostile VFIO client on vgsp.ko's device fd (issue 12 §2;
# tests/vm/client/t_fuzz.c): 2 threads of region reads/writes at any offset
# and size on every region index (config space too), every device ioctl with
# hostile arguments and bad eventfds, unknown ioctls, MAP/UNMAP_DMA with
# overlapping, huge, unaligned and wrapping ranges, the fd reopened every 2 s.
# 20 s by default (rig.long: 300 s; rig.fuzzsecs=N overrides); the seed is
# printed (RIG_APPEND=rig.seed=N replays each thread's choices; the interleaving
# of the two threads and the number of calls depend on timing). Afterwards, on the same instance: the
# device answers (identity, BOOT_0, BAR1), the OpenRM init replay through VFIO
# matches the golden transcript, opens == closes; after removal the kmalloc
# objects in use and VmallocUsed are back, no new WARNING/BUG/Oops line in
# dmesg, and vgsp.ko unloads. Debian kernels have no KASAN (docs/security.md).
# rig-timeout: 900
. /lib/rig.sh

arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | head -n 1; }
secs=20
grep -qw rig.long /proc/cmdline && secs=300
[ -n "$(arg rig.fuzzsecs)" ] && secs=$(arg rig.fuzzsecs)
seed=$(arg rig.seed)
[ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')

# One instance created and removed first, so the slab baseline holds what any instance leaves cached.
u=$(mk h100-10g) && rm_inst "$u"
k0=$(kmalloc_kib) m0=$(vmalloc_kib) w0=$(bad_dmesg)
if ! u=$(mk h100-10g); then
	fail vfio_fuzz.create "cannot create an instance"
	exit 0
fi
echo "  seed $seed, $secs s"
t0=$(date +%s)
vgsp-vfiotest fuzz "$u" "$seed" "$secs"
echo "  fuzz run: $(($(date +%s) - t0)) s (seed $seed)"
if command -v vgsp-gsp-replay >/dev/null 2>&1; then
	out=$(vgsp-gsp-replay "$u" init 2>&1)
	case $out in
	*"PASS gsp_replay.init.transcript"*) pass vfio_fuzz.after.gsp_replay_golden ;;
	*) fail vfio_fuzz.after.gsp_replay_golden "seed $seed: $(echo "$out" | grep -m1 FAIL)" ;;
	esac
else
	fail vfio_fuzz.after.gsp_replay_golden "vgsp-gsp-replay not in the initramfs (make vm-bin)"
fi
d=$DBG/$u
eq vfio_fuzz.after.opens_eq_closes "$(kv "$d/counters" opens)" "$(kv "$d/counters" closes)"
eq vfio_fuzz.after.gsp_off "$(kv "$d/gsp_state" boot)" off
check vfio_fuzz.remove "remove failed" rm_inst "$u"
eq vfio_fuzz.no_instance_left "$(ninst)" 0
nothing_left vfio_fuzz "$k0" "$m0" "$w0" "seed $seed"
check vfio_fuzz.rmmod "rmmod failed after the fuzz run" vgsp_unload
