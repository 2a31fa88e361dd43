#!/bin/sh
# vgsp-smi host tests: a fake sysfs/debugfs/proc tree in a temp dir (built
# from the real vgsp-vfu stats file of the rung-1 run), the real stats file
# itself, and a live vgsp-vfu when one is built; then docs/deploy.md's
# recipes (tests/deploy.sh). JSON is checked against
# ../schema.json with schema-check (jansson). Prints "PASS name" /
# "FAIL name: reason" / "SKIP name: reason" and ends "N passed, N failed".
#   sh tests/run.sh BUILD_DIR      (make -C tools/vgsp-smi test)
set -u
B=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
SMI=$B/vgsp-smi
CHK=$B/schema-check
SCHEMA=$HERE/../schema.json
STATS=$ROOT/results/20261202T120258Z-rung1/vfu-stats.txt
VFU_UUID=56677370-0000-4000-8000-000000000001
U1=8c3f6a10-1111-4a4a-9b9b-000000000001
U2=8c3f6a10-2222-4a4a-9b9b-000000000002
P=0 F=0
T=$(mktemp -d)
trap 'kill $VFU_PID 2>/dev/null; rm -rf "$T"' EXIT
VFU_PID=

pass() { echo "PASS $1"; P=$((P + 1)); }
fail() { _n=$1; shift; echo "FAIL $_n: $*"; F=$((F + 1)); }
skip() { echo "SKIP $1: $2"; }
# eq NAME GOT WANT
eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi; }
# has NAME FILE PATTERN (grep -E)
has() { if grep -qE -- "$3" "$2"; then pass "$1"; else fail "$1" "no /$3/ in $(head -c 600 "$2")"; fi; }
hasnt() { if grep -qE -- "$3" "$2"; then fail "$1" "/$3/ found"; else pass "$1"; fi; }
jget() { "$CHK" --get "$1" "$2"; }
schema() {  # NAME DEF FILE [--lines]
	_o=$("$CHK" "$SCHEMA" ${2:+--def "$2"} ${4:-} "$3" 2>&1)
	case $_o in ok*) pass "$1" ;; *) fail "$1" "$_o" ;; esac
}
# one_error NAME STDERR_FILE PATTERN: exactly one line, "vgsp-smi: ..." matching
one_error() {
	_l=$(wc -l < "$2")
	if [ "$_l" = 1 ] && grep -qE "^vgsp-smi: .*$3" "$2"; then pass "$1"
	else fail "$1" "stderr ($_l lines): $(cat "$2")"; fi
}

[ -x "$SMI" ] && [ -x "$CHK" ] || { echo "FAIL build: $SMI or $CHK missing"; echo "0 passed, 1 failed"; exit 1; }
[ -f "$STATS" ] || { echo "FAIL fixture: $STATS missing"; echo "0 passed, 1 failed"; exit 1; }

# ---- the fake tree ----------------------------------------------------------
# section NAME: one "== NAME" section of the real stats file
section() { awk -v s="== $1" '$0 == s { on = 1; next } /^== / { on = 0 } on' "$STATS"; }

mkinst() {  # UUID TYPE GROUP OPEN IRQ_MODE
	_d=$SYS/devices/virtual/vgsp/vgsp/$1
	mkdir -p "$_d" "$SYS/kernel/iommu_groups/$3"
	ln -s ../mdev_supported_types/vgsp-$2 "$_d/mdev_type"
	ln -s ../../../../kernel/iommu_groups/$3 "$_d/iommu_group"
	ln -s ../../../devices/virtual/vgsp/vgsp/$1 "$SYS/bus/mdev/devices/$1"
	ln -s ../../$1 "$SYS/devices/virtual/vgsp/vgsp/mdev_supported_types/vgsp-$2/devices/$1"
	mkdir -p "$DBG/vgsp/$1"
	for v in counters bar0_unknown mm gsp_state gsp_rpc gsp_latency gsp_controls gsp_queue rpc_log; do
		section "$v" > "$DBG/vgsp/$1/$v"
	done
	{ section info | sed "s/^uuid .*/uuid $1/; s/^type .*/type $2/"; echo "open $4"; echo "irq_mode $5"; } > "$DBG/vgsp/$1/info"
}

