#!/bin/sh
# Instance lifecycle: fill the budget, refuse one more cleanly, remove all;
# the max_instances cap; rmmod refused while instances exist or a device is
# open; create/open/close/remove x100 with the kmalloc objects in use back
# within 64 KiB; insmod/rmmod x10.
. /lib/rig.sh

# create_fails NAME TYPE: the create write fails with ENOSPC, nothing appears.
create_fails() {
	_before=$(ninst)
	_err=$( { new_uuid > "$TYPES/vgsp-$2/create"; } 2>&1 ) && { fail "$1" "create succeeded"; return; }
	case $_err in
	*"No space left"*) eq "$1" "$(ninst)" "$_before" ;;
	*) fail "$1" "refused with '$_err', want ENOSPC" ;;
	esac
}

us=
n=0
while [ "$(avail h100-10g)" -gt 0 ] && [ $n -lt 70 ]; do
	u=$(mk h100-10g) || break
	us="$us $u"
	n=$((n + 1))
done
eq lifecycle.fill_10g_count "$n" 8
eq lifecycle.fill_available_0 "$(avail h100-10g)/$(avail h100-20g)/$(avail h100-80g)" 0/0/0
create_fails lifecycle.one_more_enospc h100-10g
create_fails lifecycle.other_type_enospc h100-40g
eq lifecycle.summary_full "$(kv "$DBG/summary" fb_used_gib) $(kv "$DBG/summary" instances)" "80 8"
for u in $us; do rm_inst "$u"; done
eq lifecycle.removed_all "$(ninst)" 0
eq lifecycle.available_restored "$(avail h100-10g)" 8

# max_instances caps before the FB budget does.
vgsp_unload && vgsp_load fb_budget_gib=1024 max_instances=3
us=
for i in 1 2 3; do us="$us $(mk h100-10g)"; done
eq lifecycle.cap_created "$(ninst)" 3
eq lifecycle.cap_available "$(avail h100-10g)" 0
create_fails lifecycle.cap_enospc h100-10g
for u in $us; do rm_inst "$u"; done
vgsp_unload && vgsp_load

# rmmod must not pull an instance away from under its users.
u=$(mk h100-10g)
if rmmod vgsp 2>/dev/null; then
	fail lifecycle.rmmod_with_instance "rmmod succeeded with instance $u existing"
	vgsp_load
else
	check lifecycle.rmmod_with_instance "module or instance gone after refused rmmod" \
		test -d /sys/module/vgsp -a -d "$DEVS/$u"
fi
if [ -d "$DEVS/$u" ]; then
	rm -f /tmp/ready
	vgsp-vfiotest hold "$u" 3 /tmp/ready >/dev/null 2>&1 &
	hp=$!
	i=0
	while [ ! -e /tmp/ready ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	if rmmod vgsp 2>/dev/null; then
		fail lifecycle.rmmod_while_open "rmmod succeeded with the device open"
	else
		pass lifecycle.rmmod_while_open
	fi
	wait $hp
	vgsp_loaded || vgsp_load
	[ -d "$DEVS/$u" ] && rm_inst "$u"
fi

# create/open/close/remove x100 (in C: about 10x faster than in sh)
# KiB of kmalloc objects in use (after dropping the dentry/inode caches): a
# removed instance must give back its struct vgsp_mdev (on 6.1 the driver's
# release op frees it: ~2 KiB a cycle leaked before that, 200 KiB per 100).
vgsp-vfiotest cycle vgsp-h100-10g 1 >/dev/null
k0=$(kmalloc_kib)
t0=$(date +%s)
vgsp-vfiotest cycle vgsp-h100-10g 100
echo "  100 cycles in $(($(date +%s) - t0)) s"
eq lifecycle.cycle_left_nothing "$(ninst)" 0
k1=$(kmalloc_kib)
echo "  kmalloc objects in use: $k0 -> $k1 KiB over 100 cycles"
check lifecycle.cycle_kmalloc_back "kmalloc objects in use grew by $((k1 - k0)) KiB over 100 cycles (bound 64)" \
	test $((k1 - k0)) -le 64

# insmod/rmmod x10, with one instance created and removed each time
ok=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	vgsp_unload || break
	vgsp_load || break
	u=$(mk h100-40g) && rm_inst "$u" || break
	ok=$((ok + 1))
done
eq lifecycle.insmod_rmmod_x10 "$ok" 10
