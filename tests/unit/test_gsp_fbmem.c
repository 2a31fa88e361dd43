// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Video memory as CPU-RM reaches it (mm/): the BAR0 window onto
 * the FB store, BAR2 flat until UPDATE_BAR_PDE and then translated through
 * MMU ver3 page tables built the way CPU-RM builds them (PD4..PD1 8-byte
 * PDEs, a dual PD0 entry, 4 KiB and 64 KiB PTEs, a sysmem page), faults
 * that read 0 and are counted, the engine table's coherence between
 * DEVICE_INFO2, the FIFO list, GET_ENGINES_V2 and engineCaps, and GR0's
 * static info.
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
#include "gsp/gsp_priv.h"
#include "gsp/gsp.h"
#include "abi/r535/r535.h"
#include "helpers/dev_fixture.h"

#define PRAMIN		0x700000
#define BAR0_WINDOW	0x10fd40
#define SYS_IOVA	0x100000
#define SYS_SIZE	0x10000

static int setup(void **state)
{
	struct dev_fx *f = dev_fx_new(SYS_IOVA, SYS_SIZE, 7);

	assert_non_null(f);
	fake_bus_master(f->dev);	/* sysmem PTEs are device DMA */
	*state = f;
	return 0;
}

static u32 rd0(struct dev_fx *f, u32 off)
{
	u32 v = 0;

	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, off, &v, 4), 0);
	return v;
}

static void wr0(struct dev_fx *f, u32 off, u32 v)
{
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, off, &v, 4), 0);
}

static u32 rd3(struct dev_fx *f, u64 off)
{
	u32 v = 0;

	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR3, off, &v, 4), 0);
	return v;
}

static void wr3(struct dev_fx *f, u64 off, u32 v)
{
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR3, off, &v, 4), 0);
}

static void fb64(struct dev_fx *f, u64 pa, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, 8), 0);
}

static u32 fb32(struct dev_fx *f, u64 pa)
{
	u8 b[4];

	assert_int_equal(vgsp_fb_read(f->dev, pa, b, 4), 0);
	return vgsp_get32(b, 0);
}

static void test_bar0_window(void **state)
{
	struct dev_fx *f = *state;
	u64 top = f->dev->profile->fb_size - 0x10000;

	/* the window selects 64 KiB granules of FB */
	wr0(f, BAR0_WINDOW, (u32)(top >> 16));
	assert_int_equal(rd0(f, BAR0_WINDOW), (u32)(top >> 16));
	wr0(f, PRAMIN + 0x1234, 0xabcdabcd);
	assert_int_equal(rd0(f, PRAMIN + 0x1234), 0xabcdabcd);
	assert_int_equal(fb32(f, top + 0x1234), 0xabcdabcd);
	/* another window position sees other memory */
	wr0(f, BAR0_WINDOW, 0);
	assert_int_equal(rd0(f, PRAMIN + 0x1234), 0);
	/* a window past the end of FB reads 0, drops writes, counts */
	wr0(f, BAR0_WINDOW, 0x3fffff);
	wr0(f, PRAMIN + 0xfff00, 1);
	assert_int_equal(rd0(f, PRAMIN + 0xfff00), 0);
	assert_true(f->dev->mm->st.pramin_faults >= 1);
}

/*
 * Page tables as CPU-RM lays them out, all in FB:
 *   GSP-RM root (PD4) at bar2_pdb; PD3..PD1 chained; PD0 dual entry with
 *   a small (4 KiB) table for VA [0, 2 MiB) and, for VA [2 MiB, 4 MiB), a
 *   big (64 KiB) table only.
 */
#define PD3	0x100000ULL
#define PD2	0x101000ULL
#define PD1	0x102000ULL
#define PD0	0x103000ULL
#define PT4K	0x104000ULL
#define PT64K	0x105000ULL
#define PDE_VID(a)	((a) | (1ULL << 1))	/* aperture 1: video */
#define PTE_VID(a)	((a) | 1ULL)		/* valid, aperture 0 */
#define PTE_SYS(a)	((a) | 1ULL | (2ULL << 1))

static void build_tables(struct dev_fx *f)
{
	fb64(f, PD3, PDE_VID(PD2));
	fb64(f, PD2, PDE_VID(PD1));
	fb64(f, PD1, PDE_VID(PD0));
	/* PD0[0]: small table in the high half; PD0[1]: big table in the low */
	fb64(f, PD0 + 0, 0);
	fb64(f, PD0 + 8, PDE_VID(PT4K));
	fb64(f, PD0 + 16, PDE_VID(PT64K));
	fb64(f, PD0 + 24, 0);
	fb64(f, PT4K + 0 * 8, PTE_VID(0x200000ULL));	/* VA 0x0000 */
	fb64(f, PT4K + 1 * 8, PTE_VID(0x300000ULL));	/* VA 0x1000 */
	fb64(f, PT4K + 2 * 8, PTE_SYS(SYS_IOVA));	/* VA 0x2000 */
	fb64(f, PT64K + 0 * 8, PTE_VID(0x400000ULL));	/* VA 0x200000 */
}

