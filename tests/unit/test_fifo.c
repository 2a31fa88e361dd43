// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The work path in-process: a channel in an address space whose page
 * tables live in FB, a GPFIFO entry, a pushbuffer with the exact methods
 * CPU-RM's fast scrubber pushes (channelFillPbFastScrub) plus a host
 * semaphore release, and the doorbell. The worker must scrub the FB range
 * to zeros (giving the backing back), release both semaphores, write
 * GP_GET back to USERD, and refuse a compute launch with an error
 * notifier instead of a fake completion.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "aperture.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "helpers/dev_fixture.h"
#include "helpers/trace_rec.h"

#define CLIENT		0xc1e00001
#define HDEVICE		0x1
#define HCHAN		0x2
#define PD4		0x10000ULL
#define VA_PA		0x200000ULL	/* VA 0 .. 2 MiB maps here */
#define GPFIFO_VA	0x1000
#define PB_VA		0x2000
#define SEM_VA		0x3000
#define ERRNOT_PA	0x5000ULL	/* FB, physical */
#define USERD_PA	0x300000ULL
#define SCRUB_PA	0x400000ULL
#define CHID		3
#define RUNLIST		1


static void fb64(struct dev_fx *f, u64 pa, u64 v)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, 8), 0);
}

static void fb32(struct dev_fx *f, u64 pa, u32 v)
{
	u8 b[4];

	vgsp_put32(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, 4), 0);
}

static u32 rd32(struct dev_fx *f, u64 pa)
{
	u8 b[4];

	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_read(f->dev, pa, b, 4), 0);
	vgsp_dev_unlock(f->dev);
	return vgsp_get32(b, 0);
}

/* PD4 → PD3 → PD2 → PD1 → PD0 with one 2 MiB PTE: VA 0 → VA_PA. */
static void build_vm(struct dev_fx *f)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		fb64(f, PD4 + 0x1000 * i, (PD4 + 0x1000 * (i + 1)) | 2);
	fb64(f, PD4 + 0x4000, VA_PA | 1);
}

static void make_channel(struct dev_fx *f)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = RUNLIST,
		.engine_type = 9, .gpfifo_va = GPFIFO_VA, .gpfifo_entries = 16,
		.userd_pa = USERD_PA, .userd_target = VGSP_MEM_VID,
		.errnot_pa = ERRNOT_PA, .errnot_target = VGSP_MEM_VID,
		.has_errnot = true,
	};

	vgsp_dev_lock(f->dev);
	build_vm(f);
	assert_int_equal(vgsp_rm_vas_set_pd(f->dev, CLIENT, HDEVICE, 0, PD4,
					    VGSP_MEM_VID), 0);
	assert_int_equal(vgsp_fifo_chan_alloc(f->dev, &d), 0);
	vgsp_dev_unlock(f->dev);
}

/*
 * Write @n pushbuffer dwords at PB_VA + @off, queue them as entry @slot;
 * @va_pa: where VA 0 is mapped now.
 */
static void submit_at(struct dev_fx *f, u64 va_pa, u32 slot, u32 off,
		      const u32 *pb, u32 n)
{
	u32 i, token = RUNLIST << 16 | CHID;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < n; i++)
		fb32(f, va_pa + PB_VA + off + 4 * i, pb[i]);
	fb32(f, va_pa + GPFIFO_VA + 8 * slot, PB_VA + off);
	fb32(f, va_pa + GPFIFO_VA + 8 * slot + 4, n << 10);
	fb32(f, USERD_PA + VGSP_USERD_GP_PUT, slot + 1);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xbb0090,
					    &token, 4), 0);
}

static void submit(struct dev_fx *f, u32 slot, u32 off, const u32 *pb, u32 n)
{
	submit_at(f, VA_PA, slot, off, pb, n);
}

