#!/bin/sh
# run-rung2.sh — rung 2 on the vfio-user rig: run-rung1.sh --rung2 (same machinery: QEMU 11.1
# TCG, vgsp-vfu built from the core at HEAD, the stock 535 guest), the guest running
# cudacheck after nvidia.ko and nvidia-uvm.ko. Every run-rung1.sh option applies, e.g.
#   scripts/guest/run-rung2.sh --core worktree --cudacheck-args "--iters 2 --max-mib 16"
# Last line: RUNG 2 vfio-user <guest driver version> PASS|FAIL: <evidence>; exit 0 only on PASS.
exec "$(dirname "$0")/run-rung1.sh" --rung2 "$@"
