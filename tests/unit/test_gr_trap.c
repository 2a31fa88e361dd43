// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Blocking-sync wake-ups: a CUDA context created with
 * CU_CTX_SCHED_BLOCKING_SYNC ends its work on the compute channel with a
 * report semaphore whose OPERATION is TRAP (SET_REPORT_SEMAPHORE_D = 0x3)
 * and sleeps until GR's non-stall interrupt wakes its event. The channel
 * must go on (no error notifier), the payload must land, and the GR
 * notification vector must go pending in the CPU interrupt tree (and fire
 * once its leaf is enabled), where CPU-RM services it. Host
 * NON_STALL_INTERRUPT on a GR channel reports on the same vector; on a
 * copy channel, which has no vector here yet, it is only counted.
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
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "helpers/dev_fixture.h"

#define CLIENT		0xc1e00002
#define HDEVICE		0x1
#define HCHAN		0x2
#define PD4		0x10000ULL
#define VA_PA		0x200000ULL	/* VA 0 .. 2 MiB maps here */
#define GPFIFO_VA	0x1000
#define PB_VA		0x2000
#define SEM_VA		0x3000
#define ERRNOT_PA	0x5000ULL
#define USERD_PA	0x300000ULL
#define CHID		5
#define RUNLIST		0
#define ENGINE_GR0	0x01
#define ENGINE_COPY0	0x09
/* the GR notification vector GH100 reports: leaf 6, bit 0 */
#define GR_NS_LEAF	6
#define GR_NS_BIT	1U
#define INTR_LEAF(i)		(0xb81000 + 4 * (i))
#define INTR_LEAF_EN_SET(i)	(0xb81200 + 4 * (i))


/* Device lock held. */
static void put(struct dev_fx *f, u64 pa, u64 v, u32 n)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, n), 0);
}

static u32 fb_rd(struct dev_fx *f, u64 pa)
{
	u8 b[4];

	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_read(f->dev, pa, b, 4), 0);
	vgsp_dev_unlock(f->dev);
	return vgsp_get32(b, 0);
}

static u32 bar0_rd(struct dev_fx *f, u64 off)
{
	u32 v = 0;

	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, off, &v, 4), 0);
	return v;
}

static void bar0_wr(struct dev_fx *f, u64 off, u32 v)
{
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, off, &v, 4),
			 0);
}

static void make_channel(struct dev_fx *f, u32 engine_type)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = RUNLIST,
		.engine_type = engine_type, .gpfifo_va = GPFIFO_VA,
		.gpfifo_entries = 16, .userd_pa = USERD_PA,
		.userd_target = VGSP_MEM_VID, .errnot_pa = ERRNOT_PA,
		.errnot_target = VGSP_MEM_VID, .has_errnot = true,
	};
	unsigned int i;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < 4; i++)
		put(f, PD4 + 0x1000 * i, (PD4 + 0x1000 * (i + 1)) | 2, 8);
	put(f, PD4 + 0x4000, VA_PA | 1, 8);
	assert_int_equal(vgsp_rm_vas_set_pd(f->dev, CLIENT, HDEVICE, 0, PD4,
					    VGSP_MEM_VID), 0);
	assert_int_equal(vgsp_fifo_chan_alloc(f->dev, &d), 0);
	vgsp_dev_unlock(f->dev);
}

static void submit(struct dev_fx *f, const u32 *pb, u32 n)
{
	u32 i, token = RUNLIST << 16 | CHID;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < n; i++)
		put(f, VA_PA + PB_VA + 4 * i, pb[i], 4);
	put(f, VA_PA + GPFIFO_VA, PB_VA, 4);
	put(f, VA_PA + GPFIFO_VA + 4, n << 10, 4);
	put(f, USERD_PA + VGSP_USERD_GP_PUT, 1, 4);
	vgsp_dev_unlock(f->dev);
	bar0_wr(f, 0xbb0090, token);
}

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

static void wait_done(struct dev_fx *f)
{
	int i;

	for (i = 0; i < 2000 && fb_rd(f, USERD_PA + VGSP_USERD_GP_GET) != 1;
	     i++)
		nap();
	assert_int_equal(fb_rd(f, USERD_PA + VGSP_USERD_GP_GET), 1);
}

