#!/bin/sh
# Turn kernels.ptx into a C string so the harness carries its device code
# and needs only libcuda at run time. Usage: embed_ptx.sh IN.ptx OUT.c
set -eu
in=$1
out=$2
{
	echo '/* Generated from kernels/kernels.ptx by kernels/embed_ptx.sh; do not edit. */'
	echo '#include "kernels_ptx.h"'
	echo 'const char perf_kernels_ptx[] ='
	# Escape backslashes and quotes; every line becomes "...\n".
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$in"
	echo ';'
} >"$out.tmp"
mv "$out.tmp" "$out"
