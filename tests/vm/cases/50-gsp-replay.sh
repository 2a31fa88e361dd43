#!/bin/sh
# The emulated GSP driven by the guest-driver replay client through VFIO
# (tests/replay): OpenRM 535.261.03's GH100 init sequence, compared with the
# same golden transcript as the in-process unit test; the debugfs views
# afterwards; the bad-input suite, a VFIO reset and a fresh init; the RPC
# round-trip microbenchmark beside a plain BAR0 read.
. /lib/rig.sh

BIN=vgsp-gsp-replay
if ! command -v $BIN >/dev/null 2>&1; then
	skip gsp_replay "$BIN not in the initramfs (make vm-bin)"
	exit 0
fi

# rpc_col GSP_RPC-FILE FUNCTION COLUMN: 1=req 2=ok 3=err of
# "function name req ok err"
rpc_col() { awk -v f="$2" -v c="$3" '$1 == f { print $(c + 2) }' "$1"; }

# --- OpenRM init sequence ---------------------------------------------------
if u=$(mk h100-10g); then
	$BIN "$u" init
	d=$DBG/$u
	if [ -r "$d/gsp_state" ]; then
		# Closing the VFIO device resets it (boot state, version); the
		# statistics below survive resets.
		eq gsp_replay.init.boots "$(kv "$d/gsp_state" boots)" 1
		# Counts are derived from the views, not fixed, so adding a
		# control to the replay does not break them: every command is
		# counted per function; replies = commands - the two
		# fire-and-forget RPCs (72, 73) + INIT_DONE.
		rx=$(awk 'NR > 1 { s += $3 } END { print s + 0 }' "$d/gsp_rpc")
		eq gsp_replay.init.msgs_rx "$(kv "$d/gsp_state" msgs_rx)" "$rx"
		eq gsp_replay.init.msgs_tx "$(kv "$d/gsp_state" msgs_tx)" \
		   $((rx - $(rpc_col "$d/gsp_rpc" 72 1) - $(rpc_col "$d/gsp_rpc" 73 1) + 1))
		for k in checksum_bad elem_count_bad length_bad cmdq_hdr_bad \
			 shm_errors msgs_dropped seq_bad rpc_hdr_bad \
			 unknown_functions statq_full; do
			eq "gsp_replay.init.$k" "$(kv "$d/gsp_state" $k)" 0
		done
		check gsp_replay.init.irqs "no interrupt delivered" \
			test "$(kv "$d/gsp_state" irqs)" -ge 10
		# every RPC counted, none failed: "fn name req ok err"
		for row in "1 1" "65 1" "72 1" "73 1" "103 3" "10 1" "47 1"; do
			set -- $row
			eq "gsp_replay.init.rpc_$1" \
			   "$(rpc_col "$d/gsp_rpc" "$1" 1) $(rpc_col "$d/gsp_rpc" "$1" 2) $(rpc_col "$d/gsp_rpc" "$1" 3)" \
			   "$2 $2 0"
		done
		# GSP_RM_CONTROL: at least the init-time internal controls, all ok
		check gsp_replay.init.rpc_76 "controls missing or failed" \
			test "$(rpc_col "$d/gsp_rpc" 76 1)" -ge 10 -a \
			     "$(rpc_col "$d/gsp_rpc" 76 1)" = "$(rpc_col "$d/gsp_rpc" 76 2)"
		eq gsp_replay.init.rpc_errors \
		   "$(awk 'NR > 1 { s += $5 } END { print s + 0 }' "$d/gsp_rpc")" 0
		# The worklist view names the control the replay asks for that
		# vgsp does not support (MIG profiles: MIG is off, by design).
		check gsp_replay.init.controls_worklist "KMIGMGR_GET_PROFILES not listed as unsupported" \
			grep -q 'KMIGMGR_GET_PROFILES .*0x56' "$d/gsp_controls"
		check gsp_replay.init.latency "no latency samples" \
			grep -qv '^count 0$' "$d/gsp_latency"
		check gsp_replay.init.rpc_log "rpc_log has no GSP_RM_ALLOC" \
			grep -q ' GSP_RM_ALLOC ' "$d/rpc_log"
		eq gsp_replay.init.counters.dma_errors "$(kv "$d/counters" dma_errors)" 0
	else
		fail gsp_replay.init.views "no $d/gsp_state"
	fi
	rm_inst "$u" || fail gsp_replay.init.remove "remove failed"
else
	fail gsp_replay.init.create "create failed"
fi

