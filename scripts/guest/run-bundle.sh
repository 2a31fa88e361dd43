#!/bin/sh
# run-bundle.sh — the stock-guest rig on a machine that has none of Debian's packages (the
# H200 device machine: Ubuntu, no QEMU, no apt archive): QEMU, the guest kernel and the guest
# initramfs come as files made here by scripts/guest/make-bundle.sh; vgsp-vfu is built on the
# spot from this tree (scripts/guest/build-vfu.sh worktree). Same machine, device and kernel
# arguments as run-rung1.sh, so a verdict means the same thing.
#
# usage: scripts/guest/run-bundle.sh --qemu-tar F --kernel F --initrd F --out DIR
#                                    [--rung2 [--cudacheck-args "ARGS"]] [--timeout S]
# --qemu-tar: qemu.tar.zst (QEMU with its own ld.so and libraries, run through that ld.so)
# --initrd: the guest initramfs, zstd-compressed (the guest kernel unpacks it)
# Writes DIR/{console.txt,vfu-stderr.log,vfu-stats.txt,cmd.txt}; the last line is
# "RUNG <n> vfio-user-bundle <guest driver version> PASS|FAIL: <evidence>"; exit 0 on PASS.
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$VGSP_ROOT"
QTAR="" KERNEL="" INITRD="" OUT="" RUNG=1 CCARGS="" TMO=900
while [ $# -gt 0 ]; do
	case $1 in
	--qemu-tar) QTAR=$2; shift 2 ;;
	--kernel) KERNEL=$2; shift 2 ;;
	--initrd) INITRD=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--rung2) RUNG=2; shift ;;
	--cudacheck-args) CCARGS=$2; shift 2 ;;
	--timeout) TMO=$2; shift 2 ;;
	*) echo "run-bundle: unknown argument $1" >&2; exit 2 ;;
	esac
done
NV_VER=535.261.03
fail() { echo "run-bundle: $*" >&2; echo "RUNG $RUNG vfio-user-bundle $NV_VER FAIL: $*"; exit 1; }
for f in "$QTAR" "$KERNEL" "$INITRD"; do [ -f "$f" ] || fail "missing input '$f'"; done
[ -n "$OUT" ] || fail "--out DIR is required"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

Q=$(mktemp -d)
zstd -d -q -c "$QTAR" | tar -x -C "$Q" || fail "cannot unpack $QTAR"
QEMU="$Q/q/lib/ld-linux-x86-64.so.2 --library-path $Q/q/lib $Q/q/bin/qemu-system-x86_64 -L $Q/q/share/qemu -L $Q/q/share/seabios"
# shellcheck disable=SC2086 # QEMU is a command line
QVER=$($QEMU --version | head -n 1) || fail "the carried QEMU does not run here"

VFU_OUT=$(scripts/guest/build-vfu.sh worktree) || fail "vgsp-vfu did not build"
VFU=$(echo "$VFU_OUT" | sed -n 1p)
SOCK=$OUT/vfu.sock
rm -f "$SOCK"
"$VFU" --socket "$SOCK" --profile h100-10g --stats "$OUT/vfu-stats.txt" 2>"$OUT/vfu-stderr.log" &
VPID=$!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || fail "vgsp-vfu did not listen (see vfu-stderr.log)"

APPEND="console=ttyS0 panic=-1 oops=panic loglevel=7 rung1.cuinit=0"
[ "$RUNG" = 2 ] && APPEND="$APPEND rung2=1 rung2.smwork=refused"
[ -n "$CCARGS" ] && APPEND="$APPEND rung2.args=$(echo "$CCARGS" | tr ' ' ',')"
DEV='{"driver":"vfio-user-pci","socket":{"path":"'$SOCK'","type":"unix"},"bus":"rp0"}'
cat > "$OUT/cmd.txt" <<EOC
date: $(date -u +%FT%TZ)
host: $(uname -r) ($(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")), $(nproc) CPUs
qemu: carried bundle ($QVER)
vgsp-vfu: built here from the tree ($(git rev-parse --short=12 HEAD 2>/dev/null || echo '?')), profile h100-10g
append: $APPEND
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
echo "boot+run: $(($(date +%s) - t0)) s (qemu rc=$rc)" >> "$OUT/cmd.txt"
i=0
while kill -0 "$VPID" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill "$VPID" 2>/dev/null || true
wait "$VPID" 2>/dev/null || true
rm -rf "$Q"
tr -d '\r' < "$OUT/console.log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' > "$OUT/console.txt"
rm -f "$OUT/console.log" "$SOCK"
sed -i "s|$VGSP_ROOT/||g; s|$OUT/||g" "$OUT/console.txt" "$OUT/vfu-stderr.log" "$OUT/cmd.txt"
verdict=$(grep -a 'VERDICT' "$OUT/console.txt" | tail -n 1 | sed 's/.*VERDICT //')
[ -n "$verdict" ] || verdict="FAIL: no verdict (qemu rc=$rc)"
echo "RUNG $RUNG vfio-user-bundle $NV_VER $verdict"
case $verdict in PASS*) exit 0 ;; *) exit 1 ;; esac
