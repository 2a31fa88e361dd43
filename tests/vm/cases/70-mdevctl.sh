#!/bin/sh
# mdevctl (Debian's package, run from the 9p host root) lists the vgsp
# types and starts/lists/stops a transient instance. The host root is
# read-only, so persistent definitions (mdevctl define) are not tested.
. /lib/rig.sh

M=
if host_chroot_ready; then
	for p in /usr/sbin/mdevctl /usr/bin/mdevctl /sbin/mdevctl /bin/mdevctl; do
		[ -x "/host$p" ] && M=$p && break
	done
fi
if [ -z "$M" ]; then
	skip mdevctl "no mdevctl in the host share (boot with rig.host; apt-get install mdevctl)"
	exit 0
fi
mc() { timeout 60 chroot /host $M "$@"; }

mc types > /tmp/types.out 2>&1
check mdevctl.types "$(head -n 3 /tmp/types.out)" grep -q 'vgsp-h100-10g' /tmp/types.out
u=$(new_uuid)
out=$(mc start -u "$u" -p vgsp -t vgsp-h100-10g 2>&1)
check mdevctl.start "$out" test -d "$DEVS/$u"
mc list > /tmp/list.out 2>&1
check mdevctl.list "$(head -n 3 /tmp/list.out)" grep -q "$u vgsp vgsp-h100-10g" /tmp/list.out
out=$(mc stop -u "$u" 2>&1)
check mdevctl.stop "$out" test ! -e "$DEVS/$u"
[ -e "$DEVS/$u" ] && rm_inst "$u"
exit 0