mktree() {
	rm -rf "$T/tree"
	SYS=$T/tree/sys DBG=$T/tree/debug PROC=$T/tree/proc
	mkdir -p "$SYS/module/vgsp/parameters" "$SYS/class/mdev_bus" "$SYS/bus/mdev/devices" \
		"$SYS/bus/pci/devices" "$SYS/bus/pci/drivers/nvidia" "$DBG/vgsp" "$PROC"
	printf 'sim\n' > "$SYS/module/vgsp/parameters/backend"
	printf '\n' > "$SYS/module/vgsp/parameters/phys_gpu"
	printf '80\n' > "$SYS/module/vgsp/parameters/fb_budget_gib"
	printf '16\n' > "$SYS/module/vgsp/parameters/max_instances"
	printf '8\n' > "$SYS/module/vgsp/parameters/msix_vectors"
	_pd=$SYS/devices/virtual/vgsp/vgsp
	for t in 10:256:8:6 20:512:4:3 40:1024:2:1 80:2048:1:0; do
		IFS=: read -r fb bar1 max av <<EOF
$t
EOF
		_t=$_pd/mdev_supported_types/vgsp-h100-${fb}g
		mkdir -p "$_t/devices"
		echo "H100-SXM5-${fb}GB" > "$_t/name"
		echo "fb=${fb}GiB id=10de:2330 sub=10de:16c1 chip=GH100 bar1=${bar1}MiB max_instances=$max" > "$_t/description"
		echo vfio-pci > "$_t/device_api"
		echo "$av" > "$_t/available_instances"
		: > "$_t/create"
	done
	ln -s ../../devices/virtual/vgsp/vgsp "$SYS/class/mdev_bus/vgsp"
	mkinst "$U1" h100-10g 12 1 msix
	mkinst "$U2" h100-20g 13 0 none
	sed -i 's/^guest_version .*/guest_version -/' "$DBG/vgsp/$U2/gsp_state"
	cat > "$DBG/vgsp/summary" <<EOF
backend sim
phys_gpu none
fb_budget_gib 80
fb_used_gib 30
max_instances 16
instances 2
type h100-10g instances 1 available 6
type h100-20g instances 1 available 3
type h100-40g instances 0 available 1
type h100-80g instances 0 available 0
EOF
	# PCI: two NVIDIA functions and one other vendor's (must not be listed)
	mkpci 0000:41:00.0 10de 2330 030200 1 nvidia
	mkpci 0000:42:00.0 10de 2331 030200 -1 ""
	mkpci 0000:00:1f.0 8086 7a06 060100 0 ""
	# the VMM holding U1's group, and a process with unrelated fds
	mkdir -p "$PROC/4242/fd" "$PROC/77/fd" "$PROC/self"
	echo qemu-system-x86 > "$PROC/4242/comm"
	ln -s /dev/vfio/vfio "$PROC/4242/fd/3"
	ln -s /dev/vfio/12 "$PROC/4242/fd/4"
	echo sh > "$PROC/77/comm"
	ln -s /dev/null "$PROC/77/fd/0"
	export VGSP_SMI_SYSFS=$SYS VGSP_SMI_DEBUGFS=$DBG VGSP_SMI_PROC=$PROC
}

# mkpci BDF VENDOR DEVICE CLASS NUMA DRIVER: what libpci's sysfs method reads
mkpci() {
	_d=$SYS/devices/pci0000:00/$1
	mkdir -p "$_d"
	echo "0x$2" > "$_d/vendor"
	echo "0x$3" > "$_d/device"
	echo "0x$4" > "$_d/class"
	echo "$5" > "$_d/numa_node"
	echo 0 > "$_d/irq"
	: > "$_d/resource"
	# 64 bytes of config space: ids, class (rev 0xa1), header type 0
	_v=$2 _dv=$3 _c=$4
	printf "\\x${_v#??}\\x${_v%??}\\x${_dv#??}\\x${_dv%??}\\x00\\x00\\x10\\x00\\xa1\\x${_c#????}\\x$(echo "$_c" | cut -c3-4)\\x${_c%????}" > "$_d/config"
	head -c 52 /dev/zero >> "$_d/config"
	[ -z "$6" ] || ln -s ../../../bus/pci/drivers/$6 "$_d/driver"
	ln -s ../../../devices/pci0000:00/$1 "$SYS/bus/pci/devices/$1"
}

