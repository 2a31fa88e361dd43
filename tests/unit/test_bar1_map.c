// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR1 mapped into the guest (kernel/core/mm/bar1_map.h): what backs each
 * page (FB, the doorbell page, the dummy page and why), that a mapped
 * page is the FB store's own memory both ways, that it is pinned (a zero
 * fill does not free it) until the frontend zaps, that every change point
 * asks for a zap, and that a write to the doorbell page re-arms it before
 * the worker scans every channel's GP_PUT.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "profiles.h"
#include "aperture.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "helpers/fake_fe.h"

#define PDB		0x100000ULL	/* BAR1 root (GSP-RM's, static info) */
#define PT		(PDB + 0x5000)	/* the 4 KiB page table */
#define FB_A		0x500000ULL
#define FB_B		0x600000ULL
#define PTE_SYS		(2ULL << 1)
#define PTE_RO		(0x4ULL << 3)
#define PTE_MSG		(0xfULL << 8)
#define VF_INVALIDATE	0xb830b0	/* VF + 0x30b0: MMU_INVALIDATE */

struct fx {
	struct fake_fe fe;
	struct vgsp_fe_ops ops;
	struct vgsp_dev *dev;
	u64 zaps_all, zaps_db;
	u64 scans_before;	/* doorbells_any when the re-arm zap came */
};

static struct fx *cur;

/* What vgsp.ko's zap does, minus the page tables: pins end. */
static void zap(void *fe, bool doorbells)
{
	if (doorbells) {
		vgsp_inc(&cur->zaps_db);
		return;
	}
	vgsp_inc(&cur->zaps_all);
	if (cur->dev)
		vgsp_bar1_unpinned(cur->dev);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	u8 uuid[16] = { 0xb1 };

	vgsp_os_user_init();
	assert_non_null(f);
	cur = f;
	fake_fe_init(&f->fe, 0x100000, 0x10000);
	f->ops = fake_fe_ops;
	f->ops.bar1_zap = zap;
	f->dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8,
				 &f->ops, &f->fe);
	assert_non_null(f->dev);
	fake_bus_master(f->dev);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	vgsp_dev_destroy(f->dev);
	fake_fe_fini(&f->fe);
	cur = NULL;
	free(f);
	return 0;
}

static void fb64(struct fx *f, u64 pa, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, 8), 0);
}

static u32 bar1_rd32(struct fx *f, u64 off)
{
	u32 v = 0;

	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR1, off, &v, 4), 0);
	return v;
}

/* PD4..PD1 entry 0 down to PD0, whose small half names PT. */
static void build_tables(struct fx *f)
{
	unsigned int i;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < 4; i++)
		fb64(f, PDB + 0x1000 * i, (PDB + 0x1000 * (i + 1)) | 2);
	fb64(f, PDB + 0x4000 + 8, PT | 2);
	fb64(f, PT + 8 * 1, FB_A | 1);			/* 0x1000: FB */
	fb64(f, PT + 8 * 2, 0x30000 | PTE_SYS | PTE_MSG | 1);	/* doorbell */
	fb64(f, PT + 8 * 3, 0x00000 | PTE_SYS | PTE_MSG | 1);	/* VF priv */
	fb64(f, PT + 8 * 4, 0x200000 | PTE_SYS | 1);	/* guest RAM */
	fb64(f, PT + 8 * 6, FB_B | PTE_RO | 1);		/* read-only */
	vgsp_bar_set_pdb(f->dev, VGSP_VIEW_BAR1, PDB);
	vgsp_dev_unlock(f->dev);
}

static void test_mmap_len_needs_zap(void **state)
{
	struct fx *f = *state;
	struct fake_fe fe;
	u8 uuid[16] = { 0xb2 };
	struct vgsp_dev *plain;

	assert_int_equal(vgsp_dev_bar_mmap_len(f->dev, VGSP_BAR1),
			 vgsp_dev_bar_size(f->dev, VGSP_BAR1));
	fake_fe_init(&fe, 0x100000, 0x1000);
	plain = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8,
				&fake_fe_ops, &fe);
	assert_non_null(plain);
	assert_int_equal(vgsp_dev_bar_mmap_len(plain, VGSP_BAR1), 0);
	vgsp_dev_destroy(plain);
	fake_fe_fini(&fe);
}

