/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Input readers of perf-results: harness output (run_parse.c), nvidia-smi
 * clock digest (clock_digest.c) and debugfs snapshots (debugfs_read.c).
 * Fixtures: tests/fixtures (run-h200-*.txt are real H200 harness outputs).
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

#include "clock_digest.h"
#include "debugfs_read.h"
#include "run_parse.h"
#include "test_util.h"

#define FX "tests/fixtures/"

static struct run_result r; /* large: keep off the stack */

static void parses_real_h200_run(void **state)
{
	char err[600];
	const double *v;

	(void)state;
	assert_int_equal(run_parse_file(FX "run-h200-1.txt", &r, err, sizeof(err)), 0);
	assert_string_equal(r.device, "NVIDIA H200");
	assert_string_equal(r.n_warm, "100");
	assert_string_equal(r.n_malloc, "50");
	assert_string_equal(r.n_thru, "100");
	assert_string_equal(r.sizes, "4096,262144,4194304,16777216");
	assert_int_equal(r.driver_api_version, 13000);
	v = run_metric_get(&r, "kernel_fma_gflops");
	assert_non_null(v);
	assert_close(*v, 65243.012759, 1e-9);
	assert_non_null(run_metric_get(&r, "copy_dtoh_16777216_gbps"));
	assert_null(run_metric_get(&r, "no_such_metric"));
	assert_true(r.has_verify);
	assert_true(r.status_ok);
	assert_int_equal(r.bad, 0);
	assert_int_equal(r.checks, 22859788);
	assert_int_equal(r.nm, 24);
}

static void rejects_malformed_metric(void **state)
{
	char err[600] = "";

	(void)state;
	assert_int_equal(run_parse_file(FX "run-malformed.txt", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":4: malformed line"));
}

static void rejects_duplicate_metric(void **state)
{
	char err[600] = "";

	(void)state;
	assert_int_equal(run_parse_file(FX "run-duplicate.txt", &r, err, sizeof(err)), -1);
}

