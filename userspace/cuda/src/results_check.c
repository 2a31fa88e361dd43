/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Semantic checks of results.json; list in results_check.h. */
#define _POSIX_C_SOURCE 200809L
#include "results_check.h"
#include "json_schema.h"
#include "stats.h"
#include "stats_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problem(char *err, size_t errlen, const char *fmt, ...)
{
	size_t n = strlen(err);
	va_list ap;

	if (n + 2 < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n - 1, fmt, ap);
		va_end(ap);
		strcat(err, "\n");
	}
	return 1;
}

/* Relative agreement; the writer prints 12 significant digits. */
static int close_enough(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12;
}

static int check_stats(const char *where, const json_t *o, long long runs,
		       char *err, size_t errlen)
{
	static const char *const fields[] = { "mean", "median", "p50", "p95", "min", "max" };
	double *v, want[6];
	size_t n, i;
	struct stats s;
	int bad = 0;

	v = stats_json_values(o, &n);
	if (!v)
		return problem(err, errlen, "%s: no usable values", where);
	if ((long long)n != json_integer_value(json_object_get(o, "n")))
		bad += problem(err, errlen, "%s: n = %lld but %zu values", where,
			       json_integer_value(json_object_get(o, "n")), n);
	if (runs > 0 && (long long)n > runs)
		bad += problem(err, errlen, "%s: %zu values from %lld runs", where, n, runs);
	if (stats_compute(v, n, &s) != 0) {
		free(v);
		return bad + problem(err, errlen, "%s: values not finite", where);
	}
	want[0] = s.mean, want[1] = s.median, want[2] = s.p50;
	want[3] = s.p95, want[4] = s.min, want[5] = s.max;
	for (i = 0; i < 6; i++) {
		double got = json_number_value(json_object_get(o, fields[i]));

		if (!close_enough(got, want[i]))
			bad += problem(err, errlen, "%s: %s = %.12g, values give %.12g",
				       where, fields[i], got, want[i]);
	}
	free(v);
	return bad;
}

static int check_counters(const json_t *ctr, char *err, size_t errlen)
{
	const json_t *b = json_object_get(ctr, "before"), *a = json_object_get(ctr, "after");
	const json_t *d = json_object_get(ctr, "delta"), *ga, *va;
	const char *g, *k;
	int bad = 0;

	json_object_foreach((json_t *)a, g, ga) {
		json_object_foreach((json_t *)ga, k, va) {
			const json_t *vb = json_object_get(json_object_get(b, g), k);
			const json_t *vd = json_object_get(json_object_get(d, g), k);

			if (!vb)
				continue;
			if (!vd || json_integer_value(vd) !=
					   json_integer_value(va) - json_integer_value(vb))
				bad += problem(err, errlen, "counters.delta.%s.%s != after - before", g, k);
		}
	}
	return bad;
}

/* Any copy_dtod_* measured or skipped. */
static int dtod_any(const json_t *agg, const json_t *skip)
{
	const char *k;
	const json_t *v;

	json_object_foreach((json_t *)agg, k, v)
		if (!strncmp(k, "copy_dtod_", 10))
			return 1;
	json_object_foreach((json_t *)skip, k, v)
		if (!strncmp(k, "copy_dtod_", 10))
			return 1;
	return 0;
}

int results_check(const json_t *doc, char *err, size_t errlen)
{
	const json_t *agg = json_object_get(doc, "aggregate"), *m;
	const json_t *gr = json_object_get(doc, "host_gr");
	const json_t *ver = json_object_get(doc, "verification");
	const json_t *skip = json_object_get(doc, "skipped");
	long long runs = json_integer_value(json_object_get(doc, "runs"));
	const char *name, *sizes;
	char buf[512], *tok, *save = NULL, where[128];
	int bad = 0;

	json_object_foreach((json_t *)agg, name, m) {
		snprintf(where, sizeof(where), "aggregate.%s", name);
		bad += check_stats(where, m, runs, err, errlen);
	}
	if (json_object_get(gr, "elapsed_ms")) {
		bad += check_stats("host_gr.elapsed_ms", json_object_get(gr, "elapsed_ms"), 0, err, errlen);
		bad += check_stats("host_gr.submit_to_ok_ms", json_object_get(gr, "submit_to_ok_ms"), 0, err, errlen);
	}
	json_object_foreach((json_t *)skip, name, m)
		if (json_object_get(agg, name))
			bad += problem(err, errlen, "%s is both measured and skipped", name);
	sizes = json_string_value(json_object_get(json_object_get(doc, "run_cfg"), "sizes"));
	snprintf(buf, sizeof(buf), "%s", sizes ? sizes : "");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		static const char *const dir[] = { "htod", "dtoh" };
		int i;

		for (i = 0; i < 2; i++) {
			snprintf(where, sizeof(where), "copy_%s_%s_gbps", dir[i], tok);
			if (!json_object_get(agg, where))
				bad += problem(err, errlen, "aggregate: run_cfg size %s has no %s", tok, where);
		}
		/* device -> device came later: all sizes or none (older files),
		 * each one measured or skipped with its reason */
		snprintf(where, sizeof(where), "copy_dtod_%s_gbps", tok);
		if (dtod_any(agg, skip) && !json_object_get(agg, where) && !json_object_get(skip, where))
			bad += problem(err, errlen, "aggregate: run_cfg size %s has no %s (measured or skipped)",
				       tok, where);
	}
	bad += check_counters(json_object_get(doc, "counters"), err, errlen);
	if (json_is_string(json_object_get(ver, "status")) &&
	    !strcmp(json_string_value(json_object_get(ver, "status")), "OK") &&
	    json_integer_value(json_object_get(ver, "bad")) != 0)
		bad += problem(err, errlen, "verification: status OK with bad != 0");
	return bad;
}

int results_validate_file(const json_t *schema, const char *file, char *err,
			  size_t errlen)
{
	json_error_t je;
	json_t *doc = json_load_file(file, JSON_REJECT_DUPLICATES, &je);
	int n;

	err[0] = '\0';
	if (!doc) {
		snprintf(err, errlen, "not valid JSON: %s (line %d, column %d)\n",
			 je.text, je.line, je.column);
		return 1;
	}
	n = json_schema_validate(schema, doc, err, errlen);
	if (n == 0)
		n = results_check(doc, err, errlen);
	json_decref(doc);
	return n;
}
