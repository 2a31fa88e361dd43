// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The hostd backend's record of a mirrored VA space (pt_mirror.c): which
 * VA ranges a resync must walk again after the guest wrote some table
 * pages, and the splice of that walk into the runs it had.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pt_mirror.h"

#define MIB (1ULL << 20)

static const struct ptm_tab tabs[] = {
	{ .pa = 0x10000, .va = 0, .span = 1ULL << 57, .len = 16 },	/* root */
	{ .pa = 0x11000, .va = 0, .span = 1ULL << 56, .len = 4096 },
	{ .pa = 0x14000, .va = 0, .span = 512 * MIB, .len = 4096 },	/* PD0 */
	{ .pa = 0x20000, .va = 2 * MIB, .span = 2 * MIB, .len = 4096 },
	{ .pa = 0x21000, .va = 4 * MIB, .span = 2 * MIB, .len = 4096 },
	/* two big-page tables on one FB page */
	{ .pa = 0x22000, .va = 6 * MIB, .span = 2 * MIB, .len = 256 },
	{ .pa = 0x22100, .va = 8 * MIB, .span = 2 * MIB, .len = 256 },
};

static void load(struct pt_mirror *pm, const struct ptm_tab *t, size_t n)
{
	struct hd_run r = { .va = 0, .len = 16 * MIB, .hmem = 1, .off = 0 };

	memset(pm, 0, sizeof(*pm));
	assert_int_equal(ptm_replace(pm, &r, 1, t, n), 0);
}

static void test_dirty_pages_name_their_tables(void **state)
{
	struct pt_mirror pm;
	struct ptm_range *r;
	uint64_t pages[] = { 0x21, 0x999, 0x20 };	/* any order, strangers */
	size_t n;

	(void)state;
	load(&pm, tabs, 7);
	assert_int_equal(ptm_dirty(&pm, pages, 3, &r, &n), 0);
	/* the two small tables' ranges touch: one range */
	assert_int_equal(n, 1);
	assert_int_equal(r[0].lo, 2 * MIB);
	assert_int_equal(r[0].end, 6 * MIB);
	free(r);

	/* one page, two tables on it */
	pages[0] = 0x22;
	assert_int_equal(ptm_dirty(&pm, pages, 1, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].lo, 6 * MIB);
	assert_int_equal(r[0].end, 10 * MIB);
	free(r);

	/* the PD0 page: its whole 512 MiB swallows the tables under it */
	pages[0] = 0x14;
	pages[1] = 0x20;
	assert_int_equal(ptm_dirty(&pm, pages, 2, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].lo, 0);
	assert_int_equal(r[0].end, 512 * MIB);
	free(r);

	/* nothing the mirror read */
	pages[0] = 0x15;
	assert_int_equal(ptm_dirty(&pm, pages, 1, &r, &n), 0);
	assert_int_equal(n, 0);
	assert_null(r);
	ptm_free(&pm);
}

