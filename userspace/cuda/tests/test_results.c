/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * results.json validation end to end: the committed schema plus
 * results_check on tests/fixtures/results-sample.json (written by
 * perf-results from two real H200 runs), then on copies with one defect each.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_schema.h"
#include "results_check.h"

#define SCHEMA "schema/open-iov-perf-1.schema.json"
#define SAMPLE "tests/fixtures/results-sample.json"

static json_t *schema, *doc;
static char err[8192];

static int setup(void **state)
{
	json_error_t je;

	(void)state;
	schema = json_load_file(SCHEMA, 0, &je);
	doc = json_load_file(SAMPLE, 0, &je);
	return schema && doc ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	json_decref(schema);
	json_decref(doc);
	return 0;
}

/* Violations of a copy of the sample after edit() changed it. */
static int defects_after(void (*edit)(json_t *))
{
	json_t *d = json_deep_copy(doc);
	int n;

	edit(d);
	err[0] = '\0';
	n = json_schema_validate(schema, d, err, sizeof(err));
	if (n == 0)
		n = results_check(d, err, sizeof(err));
	json_decref(d);
	return n;
}

static json_t *metric(json_t *d, const char *name)
{
	return json_object_get(json_object_get(d, "aggregate"), name);
}

static void sample_is_valid(void **state)
{
	(void)state;
	assert_int_equal(results_validate_file(schema, SAMPLE, err, sizeof(err)), 0);
}

static void e_mean(json_t *d) { json_object_set_new(metric(d, "init_ms"), "mean", json_real(1.0)); }
static void e_p95(json_t *d) { json_object_set_new(metric(d, "kernel_fma_gflops"), "p95", json_real(70000.0)); }
static void e_n(json_t *d) { json_object_set_new(metric(d, "init_ms"), "n", json_integer(3)); }
static void e_runs(json_t *d) { json_object_set_new(d, "runs", json_integer(1)); }
static void e_copy(json_t *d) { json_object_del(json_object_get(d, "aggregate"), "copy_dtoh_4096_gbps"); }
static void e_delta(json_t *d)
{
	json_object_set_new(json_object_get(json_object_get(json_object_get(d, "counters"), "delta"),
					    "inst0.work_gr"), "req", json_integer(7));
}
static void e_status(json_t *d) { json_object_set_new(json_object_get(d, "verification"), "bad", json_integer(1)); }

static void inconsistent_numbers_rejected(void **state)
{
	(void)state;
	assert_int_equal(defects_after(e_mean), 1);
	assert_non_null(strstr(err, "aggregate.init_ms: mean"));
	assert_int_equal(defects_after(e_p95), 1);
	assert_non_null(strstr(err, "kernel_fma_gflops: p95"));
	assert_true(defects_after(e_n) >= 1);
	assert_true(defects_after(e_runs) >= 1);
	assert_non_null(strstr(err, "values from 1 runs"));
	assert_int_equal(defects_after(e_copy), 1);
	assert_non_null(strstr(err, "size 4096 has no copy_dtoh_4096_gbps"));
	assert_int_equal(defects_after(e_delta), 1);
	assert_int_equal(defects_after(e_status), 1);
	assert_non_null(strstr(err, "status OK with bad"));
}

static void e_role(json_t *d) { json_object_set_new(d, "role", json_string("vm")); }
static void e_commit(json_t *d) { json_object_del(json_object_get(d, "environment"), "commit"); }
static void e_extra(json_t *d) { json_object_set_new(d, "speedup", json_real(2.0)); }
static void e_cfg(json_t *d) { json_object_set_new(json_object_get(d, "run_cfg"), "n_warm", json_integer(100)); }
static void e_req(json_t *d) { json_object_del(json_object_get(d, "aggregate"), "throughput_kps"); }
static void e_gr(json_t *d) { json_object_del(json_object_get(d, "host_gr"), "elapsed_ms"); }
static void e_schema(json_t *d) { json_object_set_new(d, "schema", json_string("open-iov-perf/2")); }

