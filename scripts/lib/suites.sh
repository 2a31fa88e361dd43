# shellcheck shell=sh
# `test`: run every suite, each ending with "N passed, N failed", and sum
# them into one final line. A suite that dies before its summary line
# counts as one failure, so a crash can never read as success.

TOTAL_P=0
TOTAL_F=0
SUITE_LINES=

suite_add() {  # name passed failed seconds
	TOTAL_P=$((TOTAL_P + $2))
	TOTAL_F=$((TOTAL_F + $3))
	SUITE_LINES="$SUITE_LINES$(printf '  %-22s %4s passed, %3s failed  (%ss)' "$1" "$2" "$3" "$4")
"
}

# A suite is a command that prints its own "N passed, N failed" line and
# exits non-zero on failure: run_cmd_suite NAME CMD [ARGS...]
run_cmd_suite() {
	_name=$1; shift
	_log=$BUILD/logs/$_name.log
	_t0=$(now)
	log "suite $_name: $*"
	_rc=0
	"$@" >"$_log" 2>&1 || _rc=$?
	_s=$(summary_of "$_log")
	if [ -z "$_s" ]; then
		tail -n 20 "$_log" >&2
		echo "FAIL $_name: no summary line (exit $_rc, log $_log)"
		suite_add "$_name" 0 1 $(($(now) - _t0))
		return
	fi
	set -- "$_name" $_s
	[ "$_rc" = 0 ] || [ "$3" != 0 ] || { echo "FAIL $1: exit $_rc with 0 failed"; set -- "$1" "$2" 1; }
	grep -aE '^FAIL|\[  FAILED  \]' "$_log" | head -n 30 || true
	suite_add "$1" "$2" "$3" $(($(now) - _t0))
}

# A make-based unit suite: run_make_suite NAME DIR TARGET
run_make_suite() {
	run_cmd_suite "$1" make -C "$2" "$3"
}

has_target() { [ -f "$1/Makefile" ] && grep -q "^$2:" "$1/Makefile"; }

run_unit_suites() {
	if has_target "$ROOT" unit; then run_make_suite unit "$ROOT" unit
	else echo "FAIL unit: top-level Makefile has no 'unit' target"; suite_add unit 0 1 0; fi
	# Every userspace sub-project with a `test` target (cuda, hostd, vfu, ...).
	for _sp in "$ROOT"/userspace/*/; do
		_sp=${_sp%/}
		has_target "$_sp" test && run_make_suite "userspace-${_sp##*/}" "$_sp" test
	done
	# Host tools with a test target (vgsp-smi: fake sysfs/debugfs tree, schema).
	has_target "$ROOT/tools/vgsp-smi" test && run_make_suite tools-vgsp-smi "$ROOT/tools/vgsp-smi" test
	return 0
}

# Runs in a subshell (die exits it): build for kernel $1 and boot the tests.
vm_suite_body() {
	_log=$2
	_t0=$(now)
	prepare_kernel "$1"
	_t1=$(now)
	log "suite vm-$1: booting $KREL under TCG"
	_rc=0
	vm_boot test "$_log" || _rc=$?
	echo "$_rc" >"$_log.rc"
	echo "$KREL prepare $((_t1 - _t0))s boot+tests $(($(now) - _t1))s" >"$_log.time"
}

run_vm_suite() {
	_log=$BUILD/logs/vm-$1.log
	rm -f "$_log" "$_log.rc" "$_log.time" "$_log.qemu"
	_t0=$(now)
	(vm_suite_body "$1" "$_log") || true
	_qrc=$(cat "$_log.rc" 2>/dev/null || echo none)
	_s=$(summary_of "$_log")
	if [ "${RIG_VERBOSE:-}" ]; then
		grep -aE '^(PASS|FAIL|SKIP|==|  )' "$_log" | tr -d '\r' || true
	else
		grep -aE '^(FAIL|SKIP) ' "$_log" 2>/dev/null | tr -d '\r' || true
	fi
	[ -f "$_log.time" ] && log "vm-$1: $(cat "$_log.time")"
	if [ -z "$_s" ]; then
		echo "FAIL vm-$1: no summary line (QEMU exit $_qrc; log $_log)"
		[ -f "$_log" ] && tail -n 40 "$_log" | tr -d '\r'
		[ -f "$_log.qemu" ] && cat "$_log.qemu"
		suite_add "vm-$1" 0 1 $(($(now) - _t0))
		return
	fi
	set -- "$1" $_s
	if [ "$_qrc" != 33 ] && [ "$3" = 0 ]; then
		echo "FAIL vm-$1: guest reported 0 failed but QEMU exited $_qrc (want 33)"
		set -- "$1" "$2" 1
	fi
	suite_add "vm-$1" "$2" "$3" $(($(now) - _t0))
}

# Kernel style of kernel/: checkpatch + sparse against the 6.12 headers the
# VM suite unpacked (tools/lint-kernel.sh).
run_lint_suite() {
	_hdr=$(ls -d "$CACHE"/kernels/6.12*/root/usr/src/linux-headers-*-amd64 2>/dev/null | head -n 1)
	if [ -z "$_hdr" ]; then
		echo "FAIL lint: no 6.12 kernel headers (run the vm-6.12 suite first)"
		suite_add lint 0 1 0
		return
	fi
	run_cmd_suite lint "$ROOT/tools/lint-kernel.sh" "$_hdr"
}

# Rung 1: the stock NVIDIA 535 guest driver against the core through
# vfio-user (scripts/guest/run-rung1.sh builds QEMU 11.1, the guest image
# and vgsp-vfu on first use, then caches them).
rung1_check() {
	_r1=0
	(cd "$ROOT" && scripts/guest/run-rung1.sh "$@") || _r1=$?
	if [ "$_r1" = 0 ]; then
		echo "PASS rung1.vfio-user"
		echo "1 passed, 0 failed"
	else
		echo "FAIL rung1.vfio-user: run-rung1.sh exit $_r1"
		echo "0 passed, 1 failed"
	fi
	return "$_r1"
}

run_rung1_suite() {
	run_cmd_suite rung1-vfio-user rung1_check
	grep -a 'VERDICT' "$BUILD/logs/rung1-vfio-user.log" | tail -n 1 || true
}

run_all_suites() {
	_unit=$1; shift
	mkdir -p "$BUILD/logs"
	[ -z "$_unit" ] || run_unit_suites
	[ -z "$_unit" ] || run_make_suite fuzz "$ROOT/tests/fuzz" test
	for _k in "$@"; do run_vm_suite "$_k"; done
	[ -z "$_unit" ] || run_lint_suite
	[ -z "$_unit" ] || [ -n "${VGSP_NO_RUNG1:-}" ] || run_rung1_suite
	echo "suites:"
	printf '%s' "$SUITE_LINES"
	echo "$TOTAL_P passed, $TOTAL_F failed" | tee "$BUILD/logs/summary.txt"
	[ "$TOTAL_F" = 0 ]
}
