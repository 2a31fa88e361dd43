#!/bin/sh
# run-bundle.sh — the stock-guest rig on a machine that has none of Debian's packages (the
# H200 device machine: Ubuntu, no QEMU, no zstd CLI, no apt archive): QEMU, the guest kernel
# and the guest initramfs come as one directory made here by scripts/guest/make-bundle.sh;
# vgsp-vfu is built on the spot from this tree (scripts/guest/build-vfu.sh worktree) unless
# --vfu names a binary. Same machine, device and kernel arguments as run-rung1.sh, so a
# verdict means the same thing. Host tools used: sh, tar, gzip (xz/zstd only for a bundle
# packed with them), timeout, make/gcc when it builds vgsp-vfu.
#
# usage: scripts/guest/run-bundle.sh --bundle DIR --out DIR [--rung 1|2|3] [--timeout S]
#            [--cudacheck-args "ARGS"] [--sm-work refused|run] [--append "k=v ..."]
#            [--vfu BIN] [--vfu-args "ARGS"] [--profile ID] [--path NAME]
# --bundle DIR: DIR/qemu.tar.{gz,xz,zst}, DIR/vmlinuz, DIR/initrd.zst (or the three files by
#          --qemu-tar F --kernel F --initrd F)
# --rung 2 (= --rung2): rung2=1 (nvidia-uvm, cudacheck); --rung 3: rung 2 plus the guest
#          argument rung3=1 (init.sh's rung-3 hook). SM work: refused cleanly by default at
#          rung 2 (the sim backend has no SMs), run at rung 3; --sm-work overrides.
# --append: extra guest kernel arguments, space separated
# --vfu BIN: this vgsp-vfu instead of building one; --vfu-args: more vgsp-vfu options
#          (split on spaces; paths relative to the repository root)
# --path: the path word of the RUNG line (default vfio-user-bundle)
# Writes DIR/{console.txt,vfu-stderr.log,vfu-stats.txt,cmd.txt,summary.txt}; the last line is
# "RUNG <n> <path> <guest driver version> PASS|FAIL: <evidence>"; exit 0 on PASS.
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT"
QTAR="" KERNEL="" INITRD="" OUT="" RUNG=1 CCARGS="" TMO=900 XAPPEND="" VFU="" VFUARGS=""
PROFILE=h100-10g RPATH=vfio-user-bundle SMWORK=""
while [ $# -gt 0 ]; do
	case $1 in
	--bundle)
		for f in "$2"/qemu.tar.gz "$2"/qemu.tar.xz "$2"/qemu.tar.zst; do
			[ -f "$f" ] && QTAR=$f
		done
		KERNEL=$2/vmlinuz; INITRD=$2/initrd.zst; shift 2 ;;
	--qemu-tar) QTAR=$2; shift 2 ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--initrd) INITRD=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--rung2) RUNG=2; shift ;;
	--rung) RUNG=$2; shift 2 ;;
	--cudacheck-args) CCARGS=$2; shift 2 ;;
	--sm-work) SMWORK=$2; shift 2 ;;
	--append) XAPPEND=$2; shift 2 ;;
	--vfu) VFU=$2; shift 2 ;;
	--vfu-args) VFUARGS=$2; shift 2 ;;
	--profile) PROFILE=$2; shift 2 ;;
	--path) RPATH=$2; shift 2 ;;
	--timeout) TMO=$2; shift 2 ;;
	*) echo "run-bundle: unknown argument $1" >&2; exit 2 ;;
	esac
done
NV_VER=535.261.03
Q="" SD="" VPID=""
cleanup() {
	[ -z "$VPID" ] || kill "$VPID" 2>/dev/null || true
	rm -rf "$Q" "$SD"
}
trap cleanup EXIT
fail() { echo "run-bundle: $*" >&2; echo "RUNG $RUNG $RPATH $NV_VER FAIL: $*"; exit 1; }
case $RUNG in 1|2|3) ;; *) fail "--rung must be 1, 2 or 3" ;; esac
[ -n "$SMWORK" ] || { [ "$RUNG" = 3 ] && SMWORK=run || SMWORK=refused; }
for f in "$QTAR" "$KERNEL" "$INITRD"; do [ -f "$f" ] || fail "missing input '$f'"; done
[ -n "$OUT" ] || fail "--out DIR is required"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

Q=$(mktemp -d)
case $QTAR in
*.gz) dec="gzip -dc" ;;
*.xz) dec="xz -dc" ;;
*.zst) dec="zstd -dcq" ;;
*) fail "unknown compression of $QTAR" ;;
esac
command -v "${dec%% *}" > /dev/null || fail "${dec%% *} not found here for $QTAR (make the bundle with QEMU_TAR=gzip)"
# shellcheck disable=SC2086 # dec is a command line
$dec "$QTAR" | tar -x -C "$Q" || fail "cannot unpack $QTAR"
QEMU="$Q/q/lib/ld-linux-x86-64.so.2 --library-path $Q/q/lib $Q/q/bin/qemu-system-x86_64 -L $Q/q/share/qemu -L $Q/q/share/seabios"
# shellcheck disable=SC2086 # QEMU is a command line
QVER=$($QEMU --version | head -n 1) || fail "the carried QEMU does not run here"

if [ -z "$VFU" ]; then
	VFU_OUT=$(scripts/guest/build-vfu.sh worktree 2>"$OUT/build-vfu.log") ||
		fail "vgsp-vfu did not build ($(tail -n 1 "$OUT/build-vfu.log"); see build-vfu.log)"
	VFU=$(echo "$VFU_OUT" | sed -n 1p)
