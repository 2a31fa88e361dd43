// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The clock queries behind cuDeviceGetAttribute(CLOCK_RATE): libcuda's
 * requests as measured on the H200 (nvtrace, NVTRACE_PARAMS=1), answered
 * field by field as hardware answered them, with the chip file's clocks;
 * bad counts and unmeasured domains are refused, never read past.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "chip.h"
#include "profiles.h"
#include "helpers/dev_fixture.h"
#include "gsp/gsp_priv.h"
#include "abi/r535/r535.h"


static u32 ctl(struct dev_fx *f, u32 cmd, u8 *p, u32 size)
{
	bool known = false;
	u32 st = r535_control(f->dev->gsp, cmd, p, size, &known);

	assert_true(known);
	return st;
}

static void test_clock_mask(void **state)
{
	u8 p[8] = { 0 };

	assert_int_equal(ctl(*state, 0x20809009, p, sizeof(p)), NV_OK);
	assert_int_equal(vgsp_get32(p, 0), 0);
	assert_int_equal(vgsp_get32(p, 4), 0xd);
}

static void test_clock_domain_list(void **state)
{
	u8 p[0x208] = { 0 };

	vgsp_put32(p, 4, 2);
	vgsp_put32(p, 8, 1);
	vgsp_put32(p, 24, 4);
	assert_int_equal(ctl(*state, 0x20809064, p, sizeof(p)), NV_OK);
	/* the H200's answer: {1, 1, 1, 100}, {4, 0x10, 1, 100} */
	assert_int_equal(vgsp_get32(p, 8), 1);
	assert_int_equal(vgsp_get32(p, 12), 1);
	assert_int_equal(vgsp_get32(p, 16), 1);
	assert_int_equal(vgsp_get32(p, 20), 100);
	assert_int_equal(vgsp_get32(p, 24), 4);
	assert_int_equal(vgsp_get32(p, 28), 0x10);
	assert_int_equal(vgsp_get32(p, 32), 1);
	assert_int_equal(vgsp_get32(p, 36), 100);
	assert_int_equal(vgsp_get32(p, 40), 0);
	/* a count past the list, an unmeasured domain */
	vgsp_put32(p, 4, 33);
	assert_int_equal(ctl(*state, 0x20809064, p, sizeof(p)),
			 NV_ERR_INVALID_ARGUMENT);
	vgsp_put32(p, 4, 0xffffffff);
	assert_int_equal(ctl(*state, 0x20809064, p, sizeof(p)),
			 NV_ERR_INVALID_ARGUMENT);
	vgsp_put32(p, 4, 1);
	vgsp_put32(p, 8, 2);
	assert_int_equal(ctl(*state, 0x20809064, p, sizeof(p)),
			 NV_ERR_NOT_SUPPORTED);
}

static void test_clock_frequencies(void **state)
{
	struct dev_fx *f = *state;
	const struct vgsp_chip *c = f->dev->profile->chip;
	u8 p[0x214] = { 0 };

	/* the request libcuda sent on the H200, stack garbage included */
	vgsp_put32(p, 0, 0x400);
	vgsp_put32(p, 4, 0x7f00);
	vgsp_put32(p, 12, 0x7f7d);
	vgsp_put32(p, 16, 2);
	vgsp_put32(p, 20, 1);
	vgsp_put32(p, 36, 0x10);
	assert_int_equal(ctl(f, 0x2080a026, p, sizeof(p)), NV_OK);
	assert_int_equal(vgsp_get32(p, 0), 0x400);
	assert_int_equal(vgsp_get32(p, 4), 0x7f03);
	assert_int_equal(vgsp_get32(p, 8), 4);
	assert_int_equal(vgsp_get32(p, 12), 1);
	assert_int_equal(vgsp_get32(p, 28), c->gpc_clk_max_khz);
	assert_int_equal(vgsp_get32(p, 44), c->mem_clk_max_khz);
	assert_int_equal(c->gpc_clk_max_khz, 1980000);
	vgsp_put32(p, 16, 33);
	assert_int_equal(ctl(f, 0x2080a026, p, sizeof(p)),
			 NV_ERR_INVALID_ARGUMENT);
	/* a short buffer is refused before anything is read */
	assert_int_not_equal(ctl(f, 0x2080a026, p, 0x20), NV_OK);
	assert_int_not_equal(ctl(f, 0x20809064, p, 0x20), NV_OK);
	assert_int_not_equal(ctl(f, 0x20809009, p, 4), NV_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clock_mask, dev_fx_setup,
						dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_clock_domain_list, dev_fx_setup,
						dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_clock_frequencies, dev_fx_setup,
						dev_fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
