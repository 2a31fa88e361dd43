# shellcheck shell=sh
# Debian archive access without touching /etc/apt: a private sources file
# (the machine's own entries plus bookworm-backports) and a private list
# and download cache under .cache/apt. The archive URI is read from the
# machine's apt configuration at run time, never written into the tree.

APTDIR=$CACHE/apt
APT_LOCK=/tmp/vgsp-apt.lock

# URI of the machine's plain bookworm entry (not the security one).
apt_archive_uri() {
	_f=/etc/apt/sources.list.d/debian.sources
	if [ -r "$_f" ]; then
		awk 'BEGIN { RS = ""; FS = "\n" }
		     /(^|\n)Suites:[^\n]*bookworm/ && !/security/ {
		       for (i = 1; i <= NF; i++) if ($i ~ /^URIs:/) { split($i, a, " "); print a[2]; exit } }' "$_f"
		return
	fi
	[ -r /etc/apt/sources.list ] &&
		awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list
}

# Write the private sources file (deb822): the machine's stanzas, so that
# dependency resolution sees the same versions as the system, plus backports.
apt_private_sources() {
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial"
	_uri=$(apt_archive_uri)
	[ -n "$_uri" ] || die "no bookworm entry in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
	{
		if [ -r /etc/apt/sources.list.d/debian.sources ]; then
			grep -v '^#' /etc/apt/sources.list.d/debian.sources
		else
			awk '$1 == "deb" { printf "Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n\n", $2, $3 }' /etc/apt/sources.list
		fi
		printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\n' "$_uri"
		printf 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n'
	} > "$APTDIR/vgsp.sources.tmp"
	mv "$APTDIR/vgsp.sources.tmp" "$APTDIR/vgsp.sources"
}

apt_opts() {
	printf '%s ' -o "Dir::Etc::SourceList=$APTDIR/vgsp.sources" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State::Lists=$APTDIR/lists" \
		-o "Dir::Cache::Archives=$APTDIR/archives" \
		-o APT::Sandbox::User=root -q
}

# Refresh the private lists when missing, older than a day, or forced.
apt_update() {
	apt_private_sources
	if [ "${1:-}" = force ] || [ -z "$(find "$APTDIR/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null | head -n 1)" ]; then
		log "apt: updating private lists"
		# shellcheck disable=SC2046
		flock "$APT_LOCK" apt-get $(apt_opts) update >"$APTDIR/update.log" 2>&1 ||
			{ tail -n 5 "$APTDIR/update.log" >&2; die "apt-get update failed (see $APTDIR/update.log)"; }
	fi
}

# Install Debian packages that are not installed yet (idempotent). No -t:
# backports has priority 100, so candidates stay the machine's bookworm ones
# (pinning plain bookworm could pick versions older than installed
# security updates and make dependencies unsatisfiable).
apt_install() {
	_missing=
	for _p in "$@"; do
		dpkg-query -W -f='${Status}' "$_p" 2>/dev/null | grep -q 'install ok installed' || _missing="$_missing $_p"
	done
	[ -n "$_missing" ] || return 0
	[ "$(id -u)" = 0 ] || die "need root to install:$_missing"
	apt_update
	log "apt: installing$_missing"
	# shellcheck disable=SC2046,SC2086
	DEBIAN_FRONTEND=noninteractive flock "$APT_LOCK" apt-get $(apt_opts) install -y \
		--no-install-recommends $_missing >"$APTDIR/install.log" 2>&1 ||
		{ tail -n 5 "$APTDIR/install.log" >&2; die "apt-get install failed:$_missing (see $APTDIR/install.log)"; }
}

# Host tools every subcommand needs.
HOST_PKGS="build-essential make gcc libc6-dev qemu-system-x86 busybox-static cpio dwarves xz-utils zstd kmod util-linux"