# --- bad input, then VFIO reset and a fresh init ----------------------------
if u=$(mk h100-10g); then
	$BIN "$u" bad
	d=$DBG/$u
	if [ -r "$d/gsp_state" ]; then
		eq gsp_replay.bad.checksum_bad "$(kv "$d/gsp_state" checksum_bad)" 1
		eq gsp_replay.bad.elem_count_bad "$(kv "$d/gsp_state" elem_count_bad)" 3
		eq gsp_replay.bad.length_bad "$(kv "$d/gsp_state" length_bad)" 2
		eq gsp_replay.bad.rpc_hdr_bad "$(kv "$d/gsp_state" rpc_hdr_bad)" 1
		check gsp_replay.bad.cmdq_hdr_bad "header abuse not counted" \
			test "$(kv "$d/gsp_state" cmdq_hdr_bad)" -ge 4
		eq gsp_replay.bad.unknown_functions "$(kv "$d/gsp_state" unknown_functions)" 1
		eq gsp_replay.bad.version_refused "$(kv "$d/gsp_state" version_refused)" 1
		eq gsp_replay.bad.stops "$(kv "$d/gsp_state" stops)" 1
		# reboot after engine reset + fresh init after VFIO reset
		eq gsp_replay.bad.boots "$(kv "$d/gsp_state" boots)" 3
		check gsp_replay.bad.device_reset "VFIO reset not counted" \
			test "$(kv "$d/counters" resets)" -ge 1
		check gsp_replay.bad.alloc_errors "refused allocs not counted" \
			test "$(rpc_col "$d/gsp_rpc" 103 3)" -ge 7
		check gsp_replay.bad.storm "5000 doorbells not counted" \
			test "$(kv "$d/gsp_state" doorbells)" -gt 5000
		# queue memory unmapped mid-flight (VFIO_IOMMU_UNMAP_DMA)
		check gsp_replay.bad.unmapped_noticed "no failed queue access counted" \
			test "$(kv "$d/gsp_state" shm_errors)" -ge 1
		# (no dma_unmaps check: type1 notifies a vendor driver only for
		# ranges it pinned, and vfio_dma_rw pins nothing persistently)
	else
		fail gsp_replay.bad.views "no $d/gsp_state"
	fi
	rm_inst "$u" || fail gsp_replay.bad.remove "remove failed"
else
	fail gsp_replay.bad.create "create failed"
fi

# --- microbenchmark (TCG: only the ratio means something) -------------------
# Twice on one instance: the RPC fast path off (rpc_inline_us=0, every RPC
# through the worker), then at its default (small RPCs answered in the
# doorbell's trap); each BENCH line names its setting. Then the instance's
# worker threads must use no CPU time while it idles (event-driven).
# GSP_BENCH_N (kernel argument rig.benchn=N): round trips of the default
# setting, the one issue #13's ratio is read from (20 000 unless given, a
# fraction of a second; the worker setting costs milliseconds a round trip
# and stays at 300). Its p50 ratio must stay under 2.5: the target is 2
# (docs/gsp-emulation.md has the runs); 2.5 leaves room for a loaded
# machine and still fails if the trap's path regresses.
# cpu_ticks: utime + stime of every vgsp-* kernel thread
cpu_ticks() {
	for _p in /proc/[0-9]*; do
		case $(cat "$_p/comm" 2>/dev/null) in vgsp-*) awk '{ print $14 + $15 }' "$_p/stat" ;; esac
	done | awk '{ s += $1 } END { print s + 0 }'
}
if u=$(mk h100-10g); then
	def=$(cat $PARAMS/rpc_inline_us)
	echo 0 > $PARAMS/rpc_inline_us
	$BIN "$u" bench 300 |
		sed 's/^BENCH /BENCH rpc_inline_us=0 /; s/^\(PASS\|FAIL\) gsp_replay\.bench/&.worker/'
	echo "$def" > $PARAMS/rpc_inline_us
	# the fast path with the queues' pages through vfio_dma_rw, then pinned
	echo N > $PARAMS/pin_queues
	$BIN "$u" bench 300 |
		sed "s/^BENCH /BENCH rpc_inline_us=$def pin_queues=N /; s/^\(PASS\|FAIL\) gsp_replay\.bench/&.unpinned_path/"
	echo Y > $PARAMS/pin_queues
	$BIN "$u" bench "${GSP_BENCH_N:-20000}" |
		sed "s/^BENCH /BENCH rpc_inline_us=$def pin_queues=Y /" |
		tee /tmp/bench.out
	ratio=$(sed -n 's/^BENCH .* ratio_p50=\([0-9.]*\) .*/\1/p' /tmp/bench.out)
	check gsp_replay.bench.ratio_p50 "RPC p50 ${ratio:-?} x a BAR0 read (> 2.5)" \
		awk -v r="${ratio:-99}" 'BEGIN { exit !(r <= 2.5) }'
	check gsp_replay.bench.inline "no RPC answered in the doorbell's trap" \
		test "$(kv "$DBG/$u/gsp_state" rpcs_inline)" -gt 0
	# the queues' pages were pinned and reused, and let go at close
	cat "$DBG/$u/pincache"
	check gsp_replay.bench.pinned "queue pages never served pinned" \
		test "$(kv "$DBG/$u/pincache" hits)" -gt 1000
	eq gsp_replay.bench.unpinned "$(kv "$DBG/$u/pincache" pinned)" 0
	t0=$(cpu_ticks)
	sleep 3
	eq gsp_replay.bench.idle_cpu_ticks "$(($(cpu_ticks) - t0))" 0
	rm_inst "$u" || fail gsp_replay.bench.remove "remove failed"
else
	fail gsp_replay.bench.create "create failed"
fi

# No WARNING/BUG: checked for the whole run by /init.
