#!/bin/sh
# make-bundle.sh — pack the stock-guest rig for a machine without Debian's packages (the H200
# device machine), in two parts that each fit one device call's 64 MiB with the tree:
#   DIR/a/qemu.tar.zst   QEMU 11.1 (the rig's build) with its ld.so, libraries and firmware
#   DIR/a/vmlinuz        the guest kernel
#   DIR/b/initrd.zst     the guest initramfs (NVIDIA 535 modules, GSP firmware, libcuda,
#                        cudacheck), zstd-compressed: the guest kernel unpacks it
# Part a travels in one call and is unpacked outside the tree; part b travels in the next
# call (the machine stays warm between calls that follow each other closely).
# usage: scripts/guest/make-bundle.sh DIR      (DIR inside the tree and ignored by git, e.g. .r3)
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:?usage: make-bundle.sh DIR}
cd "$VGSP_ROOT"
eval "$(scripts/guest/build-guest.sh | grep -E '^(KERNEL|INITRD|NV_VER)=')"
QDIR=$(ls -d .cache/guest/qemu-* | tail -n 1)
[ -x "$QDIR/usr/bin/qemu-system-x86_64" ] || { echo "make-bundle: no QEMU in .cache/guest (run a rung once)" >&2; exit 1; }
R=$VGSP_ROOT/$QDIR
T=$(mktemp -d)
mkdir -p "$T/q/bin" "$T/q/lib" "$T/q/share/qemu" "$DIR/a" "$DIR/b"
cp "$R/usr/bin/qemu-system-x86_64" "$T/q/bin/"
LD=$R/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
"$LD" --library-path "$R/usr/lib/x86_64-linux-gnu:$R/lib/x86_64-linux-gnu:$R/usr/lib/x86_64-linux-gnu/pulseaudio" \
	--list "$R/usr/bin/qemu-system-x86_64" | awk '/=>/ { print $3 }' | xargs -I{} cp -L {} "$T/q/lib/"
cp -L "$LD" "$T/q/lib/"
cp -r "$R/usr/share/seabios" "$T/q/share/"
cp "$R"/usr/share/qemu/*.bin "$T/q/share/qemu/"
tar -C "$T" -cf - q | zstd -19 -T0 -q -f -o "$DIR/a/qemu.tar.zst"
rm -rf "$T"
cp "$KERNEL" "$DIR/a/vmlinuz"
zstd -12 -T0 -q -f "$INITRD" -o "$DIR/b/initrd.zst"
du -sh "$DIR/a" "$DIR/b"
