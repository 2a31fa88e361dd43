#!/bin/sh
# make-bundle.sh — pack the stock-guest rig for a machine without Debian's packages (the H200
# device machine: Ubuntu, no QEMU, no zstd CLI), as ONE directory that travels with the tree
# in one device call (tree + bundle under the call's 64 MiB):
#   DIR/qemu.tar.gz   QEMU 11.1 (the rig's build) with its ld.so, libraries and the x86
#                     firmware it loads; gzip, because gzip is the one decompressor every
#                     Debian/Ubuntu has (Essential); QEMU_TAR=xz|zstd picks another (smaller,
#                     but the device machine then needs that tool)
#   DIR/vmlinuz       the guest kernel
#   DIR/initrd.zst    the guest initramfs (NVIDIA 535 modules, libcuda, cudacheck, ...), zstd:
#                     the guest kernel unpacks it, the host never does. Its GSP firmware file
#                     is a stand-in (scripts/guest/fw-standin.c): the real gsp_ga10x.bin with
#                     the 36 MiB .fwimage section zeroed, since the emulated GSP never runs it
#                     (fw-standin.c says what the driver and the core read of the file). The
#                     local rig (build-guest.sh, run-rung1.sh) keeps the real file.
#   DIR/perf-harness  the perf harness the guest image carries (userspace/cuda, built by
#                     build-guest.sh): scripts/h200/ba.sh runs this very binary natively, so
#                     A and B of the B/A pair are the same executable
#   DIR/jansson.tar.gz  jansson's headers and static library (this machine's libjansson-dev),
#                     for perf-results/perf-validate/ab-report on a machine without them
#   DIR/MANIFEST      commit, sizes and sha256 of the files; scripts/h200/rung3.sh
#                     checks the carried files against it
# Stale parts of the old two-part layout (DIR/a, DIR/b) are removed: everything in DIR travels.
# usage: scripts/guest/make-bundle.sh DIR      (DIR inside the tree and ignored by git, e.g. .r3)
# Then, in one device call: carry [DIR], command "sh scripts/h200/rung3.sh --bundle DIR --out $OUT"
# (docs/rung1-guest.md, "The carried bundle").
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:?usage: make-bundle.sh DIR}
QEMU_TAR=${QEMU_TAR:-gzip}
cd "$VGSP_ROOT"
log() { echo "make-bundle: $*" >&2; }
case $QEMU_TAR in
gzip) ext=gz; comp="gzip -9 -n" ;;
xz) ext=xz; comp="xz -9e -T0" ;;
zstd) ext=zst; comp="zstd -19 -T0 -q" ;;
*) log "QEMU_TAR must be gzip, xz or zstd"; exit 2 ;;
esac
for t in cpio zstd gcc sha256sum; do
	command -v "$t" > /dev/null || { log "$t not found"; exit 1; }
done
eval "$(scripts/guest/build-guest.sh | grep -E '^(KERNEL|INITRD|NV_VER)=')"
QDIR=$(ls -d .cache/guest/qemu-* | tail -n 1)
[ -x "$QDIR/usr/bin/qemu-system-x86_64" ] || { log "no QEMU in .cache/guest (run a rung once)"; exit 1; }
R=$VGSP_ROOT/$QDIR
mkdir -p "$DIR"
rm -rf "$DIR/a" "$DIR/b" "$DIR"/qemu.tar.* "$DIR/vmlinuz" "$DIR/initrd.zst" "$DIR/MANIFEST" \
	"$DIR/perf-harness" "$DIR/jansson.tar.gz"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# --- QEMU with its own ld.so and libraries --------------------------------------------------
mkdir -p "$T/q/bin" "$T/q/lib" "$T/q/share/qemu"
cp "$R/usr/bin/qemu-system-x86_64" "$T/q/bin/"
LD=$R/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
"$LD" --library-path "$R/usr/lib/x86_64-linux-gnu:$R/lib/x86_64-linux-gnu:$R/usr/lib/x86_64-linux-gnu/pulseaudio" \
	--list "$R/usr/bin/qemu-system-x86_64" | awk '/=>/ { print $3 }' | xargs -I{} cp -L {} "$T/q/lib/"
