/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A/B arithmetic: which way each metric is "better", its target from the
 * evaluation contract (seed 004 section 3.3), and the oriented ratio.
 *
 * perf % is B relative to A, oriented so that 100 % = native and < 100 % =
 * B worse, for every metric: B/A for throughputs (higher is better), A/B
 * for latencies, times and cycle counts (lower is better).
 *
 * Targets (perf % floor): initialization (cold first-use costs) B <= 2 x A,
 * i.e. perf >= 50 %; bulk copies (>= 1 MiB) and compute >= 95 %; device ->
 * device copies >= 1 MiB ("device copy") >= 90 % (issue #11's D2D target). Warm
 * latencies, small copies and launch throughput have no agreed target yet
 * (the contract leaves sync-heavy factors "to be published"): reported only.
 */
#ifndef PERF_AB_METRICS_H
#define PERF_AB_METRICS_H

#include <stddef.h>

/*
 * What bounds a metric on the B side when the guest runs under an emulated
 * CPU (QEMU TCG) on a forwarding vGPU (issue #11 deliverable 2):
 *   AB_BOUND_GPU      GPU execution time dominates (kernel_fma_*, clock64,
 *                     device -> device copies >= 1 MiB):
 *                     comparable with bare metal whatever the guest CPU is
 *   AB_BOUND_DATA     bytes moved dominate (copies >= 1 MiB): the copy path
 *                     (PCIe/copy engine on A, the vGPU's copy path on B);
 *                     not guest-CPU bound
 *   AB_BOUND_FWD      GPU-timestamped, but around an empty kernel: on B the
 *                     forwarding round trip between two events
 *                     (launch_warm_event_*)
 *   AB_BOUND_GUEST    per-call CPU work in the guest's driver dominates (init,
 *                     contexts, JIT, allocations, host-timed launches, launch
 *                     throughput, small copies incl. device -> device
 *                     ones, each a launch): under TCG these measure the
 *                     emulator, not the vGPU
 * Unknown metrics: AB_BOUND_UNKNOWN. ab-report --bound GLOB=LABEL relabels.
 */
#define AB_BOUND_GPU "GPU"
#define AB_BOUND_DATA "data path"
#define AB_BOUND_FWD "forwarding"
#define AB_BOUND_GUEST "guest CPU (TCG)"
#define AB_BOUND_UNKNOWN "unknown"

struct ab_class {
	const char *klass;       /* "initialization", "bulk copy", ... */
	int dir;                 /* +1 higher is better, -1 lower, 0 unknown */
	double target_perf_pct;  /* 0 = no target */
	const char *target_text; /* human form of the target */
	const char *bound;       /* AB_BOUND_*, or a --bound label */
	int guest_cpu_bound;     /* 1: measures the guest CPU (TCG) on B */
};

void ab_classify(const char *metric, struct ab_class *c);

/*
 * spec is "GLOB=LABEL" (fnmatch GLOB, e.g. "copy_*=host CPU"): if metric
 * matches GLOB, c->bound becomes LABEL (pointing into spec) and
 * c->guest_cpu_bound is set when LABEL is AB_BOUND_GUEST. Returns 1 on a
 * match, 0 on none, -1 for a spec without "=" or with an empty side.
 */
int ab_bound_override(const char *spec, const char *metric, struct ab_class *c);

struct ab_side {
	size_t n;
	double median, min, max;
};

struct ab_row {
	const char *name;
	struct ab_class cls;
	struct ab_side a, b;
	double ratio_pct;     /* 100 * B.median / A.median, unoriented */
	double perf_pct;      /* oriented, see above */
	double perf_lo, perf_hi; /* oriented perf % from the run extremes */
	double spread_a_pct, spread_b_pct; /* 100 * (max - min) / median */
	int flagged;          /* target set and perf_pct below it */
	int within_spread;    /* 100 % lies inside [perf_lo, perf_hi] */
};

/* Fills the computed fields of row from name, a and b. 0, or -1 if a
 * median or extreme is <= 0 (no ratio can be formed). */
int ab_compute(struct ab_row *row);

#endif
