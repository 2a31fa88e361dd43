#!/bin/sh
# build-vfu.sh — build vgsp-vfu against a snapshot of the core at a commit
# (default HEAD), so concurrent uncommitted edits in the shared working tree
# cannot break (or silently change) what the rig runs. The vfu sources come
# from the same commit (from the working tree with `worktree`). Prints the binary
# path and the core commit.
#   scripts/guest/build-vfu.sh [COMMIT|worktree] [test]   (test: run the unit tests too)
# env VFU_SAN=1: core and server built with -fsanitize=address,undefined
# env HOSTD=1: vgsp-vfu linked with the hostd backend (make HOSTD=1 in userspace/vfu), built into
#     its own directory (vfu-<sha>-hostd) so a plain build never stands in for it
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-HEAD}
cd "$VGSP_ROOT"
# Two rigs running at once must not unpack or build into the same tree.
mkdir -p .cache/guest; exec 9>.cache/guest/.build-vfu.lock; flock 9
if [ "$rev" = worktree ]; then
	core=$VGSP_ROOT; sha=worktree
else
	sha=$(git rev-parse --short=12 "$rev")
	core=$VGSP_ROOT/.cache/guest/core-$sha
	# The server comes from the same commit as the core (not from the working tree, where
	# someone's half-done server edit would not build against the committed core).
	if [ ! -e "$core/.done" ] || [ ! -e "$core/userspace/vfu/Makefile" ]; then
		rm -rf "$core"; mkdir -p "$core"
		git archive "$sha" kernel/core userspace/lib userspace/vfu userspace/hostd tests/replay \
			tests/unit/helpers Makefile tests/run_cmocka.sh | tar -x -C "$core"
		touch "$core/.done"
	fi
fi
vfudir=$core/userspace/vfu
[ "$rev" != worktree ] || vfudir=userspace/vfu
out=$VGSP_ROOT/.cache/guest/vfu-$sha
cb=$core/build
set --  "${2:-}"
hostd=""
if [ "${HOSTD:-0}" = 1 ]; then
	out=$out-hostd; hostd="HOSTD=1"
fi
# shellcheck disable=SC2086 # $hostd is one word or none
if [ "${VFU_SAN:-0}" = 1 ]; then
	san="-fsanitize=address,undefined -fno-omit-frame-pointer"
	out=$out-san; cb=$VGSP_ROOT/.cache/guest/core-$sha-san
	make -s -C "$core" O="$cb" CC="gcc $san" core >&2
	mk() { make -s -C "$vfudir" CORE_ROOT="$core" CORE_O="$cb" OUT="$out" \
		CFLAGS="-O1 -g $san" LDFLAGS="$san" $hostd "$@" >&2; }
else
	make -s -C "$core" O="$cb" core >&2
	mk() { make -s -C "$vfudir" CORE_ROOT="$core" CORE_O="$cb" OUT="$out" $hostd "$@" >&2; }
fi
mk all
[ "$1" = test ] && mk test
echo "$out/vgsp-vfu"
echo "core $sha"