static void shape_violations_rejected(void **state)
{
	(void)state;
	assert_true(defects_after(e_role) >= 1);
	assert_true(defects_after(e_commit) >= 1);
	assert_non_null(strstr(err, "missing required \"commit\""));
	assert_true(defects_after(e_extra) >= 1);
	assert_non_null(strstr(err, "unexpected property \"speedup\""));
	assert_true(defects_after(e_cfg) >= 1); /* run_cfg values are strings, as in the template */
	assert_true(defects_after(e_req) >= 1);
	assert_true(defects_after(e_gr) >= 1); /* neither full host_gr nor reason form */
	assert_true(defects_after(e_schema) >= 1);
}

/* A copy of copy_htod_<size> as copy_dtod_<size> (the numbers agree). */
static void add_dtod(json_t *d, const char *size)
{
	char h[64], t[64];

	snprintf(h, sizeof(h), "copy_htod_%s_gbps", size);
	snprintf(t, sizeof(t), "copy_dtod_%s_gbps", size);
	json_object_set_new(json_object_get(d, "aggregate"), t, json_deep_copy(metric(d, h)));
}
static void skip_dtod(json_t *d, const char *size)
{
	char t[64];

	if (!json_object_get(d, "skipped"))
		json_object_set_new(d, "skipped", json_object());
	snprintf(t, sizeof(t), "copy_dtod_%s_gbps", size);
	json_object_set_new(json_object_get(d, "skipped"), t, json_string("--skip-kernels: why"));
}
static void e_dtod_all(json_t *d)
{
	add_dtod(d, "4096"), add_dtod(d, "262144"), add_dtod(d, "4194304"), add_dtod(d, "16777216");
}
static void e_dtod_skipped(json_t *d)
{
	skip_dtod(d, "4096"), skip_dtod(d, "262144"), skip_dtod(d, "4194304"), skip_dtod(d, "16777216");
}
static void e_dtod_mixed(json_t *d)
{
	add_dtod(d, "4096"), add_dtod(d, "262144"), skip_dtod(d, "4194304"), skip_dtod(d, "16777216");
}
static void e_dtod_one_missing(json_t *d) { add_dtod(d, "4096"), add_dtod(d, "262144"), add_dtod(d, "4194304"); }
static void e_dtod_both(json_t *d) { e_dtod_all(d), skip_dtod(d, "4096"); }
static void e_skip_empty_reason(json_t *d)
{
	e_dtod_skipped(d);
	json_object_set_new(json_object_get(d, "skipped"), "copy_dtod_4096_gbps", json_string(""));
}

/* copy_dtod_<size>: absent in older files; else every size, measured or skipped. */
static void dtod_complete_or_absent(void **state)
{
	(void)state;
	assert_int_equal(defects_after(e_dtod_all), 0);
	assert_int_equal(defects_after(e_dtod_skipped), 0);
	assert_int_equal(defects_after(e_dtod_mixed), 0);
	assert_int_equal(defects_after(e_dtod_one_missing), 1);
	assert_non_null(strstr(err, "size 16777216 has no copy_dtod_16777216_gbps"));
	assert_int_equal(defects_after(e_dtod_both), 1);
	assert_non_null(strstr(err, "copy_dtod_4096_gbps is both measured and skipped"));
	assert_true(defects_after(e_skip_empty_reason) >= 1);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void malformed_json_rejected(void **state)
{
	char path[] = "/tmp/perf-test-XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	write_file(path, "{\"schema\": \"open-iov-perf/1\", ");
	assert_int_equal(results_validate_file(schema, path, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "not valid JSON"));
	write_file(path, "{\"schema\": \"open-iov-perf/1\", \"schema\": \"x\"}");
	assert_int_equal(results_validate_file(schema, path, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "duplicate"));
	remove(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sample_is_valid),
		cmocka_unit_test(inconsistent_numbers_rejected),
		cmocka_unit_test(shape_violations_rejected),
		cmocka_unit_test(dtod_complete_or_absent),
		cmocka_unit_test(malformed_json_rejected),
	};

	return cmocka_run_group_tests_name("results", tests, setup, teardown);
}