/* The leaf bit is set by the worker after its slice: wait for it. */
static bool gr_nonstall_pending(struct dev_fx *f)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (bar0_rd(f, INTR_LEAF(GR_NS_LEAF)) & GR_NS_BIT)
			return true;
		nap();
	}
	return false;
}

static u64 irqs(struct dev_fx *f)
{
	return f->dev->cnt.irqs_gated + f->dev->cnt.irqs_signalled +
	       f->dev->cnt.irqs_suppressed;
}

static void test_report_semaphore_trap(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,		/* SET_OBJECT compute, subch 1 */
		0x200426c0, 0, SEM_VA, 0x99, 0x3, /* REPORT_SEMAPHORE_A..D: TRAP */
	};
	struct vgsp_chan *ch;
	u64 before;

	make_channel(f, ENGINE_GR0);
	/* CPU-RM enables the notification leaf from the interrupt table */
	bar0_wr(f, INTR_LEAF_EN_SET(GR_NS_LEAF), GR_NS_BIT);
	before = irqs(f);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	wait_done(f);
	/* the payload landed (four-word form: payload, 0, timestamp) */
	assert_int_equal(fb_rd(f, VA_PA + SEM_VA), 0x99);
	assert_int_equal(fb_rd(f, VA_PA + SEM_VA + 4), 0);
	/* no error: the channel goes on */
	assert_int_equal(fb_rd(f, ERRNOT_PA + 12) >> 16, 0);
	assert_true(gr_nonstall_pending(f));
	assert_true(irqs(f) > before);
	/* CPU-RM clears the leaf (write 1 to clear) */
	bar0_wr(f, INTR_LEAF(GR_NS_LEAF), GR_NS_BIT);
	assert_int_equal(bar0_rd(f, INTR_LEAF(GR_NS_LEAF)) & GR_NS_BIT, 0);
	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_int_equal(ch->st.gr_traps, 1);
	assert_int_equal(ch->st.nonstall_intrs, 1);
	assert_int_not_equal(ch->state, VGSP_CHAN_ERROR);
	assert_int_equal(f->dev->fifo->st.nonstall_delivered, 1);
	vgsp_dev_unlock(f->dev);
}

/* Reductions and the other operations stay refused. */
static void test_report_semaphore_acquire_refused(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,
		0x200426c0, 0, SEM_VA, 0x99, 0x1, /* OPERATION_ACQUIRE */
	};

	int i;

	make_channel(f, ENGINE_GR0);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	for (i = 0; i < 2000 && fb_rd(f, ERRNOT_PA + 12) >> 16 != 0xffff; i++)
		nap();
	assert_int_equal(fb_rd(f, ERRNOT_PA + 12) >> 16, 0xffff);
	assert_int_equal(bar0_rd(f, INTR_LEAF(GR_NS_LEAF)) & GR_NS_BIT, 0);
}

/* Host NON_STALL_INTERRUPT on a GR channel: the same vector. */
static void test_host_nonstall_gr(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20010008, 0,			/* NON_STALL_INTERRUPT */
	};

	make_channel(f, ENGINE_GR0);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	wait_done(f);
	assert_true(gr_nonstall_pending(f));
}

/* On a copy channel: counted, no vector set. */
static void test_host_nonstall_copy(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20010008, 0,			/* NON_STALL_INTERRUPT */
	};
	int i;

	make_channel(f, ENGINE_COPY0);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	wait_done(f);
	for (i = 0; i < 20; i++)
		nap();
	assert_int_equal(bar0_rd(f, INTR_LEAF(GR_NS_LEAF)) & GR_NS_BIT, 0);
	vgsp_dev_lock(f->dev);
	assert_int_equal(f->dev->fifo->st.nonstall_no_vector, 1);
	vgsp_dev_unlock(f->dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_report_semaphore_trap,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(
			test_report_semaphore_acquire_refused, dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_host_nonstall_gr,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_host_nonstall_copy,
						dev_fx_setup, dev_fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
