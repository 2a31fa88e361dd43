#!/bin/sh
# run-on-gpu.sh - on the GPU machine: build hostd + the sm_90 cubin + the
# CUDA comparison, run the verified CE copy and compute launch through
# hostd, then print the B/A table (B = hostd, A = CUDA driver API).
# Usage: userspace/hostd/run-on-gpu.sh [LOGDIR]
set -u
here=$(cd "$(dirname "$0")" && pwd)
log=${1:-$here/build/gpu-run}
mkdir -p "$log"
cd "$here" || exit 1

if [ -z "${CUDA_HOME:-}" ]; then
	nv=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
	CUDA_HOME=$(dirname "$(dirname "$nv")")
fi
export PATH="$CUDA_HOME/bin:$PATH"
{
	date -u
	uname -r
	cat /proc/driver/nvidia/version 2>/dev/null
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>/dev/null
	nvcc --version 2>/dev/null | tail -1
	git -C "$here" rev-parse HEAD 2>/dev/null
} >"$log/env.txt" 2>&1
cat "$log/env.txt"

make -s clean >/dev/null
if ! make -s gpu CUDA_HOME="$CUDA_HOME" >"$log/build.txt" 2>&1; then
	cat "$log/build.txt"
	echo "FAIL build"
	exit 1
fi
cuobjdump -sass build/kern.cubin >"$log/kern.sass" 2>&1 || true

./build/vgsp-hostd run --cubin build/kern.cubin >"$log/hostd.txt" 2>&1
hrc=$?
cat "$log/hostd.txt"
./build/cuda_bench build/kern.cubin >"$log/cuda.txt" 2>&1
crc=$?
cat "$log/cuda.txt"

# B/A table from the METRIC lines of both programs
awk '
	$1 == "METRIC" && $2 == "hostd" { b[$3] = $4; order[++n] = $3 }
	$1 == "METRIC" && $2 == "cuda" { a[$3] = $4 }
	END {
		printf "\n| metric | hostd (B) | CUDA driver API (A) | B/A |\n|---|---:|---:|---:|\n"
		for (i = 1; i <= n; i++) {
			m = order[i]
			# async-CE rows are compared with the same CUDA operation
			k = m
			if (m ~ /^asyncce_/) k = substr(m, 9)
			if (m ~ /^multice[0-9]+_/) k = substr(m, index(m, "_") + 1)
			r = (k in a && a[k] + 0 != 0) ? sprintf("%.1f%%", 100 * b[m] / a[k]) : "n/a"
			printf "| %s | %s | %s | %s |\n", m, b[m], (k in a) ? a[k] : "n/a", r
		}
	}' "$log/hostd.txt" "$log/cuda.txt" | tee "$log/ba.md"

grep -q '^PASS ce-copy' "$log/hostd.txt" && ce=PASS || ce=FAIL
grep -q '^PASS compute launch' "$log/hostd.txt" && gr=PASS || gr=FAIL
echo "$ce hostd verified CE copy (16 MiB)"
echo "$gr hostd verified compute launch (QMD)"
[ "$hrc" -eq 0 ] && [ "$crc" -eq 0 ] && [ "$ce" = PASS ] && [ "$gr" = PASS ]