static void test_system_memory_tables_are_always_dirty(void **state)
{
	struct ptm_tab t[3];
	struct pt_mirror pm;
	struct ptm_range *r;
	size_t n;

	(void)state;
	memcpy(t, tabs, sizeof(t));
	t[2].sys = true;		/* PD0 in guest RAM: unwatchable */
	t[2].pa = 0x7000000;
	load(&pm, t, 3);
	assert_int_equal(ptm_dirty(&pm, NULL, 0, &r, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(r[0].lo, 0);
	assert_int_equal(r[0].end, 512 * MIB);
	free(r);
	ptm_free(&pm);
}

static void test_splice_replaces_only_the_ranges(void **state)
{
	struct pt_mirror pm;
	struct ptm_range r[] = { { 2 * MIB, 4 * MIB }, { 8 * MIB, 10 * MIB } };
	/* the walk: 1 MiB of object 2 at 2 MiB; a leaf reported whole that
	 * reaches past the range (clipped); object 1 again at 8 MiB where it
	 * was (coalesces back) */
	struct hd_run w[] = {
		{ .va = 2 * MIB, .len = 1 * MIB, .hmem = 2, .off = 0x5000000 },
		{ .va = 3 * MIB, .len = 4 * MIB, .hmem = 3, .off = 0 },
		{ .va = 8 * MIB, .len = 2 * MIB, .hmem = 1, .off = 8 * MIB },
	};
	struct ptm_tab nt[] = {
		tabs[0],			/* an ancestor: not replaced */
		{ .pa = 0x30000, .va = 2 * MIB, .span = 2 * MIB, .len = 4096 },
	};
	size_t i, n_old_in = 0;

	(void)state;
	load(&pm, tabs, 7);
	for (i = 0; i < 7; i++)
		n_old_in += (tabs[i].va == 2 * MIB || tabs[i].va == 8 * MIB);
	assert_int_equal(n_old_in, 2);
	assert_int_equal(ptm_splice(&pm, r, 2, w, 3, nt, 2), 0);
	assert_int_equal(pm.nruns, 4);
	assert_int_equal(pm.runs[0].va, 0);
	assert_int_equal(pm.runs[0].len, 2 * MIB);
	assert_int_equal(pm.runs[0].hmem, 1);
	assert_int_equal(pm.runs[1].va, 2 * MIB);
	assert_int_equal(pm.runs[1].len, 1 * MIB);
	assert_int_equal(pm.runs[1].off, 0x5000000);
	assert_int_equal(pm.runs[2].va, 3 * MIB);
	assert_int_equal(pm.runs[2].len, 1 * MIB);	/* clipped at 4 MiB */
	assert_int_equal(pm.runs[2].hmem, 3);
	/* 4..16 MiB of object 1: the old run outside both ranges and the
	 * walk's identical piece inside the second, one run again */
	assert_int_equal(pm.runs[3].va, 4 * MIB);
	assert_int_equal(pm.runs[3].len, 12 * MIB);
	assert_int_equal(pm.runs[3].off, 4 * MIB);
	/* tables: the two inside the ranges went, the new one came */
	assert_int_equal(pm.ntabs, 7 - 2 + 1);
	for (i = 0; i < pm.ntabs; i++)
		assert_false(pm.tabs[i].pa == 0x20000 ||
			     pm.tabs[i].pa == 0x22100);
	assert_int_equal(pm.tabs[pm.ntabs - 1].pa, 0x30000);
	ptm_free(&pm);
}

static void test_splice_drops_what_went(void **state)
{
	struct pt_mirror pm;
	struct ptm_range r = { 0, 512 * MIB };

	(void)state;
	load(&pm, tabs, 7);
	/* the guest unmapped everything under PD0 */
	assert_int_equal(ptm_splice(&pm, &r, 1, NULL, 0, NULL, 0), 0);
	assert_int_equal(pm.nruns, 0);
	assert_int_equal(pm.ntabs, 2);		/* root and PD3 cover more */
	ptm_free(&pm);
}

/* What a forwarded copy may use: every byte mapped, in one reservation. */
static void test_covers(void **state)
{
	struct hd_run runs[] = {
		{ 0x200000, 0x2000, 7, 0, false },
		{ 0x202000, 0x1000, 8, 0, true },	/* read-only */
		{ 0x204000, 0x1000, 7, 0x3000, false },	/* after a hole */
		{ 0xfffff000, 0x21000, 9, 0, false },	/* across 4 GiB */
	};
	struct pt_mirror pm = { .runs = runs, .nruns = 4 };

	(void)state;
	assert_true(ptm_covers(&pm, 0x200000, 0x2000, true));
	assert_true(ptm_covers(&pm, 0x201ff0, 0x20, false));	/* two runs */
	assert_false(ptm_covers(&pm, 0x201ff0, 0x20, true));	/* ro */
	assert_true(ptm_covers(&pm, 0x202800, 0x100, false));
	assert_false(ptm_covers(&pm, 0x202800, 0x1900, false));	/* hole */
	assert_false(ptm_covers(&pm, 0x1ff000, 0x2000, false));	/* before */
	assert_false(ptm_covers(&pm, 0x204000, 0x1001, false));	/* after */
	assert_false(ptm_covers(&pm, 0x200000, 0, false));
	assert_false(ptm_covers(&pm, ~0ULL - 0xf, 0x20, false));	/* wraps */
	/* mapped, but [4 GiB, 4.5 GiB) is the host RM's own range */
	assert_true(ptm_covers(&pm, 0xfffff000, 0x1000, true));
	assert_false(ptm_covers(&pm, 0xfffff000, 0x2000, true));
	pm.nruns = 0;
	assert_false(ptm_covers(&pm, 0x200000, 1, false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirty_pages_name_their_tables),
		cmocka_unit_test(test_system_memory_tables_are_always_dirty),
		cmocka_unit_test(test_splice_replaces_only_the_ranges),
		cmocka_unit_test(test_splice_drops_what_went),
		cmocka_unit_test(test_covers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