static void wait_gp_get(struct dev_fx *f, u32 want)
{
	int i;

	for (i = 0; i < 2000 && rd32(f, USERD_PA + VGSP_USERD_GP_GET) != want;
	     i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(rd32(f, USERD_PA + VGSP_USERD_GP_GET), want);
}

/* Up to 2 s for the channel's error notifier to be written (status 0xffff). */
static void wait_errnot(struct dev_fx *f)
{
	int i;

	for (i = 0; i < 2000 && (rd32(f, ERRNOT_PA + 12) >> 16) == 0; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	assert_int_equal(rd32(f, ERRNOT_PA + 12) >> 16, 0xffff);
}

static void test_fast_scrub_and_semaphores(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20010000, 0x0000c8b5,			/* SET_OBJECT copy */
		0x200101c0, 0,				/* REMAP_CONST_A */
		0x200101c1, 0,				/* REMAP_CONST_B */
		0x200101c2, 0x5,			/* REMAP_COMPONENTS */
		0x20010099, 0,				/* DST_PHYS_MODE FB */
		0x20020102, 0, (u32)SCRUB_PA,		/* OFFSET_OUT */
		0x20010106, 0x20000,			/* LINE_LENGTH_IN */
		0x20030090, 0, SEM_VA, 0x1234,		/* SET_SEMAPHORE */
		0x200101bf, 0,				/* SCRUB_PARAMETERS */
		0x200100c0, 0x0480318d,			/* LAUNCH_DMA */
		0x20040017, SEM_VA + 8, 0, 7, 0,	/* SEM_ADDR/PAYLOAD */
		0x2001001b, 0x1,			/* SEM_EXECUTE */
	};
	u8 junk[4096];
	u64 backed;
	unsigned int i;

	struct trace_ev e;
	int k;

	make_channel(f);
	memset(junk, 0xab, sizeof(junk));
	vgsp_dev_lock(f->dev);
	for (i = 0; i < 0x20000; i += sizeof(junk))
		assert_int_equal(vgsp_fb_write(f->dev, SCRUB_PA + i, junk,
					       sizeof(junk)), 0);
	/* the chunks the submission touches are backed before we count */
	fb32(f, VA_PA + 0x100, 1);
	fb32(f, USERD_PA + 0x100, 1);
	backed = f->dev->mm->fb->backed;
	vgsp_dev_unlock(f->dev);

	trace_rec_start();
	submit(f, 0, 0, pb, VGSP_ARRAY_SIZE(pb));
	wait_gp_get(f, 1);
	/* the scrub is one copy-engine operation, traced with its times */
	k = trace_rec_wait(0, VGSP_TRACE_OP, 2000);
	trace_rec_stop();
	assert_true(k >= 0);
	e = trace_rec_get((unsigned int)k);
	assert_int_equal(e.a, CHID);
	assert_int_equal(e.b, VGSP_OP_CE);
	assert_true(e.d > 0);				/* exec ns */
	assert_true(trace_rec_wait((unsigned int)k + 1, VGSP_TRACE_OP, 0) < 0);
	for (i = 0; i < 0x20000; i += 0x1000)
		assert_int_equal(rd32(f, SCRUB_PA + i), 0);
	assert_int_equal(rd32(f, VA_PA + SEM_VA), 0x1234);
	assert_int_equal(rd32(f, VA_PA + SEM_VA + 8), 7);
	/* the zeroed chunks gave their backing back */
	assert_int_equal(f->dev->mm->fb->backed,
			 backed - 0x20000);
	assert_int_equal(rd32(f, ERRNOT_PA + 14) & 0xffff, 0);
	vgsp_dev_lock(f->dev);
	{
		struct vgsp_chan *ch = vgsp_fifo_chan_find(f->dev, CLIENT,
							   HCHAN);

		assert_non_null(ch);
		assert_int_equal(ch->st.ce_launches, 1);
		assert_int_equal(ch->st.ce_bytes, 0x20000);
		assert_int_equal(ch->st.sem_releases, 2);
		assert_int_equal(ch->state, VGSP_CHAN_IDLE);
	}
	vgsp_dev_unlock(f->dev);
	/* one copy: each stage of its latency counted once, GR untouched */
	{
		const struct vgsp_fifo_lat *l = &f->dev->fifo->lat;

		assert_int_equal(l->submit[VGSP_OP_CE].n, 1);
		assert_int_equal(l->exec[VGSP_OP_CE].n, 1);
		assert_int_equal(l->complete[VGSP_OP_CE].n, 1);
		assert_int_equal(l->overhead[VGSP_OP_CE].n, 1);
		assert_int_equal(l->exec[VGSP_OP_GR].n, 0);
		assert_int_equal(l->wake.n, 1);
		/* the copy is visible at its own semaphore, before GP_GET */
		assert_true(l->overhead[VGSP_OP_CE].sum_ns ==
			    l->submit[VGSP_OP_CE].sum_ns +
			    l->complete[VGSP_OP_CE].sum_ns);
	}
}

/* A compute launch on sim stops the channel with an error notifier. */
static void test_compute_launch_refused(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute, subch 1 */
		0x200120ad, 0x100,			/* SEND_PCAS_A */
		0x200120b0, 0x9,			/* SEND_SIGNALING_PCAS2_B */
	};
	static const u32 after[] = { 0x20010017, 0 };
	struct vgsp_chan *ch;

	make_channel(f);
	submit(f, 0, 0, pb, VGSP_ARRAY_SIZE(pb));
	wait_errnot(f);
	assert_int_equal(rd32(f, ERRNOT_PA + 8), 13);	/* GR exception */
	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_int_equal(ch->state, VGSP_CHAN_ERROR);
	assert_int_equal(ch->st.gr_launches, 1);
	vgsp_dev_unlock(f->dev);
	/* a stopped channel ignores further work: GP_GET stays */
	submit(f, 1, 0x100, after, VGSP_ARRAY_SIZE(after));
	assert_int_equal(rd32(f, USERD_PA + VGSP_USERD_GP_GET), 0);
}

