/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* A/B orientation, ranges and target flags on hand-computed cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ab_metrics.h"
#include "test_util.h"

static struct ab_row row(const char *name, double am, double amin, double amax,
			 double bm, double bmin, double bmax)
{
	struct ab_row r;

	memset(&r, 0, sizeof(r));
	r.name = name;
	r.a.n = r.b.n = 10;
	r.a.median = am, r.a.min = amin, r.a.max = amax;
	r.b.median = bm, r.b.min = bmin, r.b.max = bmax;
	assert_int_equal(ab_compute(&r), 0);
	return r;
}

static void classes_and_directions(void **state)
{
	struct ab_class c;

	(void)state;
	ab_classify("init_ms", &c);
	assert_string_equal(c.klass, "initialization");
	assert_int_equal(c.dir, -1);
	assert_close(c.target_perf_pct, 50.0, 0);
	ab_classify("copy_htod_16777216_gbps", &c);
	assert_string_equal(c.klass, "bulk copy");
	assert_int_equal(c.dir, 1);
	assert_close(c.target_perf_pct, 95.0, 0);
	ab_classify("copy_dtoh_4096_gbps", &c);
	assert_string_equal(c.klass, "small copy");
	assert_close(c.target_perf_pct, 0.0, 0);
	ab_classify("copy_dtoh_1048576_gbps", &c); /* 1 MiB is bulk */
	assert_string_equal(c.klass, "bulk copy");
	ab_classify("copy_dtod_16777216_gbps", &c); /* issue #11: D2D 16 MiB >= 90% */
	assert_string_equal(c.klass, "device copy");
	assert_int_equal(c.dir, 1);
	assert_close(c.target_perf_pct, 90.0, 0);
	ab_classify("copy_dtod_4096_gbps", &c);
	assert_string_equal(c.klass, "small copy");
	assert_int_equal(c.dir, 1);
	assert_close(c.target_perf_pct, 0.0, 0);
	ab_classify("copy_dtod_16777216_mbps", &c);
	assert_string_equal(c.klass, "other");
	ab_classify("copy_htod_1048576_mbps", &c); /* not a copy metric of ours */
	assert_string_equal(c.klass, "other");
	ab_classify("kernel_fma_gflops", &c);
	assert_int_equal(c.dir, 1);
	ab_classify("kernel_fma_ms", &c);
	assert_int_equal(c.dir, -1);
	assert_close(c.target_perf_pct, 95.0, 0);
	ab_classify("launch_warm_p50", &c);
	assert_string_equal(c.klass, "sync latency");
	assert_close(c.target_perf_pct, 0.0, 0);
	ab_classify("something_new", &c);
	assert_int_equal(c.dir, 0);
}

static void latency_orientation_and_init_target(void **state)
{
	/* B twice as slow: B/A 200 %, perf 50 %, exactly on the 2x limit */
	struct ab_row r = row("init_ms", 100, 90, 110, 200, 180, 220);

	(void)state;
	assert_close(r.ratio_pct, 200.0, 1e-9);
	assert_close(r.perf_pct, 50.0, 1e-9);
	assert_false(r.flagged);
	assert_close(r.perf_lo, 100.0 * 90 / 220, 1e-9);
	assert_close(r.perf_hi, 100.0 * 110 / 180, 1e-9);
	assert_false(r.within_spread);
	assert_close(r.spread_a_pct, 20.0, 1e-9);
	r = row("init_ms", 100, 90, 110, 210, 200, 220);
	assert_true(r.flagged); /* 2.1x native misses "within 2x" */
}

static void throughput_orientation_and_bulk_target(void **state)
{
	struct ab_row r = row("copy_htod_16777216_gbps", 50, 49, 51, 47, 46, 48);

	(void)state;
	assert_close(r.perf_pct, 94.0, 1e-9);
	assert_true(r.flagged);
	r = row("copy_htod_16777216_gbps", 50, 49, 51, 48, 47, 49);
	assert_close(r.perf_pct, 96.0, 1e-9);
	assert_false(r.flagged);
	/* D2D: 90 % is the floor, not 95 % */
	r = row("copy_dtod_16777216_gbps", 1000, 990, 1010, 910, 900, 920);
	assert_close(r.perf_pct, 91.0, 1e-9);
	assert_false(r.flagged);
	r = row("copy_dtod_16777216_gbps", 1000, 990, 1010, 890, 880, 900);
	assert_true(r.flagged);
	/* same "worse" direction as latencies: slower B reads below 100 */
	r = row("kernel_fma_ms", 8.0, 8.0, 8.0, 10.0, 10.0, 10.0);
	assert_close(r.perf_pct, 80.0, 1e-9);
	assert_true(r.flagged);
}

