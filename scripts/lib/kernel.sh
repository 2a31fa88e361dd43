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

# --- The newest kernel Debian ships: a compile check, no boot ----------------------------------
# The suites are searched by alias, so the check follows Debian's releases without an edit:
# stable, stable-backports, testing and unstable of the machine's archive (its URI is read from
# the machine's apt configuration at run time). The highest linux-headers-amd64 among them wins.
# Its kbuild tools need that release's libc and its headers its compiler (gcc-14 for trixie),
# which the host may not have: the headers, kbuild and a minimal toolchain of the same release
# are unpacked (dpkg -x, nothing installed) into a private root, .cache/kernels/newest-<rel>/root,
# and vgsp.ko is built there under chroot (a private mount namespace lends it /proc and
# /dev/null). Every step that fails dies with its reason: the caller reports it as a FAIL.
NEWEST_SUITES=${VGSP_NEWEST_SUITES:-stable stable-backports testing unstable}
NEWEST_TOOLS="make dash coreutils sed grep mawk findutils diffutils binutils"
NAPTDIR=$CACHE/apt-newest

# newest_sources FILE SUITE...: deb822 sources of the machine's archive for these suites.
newest_sources() {
	_nf=$1; shift
	_uri=$(apt_archive_uri)
	[ -n "$_uri" ] || die "newest kernel: no Debian archive entry in the machine's apt sources"
	mkdir -p "$NAPTDIR/lists/partial" "$NAPTDIR/archives/partial"
	: >"$NAPTDIR/empty.status"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n%s\n' "$_uri" "$*" \
		'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$_nf"
}

# apt options: private lists, sources file $1, an empty dpkg status (so that -s resolves the
# whole dependency closure, as for an empty root).
newest_opts() {
	printf '%s ' -o "Dir::Etc::SourceList=$1" -o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State::Lists=$NAPTDIR/lists" -o "Dir::Cache::Archives=$NAPTDIR/archives" \
		-o "Dir::State::status=$NAPTDIR/empty.status" -o Debug::NoLocking=1 \
		-o APT::Sandbox::User=root -q
}

# Sets KREL (e.g. 7.3.4+deb13-amd64), KVER (its package version) and NSUITE.
newest_resolve() {
	_ns=$NAPTDIR/all.sources
	newest_sources "$_ns" $NEWEST_SUITES
	if [ -z "$(find "$NAPTDIR/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
		log "newest kernel: updating the lists of $NEWEST_SUITES"
		# shellcheck disable=SC2046
		# --error-on=any: a list that did not download fails (by default it is a warning).
		flock "$APT_LOCK" apt-get $(newest_opts "$_ns") --error-on=any update \
			>"$NAPTDIR/update.log" 2>&1 ||
			{ tail -n 5 "$NAPTDIR/update.log" >&2
			  die "newest kernel: apt-get update of $NEWEST_SUITES failed (see $NAPTDIR/update.log)"; }
	fi
	KVER= NSUITE=
	# madison: "linux-headers-amd64 | <version> | <uri> <suite>/main amd64 Packages"
	# shellcheck disable=SC2046
	apt-cache $(newest_opts "$_ns") madison linux-headers-amd64 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); split($3, a, " "); sub(/\/.*/, "", a[2]); print $2, a[2] }' \
		>"$NAPTDIR/madison.txt"
	while read -r _v _s; do
		if [ -z "$KVER" ] || dpkg --compare-versions "$_v" gt "$KVER"; then KVER=$_v NSUITE=$_s; fi
	done <"$NAPTDIR/madison.txt"
	[ -n "$KVER" ] || die "newest kernel: no linux-headers-amd64 in $NEWEST_SUITES (lists in $NAPTDIR/lists)"
	# shellcheck disable=SC2046
	_nh=$(apt-cache $(newest_opts "$_ns") show "linux-headers-amd64=$KVER" 2>/dev/null |
		awk '/^Depends:/ { sub(/^Depends: /, ""); print; exit }' | tr ',' '\n' |
		sed -E 's/^ *//; s/ .*//' | grep -E '^linux-headers-[0-9].*-amd64$' | head -n 1)
	[ -n "$_nh" ] || die "newest kernel: linux-headers-amd64=$KVER names no linux-headers-<rel>-amd64"
	KREL=${_nh#linux-headers-}
}

# Resolve, then download and unpack the private root once per release. Sets NROOT.
newest_fetch() {
	newest_resolve
	NROOT=$CACHE/kernels/newest-$KREL/root
	[ -f "$NROOT/../.done" ] && return 0
	log "newest kernel: $KREL ($KVER, $NSUITE): downloading headers, kbuild and toolchain"
	# The release's own suite for the toolchain: stable for stable-backports.
	_ps=$NAPTDIR/pick.sources
	if [ "${NSUITE%-backports}" = "$NSUITE" ]; then newest_sources "$_ps" "$NSUITE"
	else newest_sources "$_ps" "${NSUITE%-backports}" "$NSUITE"; fi
	# shellcheck disable=SC2046,SC2086
	_pk=$(apt-get $(newest_opts "$_ps") -s install --no-install-recommends \
		"linux-headers-$KREL=$KVER" $NEWEST_TOOLS 2>"$NAPTDIR/resolve.log" |
		awk '/^Inst / { v = $3; sub(/^\(/, "", v); print $2 "=" v }')
	case $_pk in *"linux-kbuild-"*) ;; *)
		cat "$NAPTDIR/resolve.log" >&2
		die "newest kernel: cannot resolve linux-headers-$KREL=$KVER with its toolchain in $NSUITE" ;;
	esac
	_nd=$NAPTDIR/debs
	rm -rf "$_nd" && mkdir -p "$_nd"
	# shellcheck disable=SC2046,SC2086
	(cd "$_nd" && apt-get $(newest_opts "$_ps") download $_pk >"$NAPTDIR/download.log" 2>&1) ||
		{ tail -n 3 "$NAPTDIR/download.log" >&2
		  die "newest kernel: apt-get download failed for $KREL (see $NAPTDIR/download.log)"; }
	rm -rf "${NROOT%/root}" && mkdir -p "$NROOT"
	for _deb in "$_nd"/*.deb; do
		dpkg -x "$_deb" "$NROOT" || die "newest kernel: dpkg -x $_deb failed"
	done
	rm -rf "$_nd"
	# What the packages' maintainer scripts would have made: the merged-/usr links and awk.
	for _l in bin lib lib64 sbin; do [ -e "$NROOT/$_l" ] || ln -s "usr/$_l" "$NROOT/$_l"; done
	[ -e "$NROOT/usr/bin/awk" ] || ln -s mawk "$NROOT/usr/bin/awk"
	mkdir -p "$NROOT/proc" "$NROOT/dev" "$NROOT/tmp" "$NROOT/build"
	: >"$NROOT/dev/null"
	[ -f "$NROOT/usr/src/linux-headers-$KREL/Makefile" ] ||
		die "newest kernel: no headers tree for $KREL in the unpacked packages"
	touch "$NROOT/../.done"
	# Older releases' roots are 350 MB each: keep only this one.
	for _o in "$CACHE"/kernels/newest-*; do
		[ "$_o" = "${NROOT%/root}" ] || rm -rf "$_o"
	done
	log "newest kernel: $KREL unpacked in ${NROOT%/root}"
}