/*
 * The compute class's inline transfer and report semaphore, which CUDA
 * uses while it sets a context up: two dwords land at OFFSET_OUT and the
 * completion releases the semaphore; a report semaphore releases too.
 */
static void test_compute_inline_and_semaphore(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute, subch 1 */
		0x20042060, 8, 1, 0, 0x3100,		/* LINE_LENGTH_IN..OFFSET_OUT */
		0x200326c0, 0, SEM_VA, 0x55,		/* SET_REPORT_SEMAPHORE_A..C */
		0x2001206c, 0x1021,			/* LAUNCH_DMA: pitch, release, 1 word */
		0x6002206d, 0xcafe0001, 0xcafe0002,	/* LOAD_INLINE_DATA x2 (non-inc) */
		0x200126c0, 0,				/* SET_REPORT_SEMAPHORE_A */
		0x200126c1, SEM_VA + 8,			/* SET_REPORT_SEMAPHORE_B */
		0x200126c2, 0x66,			/* _C */
		0x200126c3, 0x10000000,			/* _D: release, one word */
	};

	make_channel(f);
	submit(f, 0, 0, pb, VGSP_ARRAY_SIZE(pb));
	wait_gp_get(f, 1);
	assert_int_equal(rd32(f, VA_PA + 0x3100), 0xcafe0001);
	assert_int_equal(rd32(f, VA_PA + 0x3104), 0xcafe0002);
	assert_int_equal(rd32(f, VA_PA + SEM_VA), 0x55);
	assert_int_equal(rd32(f, VA_PA + SEM_VA + 8), 0x66);
	assert_int_equal(rd32(f, ERRNOT_PA + 12) >> 16, 0);
}

/*
 * Only signalling PCAS actions that schedule run the QMD: NOP, INVALIDATE
 * and PREFETCH (PCAS2_B) and PCAS_B without SCHEDULE act on the QMD cache
 * only, so the channel goes on with no launch; PREFETCH_SCHEDULE then
 * launches (refused on sim: the error notifier, GR exception).
 */
