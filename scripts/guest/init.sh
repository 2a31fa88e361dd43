#!/bin/busybox sh
# /init of the rung-1/rung-2 guest initramfs (built by scripts/guest/build-guest.sh).
# Loads nvidia.ko, creates device nodes by hand (no udev, no nvidia-modprobe), runs nvidia-smi and
# a cuInit probe, prints a one-line verdict and powers off. The verdict looks for a "GPU 0:" line
# from `nvidia-smi -L`: its exit code is 0 even when it prints "No devices found".
# Kernel arguments: rung1.nvopts=a=b,c=d (insmod options; rung2.uvmopts= the same for
# nvidia-uvm.ko, e.g. uvm_debug_prints=1), rung1.cuinit=1 (cuinit-test after
# nvidia-smi), rung2=1 (rung-2 mode: nvidia.ko and nvidia-uvm.ko, their nodes as
# nvidia-modprobe makes them, nvidia-smi -L, then cudacheck with rung2.args=a,b,... as its
# arguments; lines are prefixed "rung2:" and the verdict is rung 2's), rung3=1 (rung3check,
# scripts/guest/rung3check.c, with rung3.args=a,b,... as its arguments, its lines prefixed
# "rung3check:": after cudacheck when rung2=1 is given too (the verdict stays rung 2's), else
# instead of it (nvidia.ko and nvidia-uvm.ko as for rung 2, lines prefixed "rung3:", the verdict
# the guest's own: every test passed its CPU reference; rung 3 itself is the byte comparison with
# the native run, scripts/guest/rung3-compare.sh on the host). rung2.smiq=1: nvidia-smi -q too
# in rung-2 mode, before cudacheck (the demo).
# perf=1: the open-iov-perf/1 harness through perf.sh (role=guest, --no-aggregate) with
# perf.args=a,b,... as perf.sh's options, perf.sizes=B,B,... as its --sizes (a list of its own:
# perf.args splits on commas) and perf.harness=a,b,... as its --harness-args, after
# rung 2/3's checks when those are given too (their verdict stays), else alone (nvidia.ko and
# nvidia-uvm.ko, nvidia-smi -L, perf; lines prefixed "perf:", the verdict perf's: every run
# status OK). Each run's files go to the console as they are written (console-emit, tag perf:
# base64 blocks that scripts/guest/console-extract.sh turns back into the files on the host;
# the host aggregates them, userspace/cuda/perf.sh --aggregate-only). "vgsp-perf-mark before"
# and "vgsp-perf-mark after" lines, each followed by 3 s of quiet, let a host snapshot its side
# (vgsp-vfu counters, GPU clocks) around the runs (scripts/h200/ba.sh).
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /tmp && mount -t tmpfs tmp /tmp
t() { cut -d' ' -f1 /proc/uptime; }
arg() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" /proc/cmdline; }
NVOPTS=$(arg rung1.nvopts | tr ',' ' ')
UVMOPTS=$(arg rung2.uvmopts | tr ',' ' ')
RUNG=1; [ "$(arg rung2)" = 1 ] && RUNG=2
R3=0; [ "$(arg rung3)" = 1 ] && R3=1
[ "$R3" = 1 ] && [ "$RUNG" = 1 ] && RUNG=3
PERF=0; [ "$(arg perf)" = 1 ] && PERF=1
PERFONLY=0; [ "$PERF" = 1 ] && [ "$RUNG" = 1 ] && PERFONLY=1
TAG=rung$RUNG; [ "$PERFONLY" = 1 ] && TAG=perf
say() { echo "$TAG: [$(t)] $*"; }

