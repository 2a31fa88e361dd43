#!/bin/sh
# vgsp-smi (tools/vgsp-smi, built on the host and run from the 9p host share
# through the /bin/vgsp-smi wrapper) against real vgsp.ko instances: one held
# open by a VFIO user (vgsp-vfiotest hold), one closed, and, when the host
# has QEMU, one held by a paused QEMU (-device vfio-pci,sysfsdev=). The listing,
# -q, dmon and --json (checked against tools/vgsp-smi/schema.json with
# vgsp-smi-check), and the documented exit codes for an unknown instance, an
# unmounted debugfs, an instance removed under dmon and vgsp.ko unloaded
# under dmon.
# rig-timeout: 300
. /lib/rig.sh

if [ ! -x /bin/vgsp-smi ] || [ ! -x /bin/vgsp-smi-check ]; then
	skip vgsp_smi "no vgsp-smi wrapper in the initramfs (make -C tools/vgsp-smi vm-bin; needs libpci-dev)"
	exit 0
fi
if ! host_chroot_ready || ! vgsp-smi --version > /dev/null 2>&1; then
	skip vgsp_smi "vgsp-smi does not run from the host share (boot with rig.host)"
	exit 0
fi
# Scratch files live in the chroot's /tmp (a tmpfs over /host/tmp).
O=/host/tmp/smi C=/tmp/smi
rm -rf "$O"
mkdir -p "$O"
smi() { vgsp-smi "$@"; }
jget() { vgsp-smi-check --get "$1" "$C/$2"; }
schema() {  # NAME DEF FILE [--lines]
	_o=$(vgsp-smi-check --def "$2" ${4:-} "$C/$3" 2>&1)
	case $_o in ok*) pass "$1" ;; *) fail "$1" "$_o" ;; esac
}
one_line() {  # NAME FILE PATTERN
	if [ "$(wc -l < "$2")" = 1 ] && grep -qE "^vgsp-smi: $3" "$2"; then pass "$1"
	else fail "$1" "stderr: $(cat "$2")"; fi
}

u1=$(mk h100-10g) || { fail smi.setup "cannot create an h100-10g instance"; exit 0; }
u2=$(mk h100-20g) || { fail smi.setup "cannot create an h100-20g instance"; rm_inst "$u1"; exit 0; }
rm -f /tmp/smi-ready /tmp/smi-ready.closing
vgsp-vfiotest hold "$u1" 120 /tmp/smi-ready > /tmp/smi-hold.out 2>&1 &
hold=$!
for _i in $(seq 1 100); do [ -e /tmp/smi-ready ] && break; sleep 0.1; done
check smi.holder_ready "vgsp-vfiotest hold never opened $u1" test -e /tmp/smi-ready
# A VMM: the host's QEMU, paused (-S), with a third instance assigned.
Q=/usr/bin/qemu-system-x86_64 u3= qemu=
if [ -x "/host$Q" ] && u3=$(mk h100-40g); then
	chroot /host $Q -accel tcg -machine pc -m 64 -S -nodefaults -display none -monitor none \
		-device "vfio-pci,sysfsdev=$DEVS/$u3,id=vgsp0" > /tmp/smi-qemu.out 2>&1 < /dev/null &
	qemu=$!
	for _i in $(seq 1 600); do [ "$(kv "$DBG/$u3/info" open)" = 1 ] && break; sleep 0.1; done
	check smi.qemu_open "QEMU never opened $u3: $(cat /tmp/smi-qemu.out)" test "$(kv "$DBG/$u3/info" open)" = 1
fi
ninst=$(ninst)
fbused=30
[ -z "$u3" ] || fbused=70

# ---- the listing ----------------------------------------------------------
smi > "$O/list.txt" 2> "$O/list.err"
eq smi.list.exit "$?" 0
sed 's/^/  smi| /' "$O/list.txt"
eq smi.list.stderr "$(cat "$O/list.err")" ""
check smi.list.parent "no vgsp parent line: $(grep -m1 vgsp "$O/list.txt")" \
	grep -qE "^  vgsp \\(vgsp\\)  backend sim  phys_gpu none  FB used $fbused of 80 GiB" "$O/list.txt"
