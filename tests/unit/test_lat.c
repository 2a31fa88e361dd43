// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Latency distributions (lat.c): percentiles read back within the
 * buckets' 12.5 %, exact below 8 ns, huge values clamp, empty reads 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lat.h"

static void near(u64 got, u64 want)
{
	u64 d = got > want ? got - want : want - got;

	if (d * 8 > want)
		fail_msg("%llu not within 12.5%% of %llu",
			 (unsigned long long)got, (unsigned long long)want);
}

static void test_percentiles_within_a_bucket(void **state)
{
	static struct vgsp_lat l;
	u64 i;

	(void)state;
	assert_int_equal(vgsp_lat_pct(&l, 500), 0);
	/* 1..1000 µs, one each */
	for (i = 1; i <= 1000; i++)
		vgsp_lat_add(&l, i * 1000);
	assert_int_equal(l.n, 1000);
	assert_int_equal(l.max_ns, 1000000);
	near(vgsp_lat_pct(&l, 500), 500000);
	near(vgsp_lat_pct(&l, 990), 990000);
	near(vgsp_lat_pct(&l, 10), 10000);
	assert_true(vgsp_lat_pct(&l, 1000) <= l.max_ns);
	near(vgsp_lat_pct(&l, 1000), 1000000);
}

static void test_small_exact_huge_clamped(void **state)
{
	static struct vgsp_lat l;
	u64 v;

	(void)state;
	for (v = 0; v < 8; v++)
		vgsp_lat_add(&l, v);
	assert_int_equal(vgsp_lat_pct(&l, 500), 3);
	assert_int_equal(vgsp_lat_pct(&l, 1000), 7);
	vgsp_lat_clear(&l);
	vgsp_lat_add(&l, ~0ULL);		/* far past 2^40 ns */
	assert_int_equal(l.b[VGSP_LATD_BUCKETS - 1], 1);
	assert_int_equal(vgsp_lat_pct(&l, 500), ~0ULL);
	/* every power of two lands in a bucket of its own size */
	for (v = 8; v < (1ULL << VGSP_LATD_MAX_SHIFT); v <<= 1) {
		vgsp_lat_clear(&l);
		vgsp_lat_add(&l, v + v / 3);
		near(vgsp_lat_pct(&l, 500), v + v / 3);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_within_a_bucket),
		cmocka_unit_test(test_small_exact_huge_clamped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