# nvidia-uvm.ko and its nodes as nvidia-modprobe creates them: the major
# from /proc/devices "nvidia-uvm", minor 0 nvidia-uvm, minor 1 nvidia-uvm-tools.
load_uvm() {
	say "insmod nvidia-uvm.ko $UVMOPTS"
	# shellcheck disable=SC2086
	insmod /lib/vgsp/nvidia-uvm.ko $UVMOPTS; say "insmod nvidia-uvm rc=$?"
	umaj=$(awk '$2 == "nvidia-uvm" { print $1; exit }' /proc/devices)
	if [ -n "$umaj" ]; then
		mknod -m 666 /dev/nvidia-uvm c "$umaj" 0
		mknod -m 666 /dev/nvidia-uvm-tools c "$umaj" 1
		say "nvidia-uvm device nodes: major $umaj"
	else
		say "nvidia-uvm not in /proc/devices"
	fi
}

say "guest up, kernel $(uname -r)"
# busybox lspci has no -nn; read the IDs from sysfs.
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x10de ] && say "pci $(basename "$d") $(cat "$d/vendor"):$(cat "$d/device") class $(cat "$d/class")"
done
while read -r m; do
	case $m in
	nvidia) say "insmod nvidia.ko $NVOPTS"
		# shellcheck disable=SC2086
		insmod /lib/vgsp/nvidia.ko $NVOPTS; rc=$?; say "insmod nvidia rc=$rc" ;;
	*) insmod "/lib/vgsp/$m.ko" || say "insmod $m failed" ;;
	esac
done < /lib/vgsp/load-order

# 535 registers major 195 as "nvidia-frontend" (older builds: "nvidia").
maj=$(awk '$2 == "nvidia" || $2 == "nvidia-frontend" { print $1; exit }' /proc/devices)
if [ -n "$maj" ]; then
	mknod -m 666 /dev/nvidiactl c "$maj" 255
	for n in 0 1 2 3; do mknod -m 666 "/dev/nvidia$n" c "$maj" "$n"; done
	say "device nodes: major $maj"
	cat /proc/driver/nvidia/version 2>/dev/null
	ls /proc/driver/nvidia/gpus/ 2>/dev/null
	# Rung 2 and 3 (and perf): nvidia-uvm is loaded before any client, as on a booted system.
	{ [ "$RUNG" != 1 ] || [ "$PERFONLY" = 1 ]; } && load_uvm
	say "nvidia-smi -L"
	nvidia-smi -L > /tmp/smi-L.txt 2>&1; rc=$?
	cat /tmp/smi-L.txt; say "nvidia-smi -L rc=$rc"
fi
if [ -n "$maj" ] && [ "$RUNG" = 2 ] && [ "$(arg rung2.probe)" = 1 ]; then
	# rung2.probe=1: which engine each copy/memset entry point uses (cuprobe.c)
	say "cuprobe"; cuprobe; say "cuprobe rc=$?"
fi
# rung2.smiq=1 (the demo): nvidia-smi -q as well, before cudacheck (a few of its lines, its rc).
if [ -n "$maj" ] && [ "$RUNG" = 2 ] && [ "$(arg rung2.smiq)" = 1 ]; then
	say "nvidia-smi -q"
	nvidia-smi -q > /tmp/smi-q.txt 2>&1; qrc=$?
	grep -E '^(Driver Version|CUDA Version|Attached GPUs)|^    (Product Name|GPU UUID|Virtualization Mode)' /tmp/smi-q.txt
	say "nvidia-smi -q rc=$qrc lines=$(wc -l < /tmp/smi-q.txt)"
fi
if [ -n "$maj" ] && [ "$RUNG" = 2 ]; then
	# cudacheck's lines go to the console as they come (a hang keeps them).
	say "cudacheck $(arg rung2.args | tr ',' ' ')"
	# rung2.trace=1: every RM/UVM ioctl of cudacheck (libcuda) logged by nvtrace.so
	pre=""
	[ "$(arg rung2.trace)" = 1 ] && pre=/usr/lib/nvtrace.so
	sm=""
	[ -n "$(arg rung2.smwork)" ] && sm="--sm-work $(arg rung2.smwork)"
	# shellcheck disable=SC2046,SC2086 # rung2.args is a comma-separated word list
	{ LD_PRELOAD=$pre cudacheck $sm $(arg rung2.args | tr ',' ' ') 2>&1; echo "$?" > /tmp/cudacheck.rc; } |
		tee /tmp/cudacheck.txt
	say "cudacheck rc=$(cat /tmp/cudacheck.rc)"
