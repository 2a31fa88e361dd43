#!/bin/sh
# build-guest.sh — build the stock-driver guest for rung 1: a Debian 6.1 kernel (downloaded and
# unpacked, never installed), NVIDIA open kernel modules built from Debian's
# nvidia-open-kernel-source against that kernel, nvidia-smi/NVML/libcuda from non-free, the GSP
# firmware the driver requests, and a busybox initramfs whose /init loads nvidia.ko, runs
# nvidia-smi and prints a verdict. Every stage is cached by version under .cache/guest/.
# The driver version picks the Debian release its packages come from: 535.261.03 from bookworm,
# 550.163.01 from trixie (userspace, libc and busybox from that release too, so the binaries
# find the glibc they were linked against); the guest kernel is bookworm's 6.1 for both.
#
# usage: scripts/guest/build-guest.sh        prints "KERNEL=<path>", "INITRD=<path>" and
#                                            "NV_VER=<guest driver version>" at the end
# env:   NV_VER (535.261.03 or 550.163.01)  JOBS (nproc)
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$VGSP_ROOT/scripts/guest/apt-private.sh"
# Two rigs running at once must not unpack or build into the same tree.
mkdir -p "$GUEST_CACHE"; exec 9>"$GUEST_CACHE/.build-guest.lock"; flock 9
NV_VER=${NV_VER:-535.261.03}
JOBS=${JOBS:-$(nproc)}
log() { echo "build-guest: $*" >&2; }
now() { date +%s; }
# $1 newer than $2 (POSIX sh has no test -nt).
newer() { [ -n "$(find "$1" -prune -newer "$2" 2>/dev/null)" ]; }

case $NV_VER in
535.*) NV_REL=bookworm ;;
550.*) NV_REL=trixie ;;
*) log "no Debian release known for driver $NV_VER (535.* bookworm, 550.* trixie)"; exit 2 ;;
esac
# The driver's own universe (a separate one for trixie: .cache/guest/apt/trixie holds only
# main for QEMU). Its Debian revision is whatever that release ships (535: -1, 550: -2).
if [ "$NV_REL" != bookworm ]; then
	apt_setup "$NV_REL-nf" "$NV_REL $NV_REL-updates" "main contrib non-free non-free-firmware"
	apt_update
	NV_DEB=$(apt_ver nvidia-smi)
	case $NV_DEB in "$NV_VER"-*) ;; *)
		log "$NV_REL ships nvidia-smi ${NV_DEB:-none}, not $NV_VER"; exit 1 ;; esac
	NV_APT_OPTS=$APT_OPTS
fi
apt_setup bookworm "bookworm bookworm-updates" "main contrib non-free non-free-firmware"
apt_update
[ "$NV_REL" != bookworm ] || { NV_DEB=$NV_VER-1; NV_APT_OPTS=$APT_OPTS; }
KERNEL_APT_OPTS=$APT_OPTS

