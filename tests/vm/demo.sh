#!/bin/sh
# Demo: vgsp.ko with the default recipe, two instances, each driven by the
# smoke client; then identity, BARs and debugfs counters per instance.
. /lib/rig.sh

rc=0
# shellcheck disable=SC2046 # one word per parameter (rig.vgsp=, lib.sh)
vgsp_loaded || vgsp_load $(rig_vgsp_args) || { echo "demo: insmod vgsp.ko failed"; exit 1; }
echo "== vgsp.ko loaded, parameters:"
for p in "$PARAMS"/*; do echo "   ${p##*/} = $(cat "$p")"; done
echo "== types:"
for t in "$TYPES"/*; do
	echo "   ${t##*/}: $(cat "$t/name"), available $(cat "$t/available_instances"): $(cat "$t/description")"
done
a=$(mk h100-10g) && b=$(mk h100-40g) || { echo "demo: create failed"; exit 1; }
echo "== created $a (vgsp-h100-10g) and $b (vgsp-h100-40g)"
for u in $a $b; do
	echo
	vgsp-vfiotest smoke "$u" || rc=1
	echo "  -- debugfs $DBG/$u/info"
	sed 's/^/     /' "$DBG/$u/info"
	echo "  -- debugfs $DBG/$u/counters (non-zero)"
	awk '$2 != 0 { printf "     %s %s\n", $1, $2 }' "$DBG/$u/counters"
done
echo
echo "== debugfs summary"
sed 's/^/   /' "$DBG/summary"
for u in $a $b; do rm_inst "$u" || rc=1; done
vgsp_unload || rc=1
echo "== demo $([ $rc = 0 ] && echo OK || echo FAILED)"
exit $rc
