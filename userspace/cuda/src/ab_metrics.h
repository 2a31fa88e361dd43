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
 * i.e. perf >= 50 %; bulk copies (>= 1 MiB) and compute >= 95 %. Warm
 * latencies, small copies and launch throughput have no agreed target yet
 * (the contract leaves sync-heavy factors "to be published"): reported only.
 */
#ifndef PERF_AB_METRICS_H
#define PERF_AB_METRICS_H

#include <stddef.h>

struct ab_class {
	const char *klass;       /* "initialization", "bulk copy", ... */
	int dir;                 /* +1 higher is better, -1 lower, 0 unknown */
	double target_perf_pct;  /* 0 = no target */
	const char *target_text; /* human form of the target */
};

void ab_classify(const char *metric, struct ab_class *c);

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
