#!/bin/sh
# backend=hostd: vgsp.ko reaches the hostd daemon through /dev/vgsp-hostd
# (docs/forwarding.md §5). Without an attached hostd an instance is
# refused; the char device refuses what a file that is not attached (or is
# attached) must not do (`vgsp-hostd attach --probe`); `vgsp-hostd attach`
# attaches, a second attacher gets EBUSY; a 1 MiB copy runs through the
# instance's ring (hostd_selftest, the same backend op the fifo worker
# calls) and is verified by the kernel; hostd
# sleeps while idle; a hostd that dies with an item pending makes that item
# fail with EIO and the instance failed; a new hostd re-attaches, leaves
# the failed instances alone and serves a new one.
# Guest RAM (vgsp-vfiotest dmahold plays the VMM: device open, 2 MiB mapped
# for DMA): a hostd that maps it itself (the default) gets no staged bytes;
# a copy FB -> guest RAM -> FB through its view is verified by the kernel;
# pages are pinned while mapped, zapped and unpinned when the VMM unmaps
# them (a later access is a SIGBUS hostd survives: that item fails with
# EFAULT), when hostd dies and when the device closes; a --staged hostd
# still gets them staged.
# rig-timeout: 300
. /lib/rig.sh

BIN=vgsp-hostd
S=/sys/kernel/debug/vgsp-hostd
if ! command -v $BIN >/dev/null 2>&1; then
	fail hostd.bin "$BIN not in the initramfs (make vm-bin)"
	exit 0
fi

# "instance ID UUID state S k v k v ..." -> value of key $2 for uuid $1
ist() { awk -v u="$1" -v k="$2" '$1 == "instance" && $3 == u {
	for (i = 4; i < NF; i += 2) if ($i == k) print $(i + 1) }' $S/state; }
