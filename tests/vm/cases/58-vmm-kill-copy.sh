#!/bin/sh
# The VMM killed with SIGKILL during copy-engine work on vgsp.ko (issue 12
# §3, the kernel frontend; scripts/guest/vmm-kill-guest.sh --copy is the
# vfio-user one). The replay client's copy mode boots the GSP, replays the
# golden init up to its allocations, makes a copy channel (SET_PAGE_DIRECTORY,
# TSG, GPFIFO channel on LCE 0, copy object) and keeps two 64 MiB sysmem
# copies queued (4 slices each), checking every copy it waits for. First one
# run of 4 copies must pass and its FREE drop the channel. Then 3 times (100
# with rig.long: test --long) a client is SIGKILLed 0-1 s after its first
# copy verified; the channel's state in debugfs just before the kill says
# whether the fifo worker was copying. After each kill, at once, on the same
# instance: the next client's init replay is golden, no channel is left,
# opens == closes, GSP off. At the end kmalloc and vmalloc are back within
# bounds, no new WARNING/BUG/Oops line, remove and rmmod work.
# rig-timeout: 2400
. /lib/rig.sh

BIN=vgsp-gsp-replay
if ! command -v $BIN >/dev/null 2>&1; then
	skip vmm_kill_copy.vfio "$BIN not in the initramfs (make vm-bin)"
	exit 0
fi
n=3
grep -qw rig.long /proc/cmdline && n=100

nchan() { grep -c '^channel chid' "$d/channels"; }
fifo() { awk -v k="$1" '$1 == k { print $2; exit }' "$d/channels"; }

# One instance created and removed first: the baseline holds what any
# instance leaves cached.
u=$(mk h100-10g) && rm_inst "$u"
k0=$(kmalloc_kib) m0=$(vmalloc_kib) w0=$(bad_dmesg)
if ! u=$(mk h100-10g); then
	fail vmm_kill_copy.create "cannot create an instance"
	exit 0
fi
d=$DBG/$u

# The mode itself: copies that complete are right, FREE drops the channel.
f0=$(fifo chan_frees)
out=$($BIN "$u" copy 4 64 2>&1)
echo "$out" | sed -n 's/^PASS gsp_replay.copy.x4: /  /p'
case $out in
*"PASS gsp_replay.copy.first"*"PASS gsp_replay.copy.x4"*)
	pass vmm_kill_copy.copies_verified ;;
*)	fail vmm_kill_copy.copies_verified "$(echo "$out" | grep -m1 FAIL)" ;;
esac
eq vmm_kill_copy.free_drops_channel "$(($(fifo chan_frees) - f0)) $(nchan)" "1 0"

ok=0 running=0 early=0
t0=$(date +%s)
while [ $ok -lt $n ]; do
	# emptied here: the child's own redirection may come after the grep below
	: >/tmp/victim.out
	$BIN "$u" copy 0 64 >>/tmp/victim.out 2>&1 &
	p=$!
	i=0
	# the client gives up on a copy after 30 s and says why
	while ! grep -q '^COPYING' /tmp/victim.out && [ $i -lt 300 ] &&
		kill -0 $p 2>/dev/null; do
		sleep 0.2
		i=$((i + 1))
	done
	if ! grep -q '^COPYING' /tmp/victim.out; then
		sed 's/^/  channels| /' "$d/channels"
		sed 's/^/  gsp_state| /' "$d/gsp_state"
		echo "  client $p: $(grep -E '^(State|VmRSS)' /proc/$p/status 2>/dev/null | tr '\n\t' '  '), wchan $(cat /proc/$p/wchan 2>/dev/null)"
		for _ in 1 2 3; do
			echo "  client $p: syscall '$(cat /proc/$p/syscall 2>/dev/null)' utime/stime $(cut -d' ' -f14,15 /proc/$p/stat) rss $(grep VmRSS /proc/$p/status)"
			sleep 2
		done
		cat /proc/$p/stack 2>&1 | sed 's/^/  stack| /'
		echo "  thp: $(cat /sys/kernel/mm/transparent_hugepage/enabled) defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag)"
		grep -E '^(MemFree|MemAvailable)' /proc/meminfo | sed 's/^/  /'
		dmesg | tail -n 15 | sed 's/^/  dmesg| /'
		kill -9 $p 2>/dev/null
		wait $p
		r=$?
		fail vmm_kill_copy.vfio "kill $ok: the client (exit $r) never verified a copy: $(grep -m1 FAIL /tmp/victim.out)"
		sed 's/^/  client| /' /tmp/victim.out
		break
	fi
	s=$(awk -v r="$(od -An -N2 -tu2 /dev/urandom)" 'BEGIN { printf "%.2f", (r % 100) / 100 }')
	sleep "$s"
	st=$(sed -n 's/^channel chid .* state \([a-z]*\) .*/\1/p' "$d/channels")
	b=$(awk '$1 == "ce_launches" { print $4; exit }' "$d/channels")
	kill -9 $p 2>/dev/null || early=$((early + 1))
	wait $p 2>/dev/null
	[ "$st" = running ] && running=$((running + 1))
	if grep -q '^FAIL' /tmp/victim.out; then
		fail vmm_kill_copy.vfio "kill $ok: the client failed before its kill: $(grep -m1 FAIL /tmp/victim.out)"
		break
	fi
	out=$($BIN "$u" init 2>&1)
	case $out in
	*"PASS gsp_replay.init.transcript"*) ;;
	*)
		fail vmm_kill_copy.vfio "kill $ok (${s} s after the first copy, channel $st): the next client's init: $(echo "$out" | grep -m1 FAIL)"
		break ;;
	esac
	o=$(kv "$d/counters" opens) c=$(kv "$d/counters" closes)
	g=$(kv "$d/gsp_state" boot) nc=$(nchan)
	if [ "$o" != "$c" ] || [ "$g" != off ] || [ "$nc" != 0 ]; then
		fail vmm_kill_copy.vfio "kill $ok (channel $st): opens $o closes $c gsp boot '$g', $nc channels after the next client"
		break
	fi
	echo "  kill $ok: ${s} s after the first copy, channel ${st:-gone}, ${b:-?} bytes copied"
	ok=$((ok + 1))
done
echo "  $ok kills in $(($(date +%s) - t0)) s, $running with the channel running (copying), $early clients had ended before their kill"
eq vmm_kill_copy.vfio_x$n "$ok" "$n"
# the kills must land in copy-engine work, not only between copies
check vmm_kill_copy.kills_in_copies "no kill found the channel running" \
	test "$running" -gt 0
check vmm_kill_copy.remove "remove failed" rm_inst "$u"
nothing_left vmm_kill_copy "$k0" "$m0" "$w0"
check vmm_kill_copy.rmmod "rmmod failed after the kills" vgsp_unload