elif [ -n "$maj" ] && [ "$RUNG" = 3 ]; then
	: # rung3check only (below)
elif [ -n "$maj" ] && [ "$PERFONLY" = 1 ]; then
	: # perf only (below)
elif [ -n "$maj" ]; then
	say "nvidia-smi -q"
	# Full output kept and its exit status checked: rung 1 needs -q to
	# complete, not just to start.
	nvidia-smi -q > /tmp/smi-q.txt 2>&1; qrc=$?
	cat /tmp/smi-q.txt
	say "nvidia-smi -q rc=$qrc lines=$(wc -l < /tmp/smi-q.txt)"
	if [ "$(arg rung1.cuinit)" = 1 ]; then
		# libcuda needs nvidia-uvm and its nodes (dynamic major).
		load_uvm
		say "cuinit-test"; cuinit-test; say "cuinit-test rc=$?"
	fi
else
	say "nvidia not in /proc/devices:"; cat /proc/devices
fi
if [ -n "$maj" ] && [ "$R3" = 1 ] && [ -n "$(arg rung3.pre)" ]; then
	# rung3.pre=a,b: one rung3check run before the main one (the two-tenant check's fault),
	# its lines prefixed "rung3pre:" so the comparison with the native run never reads them
	say "rung3check (pre) $(arg rung3.pre | tr ',' ' ')"
	# shellcheck disable=SC2046 # rung3.pre is a comma-separated word list
	rung3check $(arg rung3.pre | tr ',' ' ') 2>&1 | sed 's/^rung3check:/rung3pre:/'
fi
if [ -n "$maj" ] && [ "$R3" = 1 ]; then
	# rung3check's lines go to the console as they come (a hang keeps them).
	say "rung3check $(arg rung3.args | tr ',' ' ')"
	# shellcheck disable=SC2046 # rung3.args is a comma-separated word list
	{ rung3check $(arg rung3.args | tr ',' ' ') 2>&1; echo "$?" > /tmp/rung3check.rc; } |
		tee /tmp/rung3check.txt
	say "rung3check rc=$(cat /tmp/rung3check.rc)"
fi