static void test_pcas_actions_that_do_not_schedule(void **state)
{
	struct dev_fx *f = *state;
	static const u32 quiet[] = {
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute, subch 1 */
		0x200120ad, 0x100,			/* SEND_PCAS_A */
		0x200120b0, 0x1,			/* PCAS2_B INVALIDATE */
		0x200120b0, 0x8,			/* PCAS2_B PREFETCH */
		0x200120b0, 0x0,			/* PCAS2_B NOP */
		0x200120af, 0x1,			/* PCAS_B INVALIDATE only */
	};
	static const u32 run[] = { 0x200120b0, 0x9 };	/* PREFETCH_SCHEDULE */
	struct vgsp_chan *ch;
	struct trace_ev e;
	int k;

	make_channel(f);
	submit(f, 0, 0, quiet, VGSP_ARRAY_SIZE(quiet));
	wait_gp_get(f, 1);
	assert_int_equal(rd32(f, ERRNOT_PA + 12) >> 16, 0);
	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_int_equal(ch->st.gr_launches, 0);
	assert_int_equal(f->dev->fifo->st.pcas_no_schedule, 4);
	assert_int_equal(f->dev->fifo->st.pcas_launches, 0);
	vgsp_dev_unlock(f->dev);

	/* the launch is traced with its QMD and grid (QMD V4 words 32..34) */
	vgsp_dev_lock(f->dev);
	fb32(f, VA_PA + 0x10000 + 32 * 4, 1056);
	fb32(f, VA_PA + 0x10000 + 33 * 4, 0xabcd0002);	/* height 2 */
	fb32(f, VA_PA + 0x10000 + 34 * 4, 3);		/* depth 3 */
	vgsp_dev_unlock(f->dev);
	trace_rec_start();
	submit(f, 1, 0x100, run, VGSP_ARRAY_SIZE(run));
	k = trace_rec_wait(0, VGSP_TRACE_LAUNCH, 2000);
	trace_rec_stop();
	assert_true(k >= 0);
	e = trace_rec_get((unsigned int)k);
	assert_int_equal(e.a, CHID);
	assert_int_equal(e.b, 0x10000);			/* SEND_PCAS_A << 8 */
	assert_int_equal(e.c, 1056);
	assert_int_equal(e.d, 2 | 3ULL << 32);
	wait_errnot(f);
	assert_int_equal(rd32(f, ERRNOT_PA + 8), 13);	/* sim: GR exception */
	vgsp_dev_lock(f->dev);
	assert_int_equal(ch->st.gr_launches, 1);
	assert_int_equal(f->dev->fifo->st.pcas_launches, 1);
	vgsp_dev_unlock(f->dev);
}

/*
 * Inline data is written through one walk per page (engine/gr.c), as a
 * TLB would: a transfer that starts 8 bytes before the end of the 2 MiB
 * page lands there; after the guest remaps the page and invalidates, the
 * next dword of the same transfer follows the new mapping; the dword that
 * reaches the unmapped VA past the page faults the channel (Xid 31) and
 * writes nothing.
 */
#define I2M_NEW_PA	0x600000ULL

static void test_compute_inline_walks_per_page(void **state)
{
	struct dev_fx *f = *state;
	static const u32 first[] = {
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute, subch 1 */
		0x20042060, 12, 1, 0, 0x1ffff8,		/* 12 bytes at VA 2 MiB - 8 */
		0x2001206c, 0x1,			/* LAUNCH_DMA: pitch, no release */
		0x2001206d, 0xa1,			/* LOAD_INLINE_DATA */
	};
	static const u32 second[] = { 0x2001206d, 0xa2 };
	static const u32 third[] = { 0x2001206d, 0xa3 };
	u32 inval = 1U << 31;
	struct vgsp_chan *ch;

	make_channel(f);
	submit(f, 0, 0, first, VGSP_ARRAY_SIZE(first));
	wait_gp_get(f, 1);
	assert_int_equal(rd32(f, VA_PA + 0x1ffff8), 0xa1);

	vgsp_dev_lock(f->dev);
	fb64(f, PD4 + 0x4000, I2M_NEW_PA | 1);	/* VA 0 -> the new 2 MiB */
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xb830b0,
					    &inval, 4), 0);
	/* the pushbuffer and GPFIFO now live in the new page too */
	vgsp_dev_lock(f->dev);
	fb32(f, I2M_NEW_PA + GPFIFO_VA, 0);
	vgsp_dev_unlock(f->dev);
	submit_at(f, I2M_NEW_PA, 1, 0x100, second, VGSP_ARRAY_SIZE(second));
	wait_gp_get(f, 2);
	assert_int_equal(rd32(f, I2M_NEW_PA + 0x1ffffc), 0xa2);
	assert_int_equal(rd32(f, VA_PA + 0x1ffffc), 0);

	submit_at(f, I2M_NEW_PA, 2, 0x200, third, VGSP_ARRAY_SIZE(third));
	wait_errnot(f);
	assert_int_equal(rd32(f, ERRNOT_PA + 8), 31);	/* MMU fault */
	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_int_equal(ch->state, VGSP_CHAN_ERROR);
	assert_int_equal(ch->error_data, 0xa3);	/* the dword that faulted */
	vgsp_dev_unlock(f->dev);
	assert_int_equal(rd32(f, I2M_NEW_PA + 0x200000 - 4), 0xa2);
}

