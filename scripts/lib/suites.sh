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

# vgsp-vfu under hostile VMMs (userspace/vfu/tests/vfu_stress.c): the VMM
# SIGKILLed at random points x100 with a fresh VMM checking the device after
# each kill (~5 s), and 16 instances with 8 hostile VMMs next to 8 timed
# well-behaved ones (~15 s). --long: x1000 and 60 s.
run_vfu_stress_suites() {
	if [ "${RIG_LONG:-}" ]; then
		run_cmd_suite vfu-vmm-kill make -C "$ROOT/userspace/vfu" vmm-kill KILL_ITERS=1000
		run_cmd_suite vfu-tenants make -C "$ROOT/userspace/vfu" tenants TENANT_SECS=60
	else
		run_make_suite vfu-vmm-kill "$ROOT/userspace/vfu" vmm-kill
		run_make_suite vfu-tenants "$ROOT/userspace/vfu" tenants
	fi
}

# The stock guest under faults, on vfio-user (docs/security.md): rebooted in flight by a QMP
# system_reset with vgsp-vfu up, rung 1 after every reboot (x2, ~3 min; x20 with --long); the
# VMM SIGKILLed during CUDA copies (copy-engine work in flight), then a fresh guest's rung 2 on
# the same instance (x2, ~2 min; x100 with --long).
run_guest_fault_suites() {
	if [ "${RIG_LONG:-}" ]; then
		run_cmd_suite guest-reboot sh "$ROOT/scripts/guest/reboot-guest.sh" --iters 20
		run_cmd_suite guest-kill-copy sh "$ROOT/scripts/guest/vmm-kill-guest.sh" --copy --iters 100
	else
		run_cmd_suite guest-reboot sh "$ROOT/scripts/guest/reboot-guest.sh" --iters 2
		run_cmd_suite guest-kill-copy sh "$ROOT/scripts/guest/vmm-kill-guest.sh" --copy --iters 2
	fi
}

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
	# Rung 3's tools without a GPU: rung3check (SHA-256 vectors, --list, --cpu-only, its
	# runner on fake libcuda libraries) and rung3-compare.sh on synthetic logs (~10 s).
	run_cmd_suite guest-rung3 sh "$ROOT/scripts/guest/test-rung3.sh"
	# The guest half of issue #11's B/A pair (~6 s): console-emit/console-extract round trips
	# (kernel lines, CRs, spliced and cut-short blocks), vfu-stats-dir.sh, scripts/h200/ba.sh
	# --post-only on a made-up out dir.
	run_cmd_suite guest-perf sh "$ROOT/scripts/guest/test-perf.sh"
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

# The newest kernel Debian ships (scripts/lib/kernel.sh, newest_fetch): vgsp.ko must build
# against it without a warning. A compile check, no boot. A failed resolve, download or build is
# a FAIL with its reason, never a skip. Names: run_cmd_suite's _name/_log/_t0/_rc/_s stay intact.
newest_check() {
	_nw0=$(now)
	_nwerr=$BUILD/logs/module-newest.err
	_nwrc=0
	# A subshell: die exits it, not the run.
	(
		_c0=$(now)
		_cold=cached
		[ -n "$(ls "$CACHE"/kernels/newest-*/.done 2>/dev/null)" ] || _cold=cold
		newest_fetch
		_c1=$(now)
		newest_module_build
		echo "$KREL ($KVER from $NSUITE) with ${NEWEST_CC:-?}: vgsp.ko built, 0 warnings;" \
			"fetch $((_c1 - _c0)) s ($_cold), build $(($(now) - _c1)) s" >"$_nwerr.ok"
	) 2>"$_nwerr" || _nwrc=$?
	cat "$_nwerr"
	if [ "$_nwrc" = 0 ] && [ -f "$_nwerr.ok" ]; then
		echo "PASS module-newest: $(cat "$_nwerr.ok")"
		rm -f "$_nwerr.ok"
		echo "1 passed, 0 failed"
		return 0
	fi
	_nwwhy=$(grep '^error: ' "$_nwerr" | tail -n 1 | sed 's/^error: //')
	echo "FAIL module-newest: ${_nwwhy:-exit $_nwrc without a reason} ($(($(now) - _nw0)) s)"
	echo "0 passed, 1 failed"
	return 1
}