for t in 10g 20g 40g 80g; do
	_n=$(ls "$TYPES/vgsp-h100-$t/devices" | wc -l)
	check "smi.list.type_$t" "$(grep "vgsp-h100-$t " "$O/list.txt")" \
		grep -qE "^    vgsp-h100-$t +H100-SXM5-${t%g}GB +${t%g} +[0-9]+ +$(avail h100-$t) +$_n\$" "$O/list.txt"
done
check smi.list.open_held "$(grep "$u1" "$O/list.txt")" \
	grep -qE "^  $u1 vgsp\\.ko +h100-10g +yes +[a-z]+ +$hold\\(vgsp-vfiotest\\) " "$O/list.txt"
check smi.list.closed "$(grep "$u2" "$O/list.txt")" \
	grep -qE "^  $u2 vgsp\\.ko +h100-20g +no +none +- " "$O/list.txt"
if [ -n "$qemu" ]; then
	check smi.list.qemu_holder "$(grep "$u3" "$O/list.txt")" \
		grep -qE "^  $u3 vgsp\\.ko +h100-40g +yes +[a-z]+ +$qemu\\(qemu-system-x86\\) " "$O/list.txt"
else
	skip smi.list.qemu_holder "no $Q in the host share"
fi

smi --json > "$O/list.json" 2> "$O/listj.err"
eq smi.json.exit "$?" 0
schema smi.json.schema list list.json
eq smi.json.loaded "$(jget .module.loaded list.json)" true
eq smi.json.instances "$(jget .instances list.json)" "$ninst"
eq smi.json.types "$(jget '.parents[0].types' list.json)" 4
smi --json -i "$u1" > "$O/u1.json"
eq smi.json.open "$(jget '.instances[0].open' u1.json)" true
eq smi.json.holder_pid "$(jget '.instances[0].holders[0].pid' u1.json)" "$hold"
eq smi.json.holder_comm "$(jget '.instances[0].holders[0].comm' u1.json)" vgsp-vfiotest
eq smi.json.group "$(jget '.instances[0].iommu_group' u1.json)" \
	"$(basename "$(readlink "$DEVS/$u1/iommu_group")")"
eq smi.json.irq_mode "$(jget '.instances[0].irq_mode' u1.json)" "$(kv "$DBG/$u1/info" irq_mode)"
smi --json -i "$u2" > "$O/u2.json"
eq smi.json.closed "$(jget '.instances[0].open' u2.json)" false
eq smi.json.no_holder "$(jget '.instances[0].holders' u2.json)" 0

# ---- -q: every debugfs view ------------------------------------------------------
smi -q -i "$u1" > "$O/q.txt" 2> "$O/q.err"
eq smi.q.exit "$?" 0
_missing=
for v in $(ls "$DBG/$u1"); do grep -qx "  $v" "$O/q.txt" || _missing="$_missing $v"; done
eq smi.q.every_view "${_missing:-none}" none
smi -q --json -i "$u1" > "$O/q.json"
schema smi.q.schema query q.json
eq smi.q.views "$(jget '.instances[0].views' q.json)" "$(ls "$DBG/$u1" | wc -l)"
eq smi.q.opens "$(jget '.instances[0].views.counters.fields.opens' q.json)" "$(kv "$DBG/$u1/counters" opens)"
eq smi.q.uuid "$(jget '.instances[0].views.info.fields.uuid' q.json)" "$u1"

# ---- dmon: deltas equal the counters' own movement -----------------------------------
b0=$(($(kv "$DBG/$u2/counters" bar0_reads) + $(kv "$DBG/$u2/counters" bar0_writes)))
vgsp-smi dmon --json -i "$u2" -d 3 -c 2 > "$O/dmon.json" 2> "$O/dmon.err" &
dm=$!
sleep 1
vgsp-vfiotest smoke "$u2" > /tmp/smi-smoke.out 2>&1
smoke_rc=$?
kill -0 "$dm" 2>/dev/null && within=1 || within=
wait "$dm"
eq smi.dmon.exit "$?" 0
eq smi.dmon.smoke "$smoke_rc" 0
schema smi.dmon.schema dmon dmon.json --lines
eq smi.dmon.lines "$(wc -l < "$O/dmon.json")" 2
b1=$(($(kv "$DBG/$u2/counters" bar0_reads) + $(kv "$DBG/$u2/counters" bar0_writes)))
sed -n 1p "$O/dmon.json" > "$O/d1.json"
sed -n 2p "$O/dmon.json" > "$O/d2.json"
_sum=$(($(jget .deltas.bar0_accesses d1.json) + $(jget .deltas.bar0_accesses d2.json)))
if [ -n "$within" ]; then
	eq smi.dmon.bar0_deltas "$_sum" $((b1 - b0))
