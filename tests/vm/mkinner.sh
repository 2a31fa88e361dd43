#!/bin/sh
# Build the initramfs of the nested guest (case 65): busybox + inner-init.
#   mkinner.sh OUT.cpio
set -eu
[ $# = 1 ] || { echo "usage: $0 OUT.cpio" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
bb=$(command -v busybox) || { echo "error: no busybox (apt-get install busybox-static)" >&2; exit 1; }
st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
mkdir -p "$st/bin" "$st/proc" "$st/sys"
cp "$bb" "$st/bin/busybox"
ln -s busybox "$st/bin/sh"
cp "$here/inner-init" "$st/init"
chmod 755 "$st/init"
(cd "$st" && find . | cpio -o -H newc --quiet) > "$1.tmp"
mv "$1.tmp" "$1"
