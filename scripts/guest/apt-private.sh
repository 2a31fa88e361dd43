# apt-private.sh — sourced (POSIX sh). A private apt tree under .cache/guest/apt so that
# packages for the guest (and a newer QEMU) can be resolved and downloaded on this bookworm host
# without touching /etc/apt, /var/lib/apt or the host's dpkg database.
#
# Why the archive URI is read at run time: the host's own apt configuration already names the
# mirror this machine may use; copying that name into our files would pin a host into the tree.

: "${VGSP_ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
GUEST_CACHE="$VGSP_ROOT/.cache/guest"
APT_DIR="$GUEST_CACHE/apt"

# First "URIs:" of a non-security stanza in the host's deb822 sources.
apt_archive_uri() {
	f=/etc/apt/sources.list.d/debian.sources
	[ -r "$f" ] || { echo "apt-private: $f not readable" >&2; return 1; }
	awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f"
}

# apt_setup NAME "SUITES" "COMPONENTS": writes $APT_DIR/NAME/{sources,lists,cache,status}.
# Each NAME is its own apt universe (e.g. "bookworm" for the guest, "trixie" for QEMU).
apt_setup() {
	name=$1 suites=$2 comps=$3
	uri=$(apt_archive_uri) || return 1
	[ -n "$uri" ] || { echo "apt-private: no archive URI found" >&2; return 1; }
	d="$APT_DIR/$name"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/etc/preferences.d" "$d/etc/apt.conf.d"
	: > "$d/status.new"
	[ -e "$d/status" ] || mv "$d/status.new" "$d/status"
	rm -f "$d/status.new"
	cat > "$d/etc/sources.sources.new" <<EOS
Types: deb
URIs: $uri
Suites: $suites
Components: $comps
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	mv "$d/etc/sources.sources.new" "$d/etc/sources.sources"
	APT_OPTS="-o Dir::Etc::SourceList=$d/etc/sources.sources -o Dir::Etc::SourceParts=/dev/null
 -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=$d/etc/preferences.d
 -o Dir::Etc::Parts=$d/etc/apt.conf.d
 -o Dir::State::Lists=$d/lists -o Dir::State::status=$d/status
 -o Dir::Cache=$d/cache -o Dir::Cache::archives=$d/cache/archives
 -o APT::Architecture=amd64 -o APT::Architectures::=amd64
 -o APT::Get::AllowUnauthenticated=false -o Acquire::Languages=none
 -o APT::Install-Recommends=false -o Debug::NoLocking=true"
	APT_D=$d
}

# apt_update: refresh lists once per day (idempotent; lists are cached).
apt_update() {
	stamp="$APT_D/lists/.stamp"
	if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		# shellcheck disable=SC2086
		apt-get $APT_OPTS -q update >"$APT_D/update.log" 2>&1 || {
			tail -20 "$APT_D/update.log" >&2; return 1; }
		touch "$stamp"
	fi
}

# apt_ver PKG: candidate version in this universe.
apt_ver() {
	# shellcheck disable=SC2086
	apt-cache $APT_OPTS policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2; exit }'
}

# apt_fetch DIR PKG...: download exact packages (name or name=ver) into DIR, skipping present ones.
apt_fetch() {
	dir=$1; shift
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	(cd "$dir" && apt-get $APT_OPTS -q download "$@") >"$dir/.download.log" 2>&1 || {
		tail -20 "$dir/.download.log" >&2; return 1; }
}
