#!/bin/sh
# demo-two.sh — two stock-driver guests sharing the vGPU core at the same time: two QEMU TCG
# guests (the rung-1 image of build-guest.sh: stock NVIDIA 535 open kernel modules and
# nvidia-smi), each on its own vgsp-vfu instance (sim backend, embedded h100-10g profile, its
# own instance UUID), started together. Each guest runs nvidia-smi -L and -q, then a small
# CUDA copy check (cudacheck, rung 2: cuInit, a context, allocations, HtoD/DtoH copies 4 KiB..
# 4 MiB verified byte for byte, pinned async copies on two streams; --iters 1 --max-mib 4
# --async-kib 256 keeps it quick); then both verdicts and each instance's counters side by side.
#
# usage: scripts/guest/demo-two.sh [--core COMMIT|worktree] [--timeout S] [--rung 1|2]
#        [--cudacheck-args "ARGS"]
# --rung 1: nvidia-smi -L/-q only (the rung-1 checks), as before rung 2 was green.
# Checks (one line each, "PASS name" / "FAIL name: why", then "N passed, N failed"):
#   two_guests.a.rungN, two_guests.b.rungN   each guest's rung-N verdict is PASS
#   two_guests.a.smi_q, two_guests.b.smi_q   (rung 2) nvidia-smi -q exited 0 in each guest
#   two_guests.concurrent                     the two guests ran at the same time (each
#                                             vgsp-vfu had its client while the other did)
#   two_guests.own_uuid                       each guest lists the UUID of its own instance
#   two_guests.own_counters                   each instance served exactly one client, and
#                                             did the guest's work (GSP RPCs, doorbells)
# Runs: .cache/guest/runs/<UTC stamp>-two/{guest-a,guest-b}/ (run-rung1.sh's files) and
# guest-{a,b}.log. Exit 0 only when every check passes.
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT"
CORE=HEAD TMO=600 RUNG=2 CCARGS="--iters 1 --max-mib 4 --async-kib 256"
while [ $# -gt 0 ]; do
	case $1 in
	--core) CORE=$2; shift 2 ;;
	--timeout) TMO=$2; shift 2 ;;
	--rung) RUNG=$2; shift 2 ;;
	--cudacheck-args) CCARGS=$2; shift 2 ;;
	*) echo "demo-two: unknown argument $1" >&2; exit 2 ;;
	esac
done
UA=56677370-0000-4000-8000-0000000000a1
UB=56677370-0000-4000-8000-0000000000b2
npass=0 nfail=0
ok() { echo "PASS $1"; npass=$((npass + 1)); }
ko() { _n=$1; shift; echo "FAIL $_n: $*"; nfail=$((nfail + 1)); }

# Build or fetch everything once, before the two runs start (they would wait on each
# other's locks otherwise, and the first start would not be a fair race).
echo "demo-two: preparing QEMU, the guest image and vgsp-vfu (cached after the first run)"
scripts/guest/qemu-vfu.sh >/dev/null 2>&1 || { echo "demo-two: qemu-vfu.sh failed" >&2; exit 1; }
scripts/guest/build-guest.sh >/dev/null 2>&1 || { echo "demo-two: build-guest.sh failed" >&2; exit 1; }
scripts/guest/build-vfu.sh "$CORE" >/dev/null || { echo "demo-two: build-vfu.sh failed" >&2; exit 1; }

BASE=.cache/guest/runs/$(date -u +%Y%m%dT%H%M%SZ)-two
mkdir -p "$BASE"
t0=$(date +%s)
case $RUNG in
1) set -- ;;
2) set -- --rung2 --cudacheck-args "$CCARGS" --append rung2.smiq=1 ;;
*) echo "demo-two: --rung wants 1 or 2" >&2; exit 2 ;;
esac
echo "demo-two: booting two guests at once (QEMU TCG, vfio-user-pci -> two vgsp-vfu instances)," \
	"rung $RUNG in each${1:+ (cudacheck $CCARGS)}"
scripts/guest/run-rung1.sh --core "$CORE" --timeout "$TMO" --run "$BASE/guest-a" --uuid "$UA" \
	"$@" >"$BASE/guest-a.log" 2>&1 &
pa=$!
scripts/guest/run-rung1.sh --core "$CORE" --timeout "$TMO" --run "$BASE/guest-b" --uuid "$UB" \
	"$@" >"$BASE/guest-b.log" 2>&1 &
pb=$!
ra=0 rb=0
wait "$pa" || ra=$?
wait "$pb" || rb=$?
t1=$(date +%s)