if [ -n "$maj" ] && [ "$PERF" = 1 ]; then
	# perf.sh's own lines (progress, one a run) go to the console as they come; the files follow
	# each run as console-emit blocks, with the kernel's console messages held back meanwhile
	# (they stay in dmesg) so none lands inside a block.
	P=/tmp/perf
	mkdir -p "$P"
	: > /tmp/perf.emitted
	PARGS=$(arg perf.args | tr ',' ' ')
	HARGS=$(arg perf.harness | tr ',' ' ')
	PSIZES=$(arg perf.sizes)
	[ -z "$PSIZES" ] || PARGS="$PARGS --sizes $PSIZES"
	PCOMMIT=$(sed -n 's/^commit=//p' /usr/share/vgsp-perf/build.txt 2>/dev/null)
	say "perf.sh --role guest $PARGS${HARGS:+ --harness-args \"$HARGS\"} (image: ${PCOMMIT:-unknown})"
	echo "vgsp-perf-mark before"
	sleep 3
	dmesg -n 1
	EMIT='console-emit -t perf -s /tmp/perf.emitted "$2/env.txt" "$2/command.txt" "$2/clocks-guest-before.txt" "$1" "$1.err"'
	# shellcheck disable=SC2086 # perf.args is a comma-separated word list
	sh /usr/share/vgsp-perf/perf.sh --role guest --out "$P" --no-aggregate --harness /usr/bin/perf-harness \
		--commit "guest image built from ${PCOMMIT:-unknown}" ${HARGS:+--harness-args "$HARGS"} \
		--after-run "$EMIT" $PARGS 2>&1
	prc=$?
	echo "vgsp-perf-mark after"
	sleep 3
	console-emit -t perf -s /tmp/perf.emitted "$P"/* /usr/share/vgsp-perf/build.txt
	dmesg -n 7
	pn=$(ls "$P"/run-*.txt 2>/dev/null | wc -l)
	pok=$(grep -l '^status OK' "$P"/run-*.txt 2>/dev/null | wc -l)
	perr=$(cat "$P"/run-*.txt.err 2>/dev/null | grep -m1 '^error:' | sed 's/^error: //')
	say "perf rc=$prc: $pok of $pn runs status OK, $(wc -l < /tmp/perf.emitted) files on the console${perr:+; first error: $perr}"
fi

say "kernel log (NVRM / nvidia / nvidia-uvm / drm):"
dmesg | grep -iE 'NVRM|nvidia|uvm|Xid|01:00\.0|drm|cudacheck|cuprobe|rung3check' | sed 's/^/dmesg: /'
if [ "$RUNG" = 2 ]; then
	# Rung 2: nvidia-smi -L lists the GPU, cudacheck passed every check (its
	# SM work and launch may fail cleanly on sim: rung2.smwork=refused), and
	# neither an Xid nor an nvidia-uvm error came before the SM work (an Xid
	# for a refused launch's channel is what real hardware logs; cudacheck
	# writes "sm-work begins" / "launch begins" to /dev/kmsg so they can be
	# told apart).
	s=$(grep '^cudacheck: summary' /tmp/cudacheck.txt 2>/dev/null | tail -1)
	v() { echo "$s" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
	cu=$(v cuInit) nv=$(v copies_verified) nf=$(v failed) smv=$(v sm_verified) smr=$(v sm_refused)
	early=$(dmesg | awk '/cudacheck: (sm-work|launch) begins/ { exit } { print }')
	xid=$(echo "$early" | grep -m1 'Xid' | sed 's/^\[ *[0-9.]*\] //')
	uerr=$(echo "$early" | grep -m1 -iE 'nvidia-uvm.*(error|fail)|uvm.*: (error|failed)' | sed 's/^\[ *[0-9.]*\] //')
	launch=$(grep -m1 '^cudacheck: launch ' /tmp/cudacheck.txt 2>/dev/null | sed 's/^cudacheck: launch //')
	firstfail=$(grep -m1 '^cudacheck: .* FAIL' /tmp/cudacheck.txt 2>/dev/null | sed 's/^cudacheck: //')
	if ! grep -q '^GPU 0: .*(UUID: GPU-' /tmp/smi-L.txt 2>/dev/null; then
		say "VERDICT FAIL: nvidia-smi -L listed no GPU"
	elif [ -z "$s" ]; then
		say "VERDICT FAIL: cudacheck printed no summary (rc=$(cat /tmp/cudacheck.rc 2>/dev/null))"
	elif [ "$cu" != 0 ]; then
		en=$(grep -m1 '^cudacheck: cuInit ' /tmp/cudacheck.txt | sed -n 's/.*(\(CUDA_[A-Z_]*\)).*/\1/p')
		say "VERDICT FAIL: cuInit $cu ${en:-(${firstfail:-no FAIL line})}${uerr:+; $uerr}${xid:+; $xid}"
	elif [ "$nf" != 0 ] || [ "$(cat /tmp/cudacheck.rc)" != 0 ]; then
		say "VERDICT FAIL: cuInit 0, $nv copies verified, $nf failed (first: ${firstfail:-?})"
	elif [ -n "$xid" ]; then
		say "VERDICT FAIL: cuInit 0, $nv copies verified, but before the launch: $xid"
	elif [ -n "$uerr" ]; then
		say "VERDICT FAIL: cuInit 0, $nv copies verified, but: $uerr"
	else
		smw="SM work ${smv:-?} verified"
		[ "${smr:-0}" != 0 ] && smw="$smw, $smr refused cleanly (no SMs: --sm-work $(arg rung2.smwork))"
		say "VERDICT PASS: cuInit 0, $nv copies verified (copy engine), $smw, launch ${launch:-not run}"
	fi
	sync
	poweroff -f
