/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The metric names of the open-iov-perf/1 template, in template order (the
 * copy metrics, one pair per run_cfg size, follow them), and the extra
 * metrics this harness adds. Shared by the writer, validator and A/B tool.
 */
#ifndef PERF_METRIC_NAMES_H
#define PERF_METRIC_NAMES_H

#include <stddef.h>

/* Required in every results.json (besides copy_{htod,dtoh}_<size>_gbps). */
extern const char *const metric_required[];
extern const size_t metric_required_count;

/* Harness extras, reported after the template ones. */
extern const char *const metric_extra[];
extern const size_t metric_extra_count;

#endif