static void test_bar2_translation(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_gsp *gsp = f->dev->gsp;
	u8 si[R535_SI_SIZE];
	u64 faults;
	u32 v[2] = { 0x11111111, 0x22222222 }, w[2];

	/* static info tells us (and sets) GSP-RM's BAR2 root */
	assert_int_equal(r535_static_info(gsp, si, sizeof(si)), R535_SI_SIZE);
	assert_int_equal(f->dev->mm->bar_pdb[VGSP_VIEW_BAR2],
			 vgsp_get64(si, R535_SI_BAR2_PDE_BASE));

	/* before the hand-over BAR2 is the flat aperture */
	wr3(f, 0x40, 0x5a5a5a5a);
	assert_int_equal(rd3(f, 0x40), 0x5a5a5a5a);

	build_tables(f);
	assert_int_equal(vgsp_bar_set_root(f->dev, VGSP_VIEW_BAR2, PDE_VID(PD3)), 0);

	/* 4 KiB pages */
	wr3(f, 0x10, 0xdeadbeef);
	assert_int_equal(fb32(f, 0x200010), 0xdeadbeef);
	assert_int_equal(rd3(f, 0x10), 0xdeadbeef);
	wr3(f, 0x1ffc, 0x01020304);
	assert_int_equal(fb32(f, 0x300ffc), 0x01020304);
	/* an 8-byte access (BAR accesses are naturally aligned: one page) */
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR3, 0xff8, v, 8), 0);
	assert_int_equal(fb32(f, 0x200ff8), 0x11111111);
	assert_int_equal(fb32(f, 0x200ffc), 0x22222222);
	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR3, 0xff8, w, 8), 0);
	assert_memory_equal(v, w, 8);
	/* system-memory page: the guest's RAM at the PTE's address */
	wr3(f, 0x2008, 0xcafef00d);
	assert_int_equal(vgsp_get32(f->fe.mem, 8), 0xcafef00d);
	/* 64 KiB page through the big table */
	wr3(f, 0x20abcc, 0x77777777);
	assert_int_equal(fb32(f, 0x40abcc), 0x77777777);

	/* unmapped VA: reads 0, writes dropped, counted */
	faults = f->dev->mm->st.bar2_faults;
	wr3(f, 0x5000, 0x1);
	assert_int_equal(rd3(f, 0x5000), 0);
	assert_int_equal(f->dev->mm->st.bar2_faults, faults + 2);

	/* a device reset forgets the binding and clears the FB */
	vgsp_dev_reset(f->dev);
	assert_false(f->dev->mm->bar_active[VGSP_VIEW_BAR2]);
	assert_int_equal(fb32(f, 0x200010), 0);
	assert_int_equal(rd3(f, 0x10), 0);
}

static void test_bar2_cycles_rejected(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_gsp *gsp = f->dev->gsp;
	u8 si[R535_SI_SIZE];
	u64 faults;

	assert_int_equal(r535_static_info(gsp, si, sizeof(si)), R535_SI_SIZE);
	/* a PD pointing at itself and PDEs past the end of FB terminate */
	fb64(f, PD3, PDE_VID(PD3));
	fb64(f, PD2, PDE_VID(f->dev->profile->fb_size));
	assert_int_equal(vgsp_bar_set_root(f->dev, VGSP_VIEW_BAR2, PDE_VID(PD3)), 0);
	faults = f->dev->mm->st.bar2_faults;
	assert_int_equal(rd3(f, 0), 0);
	assert_int_equal(f->dev->mm->st.bar2_faults, faults + 1);
	assert_int_equal(vgsp_bar_set_root(f->dev, VGSP_VIEW_BAR2, PDE_VID(PD2)), 0);
	assert_int_equal(rd3(f, 0), 0);
	assert_int_equal(f->dev->mm->st.bar2_faults, faults + 2);
}