static void rejects_missing_header_and_file(void **state)
{
	char err[600] = "";

	(void)state;
	assert_int_equal(run_parse_file(FX "run-no-header.txt", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no header"));
	assert_int_equal(run_parse_file(FX "absent.txt", &r, err, sizeof(err)), -1);
}

static void failed_run_parses_as_failed(void **state)
{
	char err[600];

	(void)state;
	assert_int_equal(run_parse_file(FX "run-cuda-fail.txt", &r, err, sizeof(err)), 0);
	assert_false(r.status_ok);
	assert_false(r.has_verify);
	assert_non_null(run_metric_get(&r, "init_ms"));
}

/* Parses TEXT (after a valid header) from a temporary file. */
static int parse_text(const char *text, char *err, size_t errlen)
{
	char path[] = "/tmp/perf-run-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "open-iov-perf-run 1\nrun_cfg n_warm=1 n_malloc=1 n_thru=1 sizes=4096\n%s", text);
	fclose(f);
	rc = run_parse_file(path, &r, err, errlen);
	remove(path);
	return rc;
}

static void skipped_lines_keep_their_reason(void **state)
{
	char err[600] = "";

	(void)state;
	assert_int_equal(parse_text("metric copy_htod_4096_gbps 1.5\n"
				    "skipped copy_dtod_4096_gbps --skip-kernels: an sm_90 kernel\n",
				    err, sizeof(err)), 0);
	assert_int_equal(r.nskipped, 1);
	assert_string_equal(run_skipped_get(&r, "copy_dtod_4096_gbps"),
			    "--skip-kernels: an sm_90 kernel");
	assert_null(run_skipped_get(&r, "copy_htod_4096_gbps"));
	assert_null(run_metric_get(&r, "copy_dtod_4096_gbps"));
	/* no reason, twice, or measured as well: refused */
	assert_int_equal(parse_text("skipped copy_dtod_4096_gbps\n", err, sizeof(err)), -1);
	assert_int_equal(parse_text("skipped copy_dtod_4096_gbps \n", err, sizeof(err)), -1);
	assert_int_equal(parse_text("skipped a_ms x\nskipped a_ms y\n", err, sizeof(err)), -1);
	assert_int_equal(parse_text("skipped a_ms x\nmetric a_ms 1\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a_ms is both measured and skipped"));
}

static void clock_digest_of_real_output(void **state)
{
	char d[2048];

	(void)state;
	assert_int_equal(clock_digest_file(FX "nvidia-smi-clock-h200.txt", d, sizeof(d)), 0);
	assert_non_null(strstr(d, "driver 580.159.04"));
	assert_non_null(strstr(d, "Clocks: Graphics=1980 MHz, SM=1980 MHz, Memory=3201 MHz"));
	assert_non_null(strstr(d, "Max Clocks:"));
	assert_null(strstr(d, "Not Found")); /* empty sections dropped */
	assert_int_equal(clock_digest_file(FX "nvidia-smi-no-clocks.txt", d, sizeof(d)), -1);
	assert_int_equal(clock_digest_file(FX "absent.txt", d, sizeof(d)), -1);
}

static void debugfs_counters_and_delta(void **state)
{
	char why[512];
	json_t *b = debugfs_counters(FX "debugfs-before", why, sizeof(why));
	json_t *a = debugfs_counters(FX "debugfs-after", why, sizeof(why));
	json_t *d;

	(void)state;
	assert_non_null(b);
	assert_non_null(a);
	/* "status" is prose, not counters: left out */
	assert_null(json_object_get(a, "inst0.status"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(b, "inst0.counters"), "cfg_writes")), 4);
	d = debugfs_counters_delta(b, a);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "inst0.counters"), "cfg_reads")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "inst0.counters"), "bar0_reads")), 60);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(d, "inst0.work_gr"), "req")), 2);
	/* only in "after": no delta invented */
	assert_null(json_object_get(json_object_get(d, "inst0.counters"), "resets"));
	json_decref(a);
	json_decref(b);
	json_decref(d);
}

static void debugfs_missing_gives_reason(void **state)
{
	char why[512] = "";

	(void)state;
	assert_null(debugfs_counters(FX "no-such-dir", why, sizeof(why)));
	assert_non_null(strstr(why, "vgsp debugfs not found at tests/fixtures/no-such-dir"));
	assert_null(debugfs_gr_launches(NULL, why, sizeof(why)));
	assert_non_null(strstr(why, "none given"));
	assert_null(debugfs_gr_launches(FX "debugfs-before", why, sizeof(why)));
	assert_non_null(strstr(why, "no GR launches"));
}

static void debugfs_gr_launches_parse(void **state)
{
	char why[512] = "";
	json_t *l = debugfs_gr_launches(FX "debugfs-after", why, sizeof(why));

	(void)state;
	assert_non_null(l);
	assert_int_equal(json_array_size(l), 2);
	assert_close(json_real_value(json_object_get(json_array_get(l, 1), "submit_to_ok_ms")), 7.95, 1e-12);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(l, 0), "ok")), 1);
	json_decref(l);
	/* a line lacking submit_to_ok_ms is refused, with the reason */
	assert_null(debugfs_gr_launches(FX "debugfs-badgr", why, sizeof(why)));
	assert_non_null(strstr(why, "malformed"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_real_h200_run),
		cmocka_unit_test(rejects_malformed_metric),
		cmocka_unit_test(rejects_duplicate_metric),
		cmocka_unit_test(rejects_missing_header_and_file),
		cmocka_unit_test(failed_run_parses_as_failed),
		cmocka_unit_test(skipped_lines_keep_their_reason),
		cmocka_unit_test(clock_digest_of_real_output),
		cmocka_unit_test(debugfs_counters_and_delta),
		cmocka_unit_test(debugfs_missing_gives_reason),
		cmocka_unit_test(debugfs_gr_launches_parse),
	};

	return cmocka_run_group_tests_name("inputs", tests, NULL, NULL);
}
