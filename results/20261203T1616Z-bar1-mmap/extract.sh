#!/bin/sh
# usage: extract.sh LABEL=RUNDIR...
# One table row per nested rung-1 run, every figure read from the run's
# console log (outer-uptime stamps on the inner lines, the debugfs views
# the rig printed after the inner run).
set -eu
echo "| run | verdict | insmod nvidia.ko done | nvidia-smi -L done | nvidia-smi -q done | verdict printed | inner QEMU s | trapped BAR1 reads / writes | trapped BAR3 writes | BAR0 writes | bar1_map faults / mem / dummy / doorbells / zaps |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|"
for lr in "$@"; do
	l=${lr%%=*} r=${lr#*=} c=${lr#*=}/console.txt
	[ -f "$c" ] || tr -d '\r' < "$r/console.log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' > "$c"
	awk -v l="$l" '
	function at(n) { if (!(n in t)) t[n] = sprintf("%.1f s", up - s0) }
	function v(k) { return (k in cv) ? cv[k] : "-" }
	function m(k) { return (k in mv) ? mv[k] : "-" }
	/^rung1n: phase inner-start uptime/ { s0 = $5 + 0 }
	/^rung1n: phase inner-end/ { inner = $7 }
	/^inner\| [0-9.]+\| / { up = $2 + 0 }
	/^inner\| .*insmod nvidia rc=/ { at("insmod") }
	/^inner\| .*nvidia-smi -L rc=/ { at("L") }
	/^inner\| .*nvidia-smi -q rc=/ { at("q") }
	/^inner\| .*VERDICT/ { at("v"); verdict = $0; sub(/.*VERDICT /, "", verdict); sub(/:.*/, "", verdict) }
	/^view\| counters: / { cv[$3] = $4 }
	/^view\| mm: bar1_map_/ { mv[$3] = $4 }
	END {
		printf "| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s / %s / %s / %s / %s |\n", l, verdict,
			t["insmod"], t["L"], t["q"], t["v"], inner, v("bar1_reads"), v("bar1_writes"),
			v("bar3_writes"), v("bar0_writes"), m("bar1_map_faults"), m("bar1_map_mem"),
			m("bar1_map_dummy"), m("bar1_map_doorbells"), m("bar1_map_zaps")
	}' "$c"
done