# --- 1. kernel -------------------------------------------------------------------------------
# shellcheck disable=SC2086 # APT_OPTS is a list of options
img=$(apt-cache $APT_OPTS depends linux-image-amd64 | awk '/Depends: linux-image-/ { print $2; exit }')
ABI=${img#linux-image-}; ABI=${ABI%-amd64}            # e.g. 6.1.0-50
KVER=$(apt_ver "$img")
KDIR="$GUEST_CACHE/kernel-$ABI"
if [ ! -e "$KDIR/.done" ]; then
	t0=$(now)
	# shellcheck disable=SC2086
	kbuild=$(apt-cache $APT_OPTS depends "linux-headers-$ABI-common" "linux-headers-$ABI-amd64" |
		awk '/Depends: linux-kbuild-/ { print $2; exit }')
	apt_fetch "$GUEST_CACHE/debs/kernel-$ABI" "$img" "linux-headers-$ABI-amd64" \
		"linux-headers-$ABI-common" "$kbuild"
	rm -rf "$KDIR"; mkdir -p "$KDIR"
	for d in "$GUEST_CACHE/debs/kernel-$ABI"/*.deb; do dpkg -x "$d" "$KDIR"; done
	# The amd64 headers' Makefile includes the common tree by absolute /usr/src path.
	sed -i "s|^include /usr/src/|include $KDIR/usr/src/|" "$KDIR/usr/src/linux-headers-$ABI-amd64/Makefile"
	touch "$KDIR/.done"
	log "kernel $img $KVER unpacked in $(( $(now) - t0 )) s"
fi
KREL=$(find "$KDIR/lib/modules" -mindepth 1 -maxdepth 1 -type d -exec basename {} \; | head -1)
VMLINUZ="$KDIR/boot/vmlinuz-$KREL"

# --- 2. nvidia.ko ----------------------------------------------------------------------------
NVDIR="$GUEST_CACHE/nvidia-$NV_VER-$KREL"
if [ ! -e "$NVDIR/.done" ]; then
	t0=$(now)
	APT_OPTS=$NV_APT_OPTS
	apt_fetch "$GUEST_CACHE/debs/nvidia-$NV_VER" "nvidia-open-kernel-source=$NV_DEB"
	APT_OPTS=$KERNEL_APT_OPTS
	src="$NVDIR/src"
	rm -rf "$NVDIR"; mkdir -p "$src"
	dpkg -x "$GUEST_CACHE/debs/nvidia-$NV_VER"/nvidia-open-kernel-source_*.deb "$NVDIR/pkg"
	tar -C "$src" -xJf "$NVDIR/pkg/usr/src/nvidia-open-kernel.tar.xz"
	kb=$(find "$src" -maxdepth 3 -name Kbuild | head -1)
	[ -n "$kb" ] || { log "no Kbuild in nvidia-open-kernel.tar.xz"; exit 1; }
	src=$(dirname "$kb")
	log "building nvidia.ko $NV_VER for $KREL with -j$JOBS (log: $NVDIR/build.log)"
	# Debian splits headers into common + amd64: SYSSRC is the source tree, SYSOUT the build tree.
	make -C "$src" -j"$JOBS" CC=gcc-12 \
		SYSSRC="$KDIR/usr/src/linux-headers-$ABI-common" \
		SYSOUT="$KDIR/usr/src/linux-headers-$ABI-amd64" \
		NV_EXCLUDE_KERNEL_MODULES="nvidia-drm nvidia-modeset nvidia-peermem" \
		modules >"$NVDIR/build.log" 2>&1 || { tail -30 "$NVDIR/build.log" >&2; exit 1; }
	for m in nvidia nvidia-uvm; do
		strip --strip-debug -o "$NVDIR/$m.ko" "$(find "$src" -name "$m.ko" | head -1)"
	done
	rm -rf "$NVDIR/pkg" "$NVDIR/src"
	echo "$(( $(now) - t0 ))" > "$NVDIR/build-seconds"
	touch "$NVDIR/.done"
	log "nvidia.ko built in $(cat "$NVDIR/build-seconds") s"
fi

# --- 3. guest userspace + firmware -----------------------------------------------------------
# libnvidia-ptxjitcompiler1: libcuda's PTX JIT (cuModuleLoadData of PTX, rung 2's cudacheck).
# The package list is the cache key: .done holds the list it was unpacked from, so adding a
# package here re-unpacks (a few seconds) without touching the other stages.
USR="$GUEST_CACHE/guest-user-$NV_VER"
USER_PKGS="nvidia-smi=$NV_DEB libnvidia-ml1=$NV_DEB libcuda1=$NV_DEB
 libnvidia-ptxjitcompiler1=$NV_DEB firmware-nvidia-gsp=$NV_DEB busybox-static libc6"
if [ "$(cat "$USR/.done" 2>/dev/null)" != "$USER_PKGS" ]; then
	t0=$(now)
	d="$GUEST_CACHE/debs/guest-user-$NV_VER"
	APT_OPTS=$NV_APT_OPTS
	# shellcheck disable=SC2086 # a list of packages
	apt_fetch "$d" $USER_PKGS
	APT_OPTS=$KERNEL_APT_OPTS
	rm -rf "$USR"; mkdir -p "$USR"
	for f in "$d"/*.deb; do dpkg -x "$f" "$USR"; done
	echo "$USER_PKGS" > "$USR/.done"
	log "guest userspace unpacked in $(( $(now) - t0 )) s"
fi
# trixie's packages are merged-/usr (firmware, libc and busybox under usr/ only): the same
# paths as bookworm's through two links.
for d in lib bin; do
	[ -e "$USR/$d" ] || [ ! -d "$USR/usr/$d" ] || ln -s "usr/$d" "$USR/$d"
done
[ -n "$(find "$USR/usr/lib/x86_64-linux-gnu" -name 'libnvidia-ptxjitcompiler.so.*' | head -1)" ] ||
	{ log "no libnvidia-ptxjitcompiler.so in libnvidia-ptxjitcompiler1"; exit 1; }
FW="lib/firmware/nvidia/$NV_VER/gsp_ga10x.bin"
[ -f "$USR/$FW" ] || { log "missing $FW in firmware-nvidia-gsp"; exit 1; }

# --- 4. initramfs ----------------------------------------------------------------------------
# Rebuilt when any input (this script, init, a guest program, the modules, the unpacked
# userspace) is newer than the cpio.
OUT="$GUEST_CACHE/initrd-$NV_VER-$KREL.cpio"
CUTEST="$GUEST_CACHE/cuinit-test"
CUCHECK="$GUEST_CACHE/cudacheck"
CUPROBE="$GUEST_CACHE/cuprobe"
R3CHECK="$GUEST_CACHE/rung3check"
NVTRACE="$GUEST_CACHE/nvtrace.so"
# The perf harness (userspace/cuda: libc + libdl, libcuda dlopen'ed) for init.sh's perf=1 hook,
# built by its own Makefile (a no-op when nothing changed); make-bundle.sh carries the same
# binary for the native side of the B/A pair (scripts/h200/ba.sh).
PERFH="$GUEST_CACHE/perf/perf-harness"
make -s -C "$VGSP_ROOT/userspace/cuda" O="$GUEST_CACHE/perf" "$PERFH" >&2 ||
	{ log "perf-harness did not build"; exit 1; }
if [ ! -e "$NVTRACE" ] || newer "$VGSP_ROOT/scripts/guest/nvtrace.c" "$NVTRACE"; then
	gcc -shared -fPIC -O2 -Wall -Wextra -Werror -o "$NVTRACE.tmp" \
		"$VGSP_ROOT/scripts/guest/nvtrace.c" -ldl && mv "$NVTRACE.tmp" "$NVTRACE"
fi
if [ ! -x "$CUTEST" ] || newer "$VGSP_ROOT/scripts/guest/cuinit.c" "$CUTEST"; then
	gcc -O2 -Wall -Wextra -Werror -o "$CUTEST" "$VGSP_ROOT/scripts/guest/cuinit.c" -ldl
fi
if [ ! -x "$CUCHECK" ] || newer "$VGSP_ROOT/scripts/guest/cudacheck.c" "$CUCHECK"; then
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$CUCHECK.tmp" \
		"$VGSP_ROOT/scripts/guest/cudacheck.c" -ldl && mv "$CUCHECK.tmp" "$CUCHECK"
fi
if [ ! -x "$CUPROBE" ] || newer "$VGSP_ROOT/scripts/guest/cuprobe.c" "$CUPROBE"; then
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$CUPROBE.tmp" \
		"$VGSP_ROOT/scripts/guest/cuprobe.c" -ldl && mv "$CUPROBE.tmp" "$CUPROBE"
fi
if [ ! -x "$R3CHECK" ] || newer "$VGSP_ROOT/scripts/guest/rung3check.c" "$R3CHECK"; then
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$R3CHECK.tmp" \
		"$VGSP_ROOT/scripts/guest/rung3check.c" -ldl && mv "$R3CHECK.tmp" "$R3CHECK"
fi
if [ ! -e "$OUT" ] || newer "$VGSP_ROOT/scripts/guest/init.sh" "$OUT" || newer "$0" "$OUT" ||
   newer "$NVDIR/.done" "$OUT" || newer "$CUTEST" "$OUT" || newer "$CUCHECK" "$OUT" || newer "$CUPROBE" "$OUT" ||
   newer "$R3CHECK" "$OUT" || newer "$USR/.done" "$OUT" || newer "$NVTRACE" "$OUT" ||
   newer "$PERFH" "$OUT" || newer "$VGSP_ROOT/userspace/cuda/perf.sh" "$OUT" ||
   newer "$VGSP_ROOT/scripts/guest/console-emit.sh" "$OUT"; then
	t0=$(now)
	for t in cpio modinfo; do
		command -v "$t" > /dev/null ||
			{ log "$t not found (./scripts/stack_manager.sh setup installs it)"; exit 1; }
	done
	R="$GUEST_CACHE/initrd-root"
	rm -rf "$R"; mkdir -p "$R/bin" "$R/lib/vgsp" "$R/lib/firmware/nvidia/$NV_VER" "$R/lib64" \
		"$R/usr/lib/x86_64-linux-gnu" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/usr/bin"
	cp "$USR/bin/busybox" "$R/bin/busybox"
	cp "$VGSP_ROOT/scripts/guest/init.sh" "$R/init"; chmod +x "$R/init"
	cp "$NVDIR/nvidia.ko" "$NVDIR/nvidia-uvm.ko" "$R/lib/vgsp/"
	# nvidia.ko's in-kernel dependencies, deepest first (dpkg -x brings no
	# modules.dep, so walk modinfo's "depends" field).
	deps_of() {
		for d in $(modinfo -F depends "$1" | tr ',' ' '); do
			f=$(find "$KDIR/lib/modules/$KREL/kernel" -name "$d.ko" | head -1)
			[ -n "$f" ] || { log "dependency $d of $1 not found"; exit 1; }
			deps_of "$f"; echo "$f"
		done
	}
	: > "$R/lib/vgsp/load-order"
	for f in $(deps_of "$NVDIR/nvidia.ko" | awk '!seen[$0]++'); do
		cp "$f" "$R/lib/vgsp/"
		basename "$f" .ko >> "$R/lib/vgsp/load-order"
	done
	echo nvidia >> "$R/lib/vgsp/load-order"
	cp "$USR/$FW" "$R/$FW"
	cp "$USR/usr/lib/nvidia/current/nvidia-smi" "$R/usr/bin/"
	cp "$CUTEST" "$R/usr/bin/cuinit-test"
	cp "$CUCHECK" "$R/usr/bin/cudacheck"
	cp "$CUPROBE" "$R/usr/bin/cuprobe"
	cp "$R3CHECK" "$R/usr/bin/rung3check"
	cp "$NVTRACE" "$R/usr/lib/nvtrace.so"
	# perf=1 (init.sh): the harness, perf.sh (role=guest, --no-aggregate) and the console emitter;
	# build.txt names the tree the image was built from (the host's aggregation names its own)
	mkdir -p "$R/usr/share/vgsp-perf"
	cp "$PERFH" "$R/usr/bin/perf-harness"
	cp "$VGSP_ROOT/userspace/cuda/perf.sh" "$R/usr/share/vgsp-perf/perf.sh"
	cp "$VGSP_ROOT/scripts/guest/console-emit.sh" "$R/usr/bin/console-emit"
	chmod +x "$R/usr/bin/console-emit"
	{
		echo "commit=$(git -C "$VGSP_ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(
			[ -z "$(git -C "$VGSP_ROOT" status --porcelain -- userspace/cuda scripts/guest 2>/dev/null)" ] ||
			echo ' (plus uncommitted changes under userspace/cuda or scripts/guest)')"
		echo "perf_sh_sha256=$(sha256sum "$VGSP_ROOT/userspace/cuda/perf.sh" | cut -d' ' -f1)"
		echo "harness_sha256=$(sha256sum "$PERFH" | cut -d' ' -f1)"
	} > "$R/usr/share/vgsp-perf/build.txt"
	cp -a "$USR"/usr/lib/x86_64-linux-gnu/libnvidia-ml.so* "$USR"/usr/lib/x86_64-linux-gnu/libcuda.so* \
		"$R/usr/lib/x86_64-linux-gnu/" 2>/dev/null || true
	cp -a "$USR"/usr/lib/x86_64-linux-gnu/nvidia/current/* "$R/usr/lib/x86_64-linux-gnu/" 2>/dev/null || true
	for l in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1; do
		cp -L "$USR/lib/x86_64-linux-gnu/$l" "$R/usr/lib/x86_64-linux-gnu/$l"
	done
	ln -s ../usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$R/lib64/ld-linux-x86-64.so.2"
	ln -s usr/lib/x86_64-linux-gnu "$R/lib/x86_64-linux-gnu"
	echo "$NV_VER $KREL $(date -u +%FT%TZ)" > "$R/etc-version"
	(cd "$R" && find . | cpio -o -H newc --quiet) > "$OUT.tmp" ||
		{ log "cpio failed: the initramfs was not written"; exit 1; }
	mv "$OUT.tmp" "$OUT"
	rm -rf "$R"
	log "initramfs $(du -m "$OUT" | cut -f1) MiB in $(( $(now) - t0 )) s"
fi
echo "KERNEL=$VMLINUZ"
echo "INITRD=$OUT"
echo "NV_VER=$NV_VER"
