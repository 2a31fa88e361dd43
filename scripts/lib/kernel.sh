# shellcheck shell=sh
# Test kernels: resolve the current Debian ABI of a kernel series at run
# time, download image + headers with apt-get download, unpack them with
# dpkg -x under .cache/kernels/<rel>/. Nothing is installed on the host.
# Sets KREL (e.g. 6.12.95+deb12-amd64), KDIR, KHDR, KIMG after kernel_fetch.

# Series -> version of linux-image-amd64 carrying it.
#   6.12: the bookworm-backports metapackage; 6.1: the bookworm candidate
#   (which may come from bookworm-security).
kernel_meta_version() {
	# shellcheck disable=SC2046
	case $1 in
	6.12) apt-cache $(apt_opts) show linux-image-amd64/bookworm-backports 2>/dev/null |
		awk '/^Version:/ { print $2; exit }' ;;
	6.1) apt-cache $(apt_opts) policy linux-image-amd64 2>/dev/null |
		awk '/Candidate:/ { print $2; exit }' ;;
	*) die "unknown kernel series '$1' (want 6.12 or 6.1)" ;;
	esac
}

# Depends: names of package $1 at version $2 (one per line, no versions).
pkg_depends() {
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) show "$1=$2" 2>/dev/null | awk '/^Depends:/ { sub(/^Depends: /, ""); print; exit }' |
		tr ',' '\n' | sed -E 's/^ *//; s/ .*//; s/\|.*//'
}

kernel_resolve() {
	apt_update
	_mv=$(kernel_meta_version "$1")
	[ -n "$_mv" ] || die "cannot find linux-image-amd64 for kernel $1 in the private apt lists"
	_img=$(pkg_depends linux-image-amd64 "$_mv" | grep '^linux-image-' | head -n 1)
	KREL=${_img#linux-image-}
	case $KREL in "$1".*) ;; *) die "kernel $1 resolved to unexpected '$KREL'" ;; esac
	KVER=$_mv
}

kernel_fetch() {
	kernel_resolve "$1"
	KDIR=$CACHE/kernels/$KREL
	KHDR=$KDIR/root/usr/src/linux-headers-$KREL
	KIMG=$KDIR/root/boot/vmlinuz-$KREL
	if [ -f "$KDIR/.done" ]; then
		return 0
	fi
	log "kernel $1: $KREL ($KVER): downloading"
	_pk="linux-image-$KREL linux-headers-$KREL"
	for _d in $(pkg_depends "linux-headers-$KREL" "$KVER"); do
		case $_d in linux-headers-*-common* | linux-kbuild-* | linux-compiler-*) _pk="$_pk $_d" ;; esac
	done
	mkdir -p "$APTDIR/debs"
	_vers=
	for _p in $_pk; do
		# The same source version as the image when the package has it
		# (headers, kbuild, compiler); otherwise the candidate.
		# shellcheck disable=SC2046
		_v=$(apt-cache $(apt_opts) show "$_p" 2>/dev/null | awk -v want="$KVER" '/^Version:/ && $2 == want { print $2; exit }')
		# shellcheck disable=SC2046
		[ -n "$_v" ] || _v=$(apt-cache $(apt_opts) policy "$_p" | awk '/Candidate:/ { print $2; exit }')
		_vers="$_vers $_p=$_v"
	done
	# shellcheck disable=SC2046,SC2086
	(cd "$APTDIR/debs" && apt-get $(apt_opts) download $_vers >"$APTDIR/download.log" 2>&1) ||
		{ tail -n 3 "$APTDIR/download.log" >&2; die "apt-get download failed for kernel $KREL"; }
	rm -rf "$KDIR" && mkdir -p "$KDIR/root"
	for _p in $_pk; do
		_deb=$(ls "$APTDIR/debs/${_p}_"*.deb 2>/dev/null | sort -V | tail -n 1)
		[ -n "$_deb" ] || die "download of $_p left no .deb"
		dpkg -x "$_deb" "$KDIR/root" || die "dpkg -x $_deb failed"
	done
	[ -f "$KIMG" ] || die "no $KIMG in the image package"
	# The arch headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $KDIR/root/usr/src/|" "$KHDR/Makefile"
	touch "$KDIR/.done"
	log "kernel $1: $KREL unpacked in $KDIR"
}

# File of module $2 (name with _ or -) in kernel tree $1 (lib/modules/<rel>).
kmod_file() {
	find "$1" -name "$2.ko*" -o -name "$(printf %s "$2" | tr _ -).ko*" | head -n 1
}

# Print dependency-ordered module names for the given top modules
# (dependencies first, each once), using the modules' own depends field.
kmod_order() {
	_mroot=$1; shift
	_seen=" "
	_visit() {
		case $_seen in *" $1 "*) return 0 ;; esac
		_f=$(kmod_file "$_mroot" "$1")
		[ -n "$_f" ] || die "module $1 not found under $_mroot"
		for _dep in $(modinfo -F depends "$_f" | tr ',' ' '); do
			_visit "$_dep"
		done
		_seen="$_seen$1 "
		echo "$1"
	}
	for _m in "$@"; do _visit "$_m"; done
}

# Copy (decompressing .ko.xz/.ko.zst) the given modules and their
# dependencies into $1 and write $1/load.order. Busybox insmod needs plain .ko.
kmod_stage() {
	_dst=$1; shift
	_mroot=$KDIR/root/lib/modules/$KREL
	mkdir -p "$_dst"
	_top=
	for _m in "$@"; do
		# Built into this kernel (e.g. virtio_pci on 6.12): nothing to load.
		if [ -z "$(kmod_file "$_mroot" "$_m")" ] &&
			grep -qE "/($_m|$(printf %s "$_m" | tr _ -))\.ko$" "$_mroot/modules.builtin" 2>/dev/null; then
			continue
		fi
		_top="$_top $_m"
	done
	# shellcheck disable=SC2086
	kmod_order "$_mroot" $_top >"$_dst/load.order.tmp"
	while read -r _m; do
		_f=$(kmod_file "$_mroot" "$_m")
		case $_f in
		*.ko.xz) xz -dc "$_f" >"$_dst/$_m.ko" ;;
		*.ko.zst) zstd -qdc "$_f" >"$_dst/$_m.ko" ;;
		*) cp "$_f" "$_dst/$_m.ko" ;;
		esac
	done <"$_dst/load.order.tmp"
	mv "$_dst/load.order.tmp" "$_dst/load.order"
}
