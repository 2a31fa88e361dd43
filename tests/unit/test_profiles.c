// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Profile table (kernel/core/profiles.c) against the mdev type table and
 * region sizes in docs/interfaces.md.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "profiles.h"
#include "os_user.h"

/* docs/interfaces.md: type dir, name, FB GiB, BAR1 region size MiB. */
static const struct {
	const char *id, *name;
	u64 fb_gib, bar1_mib;
} doc[] = {
	{ "h100-10g", "H100-SXM5-10GB", 10, 256 },
	{ "h100-20g", "H100-SXM5-20GB", 20, 512 },
	{ "h100-40g", "H100-SXM5-40GB", 40, 1024 },
	{ "h100-80g", "H100-SXM5-80GB", 80, 2048 },
};

static int setup(void **state)
{
	vgsp_os_user_init();
	return 0;
}

static void test_table_matches_contract(void **state)
{
	unsigned int i;

	assert_int_equal(vgsp_nprofiles, VGSP_ARRAY_SIZE(doc));
	for (i = 0; i < vgsp_nprofiles; i++) {
		const struct vgsp_profile *p = &vgsp_profiles[i];

		assert_string_equal(p->id, doc[i].id);
		assert_string_equal(p->name, doc[i].name);
		assert_int_equal(p->fb_size, doc[i].fb_gib << 30);
		assert_int_equal(p->bar1_size, doc[i].bar1_mib << 20);
		/* A BAR must be a power of two to be sizable. */
		assert_int_equal(p->bar1_size & (p->bar1_size - 1), 0);
		/* Same identity for all: 10de:2330 sub 10de:16c1, GH100. */
		assert_int_equal(p->vendor, 0x10de);
		assert_int_equal(p->device, 0x2330);
		assert_int_equal(p->subsys_vendor, 0x10de);
		assert_int_equal(p->subsys_device, 0x16c1);
		assert_string_equal(p->product, "NVIDIA H100 80GB HBM3");
		assert_ptr_equal(p->chip, &vgsp_chip_gh100);
	}
}

static void test_chip_gh100(void **state)
{
	assert_string_equal(vgsp_chip_gh100.name, "GH100");
	assert_int_equal(vgsp_chip_gh100.pmc_boot_0, 0x180000a1);
	assert_int_equal(vgsp_chip_gh100.pmc_boot_1, 0);
	assert_int_equal(vgsp_chip_gh100.pmc_boot_42, 0x180a1000);
	assert_true(vgsp_chip_gh100.ntables > 0);
	assert_non_null(vgsp_chip_gh100.tables);
}

static void test_find(void **state)
{
	unsigned int i;

	for (i = 0; i < VGSP_ARRAY_SIZE(doc); i++)
		assert_ptr_equal(vgsp_profile_find(doc[i].id), &vgsp_profiles[i]);
	/* Exact match only: the sysfs prefix, names and near misses fail. */
	assert_null(vgsp_profile_find("vgsp-h100-10g"));
	assert_null(vgsp_profile_find("H100-SXM5-10GB"));
	assert_null(vgsp_profile_find("h100-10"));
	assert_null(vgsp_profile_find("h100-10gb"));
	assert_null(vgsp_profile_find(""));
}

static void test_fit(void **state)
{
	const struct vgsp_profile *p10 = vgsp_profile_find("h100-10g");
	const struct vgsp_profile *p80 = vgsp_profile_find("h100-80g");
	unsigned int i;

	/* Default budget 80 GiB: 8/4/2/1 instances. */
	for (i = 0; i < vgsp_nprofiles; i++)
		assert_int_equal(vgsp_profile_fit(&vgsp_profiles[i], 80 * VGSP_GIB),
				 80 / doc[i].fb_gib);
	assert_int_equal(vgsp_profile_fit(p10, 0), 0);
	assert_int_equal(vgsp_profile_fit(p10, 10 * VGSP_GIB - 1), 0);
	assert_int_equal(vgsp_profile_fit(p10, 10 * VGSP_GIB), 1);
	assert_int_equal(vgsp_profile_fit(p10, 39 * VGSP_GIB), 3);
	assert_int_equal(vgsp_profile_fit(p80, 79 * VGSP_GIB), 0);
	/* Largest budget the module accepts (1024 GiB). */
	assert_int_equal(vgsp_profile_fit(p10, 1024 * VGSP_GIB), 102);
	assert_int_equal(vgsp_profile_fit(p80, 1024 * VGSP_GIB), 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_table_matches_contract, setup),
		cmocka_unit_test_setup(test_chip_gh100, setup),
		cmocka_unit_test_setup(test_find, setup),
		cmocka_unit_test_setup(test_fit, setup),
	};

	return cmocka_run_group_tests_name("profiles", tests, NULL, NULL);
}
