#!/bin/sh
# The whole VFIO sequence by the static client, on the smallest and the
# largest profile (BAR1 size differs).
. /lib/rig.sh

for t in h100-10g h100-80g; do
	if u=$(mk $t); then
		echo "-- vgsp-vfiotest full ($t $u)"
		vgsp-vfiotest full "$u" || true
		rm_inst "$u" || fail "vfio.$t.remove" "remove failed"
	else
		fail "vfio.$t.create" "create failed"
	fi
done
