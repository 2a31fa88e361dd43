#!/bin/sh
# test-rung3.sh — rung 3's tools without a GPU (a few seconds): rung3check (scripts/guest/
# rung3check.c) built as for the guest, its SHA-256 against known vectors and sha256sum, --list,
# --cpu-only (the lines a correct GPU must print) deterministic; its runner against fake libcuda
# libraries (one that hangs in cuInit: the watchdog FAILs the test; one whose calls all "succeed"
# without doing anything: every test FAILs its CPU-reference check); rung3-compare.sh on
# synthetic logs (PASS, a hash or byte-count mismatch, a missing test, a guest FAIL line, a test
# without golden file, --make-golden refusing a failed native run).
# usage: scripts/guest/test-rung3.sh      last line "N passed, N failed"; exit 0 only if none failed
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
G=$ROOT/scripts/guest
CMP=$G/rung3-compare.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=0 F=0
ok() { echo "PASS $1"; P=$((P + 1)); }
ko() { echo "FAIL $1${2:+: $2}"; F=$((F + 1)); }
check() {  # name command...: passes when the command succeeds
	_n=$1; shift
	if "$@" > "$T/out" 2>&1; then ok "$_n"; else ko "$_n" "$(tail -n 3 "$T/out" | tr '\n' ' ')"; fi
}
has() { grep -q -e "$2" "$1"; }         # file pattern
lastline() { tail -n 1 "$1"; }

R=$T/rung3check
if gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$R" "$G/rung3check.c" -ldl 2> "$T/cc.log"; then
	ok "rung3check builds (-std=c11 -Wall -Wextra -Werror)"
else
	ko "rung3check builds" "$(head -n 5 "$T/cc.log" | tr '\n' ' ')"
	echo "$P passed, $((F + 1)) failed"
	exit 1
fi

# --- SHA-256 ---------------------------------------------------------------------------------
check "selftest: sha256 known vectors, 6 chunkings" sh -c "'$R' --selftest | grep -q '^rung3check: selftest ok'"
same_as_sha256sum() {
	for n in 0 1 55 56 63 64 65 119 120 1000003; do
		head -c "$n" /dev/urandom > "$T/f$n"
		a=$("$R" --sha256 "$T/f$n" | cut -d' ' -f1)
		b=$(sha256sum "$T/f$n" | cut -d' ' -f1)
		if [ -z "$a" ] || [ "$a" != "$b" ]; then echo "size $n: $a != $b"; return 1; fi
	done
}
check "sha256 of 10 random files (0..1000003 bytes) equals sha256sum" same_as_sha256sum

# --- options ---------------------------------------------------------------------------------
printf 'vectorAdd\nreduce\nmatmul\nstreams\nmemcpy\nfma\nfault\n' > "$T/want-list"
check "--list names the 7 tests (fault is opt-in)" sh -c "'$R' --list | cmp -s - '$T/want-list'"
check "--only with an unknown test exits 2" sh -c "'$R' --only nosuch; [ \$? = 2 ]"
check "--max-mib 0 is refused (exit 2)" sh -c "'$R' --max-mib 0; [ \$? = 2 ]"
check "--ptx is sm_90 PTX ISA 7.8 with the 7 entry points" sh -c "
	'$R' --ptx > '$T/k.ptx' && grep -q '^.version 7.8' '$T/k.ptx' && grep -q '^.target sm_90' '$T/k.ptx' &&
	[ \$(grep -c '^.visible .entry r3_' '$T/k.ptx') = 7 ]"

# --- --cpu-only: the reference lines, deterministic -------------------------------------------
"$R" --cpu-only --max-mib 1 > "$T/cpu1.log" 2>&1; rc1=$?
"$R" --cpu-only --max-mib 1 > "$T/cpu2.log" 2>&1
if [ "$rc1" = 0 ] && [ "$(grep -c '^rung3check: [A-Za-z]* ok sha256=[0-9a-f]\{64\} bytes=[0-9]*$' "$T/cpu1.log")" = 6 ] &&
   [ "$(lastline "$T/cpu1.log")" = "rung3check: summary tests=6 ok=6 failed=0" ]; then
	ok "--cpu-only: 6 ok lines, summary, exit 0"
