/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The results.json statistics object {n, mean, median, p50, p95, min, max, values}. */
#ifndef PERF_STATS_JSON_H
#define PERF_STATS_JSON_H

#include <jansson.h>
#include <stddef.h>

/* NULL when n == 0 or a value is not finite. */
json_t *stats_json(const double *v, size_t n);

/* Reads "values" of such an object into a new array; NULL if malformed. */
double *stats_json_values(const json_t *obj, size_t *n);

#endif
