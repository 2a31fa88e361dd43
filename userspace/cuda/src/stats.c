/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Mean, median and type-7 percentiles; see stats.h for the definition. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)floor(h);

	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

int stats_compute(const double *v, size_t n, struct stats *s)
{
	double *tmp, sum = 0.0;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return -1;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -1;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -1;
	memcpy(tmp, v, n * sizeof(*tmp));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	for (i = 0; i < n; i++)
		sum += tmp[i];
	s->n = n;
	s->mean = sum / (double)n;
	s->p50 = stats_percentile_sorted(tmp, n, 50.0);
	s->median = s->p50;
	s->p95 = stats_percentile_sorted(tmp, n, 95.0);
	s->min = tmp[0];
	s->max = tmp[n - 1];
	free(tmp);
	return 0;
}