run() {  # NAME ARGS...: stdout to $T/NAME.out, stderr to $T/NAME.err, exit code in RC
	_n=$1; shift
	"$SMI" "$@" > "$T/$_n.out" 2> "$T/$_n.err"
	RC=$?
}

# ---- listing ------------------------------------------------------------------
mktree
run list
eq list.exit "$RC" 0
eq list.stderr_empty "$(cat "$T/list.err")" ""
has list.gpu "$T/list.out" '^  0000:41:00\.0 +10de:2330 +0302 +nvidia +1 '
has list.gpu2_no_driver "$T/list.out" '^  0000:42:00\.0 +10de:2331 +0302 +- +- '
hasnt list.only_nvidia "$T/list.out" '8086|00:1f\.0'
has list.module "$T/list.out" 'vgsp.ko: loaded \(backend sim, phys_gpu none, fb_budget_gib 80, max_instances 16\)'
has list.parent "$T/list.out" '^  vgsp \(vgsp\)  backend sim  phys_gpu none  FB used 30 of 80 GiB'
has list.type10 "$T/list.out" '^    vgsp-h100-10g +H100-SXM5-10GB +10 +8 +6 +1$'
has list.type80 "$T/list.out" '^    vgsp-h100-80g +H100-SXM5-80GB +80 +1 +0 +0$'
has list.inst1 "$T/list.out" "^  $U1 vgsp\\.ko +h100-10g +yes +msix +4242\\(qemu-system-x86\\) +535\\.261\\.03 +330 +330 +1\$"
has list.inst2 "$T/list.out" "^  $U2 vgsp\\.ko +h100-20g +no +none +- +- +330 +330 +1\$"

run listj --json
eq listj.exit "$RC" 0
schema listj.schema list "$T/listj.out"
eq listj.gpus "$(jget .gpus "$T/listj.out")" 2
eq listj.gpu.bdf "$(jget '.gpus[0].bdf' "$T/listj.out")" 0000:41:00.0
eq listj.gpu.numa "$(jget '.gpus[0].numa_node' "$T/listj.out")" 1
eq listj.gpu.driver "$(jget '.gpus[0].driver' "$T/listj.out")" nvidia
eq listj.gpu2.driver "$(jget '.gpus[1].driver' "$T/listj.out")" null
eq listj.parent.types "$(jget '.parents[0].types' "$T/listj.out")" 4
eq listj.type.fb_gib "$(jget '.parents[0].types[1].fb_gib' "$T/listj.out")" 20
eq listj.type.avail "$(jget '.parents[0].types[1].available_instances' "$T/listj.out")" 3
eq listj.inst.n "$(jget .instances "$T/listj.out")" 2
eq listj.inst.type "$(jget '.instances[0].mdev_type' "$T/listj.out")" vgsp-h100-10g
eq listj.inst.group "$(jget '.instances[0].iommu_group' "$T/listj.out")" 12
eq listj.inst.holder "$(jget '.instances[0].holders[0].pid' "$T/listj.out")" 4242
eq listj.inst.open "$(jget '.instances[0].open' "$T/listj.out")" true
eq listj.inst2.open "$(jget '.instances[1].open' "$T/listj.out")" false
eq listj.inst2.holders "$(jget '.instances[1].holders' "$T/listj.out")" 0
eq listj.inst2.guest "$(jget '.instances[1].guest_driver' "$T/listj.out")" null
eq listj.inst.views_counters "$(jget '.instances[0].views.counters.fields.cfg_reads' "$T/listj.out")" 220
eq listj.error "$(jget .error "$T/listj.out")" null

run list1 -i 8c3f6a10-2222
eq list1.exit "$RC" 0
hasnt list1.filtered "$T/list1.out" "$U1"
has list1.kept "$T/list1.out" "$U2"