fi
[ -x "$VFU" ] || fail "no vgsp-vfu at $VFU"
# A unix socket path has at most 107 bytes: keep it out of a deep --out directory.
SD=$(mktemp -d /tmp/vfu.XXXXXX)
SOCK=$SD/vfu.sock
# shellcheck disable=SC2086 # VFUARGS is a list of options
"$VFU" --socket "$SOCK" --profile "$PROFILE" --stats "$OUT/vfu-stats.txt" $VFUARGS 2>"$OUT/vfu-stderr.log" &
VPID=$!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ] && kill -0 "$VPID" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || fail "vgsp-vfu did not listen ($(tail -n 1 "$OUT/vfu-stderr.log"); see vfu-stderr.log)"

APPEND="console=ttyS0 panic=-1 oops=panic loglevel=7 rung1.cuinit=0"
[ "$RUNG" -ge 2 ] && APPEND="$APPEND rung2=1 rung2.smwork=$SMWORK"
[ "$RUNG" = 3 ] && APPEND="$APPEND rung3=1"
[ -n "$CCARGS" ] && APPEND="$APPEND rung2.args=$(echo "$CCARGS" | tr ' ' ',')"
[ -n "$XAPPEND" ] && APPEND="$APPEND $XAPPEND"
DEV='{"driver":"vfio-user-pci","socket":{"path":"'$SOCK'","type":"unix"},"bus":"rp0"}'
cat > "$OUT/cmd.txt" <<EOC
date: $(date -u +%FT%TZ)
host: $(uname -r) ($(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")), $(nproc) CPUs
qemu: carried bundle ($QVER)
vgsp-vfu: $VFU ($(git rev-parse --short=12 HEAD 2>/dev/null || echo 'commit unknown')), profile $PROFILE${VFUARGS:+, args: $VFUARGS}
append: $APPEND
timeout: $TMO s
EOC
t0=$(date +%s)
rc=0
# shellcheck disable=SC2086 # QEMU is a command line
timeout "$TMO" $QEMU -accel tcg -cpu max -m 2G -smp 2 -nographic -no-reboot -nic none \
	-object memory-backend-memfd,id=mem,size=2G,share=on \
	-machine q35,memory-backend=mem \
	-device pcie-root-port,id=rp0 -device "$DEV" \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
	>"$OUT/console.log" 2>&1 || rc=$?
t_r=$(($(date +%s) - t0))
echo "boot+run: $t_r s (qemu rc=$rc)" >> "$OUT/cmd.txt"
# vgsp-vfu exits when QEMU disconnects; make sure it does.
i=0
while kill -0 "$VPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill "$VPID" 2>/dev/null || true
wait "$VPID" 2>/dev/null || true
VPID=""
tr -d '\r' < "$OUT/console.log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' > "$OUT/console.txt"
rm -f "$OUT/console.log"
sed -i "s|$VGSP_ROOT/||g; s|$OUT/||g; s|$SD/||g" "$OUT/console.txt" "$OUT/vfu-stderr.log" "$OUT/cmd.txt"
verdict=$(grep -a 'VERDICT' "$OUT/console.txt" | tail -n 1 | sed 's/.*VERDICT //')
# (lines of pure base64 are files the guest printed, scripts/guest/console-emit.sh: "Oops" can
# occur in them by chance)
crash=$(grep -a -v -E '^[A-Za-z0-9+/]{4,}=*$' "$OUT/console.txt" |
	grep -a -m1 -E 'Assertion failed: "|kernel BUG|BUG:|general protection fault|Oops|invalid opcode' ||
	grep -a -m1 'Kernel panic' "$OUT/console.txt" || true)
lastcc=$(grep -a '^cudacheck: ' "$OUT/console.txt" | tail -n 1)
[ -n "$verdict" ] || verdict="FAIL: no verdict (qemu rc=$rc${lastcc:+, last: $lastcc})"
[ -z "$crash" ] || verdict="FAIL: guest kernel crash: $crash"
{
	cat "$OUT/cmd.txt"
	echo "verdict: $verdict"
	echo "--- guest rung lines"
	grep -a -E '^rung[0-9]+:|^perf:|^perf\.sh:|^console-emit:|^cuinit:|^cudacheck:|^rung3check:|^GPU [0-9]+:|No devices' "$OUT/console.txt" |
		grep -a -v -e 'kernel log' || true
	echo "--- guest NVRM / nvidia-uvm / Xid lines (repeats dropped, first 40)"
	grep -a -v -E '^(dmesg|rung[0-9]+|perf|cudacheck): |^[A-Za-z0-9+/]{4,}=*$' "$OUT/console.txt" |
		grep -a -E 'NVRM|Xid|nvidia-uvm|uvm_' |
		sed 's/^\[ *[0-9.]*\] //' | awk '!seen[$0]++' | head -n 40
	echo "--- vgsp-vfu counters (non-zero)"
	sed -n '/^== counters/,/^== /p' "$OUT/vfu-stats.txt" 2>/dev/null | grep -v '^==' | awk '$2 != 0'
	echo "--- vgsp-vfu stderr (last 20 lines)"
	tail -n 20 "$OUT/vfu-stderr.log"
} > "$OUT/summary.txt"
rung="RUNG $RUNG $RPATH $NV_VER $verdict"
echo "$rung" >> "$OUT/summary.txt"
echo "$rung"
case $verdict in PASS*) exit 0 ;; *) exit 1 ;; esac
