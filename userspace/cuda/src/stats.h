/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Summary statistics used everywhere in the harness and its tools.
 *
 * Percentile definition (one for every pNN this project reports): linear
 * interpolation between closest ranks, Hyndman & Fan type 7 (the default of
 * R and numpy). For ascending x[0..n-1] and p in [0,100]:
 *     h = (n - 1) * p / 100,  lo = floor(h)
 *     pNN = x[lo] + (h - lo) * (x[lo + 1] - x[lo])   (x[lo] when lo = n - 1)
 * so p0 = min, p100 = max and p50 = median (the mean of the two middle values
 * when n is even). With n = 1 every percentile is that one value.
 */
#ifndef PERF_STATS_H
#define PERF_STATS_H

#include <stddef.h>

struct stats {
	size_t n;
	double mean, median, p50, p95, min, max;
};

/* pNN of an ascending array; n >= 1, 0 <= p <= 100. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

/*
 * Fills *s from v[0..n-1] (any order; v is not modified). Returns 0, or -1
 * when n is 0 or a value is NaN/infinite (no statistics are made up).
 */
int stats_compute(const double *v, size_t n, struct stats *s);

#endif /* PERF_STATS_H */
