#!/bin/sh
# bar1_mmap (default 1): BAR1 is mappable, faulted page by page (REGION_INFO
# MMAP, coherence with trapped accesses, the dummy page, reset; with the GSP
# booted: a PTE change + invalidate moves the mapping, the doorbell page);
# bar1_mmap=0 is not.
. /lib/rig.sh

eq bar1map.default_param "$(cat $PARAMS/bar1_mmap)" Y
vgsp_unload
vgsp_load bar1_mmap=0
u=$(mk h100-10g) || { fail bar1map.off.create "create failed"; exit 0; }
vgsp-vfiotest smoke "$u" > /tmp/smoke.out 2>&1
check bar1map.off "BAR1 advertises MMAP with bar1_mmap=0" \
	sh -c "! grep -q 'BAR1 .*MMAP' /tmp/smoke.out"
rm_inst "$u"

vgsp_unload
if ! vgsp_load bar1_mmap=1; then
	fail bar1map.load "insmod bar1_mmap=1 refused"
	vgsp_load
	exit 0
fi
free0=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
if u=$(mk h100-10g); then
	vgsp-vfiotest smoke "$u" > /tmp/smoke.out 2>&1
	grep BAR1 /tmp/smoke.out
	check bar1map.smoke_lists_mmap "smoke does not show BAR1 MMAP" grep -q "BAR1 .* MMAP" /tmp/smoke.out
	vgsp-vfiotest bar1 "$u" || true
	sed -n 's/^\(bar1_map_[a-z_]*\) /view mm: \1 /p' "$DBG/$u/mm"
	rm_inst "$u" || fail bar1map.remove "remove failed"
else
	fail bar1map.create "create failed"
fi
# with BAR3 mapped too: both regions, one instance
vgsp_unload
if vgsp_load bar1_mmap=1 bar3_mmap=1 && u=$(mk h100-10g); then
	vgsp-vfiotest smoke "$u" > /tmp/smoke.out 2>&1
	check bar1map.with_bar3 "smoke does not show BAR1 and BAR3 MMAP" \
		sh -c "grep -q 'BAR1 .* MMAP' /tmp/smoke.out && grep -q 'BAR3 .* MMAP' /tmp/smoke.out"
	rm_inst "$u"
else
	fail bar1map.with_bar3 "load or create failed"
fi
vgsp_unload
vgsp_load bar1_mmap=1
# instances come and go (their pinned FB pages too)
vgsp-vfiotest cycle vgsp-h100-10g 20 | sed 's/lifecycle\./bar1map./'
n=0 us=""
while [ $n -lt 8 ] && u=$(mk h100-10g 2>/dev/null); do us="$us $u"; n=$((n + 1)); done
eq bar1map.fill_8 "$n" 8
for u in $us; do rm_inst "$u"; done
sync
echo 3 > /proc/sys/vm/drop_caches
free1=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
check bar1map.memory_back "MemAvailable $free0 kB before, $free1 kB after" \
	[ $((free0 - free1)) -lt 16384 ]
check bar1map.unload "rmmod failed" vgsp_unload
check bar1map.dmesg "WARNING/BUG in dmesg" sh -c "! dmesg | grep -qE 'WARNING|BUG|Oops'"
vgsp_load
