#!/bin/sh
# docs/deploy.md's mdevctl recipe: a persistent definition (mdevctl define
# --auto) is started when the vgsp parent registers, as udev's
# 60-mdevctl.rules does on a host (the "change" uevent with
# MDEV_STATE=registered runs "mdevctl start-parent-mdevs vgsp"). Here busybox
# uevent listens instead of udev. /etc/mdevctl.d of the read-only host share
# gets a tmpfs, so the definitions live only in this case.
# rig-timeout: 240
. /lib/rig.sh

M=
if host_chroot_ready; then
	for p in /usr/sbin/mdevctl /usr/bin/mdevctl; do
		[ -x "/host$p" ] && M=$p && break
	done
fi
if [ -z "$M" ] || [ ! -d /host/etc/mdevctl.d ]; then
	skip mdevctl_define "no mdevctl (or /etc/mdevctl.d) in the host share (apt-get install mdevctl)"
	exit 0
fi
mc() { timeout 60 chroot /host $M "$@"; }
mount -t tmpfs tmpfs /host/etc/mdevctl.d || { fail mdevctl_define.tmpfs "cannot mount a tmpfs on /host/etc/mdevctl.d"; exit 0; }
mkdir -p /host/etc/mdevctl.d/scripts.d/callouts /host/etc/mdevctl.d/scripts.d/notifiers

u=$(new_uuid)
out=$(mc define --auto -u "$u" -p vgsp -t vgsp-h100-10g 2>&1)
check mdevctl_define.define "$out" test -f "/host/etc/mdevctl.d/vgsp/$u"
check mdevctl_define.not_started "$u exists before any start" test ! -e "$DEVS/$u"
mc list --defined > /tmp/def.out 2>&1
check mdevctl_define.list_defined "$(head -n 3 /tmp/def.out)" grep -q "^$u vgsp vgsp-h100-10g auto" /tmp/def.out
check mdevctl_define.json "$(cat "/host/etc/mdevctl.d/vgsp/$u")" \
	grep -q '"mdev_type": *"vgsp-h100-10g"' "/host/etc/mdevctl.d/vgsp/$u"

# The boot path: reload vgsp.ko; its parent's registration uevent starts the definition.
cat > /tmp/on-uevent.sh <<'EOF'
#!/bin/sh
env > /tmp/uevent.last
[ "$ACTION" = change ] && [ "$MDEV_STATE" = registered ] || exit 0
k=${DEVPATH##*/}
echo "registered $k" >> /tmp/uevent.log
[ -d "/host/etc/mdevctl.d/$k" ] && timeout 60 chroot /host MDEVCTL_PLACEHOLDER start-parent-mdevs "$k" >> /tmp/uevent.log 2>&1
echo "start-parent-mdevs $k exit $?" >> /tmp/uevent.log
EOF
sed -i "s#MDEVCTL_PLACEHOLDER#$M#" /tmp/on-uevent.sh
chmod 755 /tmp/on-uevent.sh
rm -f /tmp/uevent.log
uevent /tmp/on-uevent.sh &
ue=$!
sleep 0.5
vgsp_unload
vgsp_load
for _i in $(seq 1 100); do [ -e "$DEVS/$u" ] && break; sleep 0.1; done
kill "$ue" 2>/dev/null
wait "$ue" 2>/dev/null
check mdevctl_define.uevent "no MDEV_STATE=registered change uevent for vgsp: $(cat /tmp/uevent.log 2>/dev/null)" \
	grep -q '^registered vgsp$' /tmp/uevent.log
check mdevctl_define.autostart "$(cat /tmp/uevent.log 2>/dev/null)" test -e "$DEVS/$u"
eq mdevctl_define.autostart_type "$(basename "$(readlink "$DEVS/$u/mdev_type" 2>/dev/null)")" vgsp-h100-10g
mc list > /tmp/act.out 2>&1
check mdevctl_define.list_active "$(head -n 3 /tmp/act.out)" grep -q "^$u vgsp vgsp-h100-10g" /tmp/act.out
out=$(mc stop -u "$u" 2>&1)
check mdevctl_define.stop "$out" test ! -e "$DEVS/$u"
out=$(mc undefine -u "$u" 2>&1)
check mdevctl_define.undefine "$out" test ! -e "/host/etc/mdevctl.d/vgsp/$u"
# A manual (not --auto) definition stays down at registration.
u2=$(new_uuid)
mc define -u "$u2" -p vgsp -t vgsp-h100-20g > /dev/null 2>&1
mc start-parent-mdevs vgsp > /dev/null 2>&1
check mdevctl_define.manual_stays_down "$u2 was started" test ! -e "$DEVS/$u2"
mc undefine -u "$u2" > /dev/null 2>&1
[ -e "$DEVS/$u" ] && rm_inst "$u"
[ -e "$DEVS/$u2" ] && rm_inst "$u2"
umount /host/etc/mdevctl.d
exit 0