run_newest_suite() {
	rm -f "$BUILD/logs/module-newest.err.ok"
	run_cmd_suite module-newest newest_check
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

# --- The ladder ---------------------------------------------------------------------------
# Rung N on a path is one suite, rung<N>-<path>; each ends its log with exactly one line
#   RUNG <N> <path> <guest driver version> PASS|FAIL: <evidence>
# which `test` repeats after the suite table.
#   rung 1: the stock NVIDIA 535 guest lists the vGPU (nvidia-smi -L/-q, no Xid)
#   rung 2: cuInit, contexts, allocations, copy-engine copies verified byte for byte, streams,
#           events, a PTX module; the work libcuda gives the SMs (DtoD, memsets, the launch)
#           verified or, on sim (no SMs), refused cleanly (scripts/guest/cudacheck.c)
# Paths: vfio-user (scripts/guest/run-rung1.sh [--rung2]: QEMU vfio-user-pci -> vgsp-vfu,
# about 1 min a rung once cached) and kernel (scripts/guest/run-rung1-nested.sh [--rung2]:
# QEMU vfio-pci,sysfsdev= on a vgsp.ko instance inside the 6.12 TCG VM, 6 min for rung 1,
# far longer for rung 2: opt-in, `test --rung 2 --path kernel`).
#
# VGSP_DEFAULT_RUNG: how far plain `test` climbs on vfio-user; the environment may override
# it for one run. VGSP_RUNG2_ARGS / VGSP_RUNG2_NESTED_ARGS: cudacheck's options per path.
VGSP_DEFAULT_RUNG=${VGSP_DEFAULT_RUNG:-2}
VGSP_RUNG2_ARGS=${VGSP_RUNG2_ARGS:---iters 3 --max-mib 64}
VGSP_RUNG2_NESTED_ARGS=${VGSP_RUNG2_NESTED_ARGS:---iters 1 --max-mib 1 --async-kib 64 --stage-timeout 900}
LADDER_LINES=

# ladder_check RUNG PATH: run one rung's script, print its log and its suite line.
ladder_check() {
	_lr=0
	case $1-$2 in
	1-vfio-user) (cd "$ROOT" && scripts/guest/run-rung1.sh) || _lr=$? ;;
	2-vfio-user) (cd "$ROOT" && scripts/guest/run-rung2.sh \
			--cudacheck-args "$VGSP_RUNG2_ARGS") || _lr=$? ;;
	1-kernel)    (cd "$ROOT" && scripts/guest/run-rung1-nested.sh) || _lr=$? ;;
	2-kernel)    (cd "$ROOT" && scripts/guest/run-rung1-nested.sh --rung2 \
			--cudacheck-args "$VGSP_RUNG2_NESTED_ARGS") || _lr=$? ;;
	*) echo "RUNG $1 $2 ? FAIL: no such rung/path"; _lr=2 ;;
	esac
	# run-rung1-nested.sh prints its own "N passed, N failed"; this line is the last word.
	if [ "$_lr" = 0 ]; then
		echo "PASS rung$1.$2"
		echo "1 passed, 0 failed"
	else
		echo "FAIL rung$1.$2: exit $_lr"
		echo "0 passed, 1 failed"
	fi
	return "$_lr"
}

# run_ladder N PATH: rung 1 .. N on PATH, one suite each; a failed rung stops the climb
# (the rungs above it are reported FAIL: not run).
run_ladder() {
	# (sh has no locals: these names must not clash with run_cmd_suite's _name/_log/_t0/_rc/_s)
	_n=$1 _path=$2 _r=1 _stop=
	case $_n in [1-9]) ;; *) echo "FAIL ladder: --rung wants 1 or 2, got '$_n'"; suite_add ladder 0 1 0; return ;; esac
	case $_path in vfio-user | kernel) ;; *)
		echo "FAIL ladder: --path wants vfio-user or kernel, got '$_path'"; suite_add ladder 0 1 0; return ;; esac
	while [ "$_r" -le "$_n" ]; do
		# a non-default guest driver (test --driver) names its own suites
		_ls=rung$_r-$_path${NV_VER:+-$NV_VER}
		if [ -n "$_stop" ]; then
			_l="RUNG $_r $_path ${NV_VER:-535.261.03} FAIL: not run (rung $_stop failed)"
			echo "FAIL $_ls: not run (rung $_stop failed)"
			suite_add "$_ls" 0 1 0
		else
			run_cmd_suite "$_ls" ladder_check "$_r" "$_path"
			_l=$(grep -a '^RUNG ' "$BUILD/logs/$_ls.log" | tail -n 1)
			[ -n "$_l" ] || _l="RUNG $_r $_path ${NV_VER:-535.261.03} FAIL: no RUNG line (log $BUILD/logs/$_ls.log)"
			[ "$(echo "$_l" | cut -d' ' -f5)" = PASS: ] || _stop=$_r
		fi
		echo "$_l"
		LADDER_LINES="$LADDER_LINES$_l
"
		_r=$((_r + 1))
	done
}