else
	ko "--cpu-only: 6 ok lines, summary, exit 0" "rc=$rc1 $(tr '\n' ' ' < "$T/cpu1.log")"
fi
check "--cpu-only twice: identical output (fixed seeds)" cmp -s "$T/cpu1.log" "$T/cpu2.log"
"$R" --cpu-only --max-mib 4 --only memcpy > "$T/cpu4.log" 2>&1
check "--max-mib changes memcpy's byte count (3 read-backs of 4 KiB..1 MiB: 4190208 bytes, ..4 MiB: 16773120)" sh -c "
	grep -q 'memcpy ok .* bytes=4190208\$' '$T/cpu1.log' && grep -q 'memcpy ok .* bytes=16773120\$' '$T/cpu4.log'"

# --- the runner against fake libcuda libraries -------------------------------------------------
# Every entry point rung3check dlsyms, from its CU_FUNCS list.
syms=$(sed -n 's/^[[:space:]]*X(\(cu[A-Za-z0-9_]*\),.*/\1/p' "$G/rung3check.c")
mkstub() {  # out.so  body-of-cuInit
	{
		echo '#include <stdlib.h>'
		echo '#include <unistd.h>'
		for s in $syms; do
			case $s in
			cuInit) echo "int cuInit(void) { $2 }" ;;
			cuMemAllocHost_v2) echo 'int cuMemAllocHost_v2(void **p, size_t n) { *p = malloc(n); return *p ? 0 : 2; }' ;;
			cuMemFreeHost) echo 'int cuMemFreeHost(void *p) { free(p); return 0; }' ;;
			cuMemAlloc_v2) echo 'static unsigned long long va = 1 << 20;'
				echo 'int cuMemAlloc_v2(unsigned long long *p, size_t n) { *p = va; va += n + 4096; return 0; }' ;;
			cuModuleGetFunction) echo 'int cuModuleGetFunction(void **f) { *f = f; return 0; }' ;;
			*) echo "int $s(void) { return 0; }" ;;
			esac
		done
	} > "$T/stub.c"
	gcc -shared -fPIC -o "$1" "$T/stub.c"
}
if [ "$(echo "$syms" | wc -w)" -ge 30 ] && mkstub "$T/libhang.so" 'for (;;) pause(); return 0;' &&
   mkstub "$T/liblie.so" 'return 0;'; then
	ok "fake libcuda libraries built ($(echo "$syms" | wc -w) entry points)"
else
	ko "fake libcuda libraries built" "$(echo "$syms" | wc -w) entry points"
fi

