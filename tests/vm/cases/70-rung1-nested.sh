#!/bin/sh
# rig-timeout: 3000
# Rung 1 on the product path: the stock rung-1 guest (Debian 6.1 + NVIDIA
# 535 open modules + nvidia-smi, from scripts/guest/build-guest.sh) boots in
# the host's QEMU with a vgsp.ko h100-10g instance on vfio-pci,sysfsdev=.
# TCG inside TCG: tens of minutes, so opt-in only (rig.rung1nested=1, set by
# scripts/guest/run-rung1-nested.sh). The inner console is streamed live with
# an "inner| " prefix so a hang still leaves the last lines on the outer log.
. /lib/rig.sh

if ! grep -q 'rig.rung1nested=1' /proc/cmdline; then
	skip rung1.nested "opt-in: scripts/guest/run-rung1-nested.sh (tens of minutes)"
	exit 0
fi
arg() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
kimg=$(arg rung1.kernel) initrd=$(arg rung1.initrd)
q=$(arg rung1.qemu) tmo=$(arg rung1.tmo) mem=$(arg rung1.mem)
q=${q:-/usr/bin/qemu-system-x86_64} tmo=${tmo:-2100} mem=${mem:-1536}
# rung1.inner2=1: the inner guest runs rung 2 (cudacheck with rung1.ccargs,
# comma separated); vgsp.ko's backend is sim, so its SM work may be refused.
iappend="console=ttyS0 panic=-1 oops=panic loglevel=7 rung1.cuinit=0"
if [ "$(arg rung1.inner2)" = 1 ]; then
	iappend="$iappend rung2=1 rung2.smwork=refused"
	[ -z "$(arg rung1.ccargs)" ] || iappend="$iappend rung2.args=$(arg rung1.ccargs)"
fi
if ! host_chroot_ready || [ ! -f "/host$kimg" ] || [ ! -f "/host$initrd" ] || [ ! -x "/host$q" ]; then
	fail rung1.nested "no host share, or missing '$kimg' / '$initrd' / '$q'"
	exit 0
fi
u=$(mk h100-10g) || { fail rung1.nested "create h100-10g failed"; exit 0; }
echo "rung1n: instance $u"
up() { cut -d' ' -f1 /proc/uptime; }
# "inner| <outer uptime>| line": the outer clock keeps wall time (the inner
# guest's own clock lags under nested TCG), so phases can be timed.
stamp() {
	awk -v p="${1:-inner}" '{ getline u < "/proc/uptime"; close("/proc/uptime"); split(u, a, " ")
		print p "| " a[1] "| " $0; fflush() }'
}
# inner TAG UUID: one inner guest on instance UUID; console in /tmp/TAG.out,
# streamed as "TAG| ..."; QEMU's exit status in /tmp/TAG.rc.
# Same machine as run-rung1.sh (q35, root port, -cpu max, the guest's own
# append line) minus what only vfio-user needs (shared memfd RAM).
# -nodefaults: no VGA/NIC to emulate twice over. tb-size: keep TCG's code
# cache small, the outer VM has only a few GiB.
inner() {
	{ timeout "$tmo" chroot /host "$q" -accel tcg,tb-size=256 -cpu max -m "$mem" -smp 1 \
		-machine q35 -nodefaults -display none -no-reboot -serial stdio \
		-device pcie-root-port,id=rp0 -device "vfio-pci,sysfsdev=$DEVS/$2,bus=rp0" \
		-kernel "$kimg" -initrd "$initrd" \
		-append "$iappend" \
		</dev/null 2>&1; echo "rc $?" > "/tmp/$1.rc"; } | tr -d '\r' | tee "/tmp/$1.out" | stamp "$1"
}
# rung1.two=1: two instances and two inner guests at once (issue 12 §4),
# each must pass with its own instance's UUID listed.
if [ "$(arg rung1.two)" = 1 ]; then
	u2=$(mk h100-10g) || { fail rung1.nested.two "create of the second h100-10g failed"; exit 0; }
	echo "rung1n: instances A $u B $u2"
	echo "rung1n: phase inner-start uptime $(up)"
	t0=$(date +%s)
	inner innerA "$u" &
	inner innerB "$u2" &
	wait
	echo "rung1n: phase inner-end uptime $(up) inner-seconds $(($(date +%s) - t0)) qemu-rc A $(cut -d' ' -f2 /tmp/innerA.rc) B $(cut -d' ' -f2 /tmp/innerB.rc)"
	for g in A B; do
		[ $g = A ] && gu=$u || gu=$u2
		for v in gsp_state counters; do
			sed "s/^/view| $g $v: /" "$DBG/$gu/$v"
		done
		v=$(grep -a 'VERDICT' "/tmp/inner$g.out" | tail -n 1)
		echo "rung1n: guest $g instance $gu verdict: ${v:-none}"
		check "rung1.nested.two.$g" "guest $g: ${v:-no VERDICT line}" \
			sh -c "grep -a 'VERDICT PASS: ' /tmp/inner$g.out | grep -q 'UUID: GPU-$gu'"
		o=$(kv "$DBG/$gu/counters" opens) c=$(kv "$DBG/$gu/counters" closes)
		check "rung1.nested.two.$g.closed" "opens $o closes $c" \
			test "${o:-0}" -ge 1 -a "$o" = "$c"
	done
	if ! rm_inst "$u" || ! rm_inst "$u2"; then
		fail rung1.nested.remove "remove failed"
	fi
	exit 0
fi
echo "rung1n: phase inner-start uptime $(up)"
t0=$(date +%s)
inner inner "$u"
rc=$(cut -d' ' -f2 /tmp/inner.rc)
echo "rung1n: phase inner-end uptime $(up) inner-seconds $(($(date +%s) - t0)) qemu-rc $rc"
# The emulated GSP's own view of the run, before the instance goes away.
for v in gsp_state gsp_rpc rpc_log counters mm; do
	[ -f "$DBG/$u/$v" ] || continue
	echo "rung1n: view $v"
	sed "s/^/view| $v: /" "$DBG/$u/$v"
done
echo "rung1n: views available: $(ls "$DBG/$u" | tr '\n' ' ')"
v=$(grep -a 'VERDICT' /tmp/inner.out | tail -n 1)
echo "rung1n: inner verdict: ${v:-none}"
check rung1.nested.verdict "inner guest: ${v:-no VERDICT line (qemu rc $rc)}" \
	sh -c "grep -aq 'VERDICT PASS: ' /tmp/inner.out"
rm_inst "$u" || fail rung1.nested.remove "remove failed"