# BAR3 mapped into the guest (vgsp-vfu --mmap, docs/rung1-guest.md): rung 1 passes with it,
# the mapping carries BAR3's traffic (317 064 trapped writes without it, 624 with it) and no
# page BAR2 maps is left unshared. About 40 s.
bar3_mmap_check() {
	_lr=0 _d=
	_out=$(cd "$ROOT" && scripts/guest/run-rung1.sh --mmap) || _lr=$?
	echo "$_out" | tail -n 3
	_d=$(echo "$_out" | sed -n 's/^run-rung1: results in //p' | tail -n 1)
	_st=$_d/vfu-stats.txt
	_w=$(awk '$1 == "bar3_writes" { print $2 }' "$_st" 2>/dev/null)
	_u=$(awk '$1 == "bar3_share" { for (i = 2; i < NF; i++) if ($i == "unshared_peak") print $(i + 1) }' "$_st" 2>/dev/null)
	_p=0 _f=0
	if [ "$_lr" = 0 ]; then echo "PASS bar3_mmap.rung1"; _p=$((_p + 1)); else echo "FAIL bar3_mmap.rung1: exit $_lr"; _f=$((_f + 1)); fi
	if [ -n "$_w" ] && [ "$_w" -lt 10000 ]; then echo "PASS bar3_mmap.trapped_writes ($_w)"; _p=$((_p + 1)); else echo "FAIL bar3_mmap.trapped_writes: '$_w' (stats $_st)"; _f=$((_f + 1)); fi
	if [ "$_u" = 0 ]; then echo "PASS bar3_mmap.unshared_peak"; _p=$((_p + 1)); else echo "FAIL bar3_mmap.unshared_peak: '$_u'"; _f=$((_f + 1)); fi
	echo "$_p passed, $_f failed"
	[ "$_f" = 0 ]
}

# run_ladder_driver VER N: run_ladder N vfio-user with guest driver VER (NV_VER), then the
# caller's NV_VER back.
run_ladder_driver() {
	_nv_was=${NV_VER-} _nv_set=${NV_VER+1}
	NV_VER=$1; export NV_VER
	run_ladder "$2" vfio-user
	if [ -n "$_nv_set" ]; then NV_VER=$_nv_was; else unset NV_VER; fi
}

print_totals() {
	echo "suites:"
	printf '%s' "$SUITE_LINES"
	[ -z "$LADDER_LINES" ] || { echo "ladder:"; printf '%s' "$LADDER_LINES"; }
	echo "$TOTAL_P passed, $TOTAL_F failed" | tee "$BUILD/logs/summary.txt"
	[ "$TOTAL_F" = 0 ]
}

# `test --rung N [--path P]`: the ladder only.
run_ladder_suites() {
	mkdir -p "$BUILD/logs"
	run_ladder "$1" "$2"
	print_totals
}

run_all_suites() {
	_unit=$1; shift
	mkdir -p "$BUILD/logs"
	# The first test kernel's headers are fetched before the unit suites: the
	# deploy check (DKMS build) in tools-vgsp-smi builds against them, and the
	# VM suite needs them anyway (so a fresh clone tests DKMS, never skips it).
	case " $* " in *" 6.12 "*) [ -z "$_unit" ] || kernel_fetch 6.12 ;; esac
	[ -z "$_unit" ] || run_unit_suites
	[ -z "$_unit" ] || run_vfu_stress_suites
	[ -z "$_unit" ] || run_make_suite fuzz "$ROOT/tests/fuzz" test
	for _k in "$@"; do
		case $_k in newest) run_newest_suite ;; *) run_vm_suite "$_k" ;; esac
	done
	[ -z "$_unit" ] || run_lint_suite
	[ -z "$_unit" ] || [ -n "${VGSP_NO_RUNG1:-}" ] || run_ladder "$VGSP_DEFAULT_RUNG" vfio-user
	[ -z "$_unit" ] || [ -n "${VGSP_NO_RUNG1:-}" ] || run_cmd_suite rung1-vfio-user-mmap bar3_mmap_check
	# The same rungs with the stock 550 guest (abi/r550, docs/abi-versions.md): its own image
	# (trixie's driver on the same 6.1 kernel), suites rungN-vfio-user-550.163.01.
	[ -z "$_unit" ] || [ -n "${VGSP_NO_RUNG1:-}" ] || run_ladder_driver 550.163.01 "$VGSP_DEFAULT_RUNG"
	# Two stock guests at once, each on its own vgsp-vfu instance, rung 1 in each (the
	# demo's script; about 2 min).
	[ -z "$_unit" ] || [ -n "${VGSP_NO_RUNG1:-}" ] || run_cmd_suite two-guests "$ROOT/scripts/guest/demo-two.sh"
	[ -z "$_unit" ] || [ -n "${VGSP_NO_RUNG1:-}" ] || run_guest_fault_suites
	print_totals
}
