// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Page-table write tracking (mm/pt_track.c) and the range walk that uses
 * it (vgsp_mmu_walk_range): writes to watched FB pages are logged once per
 * unread run, the log tells a reader that fell behind to walk everything,
 * a reset or FB mapped into the guest does the same, and a range walk
 * reads only the tables on the way to the range, reporting each.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "device.h"
#include "mm/mm.h"
#include "helpers/dev_fixture.h"

#define PD4		0x10000ULL
#define PD3		0x11000ULL
#define PD2		0x12000ULL
#define PD1		0x13000ULL
#define PD0		0x14000ULL
#define PT_A		0x20000ULL	/* VA 0..2 MiB */
#define PT_B		0x21000ULL	/* VA 2..4 MiB */
#define PDE_VID		(1ULL << 1)
#define MIB		(1ULL << 20)

static void put(struct vgsp_dev *dev, u64 pa, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(dev, pa, b, 8), 0);
}

static void test_watched_writes_are_logged(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_dev *dev = f->dev;
	u64 pages[VGSP_PT_LOG_LEN], now;
	u32 n;

	/* nothing watched: nothing logged, a reader from 0 is current */
	put(dev, PT_A, 1);
	assert_int_equal(vgsp_pt_log_since(dev, 0, pages, 8, &n, &now), 0);
	assert_int_equal(n, 0);

	assert_int_equal(vgsp_pt_watch(dev, PT_A, 4096), 0);
	assert_int_equal(vgsp_pt_watch(dev, PT_B, 256), 0);
	assert_int_equal(vgsp_pt_watch(dev, 1ULL << 40, 4096), -EINVAL);
	put(dev, PT_A + 8, 1);
	put(dev, PT_A + 16, 1);		/* same page, unread: one entry */
	put(dev, 0x30000, 1);		/* not watched */
	put(dev, PT_B + 0x800, 1);	/* same FB page as the watched 256 B */
	assert_int_equal(vgsp_pt_log_since(dev, 0, pages, 8, &n, &now), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pages[0], PT_A >> 12);
	assert_int_equal(pages[1], PT_B >> 12);
	assert_int_equal(now, 2);

	/* after a read, a write to the last page is logged again */
	put(dev, PT_B, 2);
	assert_int_equal(vgsp_pt_log_since(dev, now, pages, 8, &n, &now), 0);
	assert_int_equal(n, 1);
	assert_int_equal(pages[0], PT_B >> 12);

	/* a fill across both (a scrub) logs each watched page */
	assert_int_equal(vgsp_fb_fill(dev, 0, 0, 4 * MIB), 0);
	assert_int_equal(vgsp_pt_log_since(dev, now, pages, 8, &n, &now), 0);
	assert_int_equal(n, 2);
}

static void test_behind_reset_untracked_mean_walk_all(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_dev *dev = f->dev;
	u64 pages[VGSP_PT_LOG_LEN], now, s0;
	u32 n, i;

	assert_int_equal(vgsp_pt_watch(dev, 0, 2 * VGSP_PT_LOG_LEN * 4096),
			 0);
	assert_int_equal(vgsp_pt_log_since(dev, 0, pages, 8, &n, &s0), 0);
	for (i = 0; i < 9; i++)
		put(dev, (u64)i << 12, 1);
	/* more than the reader can take */
	assert_int_equal(vgsp_pt_log_since(dev, s0, pages, 8, &n, &now),
			 -ENOSPC);
	for (i = 0; i < VGSP_PT_LOG_LEN + 1; i++)
		put(dev, (u64)i << 12, 1);
	/* the ring no longer reaches back */
	assert_int_equal(vgsp_pt_log_since(dev, s0, pages, VGSP_PT_LOG_LEN,
					   &n, &now), -ENOSPC);
	assert_int_equal(vgsp_pt_log_since(dev, now, pages, 8, &n, &now), 0);

	/* a device reset: nothing watched, every reader walks again */
	vgsp_dev_lock(dev);
	vgsp_mm_reset(dev);
	vgsp_dev_unlock(dev);
	assert_int_equal(vgsp_pt_log_since(dev, now, pages, 8, &n, &s0),
			 -ENOSPC);
	put(dev, 0, 1);
	assert_int_equal(vgsp_pt_log_since(dev, s0, pages, 8, &n, &now), 0);
	assert_int_equal(n, 0);

	/* FB mapped into the guest: the log cannot be trusted any more */
	vgsp_pt_fb_untracked(dev);
	assert_int_equal(vgsp_pt_log_since(dev, now, pages, 8, &n, &now),
			 -ENOSPC);
}