# ---- -q -----------------------------------------------------------------------
run q -q -i "$U1"
eq q.exit "$RC" 0
has q.header "$T/q.out" "^==== $U1  \\(vgsp\\.ko, h100-10g, $DBG/vgsp/$U1\\)\$"
for v in counters info bar0_unknown mm gsp_state gsp_rpc gsp_latency gsp_controls gsp_queue rpc_log; do
	has "q.view.$v" "$T/q.out" "^  $v\$"
done
has q.kv "$T/q.out" '^    cfg_reads +: 220$'
has q.table "$T/q.out" '^    function +name +req +ok +err$'
has q.table_row "$T/q.out" '^    76 +GSP_RM_CONTROL +171 +171 +0$'
has q.unknown_row "$T/q.out" '^    0x110094 +463 +0$'
has q.open "$T/q.out" '^    open +: 1$'

run qj -q --json -i "$U1"
eq qj.exit "$RC" 0
schema qj.schema query "$T/qj.out"
schema qj.schema_root "" "$T/qj.out"
eq qj.views "$(jget '.instances[0].views' "$T/qj.out")" 10
eq qj.rpc_row "$(jget '.instances[0].views.gsp_rpc.rows[0].name' "$T/qj.out")" SET_GUEST_SYSTEM_INFO
eq qj.rpc_cols "$(jget '.instances[0].views.gsp_rpc.columns[2]' "$T/qj.out")" req
eq qj.ctrl_untracked "$(jget '.instances[0].views.gsp_controls.fields.untracked' "$T/qj.out")" 0
eq qj.hex_is_string "$(jget '.instances[0].views.gsp_state.fields.fsp_last_nvdm' "$T/qj.out")" 0x14
eq qj.unknown_offset "$(jget '.instances[0].views.bar0_unknown.rows[0].offset' "$T/qj.out")" 0x1182cc

run qall -q --json
eq qall.exit "$RC" 0
eq qall.n "$(jget .instances "$T/qall.out")" 2

# ---- vgsp-vfu stats (the real file of the rung-1 run) ----------------------------
run vl --vfu-stats "$STATS"
eq vfu.list.exit "$RC" 0
has vfu.list.both "$T/vl.out" "^  $U1 vgsp\\.ko "
has vfu.list.vfu "$T/vl.out" "^  $VFU_UUID vgsp-vfu +h100-10g +- +none +- +535\\.261\\.03 +330 +330 +1\$"
run vlj --json --vfu-stats "$STATS"
schema vfu.list.schema list "$T/vlj.out"
eq vfu.list.frontend "$(jget '.instances[2].frontend' "$T/vlj.out")" vgsp-vfu
eq vfu.list.source "$(jget '.instances[2].source' "$T/vlj.out")" "$STATS"
run vq -q --json --vfu-stats "$STATS" -i 56677370
eq vfu.q.exit "$RC" 0
schema vfu.q.schema query "$T/vq.out"
eq vfu.q.msg "$(jget '.instances[0].views.vfu.rows[8].msg' "$T/vq.out")" REGION_WRITE
eq vfu.q.msg_count "$(jget '.instances[0].views.vfu.rows[8].count' "$T/vq.out")" 387620
eq vfu.q.bytes_in "$(jget '.instances[0].views.vfu.fields.bytes_in' "$T/vq.out")" 13105969
# vgsp-vfu alone: no vgsp.ko is fine
VGSP_SMI_SYSFS=$T/empty-sys VGSP_SMI_DEBUGFS=$T/empty-dbg "$SMI" --vfu-stats "$STATS" > "$T/vo.out" 2> "$T/vo.err"
eq vfu.only.exit "$?" 0
run vmiss --vfu-stats "$T/no-such-stats"
eq vfu.missing.exit "$RC" 5
one_error vfu.missing.line "$T/vmiss.err" "cannot read vgsp-vfu stats $T/no-such-stats: No such file"
echo "not a stats file" > "$T/junk"
run vjunk --vfu-stats "$T/junk"
eq vfu.junk.exit "$RC" 1
one_error vfu.junk.line "$T/vjunk.err" "is not a vgsp-vfu stats file"

