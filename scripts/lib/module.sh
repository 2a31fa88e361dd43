# shellcheck shell=sh
# Build vgsp.ko for one unpacked test kernel: kernel/ is self-contained for
# Kbuild, so copy it to build/mod-<rel>/ and run the external-module build
# against that kernel's headers. Sets MODKO.

# module_source DIR: DIR becomes a fresh copy of kernel/ (stale objects from removed sources
# must not link); --head: the committed kernel/ only, others' uncommitted edits stay out.
module_source() {
	mkdir -p "$1"
	find "$1" -mindepth 1 -delete
	if [ "${VGSP_FROM_HEAD:-}" ]; then
		git -C "$ROOT" archive HEAD kernel | tar -x -C "$1" --strip-components=1 ||
			die "git archive HEAD kernel failed"
	else
		cp -R "$ROOT/kernel/." "$1/"
	fi
}

module_build() {
	[ -d "$ROOT/kernel" ] || die "no kernel/ directory in $ROOT"
	_md=$BUILD/mod-$KREL
	mkdir -p "$_md"
	module_source "$_md"
	log "module: building vgsp.ko for $KREL"
	if ! make -C "$KHDR" M="$_md" modules >"$_md/build.log" 2>&1; then
		grep -iE 'error|undefined' "$_md/build.log" | head -n 20 >&2
		die "module build failed for $KREL (log: $_md/build.log)"
	fi
	MODKO=$_md/vgsp.ko
	[ -f "$MODKO" ] || die "module build for $KREL produced no vgsp.ko"
	_vm=$(modinfo -F vermagic "$MODKO" | awk '{ print $1 }')
	[ "$_vm" = "$KREL" ] || die "vgsp.ko vermagic '$_vm' does not match kernel $KREL"
}

# vgsp.ko for the newest kernel (after newest_fetch): built inside its private root with that
# release's own toolchain, copied to build/mod-<rel>/vgsp.ko. A warning fails the build too: this
# check exists to catch the API changes of kernels newer than the booted ones. Sets MODKO and
# NEWEST_CC (the compiler's version line).
newest_module_build() {
	_md=$BUILD/mod-$KREL
	mkdir -p "$_md"
	module_source "$NROOT/build/vgsp"
	log "module: building vgsp.ko for $KREL (compile check, in its private root)"
	# shellcheck disable=SC2016
	if ! unshare -m sh -c 'mount -t proc proc "$1/proc" && mount --bind /dev/null "$1/dev/null" &&
		exec chroot "$1" /usr/bin/env -i PATH=/usr/bin HOME=/tmp LC_ALL=C.UTF-8 \
			make -C "/usr/src/linux-headers-$2" M=/build/vgsp modules' \
		sh "$NROOT" "$KREL" >"$_md/build.log" 2>&1; then
		grep -iE 'error|undefined' "$_md/build.log" | head -n 20 >&2
		die "module build failed for $KREL (log: $_md/build.log)"
	fi
	if grep -q 'warning:' "$_md/build.log"; then
		grep 'warning:' "$_md/build.log" | head -n 20 >&2
		die "module build for $KREL has $(grep -c 'warning:' "$_md/build.log") warnings (log: $_md/build.log)"
	fi
	[ -f "$NROOT/build/vgsp/vgsp.ko" ] || die "module build for $KREL produced no vgsp.ko"
	cp "$NROOT/build/vgsp/vgsp.ko" "$_md/vgsp.ko"
	MODKO=$_md/vgsp.ko
	_vm=$(modinfo -F vermagic "$MODKO" | awk '{ print $1 }')
	[ "$_vm" = "$KREL" ] || die "vgsp.ko vermagic '$_vm' does not match kernel $KREL"
	NEWEST_CC=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' \
		"$NROOT/usr/src/linux-headers-$KREL/include/config/auto.conf" 2>/dev/null)
}
