#!/bin/sh
# The VMM killed with SIGKILL while it drives vgsp.ko through VFIO (issue 12
# §3, the kernel frontend; userspace/vfu/tests/vfu_stress.c is the vfio-user
# one). 10 times (100 with rig.long: test --long) the replay client in bench
# mode (FSP/GSP boot, then GET_SMC_MODE RPCs in a loop) is killed 0-1.5 s
# after it starts, so in the boot or in RPCs. After each kill, at once, on
# the same instance: the next client's OpenRM init replay matches the golden
# transcript, debugfs shows opens == closes and the GSP off. Then the
# instance is removed and vgsp.ko unloads. /init checks dmesg afterwards.
# rig-timeout: 900
. /lib/rig.sh

BIN=vgsp-gsp-replay
if ! command -v $BIN >/dev/null 2>&1; then
	skip vmm_kill.vfio "$BIN not in the initramfs (make vm-bin)"
	exit 0
fi
n=10
grep -qw rig.long /proc/cmdline && n=100
if ! u=$(mk h100-10g); then
	fail vmm_kill.vfio "cannot create an instance"
	exit 0
fi
d=$DBG/$u
ok=0 early=0
t0=$(date +%s)
while [ $ok -lt $n ]; do
	$BIN "$u" bench 100000 >/tmp/victim.out 2>&1 &
	p=$!
	s=$(awk -v r="$(od -An -N2 -tu2 /dev/urandom)" 'BEGIN { printf "%.2f", (r % 150) / 100 }')
	sleep "$s"
	kill -9 $p 2>/dev/null || early=$((early + 1))
	wait $p 2>/dev/null
	out=$($BIN "$u" init 2>&1)
	case $out in
	*"PASS gsp_replay.init.transcript"*) ;;
	*)
		fail vmm_kill.vfio "kill $ok (${s} s in): the next client's init: $(echo "$out" | grep -m1 FAIL)"
		break ;;
	esac
	o=$(kv "$d/counters" opens) c=$(kv "$d/counters" closes) b=$(kv "$d/gsp_state" boot)
	if [ "$o" != "$c" ] || [ "$b" != off ]; then
		fail vmm_kill.vfio "kill $ok: opens $o closes $c gsp boot '$b' after the next client"
		break
	fi
	ok=$((ok + 1))
done
echo "  $ok kills in $(($(date +%s) - t0)) s ($early clients had ended before their kill)"
eq vmm_kill.vfio_x$n "$ok" "$n"
check vmm_kill.remove "remove failed" rm_inst "$u"
check vmm_kill.rmmod "rmmod failed after the kills" vgsp_unload