/*
 * A launch whose grid has no CTAs runs no code on hardware either: only
 * the QMD's release semaphore is written, and the channel goes on.
 */
static void test_empty_grid_launch_releases(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute, subch 1 */
		0x200120ad, 0x40,			/* SEND_PCAS_A: QMD at VA 0x4000 */
		0x200120b0, 0x9,			/* SEND_SIGNALING_PCAS2_B */
	};
	u64 qmd = VA_PA + 0x4000;

	make_channel(f);
	vgsp_dev_lock(f->dev);
	fb32(f, qmd + 18 * 4, 4U << 4);		/* QMD_MAJOR_VERSION 4 */
	fb32(f, qmd + 10 * 4, 0x1 | 0x1 << 1);	/* RELEASE0: enable, one word */
	fb32(f, qmd + 20 * 4, SEM_VA);		/* RELEASE_SEMAPHORE0 address */
	fb32(f, qmd + 22 * 4, 0x77);		/* its payload */
	fb32(f, qmd + 32 * 4, 0);		/* GRID_WIDTH 0: no CTAs */
	vgsp_dev_unlock(f->dev);
	submit(f, 0, 0, pb, VGSP_ARRAY_SIZE(pb));
	wait_gp_get(f, 1);
	assert_int_equal(rd32(f, VA_PA + SEM_VA), 0x77);
	assert_int_equal(rd32(f, ERRNOT_PA + 12) >> 16, 0);
}

/* Doorbells for no channel are counted and ignored. */
/*
 * Engine work never runs under the lock BAR traps take: a backend whose
 * launch, while it runs, has another thread read a BAR0 register. The
 * read must complete before the launch returns; were the worker holding
 * the device lock, it would wait for the launch (the probe gives up after
 * two seconds and the test fails).
 */
struct bar_probe {
	struct vgsp_dev *dev;
	pthread_mutex_t m;
	pthread_cond_t c;
	bool done;
	u32 boot0;
};

static struct bar_probe probe;
static bool probe_read_during_launch;

static void *probe_reader(void *arg)
{
	struct bar_probe *p = arg;
	u32 v = 0;

	vgsp_dev_bar_read(p->dev, VGSP_BAR0, 0, &v, 4);
	pthread_mutex_lock(&p->m);
	p->boot0 = v;
	p->done = true;
	pthread_cond_signal(&p->c);
	pthread_mutex_unlock(&p->m);
	return NULL;
}

static int probe_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			   u64 qmd_va)
{
	struct timespec until;
	pthread_t t;

	probe.dev = dev;
	probe.done = false;
	pthread_mutex_init(&probe.m, NULL);
	pthread_cond_init(&probe.c, NULL);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	if (pthread_create(&t, NULL, probe_reader, &probe))
		return -ENOMEM;
	pthread_mutex_lock(&probe.m);
	while (!probe.done &&
	       pthread_cond_timedwait(&probe.c, &probe.m, &until) == 0)
		;
	probe_read_during_launch = probe.done;
	pthread_mutex_unlock(&probe.m);
	/* not joined here: under the device lock it could only finish later */
	pthread_detach(t);
	return 0;
}