# Per guest: verdict, nvidia-smi lines.
own_a=0 own_b=0
for g in a b; do
	d=$BASE/guest-$g
	if [ $g = a ]; then u=$UA; else u=$UB; fi
	line=$(grep -a '^RUNG ' "$BASE/guest-$g.log" | tail -n 1)
	echo "--- guest $g (vgsp-vfu instance $u)"
	grep -a -E '^GPU [0-9]+:|nvidia-smi -[Lq] rc=|^    Product Name|^cudacheck: (summary|deviceName|copy\.(4KiB|4MiB) )' \
		"$d/console.txt" 2>/dev/null | sed 's/^/    /' || true
	echo "    $line"
	case $line in
	"RUNG $RUNG "*" PASS:"*) ok "two_guests.$g.rung$RUNG" ;;
	*) ko "two_guests.$g.rung$RUNG" "${line:-no RUNG line (see $BASE/guest-$g.log)}" ;;
	esac
	if [ "$RUNG" = 2 ]; then
		if grep -aq 'nvidia-smi -q rc=0 ' "$d/console.txt" 2>/dev/null; then ok "two_guests.$g.smi_q"
		else ko "two_guests.$g.smi_q" "no 'nvidia-smi -q rc=0' line"; fi
	fi
	if grep -aq "^GPU 0: .*(UUID: GPU-$u)" "$d/console.txt" 2>/dev/null; then
		if [ $g = a ]; then own_a=1; else own_b=1; fi
	fi
done
if [ "$own_a$own_b" = 11 ]; then ok two_guests.own_uuid
else ko two_guests.own_uuid "a guest does not list its own instance's UUID ($UA / $UB)"; fi

# Concurrency: each guest's boot+run interval from its summary, and the overlap.
ta=$(sed -n 's/.*boot+run \([0-9.]*\)s.*/\1/p' "$BASE/guest-a/summary.txt" 2>/dev/null | head -n 1)
tb=$(sed -n 's/.*boot+run \([0-9.]*\)s.*/\1/p' "$BASE/guest-b/summary.txt" 2>/dev/null | head -n 1)
sa=$(stat -c %Y "$BASE/guest-a/console.log" 2>/dev/null || echo 0)
sb=$(stat -c %Y "$BASE/guest-b/console.log" 2>/dev/null || echo 0)
# console.log's mtime is the guest's last output; boot+run is the QEMU run's length.
ov=$(echo "${ta:-0} ${tb:-0} $sa $sb" | awk '{ s1 = $3 - $1; s2 = $4 - $2; e1 = $3; e2 = $4;
	s = s1 > s2 ? s1 : s2; e = e1 < e2 ? e1 : e2; o = e - s; m = $1 < $2 ? $1 : $2;
	printf "%d %d", o < 0 ? 0 : o, m }')
# shellcheck disable=SC2086 # two numbers
set -- $ov
if [ "$2" -gt 0 ] && [ $(($1 * 100)) -ge $(($2 * 80)) ]; then
	ok two_guests.concurrent
else
	ko two_guests.concurrent "the runs overlapped ${1}s of the shorter ${2}s (want >= 80%)"
fi
echo "    guest a boot+run ${ta:-?} s, guest b ${tb:-?} s, overlap ${1} s; both done in $((t1 - t0)) s"

# Counters side by side.
sa=$BASE/guest-a/vfu-stats.txt sb=$BASE/guest-b/vfu-stats.txt
echo "--- counters per instance (vgsp-vfu --stats at exit)"
printf '    %-28s %14s %14s\n' counter "guest a" "guest b"
view() { sed -n "/^== $2\$/,/^== /p" "$1" 2>/dev/null | grep -v '^=='; }
for v in counters gsp_state channels vfu; do
	view "$sa" $v | awk -v v=$v 'NF == 2 && $2 ~ /^[0-9]+$/ { print v "." $1, $2 }' >"$BASE/.a"
	view "$sb" $v | awk -v v=$v 'NF == 2 && $2 ~ /^[0-9]+$/ { print v "." $1, $2 }' >"$BASE/.b"
	# the lines where either instance has a non-zero value
	awk 'NR == FNR { a[$1] = $2; order[++n] = $1; next } { b[$1] = $2 }
	     END { for (i = 1; i <= n; i++) { k = order[i]; if (a[k] != 0 || b[k] != 0)
		printf "    %-28s %14s %14s\n", k, a[k], b[k] } }' "$BASE/.a" "$BASE/.b"
done
rm -f "$BASE/.a" "$BASE/.b"
own=1
for s in "$sa" "$sb"; do
	c=$(view "$s" counters | awk '$1 == "opens" || $1 == "closes" { printf "%s", $2 }')
	m=$(view "$s" gsp_state | awk '$1 == "msgs_rx" { print $2 }')
	[ "$c" = 11 ] && [ "${m:-0}" -gt 10 ] || own=0
done
if [ "$own" = 1 ]; then ok two_guests.own_counters
else ko two_guests.own_counters "each instance should show one open/close and the guest's GSP RPCs"; fi
echo "demo-two: runs in $BASE (rc $ra / $rb)"
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