/* Flat BAR1 (before static info): the aperture's own pages. */
static void test_flat_page_is_the_aperture(void **state)
{
	struct fx *f = *state;
	struct vgsp_bar1_page pg;
	u32 v = 0x11223344;

	assert_int_equal(vgsp_bar1_page(f->dev, 0x12345, false, &pg), 0);
	assert_int_equal(pg.kind, VGSP_BAR1_MEM);
	memcpy((u8 *)pg.mem + 0x344, &v, 4);	/* the guest's store */
	assert_int_equal(bar1_rd32(f, 0x12344), 0x11223344);
	v = 0xcafef00d;
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR1, 0x12348, &v, 4),
			 0);
	assert_memory_equal((u8 *)pg.mem + 0x348, &v, 4);
	/* outside BAR1: refused, the dummy page, counted */
	assert_int_equal(vgsp_bar1_page(f->dev, vgsp_dev_bar_size(f->dev, 1),
					false, &pg), -EINVAL);
	assert_int_equal(pg.kind, VGSP_BAR1_DUMMY);
	assert_int_equal(f->dev->mm->b1.invalid, 1);
	/* reset: a zap, zeros, and the chunk given back once unpinned */
	vgsp_dev_reset(f->dev);
	assert_true(f->zaps_all >= 1);
	assert_int_equal(bar1_rd32(f, 0x12344), 0);
	assert_int_equal(f->dev->bar1->backed, 0);
}

static void test_translated_classes(void **state)
{
	struct fx *f = *state;
	struct vgsp_bar1_page pg;
	u64 z = f->zaps_all;
	u32 v = 0x5a5a1234, got;

	build_tables(f);
	assert_int_equal(f->zaps_all, z + 1);	/* flat -> translated */
	assert_int_equal(vgsp_bar1_page(f->dev, 0x1010, true, &pg), 0);
	assert_int_equal(pg.kind, VGSP_BAR1_MEM);
	assert_false(pg.ro);
	memcpy((u8 *)pg.mem + 0x20, &v, 4);
	assert_int_equal(bar1_rd32(f, 0x1020), v);
	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_read(f->dev, FB_A + 0x20, &got, 4), 0);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(got, v);

	vgsp_bar1_page(f->dev, 0x2000, false, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_DOORBELL);
	vgsp_bar1_page(f->dev, 0x3000, false, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_DUMMY);
	assert_int_equal(f->dev->mm->b1.msg_other, 1);
	vgsp_bar1_page(f->dev, 0x4000, false, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_DUMMY);
	assert_int_equal(f->dev->mm->b1.sysmem, 1);
	vgsp_bar1_page(f->dev, 0x5000, false, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_DUMMY);
	assert_int_equal(f->dev->mm->b1.invalid, 1);
	vgsp_bar1_page(f->dev, 0x6000, false, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_MEM);
	assert_true(pg.ro);
	vgsp_bar1_page(f->dev, 0x6000, true, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_DUMMY);
	assert_int_equal(f->dev->mm->b1.ro_writes, 1);
	assert_int_equal(f->dev->mm->b1.dummy, 4);
	assert_int_equal(f->dev->mm->b1.doorbell_pages, 1);
}

/* A table in system memory is not walked from the fault path. */
static void test_sysmem_table_is_invalid(void **state)
{
	struct fx *f = *state;
	struct vgsp_bar1_page pg;

	build_tables(f);
	vgsp_dev_lock(f->dev);
	fb64(f, PDB + 0x4000 + 8, 0x100000 | 4);	/* PT in guest RAM */
	vgsp_dev_unlock(f->dev);
	vgsp_bar1_page(f->dev, 0x1000, false, &pg);
	assert_int_equal(pg.kind, VGSP_BAR1_DUMMY);
	assert_int_equal(f->fe.dma_reads, 0);
}

/* Pinned: a zero fill keeps the chunk; the PTE change + invalidate zaps. */
static void test_pin_and_move(void **state)
{
	struct fx *f = *state;
	struct vgsp_bar1_page pg, pg2;
	u32 v = 0x77, trig = 1U << 31;
	u64 backed, z;

	build_tables(f);
	vgsp_bar1_page(f->dev, 0x1000, true, &pg);
	memcpy(pg.mem, &v, 4);
	backed = vgsp_fb_backed(f->dev);
	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_fill(f->dev, FB_A, 0, 0x10000), 0);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_fb_backed(f->dev), backed);	/* kept */
	assert_int_equal(*(u32 *)pg.mem, 0);			/* zeroed */
	memcpy(pg.mem, &v, 4);

	z = f->zaps_all;
	vgsp_dev_lock(f->dev);
	fb64(f, PT + 8 * 1, FB_B | 1);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, VF_INVALIDATE,
					    &trig, 4), 0);
	assert_int_equal(f->zaps_all, z + 1);
	vgsp_bar1_page(f->dev, 0x1000, false, &pg2);
	assert_int_equal(pg2.kind, VGSP_BAR1_MEM);
	assert_ptr_not_equal(pg2.mem, pg.mem);
	assert_int_equal(bar1_rd32(f, 0x1000), 0);	/* old bytes gone */
	/* UPDATE_BAR_PDE and a GSP unbind zap too */
	z = f->zaps_all;
	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_bar_set_root(f->dev, VGSP_VIEW_BAR1,
					   (PDB + 0x1000) | 2), 0);
	vgsp_bar_unbind(f->dev);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->zaps_all, z + 2);
}

