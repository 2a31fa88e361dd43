#!/bin/sh
# Removing an instance whose VFIO device is open: the mdev core blocks the
# remove until the user closes the device, and asks the user to release it
# through the REQ interrupt (vfio_unregister_group_dev calls the driver's
# request op). The holder closes 3 s after opening (REQ seen) or at 10 s
# (no REQ), so nothing hangs.
. /lib/rig.sh

u=$(mk h100-10g) || { fail remove_open.create "create failed"; exit 0; }
rm -f /tmp/ready /tmp/ready.closing /tmp/rm.rc
# REQ is awaited up to 10 s, but the device stays open at least 3 s.
vgsp-vfiotest hold "$u" 10 /tmp/ready 3 > /tmp/hold.out 2>&1 &
hp=$!
i=0
while [ ! -e /tmp/ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check remove_open.holder_ready "holder never opened the device" test -e /tmp/ready
eq remove_open.info_open "$(kv "$DBG/$u/info" open)" 1

t0=$(date +%s)
# The child records whether the holder had closed when remove returned.
# (r is the status of the write itself, i.e. of the remove.)
# shellcheck disable=SC2320
( echo 1 > "$DEVS/$u/remove"; r=$?
  if [ -e /tmp/ready.closing ]; then echo "$r after-close"; else echo "$r before-close"; fi > /tmp/rm.rc ) 2>/dev/null &
rp=$!
sleep 1
if [ -e /tmp/rm.rc ]; then
	fail remove_open.blocks "remove returned ($(cat /tmp/rm.rc)) while the device was open"
else
	pass remove_open.blocks
fi
wait $hp
hrc=$?
cat /tmp/hold.out
eq remove_open.req_signalled "$hrc" 0
wait $rp
echo "  remove completed after $(($(date +%s) - t0)) s"
eq remove_open.remove_after_close "$(cat /tmp/rm.rc 2>/dev/null)" "0 after-close"
check remove_open.gone "instance still present after release" test ! -e "$DEVS/$u"
