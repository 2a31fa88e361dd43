/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Checks of an open-iov-perf/1 document that a JSON Schema cannot express:
 * every statistics object agrees with its own "values" (recomputed with
 * stats.c), n == len(values) <= runs, each run_cfg size has both host copy
 * metrics and, when any size has one, a device -> device one (measured or
 * skipped), no metric both measured and skipped, counters.delta == after - before, status OK implies bad == 0.
 * Run after json_schema_validate (it assumes the shape is right).
 */
#ifndef PERF_RESULTS_CHECK_H
#define PERF_RESULTS_CHECK_H

#include <jansson.h>
#include <stddef.h>

/* Number of problems; messages one a line in err. */
int results_check(const json_t *doc, char *err, size_t errlen);

/* Loads FILE and checks it against SCHEMA and results_check. */
int results_validate_file(const json_t *schema, const char *file, char *err,
			  size_t errlen);

#endif
