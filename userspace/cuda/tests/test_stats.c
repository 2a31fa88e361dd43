/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* stats.c / stats_json.c against hand-computed values (type-7 percentiles). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats.h"
#include "stats_json.h"
#include "test_util.h"

#define EPS 1e-12

static void one_to_ten_unsorted(void **state)
{
	const double v[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };
	double copy[10];
	struct stats s;

	(void)state;
	memcpy(copy, v, sizeof(v));
	assert_int_equal(stats_compute(v, 10, &s), 0);
	assert_int_equal(s.n, 10);
	assert_close(s.mean, 5.5, EPS);
	assert_close(s.median, 5.5, EPS);
	assert_close(s.p50, 5.5, EPS);
	/* h = 9 * 0.95 = 8.55 -> x[8] + 0.55 * (x[9] - x[8]) = 9 + 0.55 */
	assert_close(s.p95, 9.55, EPS);
	assert_close(s.min, 1.0, EPS);
	assert_close(s.max, 10.0, EPS);
	assert_memory_equal(v, copy, sizeof(v)); /* input left alone */
}

static void two_values_like_template(void **state)
{
	const double v[] = { 189, 166 };
	struct stats s;

	(void)state;
	assert_int_equal(stats_compute(v, 2, &s), 0);
	assert_close(s.median, 177.5, EPS);
	assert_close(s.mean, 177.5, EPS);
	/* h = 0.95 -> 166 + 0.95 * 23 */
	assert_close(s.p95, 187.85, 1e-9);
}

static void odd_count_median_is_middle(void **state)
{
	const double v[] = { 3, 1, 2 };
	struct stats s;

	(void)state;
	assert_int_equal(stats_compute(v, 3, &s), 0);
	assert_close(s.median, 2.0, EPS);
	assert_close(s.p95, 2.9, 1e-12);
}

static void single_value(void **state)
{
	const double v[] = { 42.25 };
	struct stats s;

	(void)state;
	assert_int_equal(stats_compute(v, 1, &s), 0);
	assert_close(s.p50, 42.25, EPS);
	assert_close(s.p95, 42.25, EPS);
	assert_close(s.min, 42.25, EPS);
	assert_close(s.max, 42.25, EPS);
}

static void percentile_edges(void **state)
{
	const double x[] = { 1, 2, 4, 8 };

	(void)state;
	assert_close(stats_percentile_sorted(x, 4, 0), 1.0, EPS);
	assert_close(stats_percentile_sorted(x, 4, 100), 8.0, EPS);
	/* h = 3 * 0.25 = 0.75 -> 1 + 0.75 * 1 */
	assert_close(stats_percentile_sorted(x, 4, 25), 1.75, EPS);
}

static void rejects_empty_and_nonfinite(void **state)
{
	const double nan_in[] = { 1.0, NAN };
	const double inf_in[] = { INFINITY };
	struct stats s;

	(void)state;
	assert_int_equal(stats_compute(nan_in, 0, &s), -1);
	assert_int_equal(stats_compute(nan_in, 2, &s), -1);
	assert_int_equal(stats_compute(inf_in, 1, &s), -1);
	assert_null(stats_json(nan_in, 0));
}

static void json_object_has_template_fields(void **state)
{
	const double v[] = { 2, 4 };
	json_t *o = stats_json(v, 2);
	double *back;
	size_t n = 0;

	(void)state;
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "n")), 2);
	assert_close(json_real_value(json_object_get(o, "median")), 3.0, EPS);
	assert_close(json_real_value(json_object_get(o, "p95")), 3.9, 1e-12);
	assert_int_equal(json_object_size(o), 8);
	back = stats_json_values(o, &n);
	assert_non_null(back);
	assert_int_equal(n, 2);
	assert_close(back[1], 4.0, EPS);
	free(back);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_to_ten_unsorted),
		cmocka_unit_test(two_values_like_template),
		cmocka_unit_test(odd_count_median_is_middle),
		cmocka_unit_test(single_value),
		cmocka_unit_test(percentile_edges),
		cmocka_unit_test(rejects_empty_and_nonfinite),
		cmocka_unit_test(json_object_has_template_fields),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
