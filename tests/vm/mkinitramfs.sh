#!/bin/sh
# Build the test VM's initramfs (uncompressed newc cpio):
#   mkinitramfs.sh OUT.cpio MODS_DIR VGSP_KO [INNER.cpio]
# MODS_DIR holds load.order + *.ko of the base modules and 9p/ for the
# host share. Adds busybox, the static client, every file of build/vm-bin/
# (other sub-projects' guest tools), /init, /lib/rig.sh, /cases and /demo.sh.
set -eu
[ $# = 3 ] || [ $# = 4 ] || { echo "usage: $0 OUT.cpio MODS_DIR VGSP_KO [INNER.cpio]" >&2; exit 2; }
out=$1 mods=$2 ko=$3 inner=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bb=$(command -v busybox) || { echo "error: no busybox (apt-get install busybox-static)" >&2; exit 1; }
# ldd fails on a static binary; a dynamic busybox cannot run in the guest.
! ldd "$bb" >/dev/null 2>&1 || { echo "error: $bb is not static (install busybox-static)" >&2; exit 1; }
cli=$root/build/vm/vgsp-vfiotest
[ -x "$cli" ] || { echo "error: $cli not built" >&2; exit 1; }

st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
mkdir -p "$st/bin" "$st/lib/vgsp" "$st/cases" "$st/proc" "$st/sys" "$st/dev" "$st/tmp" "$st/host"
cp "$bb" "$st/bin/busybox"
ln -s busybox "$st/bin/sh"   # the #! of /init, before --install runs
cp "$cli" "$st/bin/"
if [ -d "$root/build/vm-bin" ]; then
	find "$root/build/vm-bin" -maxdepth 1 -type f -exec cp {} "$st/bin/" \;
fi
cp -R "$mods" "$st/lib/rigmods"
[ "$ko" = - ] || cp "$ko" "$st/lib/vgsp/vgsp.ko"
# The nested guest's initramfs (case 65), only when asked for.
[ -z "$inner" ] || cp "$inner" "$st/lib/inner.cpio"
cp "$here/init" "$st/init"
cp "$here/lib.sh" "$st/lib/rig.sh"
cp "$here/demo.sh" "$st/demo.sh"
cp "$here"/cases/*.sh "$st/cases/"
chmod 755 "$st/init" "$st"/bin/*
(cd "$st" && find . | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
