#!/bin/sh
# clock-phases.sh — the GPU's SM clock during the phases of a perf run, from a clock trace and
# the phase marks (scripts/h200/ba.sh: issue #11, does the SM clock sit at idle while a sparse
# guest's kernels run?).
#
# usage: sh scripts/h200/clock-phases.sh [--idle-mhz N] [--label TEXT] TRACE MARKS [PHASE]...
# TRACE: nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,pstate
#        --format=csv,noheader -lms 20 (lines "2026/12/03 14:41:19.123, 1980 MHz, 3201 MHz,
#        100 %, P0"; a sample without a number is counted apart, not used)
# MARKS: "YYYY/MM/DD HH:MM:SS.mmm LINE" a line, LINE a vgsp-perf-mark line stamped on the same
#        clock and in the same time zone as the trace (ba.sh's stamper): "vgsp-perf-mark phase
#        NAME begin|end" from the harness (--mark-file), "vgsp-perf-mark before|after" from the
#        guest's init.sh
# PHASE: the phases to report (default kernel_fma); each is the union of its begin..end windows
#        (one a harness run). "overall" is always reported: before..after when both marks are
#        there (the guest's perf window), else the first mark to the last.
# Prints one line per phase: "LABEL PHASE: n=N windows=W sm_mhz min/p50/max A/B/C idle<=I
# P% max>=M Q% util_p50 U% pstates P0:x,P8:y"; p50 is the nearest-rank median. --idle-mhz N
# (345, the H200's idle SM clock in results/20261203T1441Z-ba-hostd/): a sample at or below N is
# "at idle"; "max" is the highest SM clock in the whole trace. Exit 0; 2 on usage; a phase with
# no samples prints n=0 (never a figure made up).
set -u
IDLE=345 LABEL=""
while [ $# -gt 0 ]; do
	case $1 in
	--idle-mhz) IDLE=$2; shift 2 ;;
	--label) LABEL=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || { sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
case $IDLE in ''|*[!0-9]*) echo "clock-phases: --idle-mhz wants MHz" >&2; exit 2 ;; esac
TRACE=$1 MARKS=$2
shift 2
PHASES=${*:-kernel_fma}
[ -f "$TRACE" ] || { echo "clock-phases: no trace $TRACE" >&2; exit 2; }
[ -f "$MARKS" ] || { echo "clock-phases: no marks $MARKS" >&2; exit 2; }

tr -d '\r' < "$MARKS" | awk -v trace="$TRACE" -v idle="$IDLE" -v label="$LABEL" -v phases="$PHASES" '
# seconds since 1970-01-01 of "YYYY/MM/DD" "HH:MM:SS.mmm" (civil days, no mktime: any awk)
function secs(d, t,   a, b, y, m, dd, era, yoe, doy, doe) {
	if (split(d, a, "/") != 3 || split(t, b, ":") != 3)
		return -1
	y = a[1] + 0; m = a[2] + 0; dd = a[3] + 0
	if (m <= 2) y--
	era = int(y / 400); yoe = y - era * 400
	doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + dd - 1
	doe = yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy
	return (era * 146097 + doe - 719468) * 86400 + b[1] * 3600 + b[2] * 60 + b[3]
}
function add(p, v, u, ps) {
	n[p]++; h[p, v]++
	if (!(p in lo) || v < lo[p]) lo[p] = v
	if (!(p in hi) || v > hi[p]) hi[p] = v
	if (v <= idle) at_idle[p]++
	if (u != "") { nu[p]++; hu[p, u]++ }
	pst[p, ps]++
}
# nearest-rank percentile q of the histogram of phase p over the values seen
function pct(p, q, src, cnt, vals,   k, i, j, x, c, want) {
	k = 0
	for (x = 0; x <= 5000; x++) if ((src == "sm" && ((p, x) in h)) || (src == "u" && ((p, x) in hu))) vals[++k] = x
	want = int(q * cnt); if (want < q * cnt) want++; if (want < 1) want = 1
	c = 0
	for (i = 1; i <= k; i++) { c += (src == "sm" ? h[p, vals[i]] : hu[p, vals[i]]); if (c >= want) return vals[i] }
	return "-"
}
{
	t = secs($1, $2)
	if (t < 0 || $3 != "vgsp-perf-mark") next
	if ($4 == "before") wbefore = t
	else if ($4 == "after") wafter = t
	else if ($4 == "phase") {
		if ($6 == "begin") open[$5] = t
		else if ($6 == "end" && ($5 in open)) { nw[$5]++; wb[$5, nw[$5]] = open[$5]; we[$5, nw[$5]] = t; delete open[$5] }
	}
	if (first == "" || t < first) first = t
	if (last == "" || t > last) last = t
}
END {
	ob = (wbefore != "" && wafter != "") ? wbefore : first
	oe = (wbefore != "" && wafter != "") ? wafter : last
	np = split(phases, ph, " ")
	ph[++np] = "overall"; nw["overall"] = (ob != "") ? 1 : 0; wb["overall", 1] = ob; we["overall", 1] = oe
	tmax = 0; bad = 0
	while ((getline line < trace) > 0) {
		gsub(/\r/, "", line)
		nf = split(line, f, /, */)
		if (nf < 2) continue
		split(f[1], dt, " ")
		t = secs(dt[1], dt[2])
		sm = f[2]; sub(/ *MHz$/, "", sm)
		u = (nf >= 4) ? f[4] : ""; sub(/ *%$/, "", u)
		ps = (nf >= 5) ? f[5] : "?"
		if (t < 0 || sm !~ /^[0-9]+$/) { bad++; continue }
		if (u !~ /^[0-9]+$/) u = ""
		sm += 0
		if (sm > tmax) tmax = sm
		for (i = 1; i <= np; i++)
			for (w = 1; w <= nw[ph[i]]; w++)
				if (t >= wb[ph[i], w] && t <= we[ph[i], w]) { add(ph[i], sm, u, ps); break }
		# every sample of the trace, for the clock at the top
		add("trace", sm, u, ps)
	}
	for (i = 1; i <= np; i++) {
		p = ph[i]
		printf "%s%s: n=%d windows=%d", (label != "" ? label " " : ""), p, n[p] + 0, nw[p] + 0
		if (n[p] > 0) {
			printf " sm_mhz min/p50/max %d/%d/%d idle<=%d %.0f%% max>=%d %.0f%% util_p50 %s%%", lo[p], pct(p, 0.5, "sm", n[p]), hi[p], idle, 100 * at_idle[p] / n[p], tmax, 100 * h[p, tmax] / n[p], (nu[p] ? pct(p, 0.5, "u", nu[p]) : "-")
			s = ""
			for (k in pst) { split(k, kk, SUBSEP); if (kk[1] == p) s = s (s == "" ? "" : ",") kk[2] ":" pst[k] }
			printf " pstates %s", s
		}
		printf "\n"
	}
	if (bad) printf "%s%d trace lines without a clock value (left out)\n", (label != "" ? label " " : ""), bad
}'
