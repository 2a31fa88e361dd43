#!/bin/sh
# Kernel-style checks of kernel/: checkpatch.pl (taken from Debian's
# linux-source package, cached) with the repo's .checkpatch.conf, and a
# sparse build against the given kernel headers.
#   tools/lint-kernel.sh <kernel-headers-dir>
# Prints PASS/FAIL per check and a final "N passed, N failed" line.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/scripts/lib/common.sh"
. "$ROOT/scripts/lib/apt.sh"

KDIR=${1:?usage: $0 <kernel-headers-dir>}
[ -f "$KDIR/Makefile" ] || die "lint: $KDIR is not a kernel headers tree"
LINT=$CACHE/lint
pass=0 fail=0

# checkpatch.pl is not in the headers packages: unpack it from the
# bookworm linux-source tarball once.
checkpatch=$(ls "$LINT"/linux-source-*/scripts/checkpatch.pl 2>/dev/null | head -n 1 || true)
if [ -z "$checkpatch" ]; then
	apt_update
	mkdir -p "$LINT/deb"
	pkg=$(apt-cache $(apt_opts) depends linux-source 2>/dev/null |
	      sed -n 's/^ *Depends: \(linux-source-[0-9.]*\)$/\1/p' | head -n 1)
	[ -n "$pkg" ] || die "lint: cannot resolve the linux-source package"
	(cd "$LINT/deb" && flock "$APT_LOCK" apt-get $(apt_opts) download "$pkg" >/dev/null) ||
		die "lint: download of $pkg failed"
	dpkg -x "$LINT"/deb/"$pkg"_*.deb "$LINT/deb/x"
	tar -xJf "$LINT"/deb/x/usr/src/"$pkg".tar.xz -C "$LINT" \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
	rm -rf "$LINT/deb"
	checkpatch=$(ls "$LINT"/linux-source-*/scripts/checkpatch.pl | head -n 1)
fi

files=$(cd "$ROOT" && find kernel -name '*.[ch]' | sort)
if out=$(cd "$ROOT" && perl "$checkpatch" --terse -f $files 2>&1) &&
   ! printf '%s\n' "$out" | grep -q -E ': (ERROR|WARNING):'; then
	echo "PASS checkpatch ($(echo "$files" | wc -l) files)"
	pass=$((pass + 1))
else
	printf '%s\n' "$out" | grep -E ': (ERROR|WARNING):' | head -n 40
	echo "FAIL checkpatch"
	fail=$((fail + 1))
fi

apt_install sparse
d=$BUILD/lint-sparse
rm -rf "$d" && mkdir -p "$d" && cp -r "$ROOT/kernel/." "$d/"
if out=$(make -C "$KDIR" M="$d" modules C=2 CHECK="sparse -Wno-decl" \
	 CONFIG_DEBUG_INFO_BTF_MODULES= 2>&1) &&
   ! printf '%s\n' "$out" | grep -E '(warning|error):' | grep -q .; then
	echo "PASS sparse"
	pass=$((pass + 1))
else
	printf '%s\n' "$out" | grep -E '(warning|error):' | head -n 40
	echo "FAIL sparse"
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
