#!/bin/sh
# console-emit.sh — print files on stdout as base64 blocks that scripts/guest/console-extract.sh
# turns back into the same files on the host. The stock-driver guest has no channel out but its
# serial console, so this is how its raw results (perf.sh's run-NN.txt, env.txt, ...) leave it.
# Runs under busybox sh in the guest (base64, sha256sum, wc) and under any POSIX sh on a host.
#
# usage: console-emit.sh [-t TAG] [-s STATE] FILE...
#   -t TAG    the set the files belong to (default "files"; [A-Za-z0-9._-]); the extractor can
#             pick one set out of a console that carries several
#   -s STATE  emit a file only if "TAG NAME SIZE SHA256" is not yet a line of STATE, then add it:
#             called after every run, each new or changed file goes out once
# A FILE that does not exist is skipped silently (e.g. a run's .err that was not written); one
# whose base name has characters outside [A-Za-z0-9._-] is refused on stderr.
# Block format (one line each, base64 of the file in 76-character lines between them):
#   ==== vgsp-file begin TAG NAME SIZE SHA256
#   ==== vgsp-file end TAG NAME
# The files' base names are what the extractor writes; a later block of the same name wins.
set -u
tag=files state=""
while [ $# -gt 0 ]; do
	case $1 in
	-t) tag=$2; shift 2 ;;
	-s) state=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "console-emit: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
case $tag in ''|*[!A-Za-z0-9._-]*) echo "console-emit: bad tag '$tag'" >&2; exit 2 ;; esac
rc=0
for f in "$@"; do
	[ -f "$f" ] || continue
	name=${f##*/}
	case $name in
	''|.|..|*[!A-Za-z0-9._-]*) echo "console-emit: refusing file name '$name'" >&2; rc=1; continue ;;
	esac
	size=$(wc -c < "$f" | tr -d ' ')
	sum=$(sha256sum "$f" | cut -d' ' -f1)
	line="$tag $name $size $sum"
	if [ -n "$state" ]; then
		grep -qxF "$line" "$state" 2>/dev/null && continue
	fi
	echo "==== vgsp-file begin $line"
	base64 < "$f"
	echo "==== vgsp-file end $tag $name"
	[ -z "$state" ] || echo "$line" >> "$state"
done
exit $rc