struct seen {
	u64 tab_pa[16], tab_va[16], tab_span[16];
	u32 ntab;
	u64 leaf_va[16];
	u32 nleaf;
};

static int on_leaf(void *ctx, u64 va, const struct vgsp_xlate *x)
{
	struct seen *s = ctx;

	assert_true(s->nleaf < 16);
	s->leaf_va[s->nleaf++] = va;
	return 0;
}

static int on_table(void *ctx, enum vgsp_mem_target t, u64 pa, u32 len,
		    u64 va, u64 span)
{
	struct seen *s = ctx;

	assert_int_equal(t, VGSP_MEM_VID);
	assert_true(s->ntab < 16);
	s->tab_pa[s->ntab] = pa;
	s->tab_va[s->ntab] = va;
	s->tab_span[s->ntab++] = span;
	return 0;
}

static void test_range_walk_reads_only_the_way_there(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_dev *dev = f->dev;
	struct vgsp_vm vm = { .pdb = PD4, .target = VGSP_MEM_VID };
	struct seen s = { 0 };
	struct vgsp_mmu_walk req = { .va_lo = 2 * MIB, .va_end = 4 * MIB,
				     .max_tables = 64, .leaf = on_leaf,
				     .table = on_table, .ctx = &s };

	put(dev, PD4, PD3 | PDE_VID);
	put(dev, PD3, PD2 | PDE_VID);
	put(dev, PD2, PD1 | PDE_VID);
	put(dev, PD1, PD0 | PDE_VID);
	put(dev, PD0 + 8, PT_A | PDE_VID);		/* entry 0, small */
	put(dev, PD0 + 16 + 8, PT_B | PDE_VID);	/* entry 1, small */
	put(dev, PT_A, 0x100000 | 1);
	put(dev, PT_B + 8, 0x200000 | 1);
	assert_int_equal(vgsp_mmu_walk_range(dev, &vm, &req), 0);
	/* root, PD3, PD2, PD1, PD0, PT_B: not PT_A */
	assert_int_equal(s.ntab, 6);
	assert_int_equal(s.tab_pa[0], PD4);
	assert_int_equal(s.tab_span[0], 1ULL << 57);
	assert_int_equal(s.tab_pa[4], PD0);
	assert_int_equal(s.tab_span[4], 512 * MIB);
	assert_int_equal(s.tab_pa[5], PT_B);
	assert_int_equal(s.tab_va[5], 2 * MIB);
	assert_int_equal(s.tab_span[5], 2 * MIB);
	assert_int_equal(s.nleaf, 1);
	assert_int_equal(s.leaf_va[0], 2 * MIB + 0x1000);

	/* ranges are whole 2 MiB pieces of the 57-bit VA space */
	req.va_lo = 0x1000;
	assert_int_equal(vgsp_mmu_walk_range(dev, &vm, &req), -EINVAL);
	req.va_lo = 0;
	req.va_end = 1ULL << 58;
	assert_int_equal(vgsp_mmu_walk_range(dev, &vm, &req), -EINVAL);
	/* the whole space: both tables, both leaves */
	memset(&s, 0, sizeof(s));
	req.va_end = 1ULL << 57;
	assert_int_equal(vgsp_mmu_walk_range(dev, &vm, &req), 0);
	assert_int_equal(s.ntab, 7);
	assert_int_equal(s.nleaf, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_watched_writes_are_logged,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(
			test_behind_reset_untracked_mean_walk_all,
			dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(
			test_range_walk_reads_only_the_way_there,
			dev_fx_setup, dev_fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
