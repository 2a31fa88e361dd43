/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Test helpers: cmocka 1.1 has no double comparison (its float one casts). */
#ifndef PERF_TEST_UTIL_H
#define PERF_TEST_UTIL_H

#include <math.h>

#define assert_close(a, b, eps)                                             \
	do {                                                                \
		double a_ = (a), b_ = (b);                                  \
		if (!(fabs(a_ - b_) <= (eps)))                              \
			fail_msg("%s = %.17g, want %.17g", #a, a_, b_);     \
	} while (0)

#endif