fi
if [ "$PERFONLY" = 1 ]; then
	# perf alone: nvidia-smi -L lists the GPU and every run of the harness ended "status OK"
	# (every result it checked was right); the numbers are judged on the host (ab-report).
	if ! grep -q '^GPU 0: .*(UUID: GPU-' /tmp/smi-L.txt 2>/dev/null; then
		say "VERDICT FAIL: nvidia-smi -L listed no GPU"
	elif [ "${pn:-0}" = 0 ]; then
		say "VERDICT FAIL: perf: no run file (perf.sh rc=${prc:-none})"
	elif [ "$pok" != "$pn" ]; then
		say "VERDICT FAIL: perf: $pok of $pn runs status OK (first error: ${perr:-none printed})"
	else
		nsk=$(grep -c '^skipped ' "$P/run-01.txt")
		say "VERDICT PASS: perf: $pn of $pn runs status OK, every result verified$([ "$nsk" = 0 ] || echo " ($nsk metrics a run skipped: $HARGS)"); $(wc -l < /tmp/perf.emitted) files on the console (tag perf)"
	fi
	sync
	poweroff -f
fi
if [ "$RUNG" = 3 ]; then
	# rung3check alone: nvidia-smi -L lists the GPU and every test passed its CPU reference
	# (rung 3 itself is rung3-compare.sh's byte comparison with the native run's hashes).
	s=$(grep '^rung3check: summary' /tmp/rung3check.txt 2>/dev/null | tail -1)
	firstfail=$(grep -m1 '^rung3check: .* FAIL' /tmp/rung3check.txt 2>/dev/null | sed 's/^rung3check: //')
	if ! grep -q '^GPU 0: .*(UUID: GPU-' /tmp/smi-L.txt 2>/dev/null; then
		say "VERDICT FAIL: nvidia-smi -L listed no GPU"
	elif [ -z "$s" ]; then
		say "VERDICT FAIL: rung3check printed no summary (rc=$(cat /tmp/rung3check.rc 2>/dev/null))"
	elif [ "$(cat /tmp/rung3check.rc)" != 0 ]; then
		say "VERDICT FAIL: rung3check ${s#rung3check: summary } (first: ${firstfail:-?})"
	else
		say "VERDICT PASS: rung3check ${s#rung3check: summary }, every output equal to its CPU reference (compare the hashes with the native run: rung3-compare.sh)"
	fi
	sync
	poweroff -f
fi
# Rung 1: -L names the vGPU with a UUID, -q completes (exit 0, a product
# name printed), and the driver logged no Xid.
if ! grep -q '^GPU 0: .*(UUID: GPU-' /tmp/smi-L.txt 2>/dev/null; then
	say "VERDICT FAIL: nvidia-smi -L listed no GPU"
elif [ "${qrc:-1}" != 0 ] || ! grep -q 'Product Name' /tmp/smi-q.txt; then
	say "VERDICT FAIL: nvidia-smi -q did not complete (rc=${qrc:-none})"
elif dmesg | grep -q 'Xid'; then
	say "VERDICT FAIL: Xid in the kernel log"
else
	say "VERDICT PASS: $(grep '^GPU 0:' /tmp/smi-L.txt), nvidia-smi -q rc=0 ($(wc -l < /tmp/smi-q.txt) lines), no Xid"
fi
sync
poweroff -f