static void a_vs_a_reads_100_within_spread(void **state)
{
	struct ab_row r = row("throughput_kps", 200000, 180000, 250000, 205000, 190000, 240000);

	(void)state;
	assert_close(r.perf_pct, 102.5, 1e-9);
	assert_true(r.within_spread);
	assert_false(r.flagged); /* no target for launch throughput */
}

/* What bounds B under TCG (issue #11): one label per class, relabelling. */
static void bounds_per_metric(void **state)
{
	static const struct { const char *m, *bound; int guest; } want[] = {
		{ "kernel_fma_gflops", AB_BOUND_GPU, 0 },
		{ "kernel_fma_ms", AB_BOUND_GPU, 0 },
		{ "clock64_median", AB_BOUND_GPU, 0 },
		{ "copy_htod_16777216_gbps", AB_BOUND_DATA, 0 },
		{ "copy_dtoh_1048576_gbps", AB_BOUND_DATA, 0 },
		{ "copy_dtoh_262144_gbps", AB_BOUND_GUEST, 1 },
		{ "copy_dtod_16777216_gbps", AB_BOUND_GPU, 0 },
		{ "copy_dtod_1048576_gbps", AB_BOUND_GPU, 0 },
		{ "copy_dtod_262144_gbps", AB_BOUND_GUEST, 1 },
		{ "launch_warm_event_p50", AB_BOUND_FWD, 0 },
		{ "launch_warm_event_p95", AB_BOUND_FWD, 0 },
		{ "launch_warm_p50", AB_BOUND_GUEST, 1 },
		{ "launch_first_ms", AB_BOUND_GUEST, 1 },
		{ "init_ms", AB_BOUND_GUEST, 1 },
		{ "module_load_ms", AB_BOUND_GUEST, 1 },
		{ "malloc_ms_p95", AB_BOUND_GUEST, 1 },
		{ "throughput_kps", AB_BOUND_GUEST, 1 },
		{ "something_new", AB_BOUND_UNKNOWN, 0 },
	};
	struct ab_class c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ab_classify(want[i].m, &c);
		assert_string_equal(c.bound, want[i].bound);
		assert_int_equal(c.guest_cpu_bound, want[i].guest);
	}
	/* --bound GLOB=LABEL */
	ab_classify("copy_htod_16777216_gbps", &c);
	assert_int_equal(ab_bound_override("copy_*=host CPU (vgsp-vfu)", "copy_htod_16777216_gbps", &c), 1);
	assert_string_equal(c.bound, "host CPU (vgsp-vfu)");
	assert_int_equal(c.guest_cpu_bound, 0);
	assert_int_equal(ab_bound_override("kernel_*=x", "copy_htod_16777216_gbps", &c), 0);
	assert_string_equal(c.bound, "host CPU (vgsp-vfu)");
	assert_int_equal(ab_bound_override("kernel_fma_ms=" AB_BOUND_GUEST, "kernel_fma_ms", &c), 1);
	assert_int_equal(c.guest_cpu_bound, 1);
	assert_int_equal(ab_bound_override("no-equals", "x", &c), -1);
	assert_int_equal(ab_bound_override("=label", "x", &c), -1);
	assert_int_equal(ab_bound_override("glob=", "x", &c), -1);
}

static void nonpositive_values_refused(void **state)
{
	struct ab_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.name = "init_ms";
	r.a.median = r.a.min = r.a.max = 1.0;
	assert_int_equal(ab_compute(&r), -1); /* B all zero */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classes_and_directions),
		cmocka_unit_test(latency_orientation_and_init_target),
		cmocka_unit_test(throughput_orientation_and_bulk_target),
		cmocka_unit_test(a_vs_a_reads_100_within_spread),
		cmocka_unit_test(nonpositive_values_refused),
		cmocka_unit_test(bounds_per_metric),
	};

	return cmocka_run_group_tests_name("ab_metrics", tests, NULL, NULL);
}