iid() { awk -v u="$1" '$1 == "instance" && $3 == u { print $2 }' $S/state; }
# wait_file PATH: up to 10 s for it to exist
wait_file() {
	_i=0
	while [ ! -e "$1" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# dmahold UUID DIR: a VMM for UUID with 2 MiB of guest RAM at IOVA 0x100000
dmahold() {
	rm -rf "$2"
	mkdir -p "$2"
	vgsp-vfiotest dmahold "$1" 0x100000 2048 "$2" > "$2/log" 2>&1 &
	vmm=$!
	wait_file "$2/ready"
}
# vmm_stop DIR: that VMM closes the device
vmm_stop() {
	touch "$1/stop"
	wait $vmm
}
# wait_kv KEY VALUE: up to 10 s for the state file to say so
wait_kv() {
	_i=0
	while [ "$(kv $S/state "$1")" != "$2" ] && [ $_i -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

vgsp_unload
if ! vgsp_load backend=hostd hostd_selftest=1; then
	fail hostd.load "insmod backend=hostd refused"
	exit 0
fi
eq hostd.param "$(cat $PARAMS/backend)" hostd
check hostd.chardev "no /dev/vgsp-hostd" test -c /dev/vgsp-hostd
eq hostd.attached0 "$(kv $S/state attached)" 0

# --- no hostd: refused, one clear line, nothing created ---------------------
before=$(dmesg_count 'backend=hostd but no hostd is attached')
if u=$(mk h100-10g 2>/dev/null); then
	fail hostd.refused "instance $u created with no hostd attached"
	rm_inst "$u"
else
	pass hostd.refused
fi
check hostd.refused.dmesg "no 'no hostd is attached' line" \
	test "$(dmesg_count 'backend=hostd but no hostd is attached')" -gt "$before"
eq hostd.refused.instances "$(ninst)" 0
eq hostd.refused.counter "$(kv $S/state create_refused)" 1

# --- the device's refusals (the probe attaches, then detaches) ---------------
$BIN attach --probe > /tmp/probe.log 2>&1
eq hostd.probe.exit $? 0
for n in attach_v1 list_unattached kick_unattached mmap_unattached attach_version \
	 attach_features attach_twice kick_absent kick_out_of_range ioctl_unknown mmap_absent \
	 mmap_short mmap_past_ids mmap_view_not_asked; do
	check "hostd.probe.$n" "$(grep "^probe $n " /tmp/probe.log)" grep -q "^probe $n OK" /tmp/probe.log
done
eq hostd.probe.counters "$(kv $S/state bad_ioctls) $(kv $S/state attach_refused) $(kv $S/state attaches) $(kv $S/state deaths) $(kv $S/state attached)" \
	"8 1 1 1 0"

# --- attach; a second attacher is refused -----------------------------------
$BIN attach > /tmp/hostd1.log 2>&1 &
h1=$!
wait_kv attached 1
eq hostd.attach "$(kv $S/state attached) $(kv $S/state attaches) $(kv $S/state features)" "1 2 1"
$BIN attach > /tmp/hostd2.log 2>&1
eq hostd.second.exit $? 3
check hostd.second.msg "no EBUSY line: $(cat /tmp/hostd2.log)" \
	grep -q 'Device or resource busy (another hostd is attached)' /tmp/hostd2.log
eq hostd.second.counter "$(kv $S/state attach_refused) $(kv $S/state attached)" "2 1"

# --- work through the ring --------------------------------------------------
if u1=$(mk h100-10g); then
	pass hostd.create
else
	fail hostd.create "create refused with hostd attached"
	kill $h1
	exit 0
fi
id1=$(iid "$u1")
check hostd.instance "$u1 not in $S/state" test -n "$id1"
check hostd.selftest "1 MiB copy through the ring failed" \
	sh -c "echo '$id1 1048576' > $S/selftest"
# 128 KiB a ring item: 8 items, each completed, no error of any kind
eq hostd.ring.items "$(ist "$u1" items) $(ist "$u1" completions) $(ist "$u1" bytes)" \
	"8 8 1048576"
eq hostd.ring.errors "$(ist "$u1" item_errors) $(ist "$u1" bad_index) $(ist "$u1" bad_completion) $(ist "$u1" timeouts)" \
	"0 0 0 0"
eq hostd.ring.state "$(ist "$u1" state)" serving
check hostd.served "hostd did not report serving $id1" grep -q "serving instance $id1\$" /tmp/hostd1.log

# --- guest RAM through hostd's view (pinned on fault, no staging) ---------
dmahold "$u1" /tmp/dma1
check hostd.view.vmm "dmahold did not map: $(cat /tmp/dma1/log)" test -e /tmp/dma1/ready
eq hostd.view.pinned0 "$(ist "$u1" pinned)" 0
check hostd.view.selftest "1 MiB FB -> guest RAM -> FB through the view failed" \
	sh -c "echo '$id1 1048576 100000' > $S/selftest"
# 8 items each way; every guest-RAM byte went through the view, none staged
eq hostd.view.ring "$(ist "$u1" items) $(ist "$u1" bytes) $(ist "$u1" view_bytes) $(ist "$u1" item_errors)" \
	"24 3145728 2097152 0"
eq hostd.view.pinned "$(ist "$u1" pinned) $(ist "$u1" refused) $(ist "$u1" zaps)" "256 0 0"
check hostd.view.faults "no view faults: $(ist "$u1" faults)" test "$(ist "$u1" faults)" -ge 256
# the VMM unmaps: zapped from hostd's mapping and unpinned at once
touch /tmp/dma1/unmap
wait_file /tmp/dma1/unmapped
eq hostd.view.unmap "$(ist "$u1" pinned) $(ist "$u1" zaps)" "0 1"
# hostd's next access there is refused (SIGBUS): that item fails, hostd lives
if sh -c "echo '$id1 4096 100000' > $S/selftest" 2>/tmp/st.err; then
	fail hostd.view.unmapped_refused "a copy to unmapped guest RAM succeeded"
else
	check hostd.view.unmapped_refused "not EFAULT: $(cat /tmp/st.err)" grep -q 'Bad address' /tmp/st.err
fi
eq hostd.view.sigbus "$(ist "$u1" refused) $(ist "$u1" item_errors) $(ist "$u1" state)" "1 1 serving"
check hostd.view.alive "hostd died on the refused page" kill -0 $h1
vmm_stop /tmp/dma1
# a new VMM maps it again: pinned while mapped, released when it closes ...
dmahold "$u1" /tmp/dma2
check hostd.view.again "copy through the view after a remap failed" \
	sh -c "echo '$id1 65536 100000' > $S/selftest"
eq hostd.view.pinned2 "$(ist "$u1" pinned)" 16
vmm_stop /tmp/dma2
eq hostd.view.close "$(ist "$u1" pinned)" 0
# ... and when hostd dies (below)
dmahold "$u1" /tmp/dma2
check hostd.view.again2 "copy through the view after a reopen failed" \
	sh -c "echo '$id1 65536 100000' > $S/selftest"
eq hostd.view.pinned3 "$(ist "$u1" pinned) $(ist "$u1" item_errors)" "16 1"

# no polling when idle: hostd and vgsp.ko use no CPU in 2 s without work
t0=$(cpu_ticks $h1)
sleep 2
eq hostd.idle_ticks "$(cpu_ticks $h1)" "$t0"

# --- hostd dies while idle: the instance fails, its work is refused ---------
kill -9 $h1
wait $h1 2>/dev/null
wait_kv attached 0
eq hostd.death1 "$(kv $S/state attached) $(kv $S/state deaths) $(ist "$u1" state)" "0 2 failed"
eq hostd.death1.unpinned "$(ist "$u1" pinned)" 0
vmm_stop /tmp/dma2
if sh -c "echo '$id1 4096' > $S/selftest" 2>/tmp/st.err; then
	fail hostd.failed_refuses "a failed instance ran work"
else
	check hostd.failed_refuses "not EIO: $(cat /tmp/st.err)" grep -qE 'I/O error|Input/output error' /tmp/st.err
fi
eq hostd.failed_items "$(ist "$u1" failed_items) $(ist "$u1" items)" "1 29"
if u=$(mk h100-10g 2>/dev/null); then
	fail hostd.refused_after_death "created with no hostd attached"
	rm_inst "$u"
else
	pass hostd.refused_after_death
fi

# --- a hostd that hangs on an item, then dies: the pending item fails --------
$BIN attach --serve-items 0 > /tmp/hostd3.log 2>&1 &
h2=$!
wait_kv attaches 3
eq hostd.reattach "$(kv $S/state attached) $(kv $S/state attaches)" "1 3"
u2=$(mk h100-10g) || fail hostd.create2 "create refused"
id2=$(iid "$u2")
sh -c "echo '$id2 65536' > $S/selftest" 2>/tmp/st2.err &
st=$!
sleep 2
check hostd.pending "the item did not stay pending" kill -0 $st
eq hostd.pending.items "$(ist "$u2" items) $(ist "$u2" completions)" "1 0"
kill -9 $h2
wait $st
eq hostd.pending.exit $? 1
check hostd.pending.eio "not EIO: $(cat /tmp/st2.err)" grep -qE 'I/O error|Input/output error' /tmp/st2.err
wait_kv attached 0
eq hostd.death2 "$(kv $S/state deaths) $(ist "$u2" state) $(ist "$u2" failed_items)" "3 failed 1"
check hostd.death.dmesg "no detach line" test "$(dmesg_count 'vgsp: hostd detached')" -ge 2

# --- a restarted hostd (staged: an older hostd's way): failed instances ---
# --- stay failed, a new one is served, its guest RAM staged by the kernel --
$BIN attach --staged > /tmp/hostd4.log 2>&1 &
h3=$!
wait_kv attaches 4
eq hostd.staged.features "$(kv $S/state features)" 0
if u3=$(mk h100-10g); then
	id3=$(iid "$u3")
	check hostd.restart.selftest "copy through the new hostd failed" \
		sh -c "echo '$id3 262144' > $S/selftest"
	eq hostd.restart.ring "$(ist "$u3" items) $(ist "$u3" completions) $(ist "$u3" item_errors)" "2 2 0"
	dmahold "$u3" /tmp/dma3
	check hostd.staged.selftest "copy through staged guest RAM failed" \
		sh -c "echo '$id3 262144 100000' > $S/selftest"
	eq hostd.staged.ring "$(ist "$u3" items) $(ist "$u3" view_bytes) $(ist "$u3" pinned) $(ist "$u3" item_errors)" \
		"6 0 0 0"
	vmm_stop /tmp/dma3
else
	fail hostd.restart.create "create refused after re-attach"
fi
eq hostd.restart.old "$(ist "$u1" state) $(ist "$u2" state)" "failed failed"
check hostd.restart.skips_failed "the new hostd served a failed instance" \
	sh -c "! grep -qE 'serving instance ($id1|$id2)\$' /tmp/hostd4.log"
kill $h3
wait $h3
eq hostd.term.exit $? 0

for u in $u1 $u2 $u3; do rm_inst "$u" || fail hostd.remove "remove $u failed"; done
eq hostd.instances_left "$(ninst)" 0
check hostd.unload "rmmod failed" vgsp_unload
check hostd.dmesg "WARNING/BUG in dmesg" sh -c "! dmesg | grep -qE 'WARNING|BUG|Oops'"