static const struct vgsp_backend_ops probe_backend = {
	.name = "probe",
	.ce_xfer = NULL,
	.gr_launch = probe_gr_launch,
};

static void test_engine_work_off_device_lock(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute, subch 1 */
		0x200120ad, 0x100,			/* SEND_PCAS_A */
		0x200120b0, 0x9,			/* SEND_SIGNALING_PCAS2_B */
	};

	f->dev->backend = &probe_backend;
	probe_read_during_launch = false;
	make_channel(f);
	submit(f, 0, 0, pb, VGSP_ARRAY_SIZE(pb));
	wait_gp_get(f, 1);
	pthread_mutex_lock(&probe.m);
	while (!probe.done)
		pthread_cond_wait(&probe.c, &probe.m);
	pthread_mutex_unlock(&probe.m);
	assert_true(probe_read_during_launch);
	assert_int_equal(probe.boot0, f->dev->profile->chip->pmc_boot_0);
	f->dev->backend = &vgsp_backend_sim;
}

static void test_unknown_doorbell(void **state)
{
	struct dev_fx *f = *state;
	u32 token = 0x7f0fff;

	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xbb0090,
					    &token, 4), 0);
	assert_int_equal(f->dev->fifo->st.doorbells_unknown, 1);
}

/*
 * The work path's trace events for one submission (a host semaphore
 * release), in order and nothing else: the doorbell with the channel's
 * token, the entry fetched, its 7 dwords run to the segment's end, the
 * channel idle with GP_GET 1 and the doorbell-to-idle latency.
 */
static void test_trace_work_path(void **state)
{
	struct dev_fx *f = *state;
	static const u32 pb[] = {
		0x20040017, SEM_VA + 8, 0, 7, 0,	/* SEM_ADDR/PAYLOAD */
		0x2001001b, 0x1,			/* SEM_EXECUTE */
	};
	struct trace_ev e;
	char names[256];

	make_channel(f);
	trace_rec_start();
	submit(f, 0, 0, pb, VGSP_ARRAY_SIZE(pb));
	wait_gp_get(f, 1);
	assert_true(trace_rec_wait(0, VGSP_TRACE_WORK_DONE, 2000) >= 0);
	trace_rec_stop();
	assert_string_equal(trace_rec_names(names, sizeof(names)),
			    "doorbell gpfifo_fetch methods work_done");
	e = trace_rec_get(0);
	assert_int_equal(e.a, VGSP_TRACE_DB_CHANNEL);
	assert_int_equal(e.b, RUNLIST << 16 | CHID);
	assert_string_equal(e.dev, f->dev->name);
	e = trace_rec_get(1);
	assert_int_equal(e.a, CHID);
	assert_int_equal(e.b, 0);			/* GP_GET */
	assert_int_equal(e.c, 1);			/* GP_PUT */
	assert_int_equal(e.d, VGSP_ARRAY_SIZE(pb));
	e = trace_rec_get(2);
	assert_int_equal(e.a, CHID);
	assert_int_equal(e.b, VGSP_ARRAY_SIZE(pb));
	assert_int_equal(e.c, 0);			/* VGSP_ENG_OK: done */
	e = trace_rec_get(3);
	assert_int_equal(e.a, CHID);
	assert_int_equal(e.b, 1);
	assert_true(e.c > 0);				/* latency, ns */
	assert_int_equal(rd32(f, VA_PA + SEM_VA + 8), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fast_scrub_and_semaphores,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_compute_launch_refused,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_compute_inline_and_semaphore,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_pcas_actions_that_do_not_schedule,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_compute_inline_walks_per_page,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_empty_grid_launch_releases,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_engine_work_off_device_lock,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_doorbell, dev_fx_setup,
						dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_trace_work_path, dev_fx_setup,
						dev_fx_teardown),
	};

	return cmocka_run_group_tests_name("fifo", tests, NULL, NULL);
}
