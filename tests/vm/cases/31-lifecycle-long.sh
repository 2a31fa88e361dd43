#!/bin/sh
# Opt-in long lifecycle (scripts/stack_manager.sh test --long, which puts
# rig.long on the guest command line; SKIP otherwise): create/open/close/
# remove x1000 (250 of each type, in C), then rmmod. Asserted: every cycle
# succeeds, no instance is left, the summary shows none, the module unloads
# and loads again, sysfs, /dev and debugfs hold exactly the entries they held
# before, and the kmalloc objects in use (dentry/inode caches dropped) come
# back within 256 KiB: a leak of 256 bytes per instance would exceed it (6.1
# leaked its 2 KiB struct vgsp_mdev per removal before the release op freed
# it: +2 MiB here). The whole slab's growth and the caches that grew most
# are printed for the record; dentry, inode, kernfs-node and radix-tree
# caches grow by about one object per cycle on both kernels, with or without
# vgsp, and are not asserted (a leaked sysfs node shows in the tree count).
# /init checks dmesg for WARNING/BUG/Oops afterwards. Last run: docs/security.md.
# rig-timeout: 1500
. /lib/rig.sh

if ! grep -qw rig.long /proc/cmdline; then
	skip lifecycle_long.cycle_x1000 "opt-in: scripts/stack_manager.sh test --long"
	exit 0
fi

# Slab in KiB (SUnreclaim: pages, so fragmentation shows too).
slab() { awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo; }
# KiB of slab objects in use, all caches, after dropping the dentry/inode caches.
settle() { sync; echo 3 > /proc/sys/vm/drop_caches; }
inuse() { awk 'NR > 2 { t += $2 * $4 } END { print int(t / 1024) }' /proc/slabinfo; }
kmalloc_kib() {
	awk 'NR > 2 && $1 ~ /^kmalloc-(cg-)?[0-9]+k?$/ { t += $2 * $4 } END { print int(t / 1024) }' /proc/slabinfo
}
# Objects in use per slab cache: "name active_objs objsize".
slabobjs() { awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo 2>/dev/null | sort; }

# One warm-up cycle per type so lazily created caches are in the baseline.
for t in h100-10g h100-20g h100-40g h100-80g; do
	vgsp-vfiotest cycle "vgsp-$t" 1 >/dev/null
done
find /sys /dev /sys/kernel/debug /proc/sys 2>/dev/null | sort > /tmp/tree0
settle
s0=$(slab) u0=$(inuse) k0=$(kmalloc_kib)
slabobjs > /tmp/slab0
t0=$(date +%s)
ok=0
for t in h100-10g h100-20g h100-40g h100-80g; do
	tb=$(date +%s)
	vgsp-vfiotest cycle "vgsp-$t" 250 | grep -v '^PASS' && break
	ok=$((ok + 250))
	echo "  250 x $t in $(($(date +%s) - tb)) s, SUnreclaim $(slab) KiB"
done
t1=$(date +%s)
echo "  $ok cycles in $((t1 - t0)) s"
eq lifecycle_long.cycle_x1000 "$ok" 1000
eq lifecycle_long.none_left "$(ninst) $(kv "$DBG/summary" instances)" "0 0"
settle
s1=$(slab) u1=$(inuse) k1=$(kmalloc_kib)
echo "  after dropping caches: kmalloc objects in use ${k0} -> ${k1} KiB, all slab objects ${u0} -> ${u1} KiB, SUnreclaim ${s0} -> ${s1} KiB"
check lifecycle_long.kmalloc_back "kmalloc objects in use grew from $k0 to $k1 KiB over 1000 cycles (bound 256)" \
	test $((k1 - k0)) -le 256
slabobjs > /tmp/slab1
find /sys /dev /sys/kernel/debug /proc/sys 2>/dev/null | sort > /tmp/tree1
eq lifecycle_long.no_nodes_left "$(wc -l < /tmp/tree1)" "$(wc -l < /tmp/tree0)"
diff /tmp/tree0 /tmp/tree1 | grep '^[-+]/' | head -n 8 | sed 's/^/  sysfs, dev, debugfs: /'
# the caches whose objects in use grew most (bytes), for the record
awk 'NR == FNR { a[$1] = $2; next } ($1 in a) { d = ($2 - a[$1]) * $3; if (d > 8192) print d, $1, a[$1], $2 }' \
	/tmp/slab0 /tmp/slab1 |
	sort -rn | head -n 8 | sed 's/^/  slab growth (bytes, cache, objects before, after): /'
if rmmod vgsp; then
	settle
	echo "  after rmmod: slab objects in use $(inuse) KiB, SUnreclaim $(slab) KiB"
	pass lifecycle_long.rmmod_after
else
	fail lifecycle_long.rmmod_after "rmmod vgsp failed after 1000 cycles"
fi
check lifecycle_long.reload "insmod after the cycles failed" vgsp_load
if u=$(mk h100-10g) && rm_inst "$u"; then
	pass lifecycle_long.usable_after
else
	fail lifecycle_long.usable_after "create/remove after the reload failed"
fi
