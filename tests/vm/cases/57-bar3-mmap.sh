#!/bin/sh
# bar3_mmap=1: BAR3 is mappable (REGION_INFO MMAP + sparse area, mmap of the
# area, coherence with trapped accesses, reset); the default load is not.
. /lib/rig.sh

u=$(mk h100-10g) || { fail mmap.default.create "create failed"; exit 0; }
vgsp-vfiotest smoke "$u" > /tmp/smoke.out 2>&1
check mmap.default_off "BAR3 advertises MMAP without bar3_mmap=1" \
	sh -c "! grep -q 'BAR3 .*MMAP' /tmp/smoke.out"
rm_inst "$u"
eq mmap.default_param "$(cat $PARAMS/bar3_mmap)" N

vgsp_unload
if ! vgsp_load bar3_mmap=1 bar1_mmap=0; then	# BAR1 trapped: checked below
	fail mmap.load "insmod bar3_mmap=1 refused"
	vgsp_load
	exit 0
fi
if u=$(mk h100-10g); then
	vgsp-vfiotest smoke "$u" > /tmp/smoke.out 2>&1
	grep BAR3 /tmp/smoke.out
	check mmap.smoke_lists_mmap "smoke does not show BAR3 MMAP" grep -q "BAR3 .* MMAP" /tmp/smoke.out
	vgsp-vfiotest mmap "$u" || true
	rm_inst "$u" || fail mmap.remove "remove failed"
else
	fail mmap.create "create failed"
fi
# instances come and go without leaking their 32 MiB (8 at once fill the
# default budget: 256 MiB of BAR3 memory, then all freed)
free0=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
vgsp-vfiotest cycle vgsp-h100-10g 20 | sed 's/lifecycle\./mmap./'
n=0 us=""
while [ $n -lt 8 ] && u=$(mk h100-10g 2>/dev/null); do us="$us $u"; n=$((n + 1)); done
eq mmap.fill_8 "$n" 8
for u in $us; do rm_inst "$u"; done
free1=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
check mmap.memory_back "MemAvailable $free0 kB before, $free1 kB after" \
	[ $((free0 - free1)) -lt 65536 ]
check mmap.unload "rmmod failed" vgsp_unload
check mmap.dmesg "WARNING/BUG in dmesg" sh -c "! dmesg | grep -qE 'WARNING|BUG|Oops'"
vgsp_load
