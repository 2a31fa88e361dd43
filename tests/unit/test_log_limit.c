// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Review defect 1h: guest-triggered log lines are limited per instance. A
 * guest that floods its own instance's log (here: 30 lines at once) loses
 * the lines over the burst, counted in log_suppressed, and a second
 * instance's next line is still printed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "helpers/fake_fe.h"

static void test_log_limit_per_instance(void **state)
{
	static const u8 ua[16] = { 0xa }, ub[16] = { 0xb };
	struct fake_fe fa, fb;
	struct vgsp_dev *a, *b;
	unsigned int before, i;

	vgsp_os_user_init();
	fake_fe_init(&fa, 0x100000, 0x1000);
	fake_fe_init(&fb, 0x100000, 0x1000);
	a = vgsp_dev_create(vgsp_profile_find("h100-10g"), ua, 8, &fake_fe_ops,
			    &fa);
	b = vgsp_dev_create(vgsp_profile_find("h100-10g"), ub, 8, &fake_fe_ops,
			    &fb);
	assert_non_null(a);
	assert_non_null(b);
	before = vgsp_os_user_log_count(VGSP_LOG_WARN);
	vgsp_dev_lock(a);
	for (i = 0; i < VGSP_LOG_BURST + 10; i++)
		vgsp_dev_log(a, VGSP_LOG_WARN, "vgsp: test flood %u\n", i);
	vgsp_dev_unlock(a);
	assert_int_equal(vgsp_os_user_log_count(VGSP_LOG_WARN) - before,
			 VGSP_LOG_BURST);
	assert_int_equal(a->cnt.log_suppressed, 10);
	vgsp_dev_lock(b);
	vgsp_dev_log(b, VGSP_LOG_WARN, "vgsp: the other instance still logs\n");
	vgsp_dev_unlock(b);
	assert_int_equal(vgsp_os_user_log_count(VGSP_LOG_WARN) - before,
			 VGSP_LOG_BURST + 1);
	assert_int_equal(b->cnt.log_suppressed, 0);
	vgsp_dev_destroy(a);
	vgsp_dev_destroy(b);
	fake_fe_fini(&fa);
	fake_fe_fini(&fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_limit_per_instance),
	};

	return cmocka_run_group_tests_name("log_limit", tests, NULL, NULL);
}