else
	skip smi.dmon.bar0_deltas "the smoke run outlasted dmon's window (TCG under load)"
fi
check smi.dmon.moved "bar0 deltas sum to $_sum" test "$_sum" -gt 0
smi dmon -d 0.5 -c 1 > "$O/dmon.txt" 2>&1
eq smi.dmon.text_lines "$(grep -cE '^  [0-9a-f]{8} vgsp\.ko ' "$O/dmon.txt")" "$ninst"
# the VMM goes away: the instance reads closed, without a holder
if [ -n "$qemu" ]; then
	kill "$qemu"
	wait "$qemu" 2>/dev/null
	smi --json -i "$u3" > "$O/u3.json"
	eq smi.qemu_gone.open "$(jget '.instances[0].open' u3.json)" false
	eq smi.qemu_gone.holders "$(jget '.instances[0].holders' u3.json)" 0
	rm_inst "$u3"
fi

# ---- bad states --------------------------------------------------------------------
smi -q -i 00000000-0000-4000-8000-00000000dead > /dev/null 2> "$O/nf.err"
eq smi.notfound.exit "$?" 5
one_line smi.notfound.line "$O/nf.err" "no instance 00000000-0000-4000-8000-00000000dead"
umount /host/sys/kernel/debug
smi -q -i "$u2" > /dev/null 2> "$O/nd.err"
eq smi.nodebugfs.exit "$?" 4
one_line smi.nodebugfs.line "$O/nd.err" "debugfs is not mounted at /sys/kernel/debug"
smi > "$O/nd.txt" 2> "$O/ndl.err"
eq smi.nodebugfs.list_exit "$?" 4
check smi.nodebugfs.list_sysfs "$(grep "$u2" "$O/nd.txt")" grep -qE "^  $u2 vgsp\\.ko +h100-20g " "$O/nd.txt"
mount -t debugfs debugfs /host/sys/kernel/debug
# removed under dmon: u1's holder gets REQ and closes, then u1 goes
vgsp-smi dmon -i "$u1" -d 1 > "$O/rm.txt" 2> "$O/rm.err" &
dm=$!
for _i in $(seq 1 50); do grep -q '^#' "$O/rm.txt" 2>/dev/null && break; sleep 0.1; done
rm_inst "$u1"
wait "$hold"
_w=0
while kill -0 "$dm" 2>/dev/null && [ $_w -lt 30 ]; do sleep 0.2; _w=$((_w + 1)); done
kill "$dm" 2>/dev/null
wait "$dm"
eq smi.removed.dmon_exit "$?" 5
one_line smi.removed.dmon_line "$O/rm.err" "instance $u1 was removed while being read"
# unloaded under dmon
vgsp-smi dmon -i "$u2" -d 2 > "$O/un.txt" 2> "$O/un.err" &
dm=$!
for _i in $(seq 1 50); do grep -q '^#' "$O/un.txt" 2>/dev/null && break; sleep 0.1; done
rm_inst "$u2"
rmmod vgsp
_w=0
while kill -0 "$dm" 2>/dev/null && [ $_w -lt 30 ]; do sleep 0.2; _w=$((_w + 1)); done
kill "$dm" 2>/dev/null
wait "$dm"
_rc=$?
if vgsp_loaded; then
	fail smi.unloaded "rmmod vgsp failed"
else
	eq smi.unloaded.dmon_exit "$_rc" 3
	one_line smi.unloaded.dmon_line "$O/un.err" "vgsp was unloaded while $u2 was monitored"
	smi > /dev/null 2> "$O/nl.err"
	eq smi.notloaded.exit "$?" 3
	one_line smi.notloaded.line "$O/nl.err" "vgsp is not loaded"
fi
cat /tmp/smi-hold.out
exit 0
