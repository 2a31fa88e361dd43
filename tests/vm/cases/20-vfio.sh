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

# Two instances: counters are per instance, both can be open at once, and
# concurrent threads on one device keep data and counters exact.
a=$(mk h100-10g) && b=$(mk h100-20g) || { fail vfio.pair.create "create failed"; exit 0; }
cb=$(cat "$DBG/$b/counters")
vgsp-vfiotest smoke "$a" > /dev/null
eq vfio.pair.counters_isolated "$(cat "$DBG/$b/counters")" "$cb"
rm -f /tmp/ra
vgsp-vfiotest hold "$a" 1 /tmp/ra 2 > /dev/null 2>&1 &
hp=$!
i=0
while [ ! -e /tmp/ra ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
if vgsp-vfiotest smoke "$b" > /tmp/smoke.out 2>&1 && [ "$(kv "$DBG/$a/info" open)" = 1 ]; then
	pass vfio.pair.both_open
else
	fail vfio.pair.both_open "smoke of $b while $a open: $(tail -n 1 /tmp/smoke.out)"
fi
wait $hp
vgsp-vfiotest stress "$b" 4 1500
rm_inst "$a"
rm_inst "$b"