static void test_engine_table_coherent(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_gsp *gsp = f->dev->gsp;
	static u8 di[0xc64], fifo[0xc8c], eng[0xfc];
	u32 caps = r535_engine_caps(), n, i, caps2 = 0;

	assert_int_equal(r535_get_device_info_table(gsp, di, sizeof(di)), 0);
	assert_int_equal(r535_fifo_get_device_info_table(gsp, fifo,
							 sizeof(fifo)), 0);
	assert_int_equal(r535_gpu_get_engines_v2(gsp, eng, sizeof(eng)), 0);
	n = vgsp_get32(di, 0);
	assert_true(n >= 1);
	assert_int_equal(vgsp_get32(fifo, 4), n);
	assert_int_equal(fifo[8], 0);			/* bMore */
	assert_int_equal(vgsp_get32(eng, 0), n);
	for (i = 0; i < n; i++) {
		const u8 *r = fifo + 0x0c + i * 100;

		/* RM engine type (FIFO), engine list and caps agree */
		assert_int_equal(vgsp_get32(r, 8), vgsp_get32(eng, 4 + 4 * i));
		caps2 |= 1U << vgsp_get32(r, 8);
		/* DEV_TYPE_ENUM and fault id agree with DEVICE_INFO2 */
		assert_int_equal(vgsp_get32(r, 4 * 9),
				 vgsp_get32(di, 4 + 36 * i + 8));
		assert_int_equal(vgsp_get32(r, 4 * 4),
				 vgsp_get32(di, 4 + 36 * i));
		assert_int_equal(vgsp_get32(r, 80), 1);	/* numPbdmas */
	}
	assert_int_equal(caps, caps2);
	/* paging past the table, misaligned or out-of-range base, bad size */
	vgsp_put32(fifo, 0, 32);
	assert_int_equal(r535_fifo_get_device_info_table(gsp, fifo,
							 sizeof(fifo)), 0);
	assert_int_equal(vgsp_get32(fifo, 4), 0);
	vgsp_put32(fifo, 0, 5);
	assert_int_equal(r535_fifo_get_device_info_table(gsp, fifo,
							 sizeof(fifo)),
			 NV_ERR_INVALID_ARGUMENT);
	vgsp_put32(fifo, 0, 256);
	assert_int_equal(r535_fifo_get_device_info_table(gsp, fifo,
							 sizeof(fifo)),
			 NV_ERR_INVALID_ARGUMENT);
	assert_int_equal(r535_fifo_get_device_info_table(gsp, fifo, 0xc88),
			 NV_ERR_INVALID_PARAM_STRUCT);
	assert_int_equal(r535_get_device_info_table(gsp, di, 0xb04),
			 NV_ERR_INVALID_PARAM_STRUCT);
}

/* GR0 static info: row 0 filled, rows 1..7 zero, sizes checked */
static void test_kgr_static_info(void **state)
{
	struct dev_fx *f = *state;
	struct vgsp_gsp *gsp = f->dev->gsp;
	static u8 info[8 * 0x35 * 8], sm[8 * (240 * 12 + 4)], fs[8 * 296];
	static u8 ctx[8 * 0x19 * 8];

	assert_int_equal(r535_kgr_get_info(gsp, info, sizeof(info)), 0);
	assert_int_equal(vgsp_get32(info, 8 * 0x2c), 0x2c);
	assert_int_equal(vgsp_get32(info, 8 * 0x2c + 4), 64);	/* subctx */
	assert_int_equal(vgsp_get32(info, 8 * 0x14 + 4), 8);	/* GPCs */
	assert_int_equal(vgsp_get32(info, 0x35 * 8 + 4), 0);	/* GR1 */
	assert_int_equal(r535_kgr_get_global_sm_order(gsp, sm, sizeof(sm)), 0);
	/* H100 SXM5: 132 SMs (test_gr_topology checks the whole topology) */
	assert_int_equal(sm[240 * 12] | sm[240 * 12 + 1] << 8, 132);
	assert_int_equal(r535_kgr_get_floorsweeping_masks(gsp, fs, sizeof(fs)),
			 0);
	assert_int_equal(vgsp_get32(fs, 0), 0xff);
	assert_int_equal(r535_kgr_get_context_buffers_info(gsp, ctx,
							   sizeof(ctx)), 0);
	assert_int_equal(vgsp_get32(ctx, 0), 0x10000);
	assert_int_equal(r535_kgr_get_info(gsp, info, 100),
			 NV_ERR_INVALID_PARAM_STRUCT);
	assert_int_equal(r535_kgr_get_caps(gsp, info, 8 * 23 - 8),
			 NV_ERR_INVALID_PARAM_STRUCT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bar0_window, setup,
						dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_bar2_translation, setup,
						dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_bar2_cycles_rejected,
						setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_table_coherent,
						setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_kgr_static_info, setup,
						dev_fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