RUNG3CHECK_LIBCUDA=$T/nonexistent.so "$R" --only reduce > "$T/nolib.log" 2>&1; rc=$?
check "no libcuda: the test FAILs (dlopen), summary failed=1, exit 1" sh -c "[ $rc = 1 ] &&
	grep -q '^rung3check: reduce FAIL dlopen' '$T/nolib.log' &&
	[ \"\$(tail -n 1 '$T/nolib.log')\" = 'rung3check: summary tests=1 ok=0 failed=1' ]"

t0=$(date +%s)
RUNG3CHECK_LIBCUDA=$T/libhang.so "$R" --timeout 1 --only vectorAdd --max-mib 1 > "$T/hang.log" 2>&1; rc=$?
t1=$(date +%s)
check "a hang in cuInit: watchdog FAIL line in ~1 s, exit 1" sh -c "[ $rc = 1 ] && [ $((t1 - t0)) -le 10 ] &&
	grep -q '^rung3check: vectorAdd FAIL watchdog: no completion in 1 s (stage cuInit)' '$T/hang.log' &&
	grep -q '^rung3check: summary tests=1 ok=0 failed=1' '$T/hang.log'"
RUNG3CHECK_LIBCUDA=$T/libhang.so "$R" --timeout 1 --no-fork --max-mib 1 > "$T/hang2.log" 2>&1; rc=$?
check "--no-fork: the watchdog ends the program, the tests not run count as failed" sh -c "[ $rc = 3 ] &&
	grep -q '^rung3check: vectorAdd FAIL watchdog' '$T/hang2.log' &&
	[ \"\$(tail -n 1 '$T/hang2.log')\" = 'rung3check: summary tests=6 ok=0 failed=6' ]"

RUNG3CHECK_LIBCUDA=$T/liblie.so "$R" --timeout 60 --max-mib 1 > "$T/lie.log" 2>&1; rc=$?
check "a GPU that does nothing: every test FAILs its CPU reference, exit 1" sh -c "[ $rc = 1 ] &&
	[ \"\$(grep -c '^rung3check: [A-Za-z]* FAIL .*mismatch at element' '$T/lie.log')\" = 4 ] &&
	grep -q '^rung3check: streams FAIL cuEventElapsedTime' '$T/lie.log' &&
	grep -q '^rung3check: fma FAIL' '$T/lie.log' &&
	[ \"\$(tail -n 1 '$T/lie.log')\" = 'rung3check: summary tests=6 ok=0 failed=6' ]"

# --- rung3-compare.sh ----------------------------------------------------------------------------
GD=$T/golden
"$CMP" --make-golden "$T/cpu1.log" "$GD" > "$T/mg.log" 2>&1; rc=$?
check "--make-golden: 6 golden files, each the native line" sh -c "[ $rc = 0 ] &&
	[ \$(ls '$GD'/*.golden | wc -l) = 6 ] &&
	[ \"\$(cat '$GD/matmul.golden')\" = \"\$(grep '^rung3check: matmul ok' '$T/cpu1.log')\" ]"

cmpl() {  # name guest-log want-rc want-pattern-in-RUNG-line [want-pattern-anywhere]
	"$CMP" "$GD" "$2" > "$T/cmp.out" 2>&1; _rc=$?
	_r=$(grep -c '^RUNG 3 ' "$T/cmp.out")
	_l=$(grep '^RUNG 3 ' "$T/cmp.out")
	if [ "$_rc" = "$3" ] && [ "$_r" = 1 ] && [ "$(lastline "$T/cmp.out")" = "$_l" ] &&
	   echo "$_l" | grep -q -e "$4" && { [ -z "${5:-}" ] || has "$T/cmp.out" "$5"; }; then
		ok "$1"
	else
		ko "$1" "rc=$_rc RUNG lines=$_r: $(tr '\n' '|' < "$T/cmp.out")"
	fi
}
# A console: CRs, prefixes, kernel lines, note lines around the result lines.
{
	printf 'rung3: [12.3] rung3check --max-mib 1\r\n'
	printf '[   13.0] NVRM: something\r\n'
	sed 's/$/\r/; s/^rung3check: vectorAdd/[  14.1] rung3check: vectorAdd/' "$T/cpu1.log"
	printf 'dmesg: [   14.0] rung3check: vectorAdd begins\r\n'
	printf 'rung3: [20.0] rung3check rc=0\r\n'
} > "$T/guest-ok.log"
cmpl "compare: identical hashes PASS (6 tests, console noise tolerated)" "$T/guest-ok.log" 0 \
	'^RUNG 3 vfio-user-hostd 535.261.03 PASS: 6 tests byte-identical to native (vectorAdd reduce matmul streams memcpy fma)$' \
	'^R3 reduce PASS ([0-9a-f]\{64\} / [0-9a-f]\{64\})$'

# the first hex digit of matmul's sha256 changed: 0 becomes 1, anything else 0
first=$(sed -n 's/^rung3check: matmul ok sha256=\(.\).*/\1/p' "$T/cpu1.log")
[ "$first" = 0 ] && rep=1 || rep=0
sed "s/^\(rung3check: matmul ok sha256=\)./\1$rep/" "$T/cpu1.log" > "$T/g-sha.log"
cmpl "compare: one differing sha256 FAILs, naming the test" "$T/g-sha.log" 1 \
	'FAIL: matmul: sha256 differs' '^R3 matmul FAIL'
sed 's/^\(rung3check: reduce ok .* bytes=\)\([0-9]*\)$/\11\2/' "$T/cpu1.log" > "$T/g-bytes.log"
cmpl "compare: a differing byte count FAILs" "$T/g-bytes.log" 1 'FAIL: reduce: hashed 1[0-9]* bytes'
grep -v '^rung3check: streams ' "$T/cpu1.log" > "$T/g-miss.log"
cmpl "compare: a missing test FAILs" "$T/g-miss.log" 1 'FAIL: streams: no result line in the guest log'
sed 's/^rung3check: memcpy ok .*/rung3check: memcpy FAIL cuMemcpyDtoD rc=719 CUDA_ERROR_LAUNCH_FAILED/' \
	"$T/cpu1.log" > "$T/g-fail.log"
cmpl "compare: a guest FAIL line FAILs with its reason" "$T/g-fail.log" 1 \
	'FAIL: memcpy: guest FAIL: cuMemcpyDtoD rc=719 CUDA_ERROR_LAUNCH_FAILED'
{ cat "$T/cpu1.log"; echo "rung3check: memcpy FAIL process killed by signal 11"; } > "$T/g-late.log"
cmpl "compare: a FAIL line after the ok line FAILs" "$T/g-late.log" 1 'FAIL: memcpy: guest FAIL: process killed'
sed 's/^\(rung3check: vectorAdd ok sha256=[0-9a-f]\{20\}\)/\1[ 15.2] NVRM: x\n/' "$T/cpu1.log" > "$T/g-split.log"
cmpl "compare: a line cut by a kernel message FAILs (malformed)" "$T/g-split.log" 1 'FAIL: vectorAdd: malformed guest line'
{ cat "$T/cpu1.log"; echo "rung3check: extra ok sha256=$(printf '%064d' 0) bytes=4"; } > "$T/g-extra.log"
cmpl "compare: a guest test without golden file FAILs" "$T/g-extra.log" 1 'FAIL: extra: no golden file'
mkdir -p "$T/empty"
rm "$GD/streams.golden"
cmpl "compare: a golden set without streams still judges the rest (guest streams FAILs: no golden)" \
	"$T/guest-ok.log" 1 'FAIL: streams: no golden file'
"$CMP" "$T/empty" "$T/guest-ok.log" > "$T/cmp.out" 2>&1; rc=$?
check "compare: an empty golden directory exits 1 with one RUNG FAIL line" sh -c "[ $rc = 1 ] &&
	[ \$(grep -c '^RUNG 3 .* FAIL: no golden files' '$T/cmp.out') = 1 ]"

# --make-golden refuses a failed or unfinished native run and writes nothing.
refuses() {  # name native-log
	rm -rf "$T/g2"
	"$CMP" --make-golden "$2" "$T/g2" > "$T/mg.out" 2>&1; _rc=$?
	if [ "$_rc" = 1 ] && [ ! -e "$T/g2" ] && has "$T/mg.out" 'refusing'; then ok "$1"
	else ko "$1" "rc=$_rc $(tr '\n' ' ' < "$T/mg.out")"; fi
}
refuses "--make-golden refuses a native run with a FAIL line" "$T/g-fail.log"
grep -v summary "$T/cpu1.log" > "$T/n-nosum.log"
refuses "--make-golden refuses a native run without summary line" "$T/n-nosum.log"
sed 's/failed=0/failed=1/' "$T/cpu1.log" > "$T/n-sumfail.log"
refuses "--make-golden refuses a native summary with failed=1" "$T/n-sumfail.log"
echo "nothing here" > "$T/n-empty.log"
refuses "--make-golden refuses a log without test lines" "$T/n-empty.log"
refuses "--make-golden refuses a malformed native line" "$T/g-split.log"

echo "$P passed, $F failed"
[ "$F" = 0 ]
