#!/bin/sh
# build-vfu.sh — build vgsp-vfu against a snapshot of the core at a commit
# (default HEAD), so concurrent uncommitted edits in the shared working tree
# cannot break (or silently change) what the rig runs. The vfu sources come
# from the working tree. Prints the binary path and the core commit.
#   scripts/guest/build-vfu.sh [COMMIT|worktree] [test]   (test: run the unit tests too)
set -eu
VGSP_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-HEAD}
cd "$VGSP_ROOT"
if [ "$rev" = worktree ]; then
	core=$VGSP_ROOT; sha=worktree
else
	sha=$(git rev-parse --short=12 "$rev")
	core=$VGSP_ROOT/.cache/guest/core-$sha
	if [ ! -e "$core/.done" ]; then
		rm -rf "$core"; mkdir -p "$core"
		git archive "$sha" kernel/core userspace/lib Makefile tests/run_cmocka.sh | tar -x -C "$core"
		touch "$core/.done"
	fi
fi
out=$VGSP_ROOT/.cache/guest/vfu-$sha
make -s -C "$core" O="$core/build" core >&2
make -s -C userspace/vfu CORE_ROOT="$core" CORE_O="$core/build" OUT="$out" all >&2
if [ "${2:-}" = test ]; then
	make -s -C userspace/vfu CORE_ROOT="$core" CORE_O="$core/build" OUT="$out" test >&2
fi
echo "$out/vgsp-vfu"
echo "core $sha"
