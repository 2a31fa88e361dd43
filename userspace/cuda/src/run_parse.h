/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Reads back one perf-harness output (see harness_main.c for the format). */
#ifndef PERF_RUN_PARSE_H
#define PERF_RUN_PARSE_H

#include <stddef.h>

#define RUN_MAX_METRICS 96
#define RUN_NAME_LEN 64
#define RUN_MAX_SKIPPED 32
#define RUN_REASON_LEN 256

struct run_metric {
	char name[RUN_NAME_LEN];
	double value;
};

/* "skipped NAME REASON": a metric the run did not measure, and why. */
struct run_skip {
	char name[RUN_NAME_LEN];
	char reason[RUN_REASON_LEN];
};

struct run_result {
	char device[256];
	char n_warm[32], n_malloc[32], n_thru[32], sizes[256];
	int driver_api_version;
	struct run_metric m[RUN_MAX_METRICS];
	size_t nm;
	struct run_skip skipped[RUN_MAX_SKIPPED];
	size_t nskipped;
	unsigned long long checks, bad; /* from the "verify" line */
	int has_verify;
	int status_ok; /* "status OK" seen */
};

/*
 * Parses a harness output file. Returns 0 on success; -1 with a message in
 * err for a file that is missing, has a malformed line, a duplicate or
 * non-finite metric, a skipped line without a reason or for a metric it
 * also measured, or lacks the header. A run that ended in "status FAIL"
 * still parses (status_ok = 0) so its partial numbers are not lost silently.
 */
int run_parse_file(const char *path, struct run_result *r, char *err,
		   size_t errlen);

/* The value of metric name, or NULL. */
const double *run_metric_get(const struct run_result *r, const char *name);

/* The reason metric name was skipped, or NULL. */
const char *run_skipped_get(const struct run_result *r, const char *name);

#endif /* PERF_RUN_PARSE_H */