# A live vgsp-vfu: VGSP_VFU, build/vfu/vgsp-vfu, the rung-1 rig's cached
# build, or else one built here (make -C userspace/vfu).
VFU=${VGSP_VFU:-$ROOT/build/vfu/vgsp-vfu}
[ -x "$VFU" ] || VFU=$(ls -t "$ROOT"/.cache/guest/vfu-*/vgsp-vfu 2>/dev/null | head -n 1)
if [ -z "$VFU" ] || [ ! -x "$VFU" ]; then	# none yet (fresh clone): build it
	VFU=$ROOT/build/vfu/vgsp-vfu
	make -s -C "$ROOT/userspace/vfu" > "$T/vfu-build.log" 2>&1 || VFU_BUILD_FAILED=1
fi
if [ -n "${VFU_BUILD_FAILED:-}" ]; then
	skip vfu.live "make -C userspace/vfu failed: $(tail -n 2 "$T/vfu-build.log" | tr '\n' ' ')"
elif [ -x "$VFU" ]; then
	"$VFU" --socket "$T/vfu.sock" --stats "$T/live.stats" --uuid 11111111-2222-4333-8444-555555555555 \
		> "$T/vfu.log" 2>&1 &
	VFU_PID=$!
	for _i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$T/live.stats" ] && break; sleep 0.2; done
	run live -q --json --vfu-stats "$T/live.stats" -i 11111111
	eq vfu.live.exit "$RC" 0
	schema vfu.live.schema query "$T/live.out"
	eq vfu.live.uuid "$(jget '.instances[0].uuid' "$T/live.out")" 11111111-2222-4333-8444-555555555555
	run livedm dmon --json -d 0.2 -c 2 --vfu-stats "$T/live.stats" -i 11111111
	eq vfu.live.dmon.exit "$RC" 0
	schema vfu.live.dmon.schema dmon "$T/livedm.out" --lines
	kill "$VFU_PID" 2>/dev/null; wait "$VFU_PID" 2>/dev/null; VFU_PID=
else
	skip vfu.live "no vgsp-vfu built (make -C userspace/vfu)"
fi

# ---- dmon -------------------------------------------------------------------------
# The hook bumps U1's counters before each sample: +100 BAR0 reads, +10 RPCs
# and doorbells, +1 error (dma_errors) per interval.
cat > "$T/bump.sh" <<EOF
[ "\$VGSP_SMI_HOOK_POINT" = sample ] || exit 0
n=\$((VGSP_SMI_HOOK_N + 1))
d=$DBG/vgsp/$U1
awk -v n=\$n '\$1 == "bar0_reads" { \$2 = 2137 + 100 * n } \$1 == "dma_errors" { \$2 = n } { print }' $T/counters.0 > \$d/counters
awk -v n=\$n '\$1 == "msgs_rx" { \$2 = 330 + 10 * n } \$1 == "doorbells" { \$2 = 330 + 10 * n } { print }' $T/gsp_state.0 > \$d/gsp_state
EOF
cp "$DBG/vgsp/$U1/counters" "$T/counters.0"
cp "$DBG/vgsp/$U1/gsp_state" "$T/gsp_state.0"
VGSP_SMI_TEST_HOOK="sh $T/bump.sh" "$SMI" dmon --json -i "$U1" -d 0.2 -c 3 > "$T/dm.out" 2> "$T/dm.err"
eq dmon.json.exit "$?" 0
eq dmon.json.lines "$(wc -l < "$T/dm.out")" 3
schema dmon.json.schema dmon "$T/dm.out" --lines
sed -n 2p "$T/dm.out" > "$T/dm2.json"
eq dmon.delta.bar0 "$(jget .deltas.bar0_accesses "$T/dm2.json")" 100
eq dmon.delta.rpcs "$(jget .deltas.rpcs "$T/dm2.json")" 10
eq dmon.delta.doorbells "$(jget .deltas.doorbells "$T/dm2.json")" 10
eq dmon.delta.ce_bytes "$(jget .deltas.ce_bytes "$T/dm2.json")" null
eq dmon.errors "$(jget .errors "$T/dm2.json")" 1
eq dmon.sample "$(jget .sample "$T/dm2.json")" 2
_r=$(jget .rpcs_per_s "$T/dm2.json") _i=$(jget .interval_s "$T/dm2.json")
if awk -v r="$_r" -v i="$_i" 'BEGIN { d = r * i - 10; exit !(d < 0.001 && d > -0.001 && i >= 0.19 && i < 2) }'; then
	pass dmon.rate
