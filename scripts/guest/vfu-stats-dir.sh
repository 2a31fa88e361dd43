#!/bin/sh
# vfu-stats-dir.sh — turn a vgsp-vfu --stats file into a directory of counter files in the form
# perf-results reads from a vgsp debugfs (userspace/cuda/src/debugfs_read.h: one "key value"
# a line), so a guest's results.json carries the vfio-user server's counters (before, after,
# delta) the way a vgsp.ko instance's debugfs would give them.
#
# usage: scripts/guest/vfu-stats-dir.sh STATS DIR [INSTANCE]
#   writes DIR/INSTANCE/<section> (INSTANCE default vfu0) for the sections with counters:
#   counters, mm, channels, gsp_state, gsp_rpc, gsp_latency, vfu, backend, hostd (whatever of
#   them STATS has); the rest (info, tables of addresses, logs) are not counters and are left out.
# Keys: "key N" as is; several "key N" on one line each; a word before them names them
# ("msg VERSION 1 errors 0" -> msg_VERSION 1, msg_VERSION_errors 0; "... launch_us last 1 max 2"
# -> launch_us_last 1, launch_us_max 2); a table (a header line of words, rows of as many
# fields) gives <row name>_<column> for its integer columns. Values that are not decimal
# integers (hex, versions, words) are skipped; characters outside [A-Za-z0-9_.-] in a key become
# "_"; a key seen twice in a section gets _2, _3.
# Exit 0 when at least one counter was written, 1 when none, 2 usage.
set -u
[ $# -ge 2 ] && [ $# -le 3 ] || { sed -n '7,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
STATS=$1 DIR=$2 INST=${3:-vfu0}
[ -r "$STATS" ] || { echo "vfu-stats-dir: cannot read $STATS" >&2; exit 2; }
mkdir -p "$DIR/$INST" || exit 2
n=$(awk -v out="$DIR/$INST" '
BEGIN {
	split("counters mm channels gsp_state gsp_rpc gsp_latency vfu backend hostd", k, " ")
	for (i in k) keep[k[i]] = 1
}
function isint(s) { return s ~ /^[0-9]+$/ }
function isname(s) { return s ~ /^[A-Za-z_][A-Za-z0-9_.^-]*$/ }
function emit(key, v) {
	gsub(/[^A-Za-z0-9_.-]/, "_", key)
	if (key in seen) key = key "_" (++seen[key] )
	else seen[key] = 1
	print key, v > file
	total++
}
function start(name) {
	if (file != "") close(file)
	file = ""; cols = 0; first = 1
	delete seen
	if (name in keep) file = out "/" name
}
/^== / { start($2); next }
file == "" { next }
{
	n = split($0, t, " ")
	if (n == 0) next
	# a table: the first line of the section is 3+ words, the rows have as many fields
	if (first) {
		first = 0
		hdr = (n >= 3)
		for (i = 1; i <= n; i++) if (!isname(t[i]) || isint(t[i])) hdr = 0
		if (hdr) { cols = n; for (i = 1; i <= n; i++) h[i] = t[i]; next }
	}
	if (cols && n == cols) {
		base = t[1]
		for (i = 1; i <= cols; i++) if (h[i] == "name" && t[i] != "?") base = t[i]
		for (i = 1; i <= cols; i++)
			if (isint(t[i]) && t[i] != base && h[i] != "name") emit(base "_" h[i], t[i])
		next
	}
	# "key N" pairs; a run of words before a pair names the pairs after it
	pre = ""; segfirst = ""; prestart = 0; lastpair = 0; i = 1
	while (i <= n) {
		if (i < n && isname(t[i]) && isint(t[i + 1])) {
			if (pre == "") key = t[i]
			else if (segfirst == "") { key = pre "_" t[i]; segfirst = key }
			else key = (prestart ? segfirst "_" t[i] : pre "_" t[i])
			emit(key, t[i + 1])
			i += 2; lastpair = 1
			continue
		}
		if (lastpair) { pre = ""; segfirst = "" }
		if (isname(t[i]) && !isint(t[i])) {
			if (pre == "") prestart = (i == 1)
			pre = (pre == "" ? t[i] : pre "_" t[i])
		} else {
			pre = ""; segfirst = ""  # a value that is not a counter ends the run
		}
		lastpair = 0; i++
	}
}
END { if (file != "") close(file); print total + 0 }' "$STATS")
# sections that gave nothing leave no empty file behind
for f in "$DIR/$INST"/*; do [ -s "$f" ] || rm -f "$f"; done
[ "${n:-0}" -gt 0 ]