/* The doorbell page: re-armed (zap) first, then every channel scanned. */
static void test_doorbell_scans_every_channel(void **state)
{
	struct fx *f = *state;
	u64 runs0;
	int i;

	build_tables(f);
	runs0 = f->dev->fifo->st.worker_runs;
	vgsp_bar1_doorbell(f->dev);
	for (i = 0; i < 2000 && vgsp_load64(&f->zaps_db) < 1; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(vgsp_load64(&f->zaps_db), 1);
	for (i = 0; i < 2000 && vgsp_load64(&f->dev->fifo->st.worker_runs) ==
				runs0; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(f->dev->fifo->st.doorbells_any, 1);
	assert_int_equal(vgsp_load64(&f->dev->mm->b1.rearms), 1);
	assert_int_equal(f->dev->mm->b1.doorbells, 1);
	/* a second write faults again: another doorbell, another re-arm */
	vgsp_bar1_doorbell(f->dev);
	for (i = 0; i < 2000 && vgsp_load64(&f->zaps_db) < 2; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(vgsp_load64(&f->zaps_db), 2);
}

/* A real channel: GP_PUT moved, no token seen; the scan runs its entry. */
#define CH_PD4		0x800000ULL
#define CH_VA_PA	0xa00000ULL	/* channel VA 0 .. 2 MiB maps here */
#define CH_USERD	0xc00000ULL
#define CH_GPFIFO_VA	0x1000
#define CH_PB_VA	0x2000

static void fb32(struct fx *f, u64 pa, u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, 4), 0);
}

static void test_doorbell_runs_a_channel(void **state)
{
	struct fx *f = *state;
	struct vgsp_chan_desc d = {
		.client = 0xc1e00001, .handle = 2, .parent = 1, .hdevice = 1,
		.chid = 5, .runlist = 1, .engine_type = 9,
		.gpfifo_va = CH_GPFIFO_VA, .gpfifo_entries = 16,
		.userd_pa = CH_USERD, .userd_target = VGSP_MEM_VID,
	};
	u32 get = 0;
	unsigned int i;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < 4; i++)
		fb64(f, CH_PD4 + 0x1000 * i, (CH_PD4 + 0x1000 * (i + 1)) | 2);
	fb64(f, CH_PD4 + 0x4000, CH_VA_PA | 1);
	assert_int_equal(vgsp_rm_vas_set_pd(f->dev, d.client, d.hdevice, 0,
					    CH_PD4, VGSP_MEM_VID), 0);
	assert_int_equal(vgsp_fifo_chan_alloc(f->dev, &d), 0);
	fb32(f, CH_VA_PA + CH_PB_VA, 0x20010000);	/* SET_OBJECT copy */
	fb32(f, CH_VA_PA + CH_PB_VA + 4, 0x0000c8b5);
	fb32(f, CH_VA_PA + CH_GPFIFO_VA, CH_PB_VA);
	fb32(f, CH_VA_PA + CH_GPFIFO_VA + 4, 2 << 10);
	fb32(f, CH_USERD + VGSP_USERD_GP_PUT, 1);
	vgsp_dev_unlock(f->dev);
	vgsp_bar1_doorbell(f->dev);	/* what the mapped page's write fault does */
	for (i = 0; i < 2000 && get != 1; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
		vgsp_dev_lock(f->dev);
		assert_int_equal(vgsp_fb_read(f->dev, CH_USERD + VGSP_USERD_GP_GET,
					      &get, 4), 0);
		vgsp_dev_unlock(f->dev);
	}
	assert_int_equal(get, 1);
	assert_int_equal(f->dev->fifo->st.doorbells, 0);	/* no token */
	assert_int_equal(f->dev->fifo->st.doorbells_any, 1);
	assert_int_equal(f->dev->fifo->st.chan_errors, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mmap_len_needs_zap, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_flat_page_is_the_aperture,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_translated_classes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sysmem_table_is_invalid,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_pin_and_move, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_doorbell_scans_every_channel,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_doorbell_runs_a_channel,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
