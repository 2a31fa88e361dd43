# shellcheck shell=sh
# Shared helpers for stack_manager.sh: paths, logging, fail-fast checks.
# Sourced, never run. Callers set ROOT (repo root) before sourcing.

: "${ROOT:?ROOT must be set}"
CACHE=${VGSP_CACHE:-$ROOT/.cache}
BUILD=$ROOT/build

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# A missing host tool is a setup problem: say which, in one line.
need() {
	for _t in "$@"; do
		command -v "$_t" >/dev/null 2>&1 || die "missing tool '$_t' (run: scripts/stack_manager.sh setup)"
	done
}

# Seconds since the epoch, for the per-step timings printed in logs.
now() { date +%s; }

# "N passed, N failed" lines are the suite protocol: pull the two numbers
# out of the last such line of a file (prints "P F", or nothing).
summary_of() {
	grep -aE '^[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -n 1 |
		sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/'
}
