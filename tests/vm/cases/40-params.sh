#!/bin/sh
# Recipe arguments: each bad value refuses the load with one dmesg line
# "vgsp: <param>: <reason>"; good values are honoured.
. /lib/rig.sh

vgsp_unload
for p in backend=bogus backend= phys_gpu=zz:zz.z phys_gpu=0000:00:01.0 \
	 phys_gpu=0000:00:1f.7 fb_budget_gib=0 fb_budget_gib=1025 max_instances=0 \
	 max_instances=65 msix_vectors=0 msix_vectors=65 rpc_inline_us=10001; do
	name=${p%%=*}
	before=$(dmesg_count "vgsp: $name: ")
	if vgsp_load "$p" 2>/dev/null; then
		fail "params.bad.$p" "insmod succeeded"
		vgsp_unload
		continue
	fi
	after=$(dmesg_count "vgsp: $name: ")
	if [ "$after" -gt "$before" ]; then
		pass "params.bad.$p"
		echo "  $(dmesg | grep "vgsp: $name: " | tail -n 1 | sed 's/^\[[^]]*\] //')"
	else
		fail "params.bad.$p" "insmod refused but no 'vgsp: $name: <reason>' line in dmesg"
	fi
done
# Not even a number: the kernel's own parser refuses it.
check params.bad.not_a_number "insmod succeeded" sh -c "! insmod $VGSP_KO fb_budget_gib=lots 2>/dev/null"
vgsp_loaded && vgsp_unload

# Boundaries load and read back.
for r in "1 1 1" "1024 64 64"; do
	set -- $r
	if vgsp_load fb_budget_gib=$1 max_instances=$2 msix_vectors=$3; then
		eq "params.edge.$1.$2.$3" "$(cat $PARAMS/fb_budget_gib) $(cat $PARAMS/max_instances) $(cat $PARAMS/msix_vectors)" "$1 $2 $3"
		want=0
		[ "$1" = 1024 ] && want=64
		eq "params.edge.$1.$2.$3.available_10g" "$(avail h100-10g)" $want
		vgsp_unload
	else
		fail "params.edge.$1.$2.$3" "insmod refused"
	fi
done

# rpc_inline_us is also writable at run time, within the same range.
if vgsp_load rpc_inline_us=0; then
	eq params.rpc_inline_us.load "$(cat $PARAMS/rpc_inline_us)" 0
	check params.rpc_inline_us.write "write of 10000 refused" sh -c "echo 10000 > $PARAMS/rpc_inline_us"
	check params.rpc_inline_us.bad_write "write of 10001 accepted" sh -c "! echo 10001 > $PARAMS/rpc_inline_us 2>/dev/null"
	eq params.rpc_inline_us.value "$(cat $PARAMS/rpc_inline_us)" 10000
	vgsp_unload
else
	fail params.rpc_inline_us.load "insmod rpc_inline_us=0 refused"
fi
eq params.rpc_inline_us.default "$(vgsp_load && cat $PARAMS/rpc_inline_us; vgsp_unload)" 100

# A recipe changes what instances advertise: MSI-X size, FB budget.
if vgsp_load backend=sim phys_gpu= fb_budget_gib=20 max_instances=2 msix_vectors=4; then
	eq params.recipe.values "$(cat $PARAMS/backend) $(cat $PARAMS/fb_budget_gib) $(cat $PARAMS/max_instances) $(cat $PARAMS/msix_vectors)" "sim 20 2 4"
	eq params.recipe.available "$(avail h100-10g) $(avail h100-20g) $(avail h100-40g)" "2 1 0"
	eq params.recipe.summary "$(kv "$DBG/summary" fb_budget_gib) $(kv "$DBG/summary" max_instances)" "20 2"
	if u=$(mk h100-10g); then
		eq params.recipe.info_msix "$(kv "$DBG/$u/info" msix_vectors)" 4
		echo "-- vgsp-vfiotest full with msix_vectors=4"
		vgsp-vfiotest full "$u" || true
		rm_inst "$u"
	else
		fail params.recipe.create "create failed"
	fi
else
	fail params.recipe "insmod with a valid recipe refused"
fi
