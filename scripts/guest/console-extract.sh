#!/bin/sh
# console-extract.sh — recreate the files a guest printed with scripts/guest/console-emit.sh from
# its console log (run-bundle.sh's console.txt, or a raw one with CRs).
#
# usage: scripts/guest/console-extract.sh CONSOLE DIR [TAG]
#   writes DIR/NAME for every block (of TAG only, when given) whose base64 decodes to the size and
#   sha256 its begin line names; a later good block of a name replaces an earlier one.
# Inside a block, lines that cannot be base64 (kernel messages the console interleaved: spaces,
# brackets, a length not a multiple of 4) are dropped; if one was spliced into a base64 line the
# checksum catches it. One line per block on stdout: "console-extract: TAG NAME SIZE ok", or
# "... BAD (why)"; the last line "console-extract: N files ok, N bad" (bad = names without any
# good block).
# Exit: 0 every name has a good block; 1 some name has none (its good blocks are still written);
# 2 usage, or no block at all.
set -u
[ $# -ge 2 ] && [ $# -le 3 ] || { sed -n '4,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
CON=$1 DIR=$2 TAG=${3:-}
[ -r "$CON" ] || { echo "console-extract: cannot read $CON" >&2; exit 2; }
mkdir -p "$DIR" || exit 2
W=$(mktemp -d "${TMPDIR:-/tmp}/cextract.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT

# Pass 1 (awk): every block's base64 lines into W/b.N, and an index line per block:
# "N TAG NAME SIZE SHA256 COMPLETE(0|1) DROPPED".
tr -d '\r' < "$CON" | awk -v w="$W" -v want="$TAG" '
function close_block(complete) {
	if (!inb) return
	printf "%d %s %s %s %s %d %d\n", nb, btag, bname, bsize, bsum, complete, dropped > (w "/index")
	close(w "/b." nb)
	inb = 0
}
{
	i = index($0, "==== vgsp-file begin ")
	if (i) {
		close_block(0)
		split(substr($0, i + 21), f, " ")
		if (f[1] == "" || f[2] == "" || f[3] !~ /^[0-9]+$/ || f[4] !~ /^[0-9a-f]+$/) next
		if (want != "" && f[1] != want) next
		if (f[2] !~ /^[A-Za-z0-9._-]+$/ || f[2] == "." || f[2] == "..") next
		nb++; inb = 1; dropped = 0
		btag = f[1]; bname = f[2]; bsize = f[3]; bsum = f[4]
		printf "" > (w "/b." nb)
		next
	}
	if (!inb) next
	if (index($0, "==== vgsp-file end ")) {
		split(substr($0, index($0, "==== vgsp-file end ") + 19), f, " ")
		close_block(f[1] == btag && f[2] == bname)
		next
	}
	if ($0 ~ /^[A-Za-z0-9+\/]+=?=?$/ && length($0) % 4 == 0 && length($0) <= 76)
		print > (w "/b." nb)
	else if ($0 != "")
		dropped++
}
END { close_block(0) }'

[ -s "$W/index" ] || { echo "console-extract: no ${TAG:+$TAG }blocks in $CON" >&2; exit 2; }
: > "$W/good"
: > "$W/names"
while read -r n tag name size sum complete dropped; do
	echo "$name" >> "$W/names"
	why=""
	if [ "$complete" != 1 ]; then
		why="no end line (the console stopped inside the block)"
	elif ! base64 -d < "$W/b.$n" > "$W/f.$n" 2>/dev/null; then
		why="not base64"
	elif [ "$(wc -c < "$W/f.$n" | tr -d ' ')" != "$size" ]; then
		why="$(wc -c < "$W/f.$n" | tr -d ' ') bytes, the block says $size"
	elif [ "$(sha256sum "$W/f.$n" | cut -d' ' -f1)" != "$sum" ]; then
		why="sha256 differs"
	fi
	[ "$dropped" = 0 ] || why="${why:+$why; }$dropped non-base64 lines dropped"
	if [ -z "$why" ] || { [ "$complete" = 1 ] && [ -f "$W/f.$n" ] &&
		[ "$(sha256sum "$W/f.$n" | cut -d' ' -f1)" = "$sum" ] &&
		[ "$(wc -c < "$W/f.$n" | tr -d ' ')" = "$size" ]; }; then
		cp "$W/f.$n" "$DIR/$name"
		echo "$name" >> "$W/good"
		echo "console-extract: $tag $name $size ok${why:+ ($why)}"
	else
		echo "console-extract: $tag $name $size BAD ($why)"
	fi
done < "$W/index"
nok=$(sort -u "$W/good" | wc -l | tr -d ' ')
nbad=$(sort -u "$W/names" | grep -vxFf "$W/good" | wc -l | tr -d ' ')
echo "console-extract: $nok files ok, $nbad bad${TAG:+ (tag $TAG)}, in $DIR"
[ "$nbad" = 0 ]