cp -L "$LD" "$T/q/lib/"
cp -r "$R/usr/share/seabios" "$T/q/share/"
# q35 with -kernel and -nic none loads these (the rest of share/qemu is other targets' firmware).
for f in kvmvapic.bin linuxboot_dma.bin multiboot_dma.bin pvh.bin; do
	cp "$R/usr/share/qemu/$f" "$T/q/share/qemu/"
done
# shellcheck disable=SC2086 # comp is a command line
tar -C "$T" -cf - q | $comp > "$DIR/qemu.tar.$ext"

# --- guest kernel ---------------------------------------------------------------------------
cp "$KERNEL" "$DIR/vmlinuz"

# --- initramfs with the stand-in GSP firmware ------------------------------------------------
FWS=.cache/guest/fw-standin
if [ ! -x "$FWS" ] || [ -n "$(find scripts/guest/fw-standin.c -newer "$FWS")" ]; then
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$FWS" scripts/guest/fw-standin.c
fi
FW=lib/firmware/nvidia/$NV_VER/gsp_ga10x.bin
mkdir "$T/root"
(cd "$T/root" && cpio -idm --quiet) < "$INITRD"
[ -f "$T/root/$FW" ] || { log "no $FW in $INITRD"; exit 1; }
fwsize=$(wc -c < "$T/root/$FW")
"$FWS" "$T/root/$FW" "$T/fw" >&2
[ "$(wc -c < "$T/fw")" = "$fwsize" ] || { log "the stand-in's size differs"; exit 1; }
mv "$T/fw" "$T/root/$FW"
(cd "$T/root" && find . | cpio -o -H newc --quiet) | zstd -19 -T0 -q > "$DIR/initrd.zst"
rm -rf "$T/root"

# --- the perf harness and jansson for the B/A pair (scripts/h200/ba.sh) -----------------------
files="qemu.tar.$ext vmlinuz initrd.zst"
cp .cache/guest/perf/perf-harness "$DIR/perf-harness"
files="$files perf-harness"
jv=$(dpkg-query -W -f '${Version}' libjansson-dev 2>/dev/null || true)
if [ -n "$jv" ] && [ -f /usr/include/jansson.h ] && [ -f /usr/lib/x86_64-linux-gnu/libjansson.a ]; then
	mkdir -p "$T/j/usr/include" "$T/j/usr/lib/x86_64-linux-gnu"
	cp /usr/include/jansson.h /usr/include/jansson_config.h "$T/j/usr/include/"
	cp /usr/lib/x86_64-linux-gnu/libjansson.a "$T/j/usr/lib/x86_64-linux-gnu/"
	tar -C "$T/j" --owner=0 --group=0 --mtime=@0 -cf - usr | gzip -9 -n > "$DIR/jansson.tar.gz"
	files="$files jansson.tar.gz"
else
	log "no libjansson-dev here: the bundle has no jansson.tar.gz (ba.sh then needs the device's own)"
fi

# --- manifest and sizes ---------------------------------------------------------------------
{
	echo "bundle made $(date -u +%FT%TZ) from $(git rev-parse --short=12 HEAD 2>/dev/null || echo '?')"
	echo "guest driver $NV_VER; $FW is a stand-in (.fwimage zeroed, scripts/guest/fw-standin.c)"
	echo "qemu: $("$LD" --library-path "$T/q/lib" "$T/q/bin/qemu-system-x86_64" --version | head -n 1)"
	echo "perf-harness: userspace/cuda as the guest image carries it${jv:+; jansson.tar.gz: libjansson-dev $jv}"
	for f in $files; do
		echo "file $f $(wc -c < "$DIR/$f") $(sha256sum "$DIR/$f" | cut -d' ' -f1)"
	done
} > "$DIR/MANIFEST"
cat "$DIR/MANIFEST"
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
bundle=$(du -cb "$DIR" | tail -n 1 | cut -f1)
# What a device call carries besides the bundle: tracked and untracked-but-not-ignored files.
tree=$(git ls-files -z --cached --others --exclude-standard | du -cb --files0-from=- 2>/dev/null |
	tail -n 1 | cut -f1)
for f in $files; do echo "  $f: $(mib "$(wc -c < "$DIR/$f")")"; done
echo "bundle $DIR: $(mib "$bundle"); tree: $(mib "$tree"); carried in all: $(mib $((bundle + tree))) (limit 64 MiB)"
[ $((bundle + tree)) -lt $((60 * 1048576)) ] || log "WARNING: tree + bundle is within 4 MiB of the 64 MiB limit"
