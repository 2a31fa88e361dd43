# shellcheck shell=sh
# Build vgsp.ko for one unpacked test kernel: kernel/ is self-contained for
# Kbuild, so copy it to build/mod-<rel>/ and run the external-module build
# against that kernel's headers. Sets MODKO.

module_build() {
	[ -d "$ROOT/kernel" ] || die "no kernel/ directory in $ROOT"
	_md=$BUILD/mod-$KREL
	mkdir -p "$_md"
	# Fresh copy each time: stale objects from removed sources must not link.
	find "$_md" -mindepth 1 -delete
	if [ "${VGSP_FROM_HEAD:-}" ]; then
		# The committed kernel/ only: others' uncommitted edits stay out.
		git -C "$ROOT" archive HEAD kernel | tar -x -C "$_md" --strip-components=1 ||
			die "git archive HEAD kernel failed"
	else
		cp -R "$ROOT/kernel/." "$_md/"
	fi
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