else
	fail dmon.rate "rpcs_per_s $_r over interval $_i is not 10 per interval"
fi
cp "$T/counters.0" "$DBG/vgsp/$U1/counters"
cp "$T/gsp_state.0" "$DBG/vgsp/$U1/gsp_state"
run dmt dmon -d 0.1 -c 2
eq dmon.text.exit "$RC" 0
has dmon.text.header "$T/dmt.out" '^# uuid +frontend +rpc/s +db/s +bar0/s +dma/s +irq/s +ceB/s +launch/s +err$'
eq dmon.text.lines "$(grep -c '^  8c3f6a10 vgsp\.ko ' "$T/dmt.out")" 4
has dmon.text.zero "$T/dmt.out" '^  8c3f6a10 vgsp\.ko +0\.0 +0\.0 +0\.0 +0\.0 +0\.0 +- +- +0$'

# ---- bad states ----------------------------------------------------------------------
# An instance removed between the walk and the read: the listing walks again.
cat > "$T/rm2.sh" <<EOF
[ "\$VGSP_SMI_HOOK_POINT" = scan ] && [ "\$VGSP_SMI_HOOK_N" = 0 ] || exit 0
rm -rf $SYS/bus/mdev/devices/$U2 $SYS/devices/virtual/vgsp/vgsp/$U2 $DBG/vgsp/$U2
EOF
VGSP_SMI_TEST_HOOK="sh $T/rm2.sh" "$SMI" --json > "$T/rm.out" 2> "$T/rm.err"
eq removed.list.exit "$?" 0
eq removed.list.n "$(jget .instances "$T/rm.out")" 1
eq removed.list.kept "$(jget '.instances[0].uuid' "$T/rm.out")" "$U1"
schema removed.list.schema list "$T/rm.out"
mktree
VGSP_SMI_TEST_HOOK="sh $T/rm2.sh" "$SMI" -q -i "$U2" > "$T/rmq.out" 2> "$T/rmq.err"
eq removed.q.exit "$?" 5
one_error removed.q.line "$T/rmq.err" "instance $U2 was removed while being read"
mktree
run nf -q -i 00000000-dead
eq notfound.exit "$RC" 5
one_error notfound.line "$T/nf.err" "no instance 00000000-dead"
run nfj -q --json -i 00000000-dead
schema notfound.json.schema query "$T/nfj.out"
eq notfound.json.code "$(jget .error.exit_code "$T/nfj.out")" 5
# removed while dmon watches it
cat > "$T/rm1.sh" <<EOF
[ "\$VGSP_SMI_HOOK_POINT" = sample ] && [ "\$VGSP_SMI_HOOK_N" = 1 ] || exit 0
rm -rf $SYS/bus/mdev/devices/$U1 $SYS/devices/virtual/vgsp/vgsp/$U1 $DBG/vgsp/$U1
EOF
VGSP_SMI_TEST_HOOK="sh $T/rm1.sh" "$SMI" dmon -i "$U1" -d 0.1 -c 5 > "$T/dmrm.out" 2> "$T/dmrm.err"
eq removed.dmon.exit "$?" 5
one_error removed.dmon.line "$T/dmrm.err" "instance $U1 was removed while being read"
eq removed.dmon.lines_before "$(grep -c '^  8c3f6a10' "$T/dmrm.out")" 1
mktree
# module unloaded while dmon watches
cat > "$T/unload.sh" <<EOF
[ "\$VGSP_SMI_HOOK_POINT" = sample ] && [ "\$VGSP_SMI_HOOK_N" = 1 ] || exit 0
rm -rf $SYS/module/vgsp $SYS/bus/mdev/devices/* $SYS/devices/virtual/vgsp $SYS/class/mdev_bus/vgsp $DBG/vgsp
EOF
VGSP_SMI_TEST_HOOK="sh $T/unload.sh" "$SMI" dmon -d 0.1 -c 5 > "$T/dmun.out" 2> "$T/dmun.err"
eq unloaded.dmon.exit "$?" 3
one_error unloaded.dmon.line "$T/dmun.err" "vgsp was unloaded while .* was monitored"
# not loaded at all
run nl
eq notloaded.exit "$RC" 3
one_error notloaded.line "$T/nl.err" "vgsp is not loaded \\(no $SYS/module/vgsp\\)"
has notloaded.still_lists "$T/nl.out" '^  0000:41:00\.0 '
run nlq -q
eq notloaded.q.exit "$RC" 3
mktree
# debugfs not mounted: the sysfs half of the listing, then exit 4
mkdir -p "$T/nodebug"
VGSP_SMI_DEBUGFS=$T/nodebug "$SMI" > "$T/nd.out" 2> "$T/nd.err"
eq nodebugfs.list.exit "$?" 4
one_error nodebugfs.list.line "$T/nd.err" "debugfs is not mounted at $T/nodebug \\(mount -t debugfs none $T/nodebug\\)"
has nodebugfs.list.sysfs_half "$T/nd.out" "^  $U1 vgsp\\.ko +h100-10g +- +- +4242"
VGSP_SMI_DEBUGFS=$T/nodebug "$SMI" --json > "$T/ndj.out" 2> "$T/ndj.err"
schema nodebugfs.json.schema list "$T/ndj.out"
eq nodebugfs.json.code "$(jget .error.exit_code "$T/ndj.out")" 4
eq nodebugfs.json.counters_null "$(jget '.instances[0].rpcs' "$T/ndj.out")" null
VGSP_SMI_DEBUGFS=$T/nodebug "$SMI" -q -i "$U1" > "$T/ndq.out" 2> "$T/ndq.err"
eq nodebugfs.q.exit "$?" 4
one_error nodebugfs.q.line "$T/ndq.err" "debugfs is not mounted"
VGSP_SMI_DEBUGFS=$T/nodebug "$SMI" dmon -c 1 > "$T/ndd.out" 2> "$T/ndd.err"
eq nodebugfs.dmon.exit "$?" 4
# permission denied: debugfs is root-only; run as nobody against a 0700 tree
chmod 700 "$DBG"
chmod 755 "$T" "$T/tree" "$SYS" 2>/dev/null
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$SMI" 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups env VGSP_SMI_SYSFS="$SYS" \
		VGSP_SMI_DEBUGFS="$DBG" VGSP_SMI_PROC="$PROC" "$SMI" -q -i "$U1" > "$T/perm.out" 2> "$T/perm.err"
	eq permission.q.exit "$?" 4
	one_error permission.q.line "$T/perm.err" "permission denied reading $DBG/vgsp.* \\(debugfs needs root\\)"
elif [ "$(id -u)" != 0 ]; then
	"$SMI" -q -i "$U1" > "$T/perm.out" 2> "$T/perm.err"
	eq permission.q.exit "$?" 0
	skip permission "not root: the tree is our own, so it stays readable"
else
	skip permission "no setpriv, or nobody cannot run $SMI"
fi
chmod 755 "$DBG"
# usage errors: exit 2, one line
run u1 --bogus;        eq usage.unknown.exit "$RC" 2; one_error usage.unknown.line "$T/u1.err" "unknown option '--bogus'"
run u2 dmon -d 0;      eq usage.delay.exit "$RC" 2;   one_error usage.delay.line "$T/u2.err" "-d wants seconds"
run u3 -d 1;           eq usage.dmon_only.exit "$RC" 2; one_error usage.dmon_only.line "$T/u3.err" "dmon options"
run u4 -q dmon;        eq usage.order.exit "$RC" 2;   one_error usage.order.line "$T/u4.err" "dmon goes first"
run u5 dmon -c x;      eq usage.count.exit "$RC" 2
run u6 -i;             eq usage.noarg.exit "$RC" 2;   one_error usage.noarg.line "$T/u6.err" "needs an argument"
run h --help;          eq usage.help.exit "$RC" 0;    has usage.help.text "$T/h.out" '^exit: 0 ok'

# ---- docs/deploy.md's recipes ---------------------------------------------------------------
. "$HERE/deploy.sh"

echo "$P passed, $F failed"
[ "$F" = 0 ]
