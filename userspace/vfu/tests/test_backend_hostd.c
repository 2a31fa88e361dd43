// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vgsp-vfu's hostd backend against a fake RM (tests/fake_hostd.c): what it
 * asks the GPU for when the stock guest launches compute work. The guest's
 * page tables become runs of registered memory (FB store or the client's
 * window, coalesced, nothing for memory the instance was not given); the
 * mirror resyncs only after a guest TLB invalidate; the launch replays the
 * channel's compute state in order, once; a GPU fault is the guest
 * channel's MMU fault; a freed channel frees the host channel and its
 * mirror; a refused GPU means no instance. A copy between two mirrored
 * VAs runs on a host copy channel (the fake copies through the mirror);
 * fills and anything the mirror does not map stay on the CPU.
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
#include "profiles.h"
#include "backend.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "helpers/fake_fe.h"
#include "hostd_fwd.h"
#include "backend_hostd.h"
#include "fake_hostd.h"

#define CLIENT		0xc1e00009
#define HDEVICE		0x1
#define HCHAN		0x2
#define CHID		3
#define ENGINE_GR0	0x01
#define RAM_IOVA	0x100000ULL	/* the client's window */
#define RAM_SIZE	0x10000
/* page tables in FB */
#define PD4		0x10000ULL
#define PD3		0x11000ULL
#define PD2		0x12000ULL
#define PD1		0x13000ULL
#define PD0		0x14000ULL
#define SMALL		0x16000ULL
#define PDE_VID		(1ULL << 1)
#define PTE_SYS		(2ULL << 1)
#define VA_PA		0x400000ULL	/* VA 0 .. 2 MiB: one 2 MiB page */
#define GPFIFO_VA	0x1000
#define PB_VA		0x2000
#define ERRNOT_PA	0x5000ULL
#define USERD_PA	0x300000ULL
#define QMD_VA		0x8000ULL
#define INVALIDATE	0xb830b0

struct fx {
	struct fake_fe fe;
	struct vfu_hostd *h;
	struct vgsp_dev *dev;
	u32 gp_put;
};

static int setup(void **state)
{
	const struct vgsp_profile *p = vgsp_profile_find("h100-10g");
	struct vgsp_dev_opts o = { 0 };
	u8 uuid[16] = { 3, 3 };
	struct fx *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	fake_rm_reset();
	assert_non_null(f);
	f->h = vfu_hostd_open(p, NULL, false);
	assert_non_null(f->h);
	vfu_hostd_dev_opts(f->h, &o);
	assert_non_null(o.fb_flat);
	assert_true(o.backend->gr_state);
	fake_fe_init(&f->fe, RAM_IOVA, RAM_SIZE);
	f->dev = vgsp_dev_create_opts(p, uuid, 8, &fake_fe_ops, &f->fe, &o);
	assert_non_null(f->dev);
	/* Bus Master Enable: the core's own DMA (CPU copies) needs it */
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 4, (u8[2]){ 0x6, 0 }, 2),
			 0);
	/* the client maps its RAM: registered with the GPU */
	assert_int_equal(vfu_hostd_dma_added(f->h, RAM_IOVA, RAM_SIZE,
					     f->fe.mem), 0);
	assert_int_equal(fake_rm.registered, 2);	/* FB store + window */
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	vgsp_dev_destroy(f->dev);
	vfu_hostd_close(f->h);
	fake_fe_fini(&f->fe);
	free(f);
	return 0;
}

static void put(struct fx *f, u64 pa, u64 v, u32 n)
{
	u8 b[8];

	vgsp_put64(b, 0, v);
	assert_int_equal(vgsp_fb_write(f->dev, pa, b, n), 0);
}

static u32 fb_rd(struct fx *f, u64 pa)
{
	u8 b[4];

	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_read(f->dev, pa, b, 4), 0);
	vgsp_dev_unlock(f->dev);
	return vgsp_get32(b, 0);
}

/*
 * VA 0: 2 MiB of FB at VA_PA (the channel's rings); VA 2 MiB: a small
 * table with RAM pages 0 and 1 (contiguous: one run), RAM page 3, and a
 * page of system memory outside the window (the GPU must not get it).
 */
static void make_channel_on(struct fx *f, u32 engine_type)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = 0,
		.engine_type = engine_type, .gpfifo_va = GPFIFO_VA,
		.gpfifo_entries = 16, .userd_pa = USERD_PA,
		.userd_target = VGSP_MEM_VID, .errnot_pa = ERRNOT_PA,
		.errnot_target = VGSP_MEM_VID, .has_errnot = true,
	};

	vgsp_dev_lock(f->dev);
	put(f, PD4, PD3 | PDE_VID, 8);
	put(f, PD3, PD2 | PDE_VID, 8);
	put(f, PD2, PD1 | PDE_VID, 8);
	put(f, PD1, PD0 | PDE_VID, 8);
	put(f, PD0, VA_PA | 1, 8);
	put(f, PD0 + 24, SMALL | PDE_VID, 8);
	put(f, SMALL + 0 * 8, (RAM_IOVA + 0x0000) | PTE_SYS | 1, 8);
	put(f, SMALL + 1 * 8, (RAM_IOVA + 0x1000) | PTE_SYS | 1, 8);
	put(f, SMALL + 3 * 8, (RAM_IOVA + 0x3000) | PTE_SYS | 1, 8);
	put(f, SMALL + 4 * 8, 0x7000000ULL | PTE_SYS | 1, 8);
	assert_int_equal(vgsp_rm_vas_set_pd(f->dev, CLIENT, HDEVICE, 0, PD4,
					    VGSP_MEM_VID), 0);
	assert_int_equal(vgsp_fifo_chan_alloc(f->dev, &d), 0);
	vgsp_dev_unlock(f->dev);
}

static void make_channel(struct fx *f)
{
	make_channel_on(f, ENGINE_GR0);
}

/* A second compute channel of the same context (same VA space). */
#define HCHAN2		0x3
#define CHID2		4
#define GPFIFO2_VA	0x10000
#define PB2_VA		0x20000
#define USERD2_PA	(USERD_PA + 0x1000)

/* ... in the guest channel group @parent */
static void make_channel2_in(struct fx *f, u32 parent)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN2, .parent = parent,
		.hdevice = HDEVICE, .chid = CHID2, .runlist = 0,
		.engine_type = ENGINE_GR0, .gpfifo_va = GPFIFO2_VA,
		.gpfifo_entries = 16, .userd_pa = USERD2_PA,
		.userd_target = VGSP_MEM_VID,
	};

	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fifo_chan_alloc(f->dev, &d), 0);
	vgsp_dev_unlock(f->dev);
}

static void make_channel2(struct fx *f)
{
	make_channel2_in(f, HDEVICE);
}

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

static bool chan_stopped(struct fx *f)
{
	struct vgsp_chan *ch;
	bool stopped;

	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	stopped = ch && ch->state == VGSP_CHAN_ERROR;
	vgsp_dev_unlock(f->dev);
	return stopped;
}

static void submit(struct fx *f, const u32 *pb, u32 n)
{
	u32 i, e = f->gp_put, token = CHID;
	u64 pb_va = PB_VA + 0x100 * e;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < n; i++)
		put(f, VA_PA + pb_va + 4 * i, pb[i], 4);
	put(f, VA_PA + GPFIFO_VA + 8 * e, pb_va, 4);
	put(f, VA_PA + GPFIFO_VA + 8 * e + 4, n << 10, 4);
	f->gp_put = (e + 1) % 16;	/* the ring's 16 entries */
	put(f, USERD_PA + VGSP_USERD_GP_PUT, f->gp_put, 4);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xbb0090,
					    &token, 4), 0);
	for (i = 0; i < 2000; i++) {
		if (chan_stopped(f) ||
		    fb_rd(f, USERD_PA + VGSP_USERD_GP_GET) == f->gp_put)
			return;
		nap();
	}
	fail_msg("entry %u never fetched", e);
}

/* Entry @e (0, 1, ... in turn) on the second channel. */
static void submit2_at(struct fx *f, u32 e, const u32 *pb, u32 n)
{
	u32 i, token = CHID2;
	u64 pb_va = PB2_VA + 0x100 * e;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < n; i++)
		put(f, VA_PA + pb_va + 4 * i, pb[i], 4);
	put(f, VA_PA + GPFIFO2_VA + 8 * e, pb_va, 4);
	put(f, VA_PA + GPFIFO2_VA + 8 * e + 4, n << 10, 4);
	put(f, USERD2_PA + VGSP_USERD_GP_PUT, e + 1, 4);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xbb0090,
					    &token, 4), 0);
	for (i = 0; i < 2000; i++) {
		if (fb_rd(f, USERD2_PA + VGSP_USERD_GP_GET) == e + 1)
			return;
		nap();
	}
	fail_msg("second channel never fetched entry %u", e);
}

/* One entry on the second channel (its first and only). */
static void submit2(struct fx *f, const u32 *pb, u32 n)
{
	submit2_at(f, 0, pb, n);
}

static const u32 pb_first[] = {
	0x20012000, 0x0000cbc0,		/* SET_OBJECT compute, subch 1 */
	0x200221e4, 0x11, 0x22,		/* state 0x790, 0x794 */
	0x200120ad, QMD_VA >> 8,	/* SEND_PCAS_A */
	0x200120b0, 0x9,		/* SEND_SIGNALING_PCAS2_B */
};

static const u32 pb_again[] = {
	0x200120ad, (QMD_VA + 0x100) >> 8,
	0x200120b0, 0x9,
};

static void test_launch_mirrors_then_replays(void **state)
{
	struct fx *f = *state;

	make_channel(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.launches, 1);
	assert_int_equal(fake_rm.qmd_va, QMD_VA);
	assert_int_equal(fake_rm.vas_created, 1);
	assert_int_equal(fake_rm.chan_opens, 1);
	/* the mirror: exactly the instance's memory, coalesced */
	assert_int_equal(fake_rm.syncs, 1);
	assert_int_equal(fake_rm.nruns, 3);
	assert_int_equal(fake_rm.runs[0].va, 0);
	assert_int_equal(fake_rm.runs[0].len, 2 << 20);
	assert_int_equal(fake_rm.runs[0].off, VA_PA);
	assert_int_equal(fake_rm.runs[1].va, 0x200000);
	assert_int_equal(fake_rm.runs[1].len, 0x2000);
	assert_int_equal(fake_rm.runs[1].off, 0);
	assert_int_not_equal(fake_rm.runs[1].hmem, fake_rm.runs[0].hmem);
	assert_int_equal(fake_rm.runs[2].va, 0x203000);
	assert_int_equal(fake_rm.runs[2].len, 0x1000);
	assert_int_equal(fake_rm.runs[2].off, 0x3000);
	assert_int_equal(fake_rm.runs[2].hmem, fake_rm.runs[1].hmem);
	assert_int_equal(fake_rm.large_hmem, 0);	/* host memory: 4 KiB */
	/* the compute state, in order, and not the launch methods */
	assert_int_equal(fake_rm.nmthd_total, 2);
	assert_int_equal(fake_rm.mthd[0].mthd, 0x790);
	assert_int_equal(fake_rm.mthd[0].data, 0x11);
	assert_int_equal(fake_rm.mthd[1].mthd, 0x794);

	/* no invalidate since: no resync, no state to send again */
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.launches, 2);
	assert_int_equal(fake_rm.qmd_va, QMD_VA + 0x100);
	assert_int_equal(fake_rm.syncs, 1);
	assert_int_equal(fake_rm.nmthd_total, 0);
	assert_int_equal(fake_rm.chan_opens, 1);
}

/*
 * State one channel of a context sets holds for a launch on another (one
 * GR context per context on hardware): sent once, in write order.
 */
static void test_state_is_shared_by_the_context(void **state)
{
	struct fx *f = *state;
	static const u32 pb2[] = {
		0x20012000, 0x0000cbc0,
		0x200121e6, 0x44,		/* 0x798 */
		0x200121e4, 0x55,		/* 0x790 again, later */
	};

	make_channel(f);
	make_channel2(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_int_equal(fake_rm.nmthd_total, 2);
	submit2(f, pb2, VGSP_ARRAY_SIZE(pb2));
	assert_int_equal(fake_rm.launches, 1);	/* state only */
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.launches, 2);
	assert_int_equal(fake_rm.nmthd_total, 2);
	assert_int_equal(fake_rm.mthd[0].mthd, 0x798);
	assert_int_equal(fake_rm.mthd[0].data, 0x44);
	assert_int_equal(fake_rm.mthd[1].mthd, 0x790);
	assert_int_equal(fake_rm.mthd[1].data, 0x55);
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.nmthd_total, 0);
}

static void test_invalidate_is_the_resync_point(void **state)
{
	struct fx *f = *state;
	u32 v = 1U << 31;

	make_channel(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_int_equal(fake_rm.syncs, 1);
	/* the guest maps RAM page 2 too, then invalidates */
	vgsp_dev_lock(f->dev);
	put(f, SMALL + 2 * 8, (RAM_IOVA + 0x2000) | PTE_SYS | 1, 8);
	vgsp_dev_unlock(f->dev);
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.syncs, 1);	/* not yet: no invalidate */
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, INVALIDATE,
					    &v, 4), 0);
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.syncs, 2);
	/* pages 0..3 are one run now */
	assert_int_equal(fake_rm.nruns, 2);
	assert_int_equal(fake_rm.runs[1].len, 0x4000);
	/* the window goes: the next launch maps again, without it */
	vfu_hostd_dma_removed(f->h, RAM_IOVA, RAM_SIZE);
	assert_int_equal(fake_rm.unregistered, 1);
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.syncs, 3);
	assert_int_equal(fake_rm.nruns, 1);
}

/* Whether vfu_hostd_show()'s text holds @text. */
static bool show_has(struct fx *f, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	bool has;

	assert_non_null(m);
	vfu_hostd_show(f->h, m);
	fclose(m);
	has = strstr(buf, text) != NULL;
	free(buf);
	return has;
}

/* A counter of vfu_hostd_show()'s text, by name. */
static unsigned long long stat(struct fx *f, const char *name)
{
	char *buf = NULL, *p;
	size_t len = 0;
	unsigned long long v = ~0ULL;
	FILE *m = open_memstream(&buf, &len);
	char key[64];

	assert_non_null(m);
	vfu_hostd_show(f->h, m);
	fclose(m);
	/* a name starts the text, a line or follows a blank */
	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(buf, key);
	if (!p) {
		key[0] = ' ';
		p = strstr(buf, key);
	}
	assert_non_null(p);
	v = strtoull(p + strlen(key), NULL, 10);
	free(buf);
	return v;
}

static void invalidate(struct fx *f)
{
	u32 v = 1U << 31;

	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, INVALIDATE,
					    &v, 4), 0);
}

/* A window the guest's tables never name: adding and removing it makes
 * every mirror walk its whole tree at the next launch. */
static void force_full(struct fx *f)
{
	static u8 dummy[0x1000];

	assert_int_equal(vfu_hostd_dma_added(f->h, 0x40000000, sizeof(dummy),
					     dummy), 0);
	vfu_hostd_dma_removed(f->h, 0x40000000, sizeof(dummy));
}

#define NPT		64		/* small tables under PD0 entries 2.. */
#define PT_BASE		0x800000ULL	/* table i at PT_BASE + i * 4 KiB */
#define PT_SPARE	(PT_BASE + NPT * 0x1000ULL)	/* never linked at first */

/* VA 2 MiB * (2 + i): small table i, its PTE 0 on FB page 0x1000000 + i */
static void make_wide_tree(struct fx *f)
{
	unsigned int i;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < NPT; i++) {
		put(f, PD0 + (2 + i) * 16 + 8, (PT_BASE + i * 0x1000ULL) |
		    PDE_VID, 8);
		put(f, PT_BASE + i * 0x1000ULL,
		    (0x1000000ULL + i * 0x1000ULL) | 1, 8);
	}
	vgsp_dev_unlock(f->dev);
}

/*
 * GPUvm's lesson: at an invalidate, only the subtrees whose tables the
 * guest wrote are walked again; an invalidate with no table written walks
 * nothing and maps nothing.
 */
static void test_resync_walks_what_changed(void **state)
{
	struct fx *f = *state;
	unsigned long long full_tables;

	make_channel(f);
	make_wide_tree(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_int_equal(stat(f, "resync_full"), 1);
	full_tables = stat(f, "last_resync_tables");
	/* PD4, PD3, PD2, PD1, PD0, the first small table and NPT more */
	assert_int_equal(full_tables, 6 + NPT);
	assert_int_equal(fake_rm.nruns, 3 + NPT);

	/* one PTE in one table: that table's 2 MiB and its ancestors */
	vgsp_dev_lock(f->dev);
	put(f, PT_BASE + 7 * 0x1000ULL + 8, 0x2000000ULL | 1, 8);
	vgsp_dev_unlock(f->dev);
	invalidate(f);
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(stat(f, "resync_partial"), 1);
	assert_int_equal(stat(f, "last_resync_tables"), 6);
	assert_int_equal(fake_rm.syncs, 2);
	assert_int_equal(fake_rm.nruns, 4 + NPT);

	/* an invalidate with nothing written: no walk, no map call */
	invalidate(f);
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(stat(f, "resync_none"), 1);
	assert_int_equal(fake_rm.syncs, 2);
	assert_int_equal(stat(f, "resync_full"), 1);
}

static struct hd_run *runs_copy(size_t *n)
{
	struct hd_run *r = calloc(fake_rm.nruns + 1, sizeof(*r));

	assert_non_null(r);
	memcpy(r, fake_rm.runs, fake_rm.nruns * sizeof(*r));
	*n = fake_rm.nruns;
	return r;
}

/*
 * Random table edits (PTEs to FB, RAM, nothing; a PD0 entry switched to
 * a table that was never walked, or to a 2 MiB page): after each
 * invalidate the partial resync maps exactly what a full walk maps.
 */
static void test_partial_resync_equals_full_walk(void **state)
{
	struct fx *f = *state;
	unsigned int round, k, seed = 0x5eed;
	unsigned long long partial0;

	make_channel(f);
	make_wide_tree(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	partial0 = stat(f, "resync_partial");
	for (round = 0; round < 60; round++) {
		struct hd_run *inc;
		size_t ninc;

		vgsp_dev_lock(f->dev);
		for (k = 0; k < 1 + round % 3; k++) {
			unsigned int t, e, what;
			u64 v;

			seed = seed * 1103515245 + 12345;
			t = (seed >> 8) % NPT;
			e = (seed >> 16) % 512;
			what = (seed >> 26) % 8;
			if (what < 3) {		/* a PTE to FB */
				v = (0x3000000ULL + ((u64)e << 12)) | 1;
				put(f, PT_BASE + t * 0x1000ULL + e * 8, v, 8);
			} else if (what < 5) {	/* a PTE to guest RAM */
				v = (RAM_IOVA + ((u64)(e % 16) << 12)) |
				    PTE_SYS | 1;
				put(f, PT_BASE + t * 0x1000ULL + e * 8, v, 8);
			} else if (what == 5) {	/* unmapped */
				put(f, PT_BASE + t * 0x1000ULL + e * 8, 0, 8);
			} else if (what == 6) {	/* a table never walked */
				put(f, PT_SPARE + e * 8,
				    (0x4000000ULL + ((u64)e << 12)) | 1, 8);
				put(f, PD0 + (2 + t) * 16 + 8,
				    PT_SPARE | PDE_VID, 8);
			} else {		/* a 2 MiB page */
				put(f, PD0 + (2 + t) * 16 + 8, 0, 8);
				put(f, PD0 + (2 + t) * 16,
				    (0x6000000ULL + ((u64)t << 21)) | 1, 8);
			}
		}
		vgsp_dev_unlock(f->dev);
		invalidate(f);
		submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
		inc = runs_copy(&ninc);
		force_full(f);
		submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
		assert_int_equal(fake_rm.nruns, ninc);
		for (k = 0; k < ninc; k++) {
			assert_int_equal(fake_rm.runs[k].va, inc[k].va);
			assert_int_equal(fake_rm.runs[k].len, inc[k].len);
			assert_int_equal(fake_rm.runs[k].hmem, inc[k].hmem);
			assert_int_equal(fake_rm.runs[k].off, inc[k].off);
			assert_int_equal(fake_rm.runs[k].ro, inc[k].ro);
		}
		free(inc);
	}
	assert_true(stat(f, "resync_partial") > partial0 + 30);
	assert_int_equal(stat(f, "resync_errors"), 0);
}

/*
 * The forwarding latency figures: the host channel's doorbell and fence
 * times split a launch into vgsp's own submit and complete and the GPU's
 * exec (here 20 ms "on the GPU").
 */
static void test_launch_latency_split(void **state)
{
	struct fx *f = *state;
	const struct vgsp_fifo_lat *l = &f->dev->fifo->lat;

	fake_rm.launch_ns = 20000000;
	make_channel(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(l->exec[VGSP_OP_GR].n, 2);
	assert_int_equal(l->submit[VGSP_OP_GR].n, 2);
	/* GP_GET moving made both visible */
	assert_int_equal(l->complete[VGSP_OP_GR].n, 2);
	assert_int_equal(l->overhead[VGSP_OP_GR].n, 2);
	assert_true(vgsp_lat_pct(&l->exec[VGSP_OP_GR], 500) >= 20000000ULL * 7 / 8);
	/*
	 * The GPU's time is exec, not overhead: without the backend's stamps
	 * submit would be exactly 0 (a timing bound would flake under load).
	 */
	assert_true(l->submit[VGSP_OP_GR].sum_ns > 0);	/* stamps used */
	assert_int_equal(l->overhead[VGSP_OP_GR].sum_ns,
			 l->submit[VGSP_OP_GR].sum_ns +
			 l->complete[VGSP_OP_GR].sum_ns);
}

#define SEM_VA		0x6000ULL

static u64 fb_rd64(struct fx *f, u64 pa)
{
	return (u64)fb_rd(f, pa) | (u64)fb_rd(f, pa + 4) << 32;
}

/*
 * A CUDA event (a timestamped host semaphore release) just before a
 * launch is stamped when the launch reaches the GPU, after the mirror
 * sync (20 ms here), as the GPU would stamp it; the one after the launch
 * after the GPU's 10 ms. A release with nothing after it is written when
 * its entry completes.
 */
static void test_event_stamped_at_submit(void **state)
{
	struct fx *f = *state;
	static const u32 pb[] = {
		0x20040017, SEM_VA, 0, 0x1234, 0,	/* SEM_ADDR, PAYLOAD */
		0x2001001b, 0x1 | 1U << 25,		/* release + timestamp */
		0x20012000, 0x0000cbc0,			/* SET_OBJECT compute */
		0x200120ad, QMD_VA >> 8,		/* SEND_PCAS_A */
		0x200120b0, 0x9,			/* SEND_SIGNALING_PCAS2_B */
		0x20040017, SEM_VA + 0x10, 0, 0x5678, 0,
		0x2001001b, 0x1 | 1U << 25,
	};
	static const u32 pb_alone[] = {
		0x20040017, SEM_VA + 0x20, 0, 0x9abc, 0,
		0x2001001b, 0x1 | 1U << 25,
	};
	u64 t0, off, s0, s1;

	fake_rm.sync_ns = 20000000;
	fake_rm.launch_ns = 10000000;
	make_channel(f);
	off = f->dev->timer_offset_ns;
	t0 = fake_now();
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.launches, 1);
	assert_int_equal(fb_rd(f, VA_PA + SEM_VA), 0x1234);
	assert_int_equal(fb_rd(f, VA_PA + SEM_VA + 0x10), 0x5678);
	s0 = fb_rd64(f, VA_PA + SEM_VA + 8) - off;
	s1 = fb_rd64(f, VA_PA + SEM_VA + 0x18) - off;
	/* after the sync, not when the worker decoded it */
	assert_true(s0 >= t0 + 20000000);
	/* the kernel's time between the two events */
	assert_true(s1 >= s0 + 10000000);
	submit(f, pb_alone, VGSP_ARRAY_SIZE(pb_alone));
	assert_int_equal(fb_rd(f, VA_PA + SEM_VA + 0x20), 0x9abc);
	assert_true(fb_rd64(f, VA_PA + SEM_VA + 0x28) - off >= s1);
}

/*
 * More state writes between two launches than the record's log of recent
 * writes holds: the replay falls back to every method and still sends
 * each once, latest value, in write order.
 */
static void test_replay_after_many_writes(void **state)
{
	struct fx *f = *state;
	static u32 pb[1 + 300];
	unsigned int i;

	make_channel(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_int_equal(fake_rm.nmthd_total, 2);
	/* 300 methods from 0x800, incrementing, on the compute subchannel */
	pb[0] = 0x20000000 | 300 << 16 | 1 << 13 | 0x800 >> 2;
	for (i = 0; i < 300; i++)
		pb[1 + i] = 0x1000 + i;
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.nmthd_total, 300);
	assert_int_equal(fake_rm.mthd[0].mthd, 0x800);
	assert_int_equal(fake_rm.mthd[0].data, 0x1000);
	assert_int_equal(fake_rm.mthd[FAKE_RM_MTHDS - 1].mthd,
			 0x800 + 4 * (FAKE_RM_MTHDS - 1));
	/* one method written 300 times: sent once, its last value */
	pb[0] = 0x60000000 | 300 << 16 | 1 << 13 | 0x900 >> 2;	/* NON_INC */
	for (i = 0; i < 300; i++)
		pb[1 + i] = 0x2000 + i;
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.nmthd_total, 1);
	assert_int_equal(fake_rm.mthd[0].mthd, 0x900);
	assert_int_equal(fake_rm.mthd[0].data, 0x2000 + 299);
	/* nothing written since: nothing sent */
	submit(f, pb_again, VGSP_ARRAY_SIZE(pb_again));
	assert_int_equal(fake_rm.nmthd_total, 0);
}

/* The guest's channels freed (a device reset of the fifo). */
static void free_channels(struct fx *f)
{
	vgsp_dev_lock(f->dev);
	vgsp_fifo_reset(f->dev);
	vgsp_dev_unlock(f->dev);
}

static void test_fault_and_free(void **state)
{
	struct fx *f = *state;

	make_channel(f);
	fake_rm.launch_rc = -EFAULT;
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_true(chan_stopped(f));
	/* NvNotification info32: MMU fault */
	assert_int_equal(fb_rd(f, ERRNOT_PA + 8), 31);
	/* the channel is freed: its host channel and mirror go with it */
	free_channels(f);
	assert_int_equal(fake_rm.chan_closes, 1);
	assert_int_equal(fake_rm.vas_destroyed, 1);
}

static const u32 pb2_launch[] = {
	0x20012000, 0x0000cbc0,
	0x200120ad, (QMD_VA + 0x200) >> 8,
	0x200120b0, 0x9,
};

/*
 * Two channels of one guest channel group launch in one host channel
 * group (one GR context: no context switch between their launches on
 * the GPU), which goes with the last of them.
 */
static void test_group_shared_by_its_channels(void **state)
{
	struct fx *f = *state;
	u32 g1;

	make_channel(f);
	make_channel2(f);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	g1 = fake_rm.last_launch_group;
	assert_int_not_equal(g1, 0);
	submit2(f, pb2_launch, VGSP_ARRAY_SIZE(pb2_launch));
	assert_int_equal(fake_rm.launches, 2);
	assert_int_equal(fake_rm.last_launch_group, g1);
	assert_int_equal(fake_rm.chan_opens, 2);
	assert_int_equal(fake_rm.group_opens, 1);
	assert_false(chan_stopped(f));
	free_channels(f);
	assert_int_equal(fake_rm.chan_closes, 2);
	assert_int_equal(fake_rm.group_closes, 1);
	assert_int_equal(fake_rm.group_close_busy, 0);
	assert_int_equal(fake_rm.vas_destroyed, 1);
}

/* Another guest channel group of the same VA space: another host group. */
static void test_other_guest_group_other_host_group(void **state)
{
	struct fx *f = *state;
	u32 g1;

	make_channel(f);
	make_channel2_in(f, HDEVICE + 0x10);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	g1 = fake_rm.last_launch_group;
	submit2(f, pb2_launch, VGSP_ARRAY_SIZE(pb2_launch));
	assert_int_equal(fake_rm.launches, 2);
	assert_int_not_equal(fake_rm.last_launch_group, 0);
	assert_int_not_equal(fake_rm.last_launch_group, g1);
	assert_int_equal(fake_rm.group_opens, 2);
	assert_int_equal(fake_rm.vas_created, 1);	/* one mirror still */
	free_channels(f);
	assert_int_equal(fake_rm.group_closes, 2);
	assert_int_equal(fake_rm.group_close_busy, 0);
}

/*
 * RM stops a whole group when one of its channels faults: the other
 * channel's next launch must not go into it (it would never run), but
 * into a new group; the old one goes with its last channel.
 */
static void test_faulted_group_not_reused(void **state)
{
	struct fx *f = *state;
	u32 g1;

	make_channel(f);
	make_channel2(f);
	submit2(f, pb2_launch, VGSP_ARRAY_SIZE(pb2_launch));
	g1 = fake_rm.last_launch_group;
	fake_rm.launch_rc = -EFAULT;
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_true(chan_stopped(f));
	assert_int_equal(fake_rm.last_launch_group, g1);
	fake_rm.launch_rc = 0;
	submit2_at(f, 1, pb2_launch, VGSP_ARRAY_SIZE(pb2_launch));
	assert_int_equal(fake_rm.launches, 3);
	assert_int_not_equal(fake_rm.last_launch_group, 0);
	assert_int_not_equal(fake_rm.last_launch_group, g1);
	assert_int_equal(fake_rm.group_opens, 2);
	assert_int_equal(fake_rm.chan_opens, 3);
	free_channels(f);
	assert_int_equal(fake_rm.chan_closes, 3);
	assert_int_equal(fake_rm.group_closes, 2);
	assert_int_equal(fake_rm.group_close_busy, 0);
}

/* RM refusing a shared group (or a channel in it) leaves the launch to
 * a channel with a group of its own, as before groups were shared. */
static void test_group_refused_own_group(void **state)
{
	struct fx *f = *state;

	make_channel(f);
	fake_rm.group_open_fails = 1;
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.launches, 1);
	assert_int_equal(fake_rm.last_launch_group, 0);
	assert_int_equal(fake_rm.group_opens, 0);
	fake_rm.group_open_fails = 0;
	make_channel2(f);
	fake_rm.chan_in_group_fails = 1;
	submit2(f, pb2_launch, VGSP_ARRAY_SIZE(pb2_launch));
	assert_int_equal(fake_rm.launches, 2);
	assert_int_equal(fake_rm.last_launch_group, 0);
	assert_int_equal(fake_rm.group_opens, 1);
	assert_int_equal(fake_rm.group_closes, 1);	/* made, not kept */
	free_channels(f);
	assert_int_equal(fake_rm.group_close_busy, 0);
}

/* A copy on subchannel 4 (HOPPER_DMA_COPY_A bound on the GR channel). */
#define M4(m, n)	(0x20000000 | (n) << 16 | 4 << 13 | (m) >> 2)
#define LD_COPY		0x182	/* non-pipelined, pitch in and out, virtual */
#define LD_COPY_LINES	0x382	/* ... multi-line */
#define LD_FILL		0x582	/* ... remap (constant fill) */

static u32 ram_rd(struct fx *f, u64 off)
{
	return vgsp_get32(f->fe.mem, off);
}

/* FB [pa, pa + len) holds tag | offset in each dword. */
static void put_pattern(struct fx *f, u64 pa, u32 len, u32 tag)
{
	u32 i;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < len; i += 4)
		put(f, pa + i, tag | i, 4);
	vgsp_dev_unlock(f->dev);
}

/* The client's RAM at @off holds what put_pattern() wrote. */
static void assert_ram_pattern(struct fx *f, u64 off, u32 len, u32 tag)
{
	u32 i;

	for (i = 0; i < len; i += 4)
		assert_int_equal(ram_rd(f, off + i), tag | i);
}

static void test_copy_runs_on_the_gpu(void **state)
{
	struct fx *f = *state;
	const u32 pb[] = {
		0x20018000, 0xc8b5,
		M4(0x400, 4), 0, 0x100000, 0, 0x200000,	/* FB VA -> RAM VA */
		M4(0x418, 2), 0x2000, 1,
		M4(0x300, 1), LD_COPY,
	};
	const u32 lines[] = {
		M4(0x400, 4), 0, 0x180000, 0, 0x203000,
		M4(0x410, 4), 0x400, 0x200, 0x100, 4,	/* pitches, length, count */
		M4(0x300, 1), LD_COPY_LINES,
	};
	u32 i;

	make_channel(f);
	put_pattern(f, VA_PA + 0x100000, 0x2000, 0xa5000000);
	put_pattern(f, VA_PA + 0x180000, 0x1000, 0x5a000000);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 1);
	assert_int_equal(fake_rm.ce_opens, 1);
	assert_int_equal(fake_rm.last_copy.src, 0x100000);
	assert_int_equal(fake_rm.last_copy.dst, 0x200000);
	assert_int_equal(fake_rm.last_copy.line_bytes, 0x2000);
	assert_ram_pattern(f, 0, 0x2000, 0xa5000000);
	assert_int_equal(stat(f, "ce_cpu_fill"), 0);
	assert_int_equal(stat(f, "ce_copies"), 1);
	assert_int_equal(stat(f, "ce_bytes"), 0x2000);
	assert_int_equal(stat(f, "ce_large_n"), 0);	/* under 1 MiB */
	/* the PCEs behind the engine, asked once when it first opened */
	assert_true(show_has(f, "ce_pce_mask 0x30\n"));	/* COPY2 in the fake */

	/* several lines in one copy, the same channel, no second mirror */
	submit(f, lines, VGSP_ARRAY_SIZE(lines));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 2);
	assert_int_equal(fake_rm.ce_opens, 1);
	assert_int_equal(fake_rm.vas_created, 1);
	assert_int_equal(fake_rm.last_copy.lines, 4);
	assert_int_equal(fake_rm.last_copy.pitch_in, 0x400);
	for (i = 0; i < 4; i++) {
		assert_int_equal(ram_rd(f, 0x3000 + 0x200 * i),
				 0x5a000000 | (0x400 * i));
		assert_int_equal(ram_rd(f, 0x3000 + 0x200 * i + 0xfc),
				 0x5a000000 | (0x400 * i + 0xfc));
		assert_int_equal(ram_rd(f, 0x3000 + 0x200 * i + 0x100), 0);
	}

	/* the channel goes: its copy channel and the mirror with it */
	vgsp_dev_lock(f->dev);
	vgsp_fifo_reset(f->dev);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(fake_rm.ce_closes, 1);
	assert_int_equal(fake_rm.vas_destroyed, 1);
}

/* The channel freed and made again, its USERD as a driver sets it up. */
static void renew_channel(struct fx *f)
{
	vgsp_dev_lock(f->dev);
	vgsp_fifo_reset(f->dev);
	put(f, USERD_PA + VGSP_USERD_GP_GET, 0, 4);
	put(f, USERD_PA + VGSP_USERD_GP_PUT, 0, 4);
	vgsp_dev_unlock(f->dev);
	f->gp_put = 0;
	make_channel(f);
}

/*
 * A fill of 1-byte elements runs on the GPU (the CE's remap), one of
 * 8-byte elements (two components) on the CPU; a copy that reaches a
 * page the mirror does not map is not given to the GPU (the CPU then
 * finds it unmapped too: the channel's MMU fault, as on hardware); an RC
 * of the host copy channel is the guest channel's MMU fault, and the next
 * copy gets a new channel.
 */
static void test_copy_fallbacks_and_fault(void **state)
{
	struct fx *f = *state;
	const u32 fill[] = {
		0x20018000, 0xc8b5,
		M4(0x700, 3), 0x77, 0, 0x00000004,	/* const A, 1 x 1 byte */
		M4(0x408, 2), 0, 0x200100,
		M4(0x418, 2), 0x10, 1,
		M4(0x300, 1), LD_FILL,
		/* A then B, 4 bytes each: an 8-byte element */
		M4(0x700, 3), 0x11223344, 0x55667788, 0x01030054,
		M4(0x408, 2), 0, 0x200200,
		M4(0x418, 2), 0x4, 1,
		M4(0x300, 1), LD_FILL,
	};
	const u32 hole[] = {
		M4(0x400, 4), 0, 0x100000, 0, 0x201800,	/* runs into 0x202000 */
		M4(0x418, 2), 0x1000, 1,
		M4(0x300, 1), LD_COPY,
	};
	const u32 one[] = {
		0x20018000, 0xc8b5,
		M4(0x400, 4), 0, 0x100000, 0, 0x200000,
		M4(0x418, 2), 0x100, 1,
		M4(0x300, 1), LD_COPY,
	};

	make_channel(f);
	fake_rm.pce_fails = 1;	/* RM does not say which PCEs: said so, copies go on */
	submit(f, fill, VGSP_ARRAY_SIZE(fill));
	assert_false(chan_stopped(f));
	assert_true(show_has(f, "ce_pce_mask unknown (RM status 0x"));
	assert_int_equal(ram_rd(f, 0x100), 0x77777777);
	assert_int_equal(ram_rd(f, 0x10c), 0x77777777);
	assert_int_equal(ram_rd(f, 0x110), 0);
	assert_int_equal(fake_rm.fills, 1);
	assert_int_equal(fake_rm.last_copy.elem_size, 1);
	assert_int_equal(ram_rd(f, 0x200), 0x11223344);
	assert_int_equal(ram_rd(f, 0x204), 0x55667788);
	assert_int_equal(ram_rd(f, 0x218), 0x11223344);
	assert_int_equal(ram_rd(f, 0x21c), 0x55667788);
	assert_int_equal(ram_rd(f, 0x220), 0);
	assert_int_equal(stat(f, "ce_cpu_fill"), 1);
	assert_int_equal(fake_rm.copies, 0);
	assert_int_equal(fake_rm.boosts, 1);	/* asked once, with the channel */

	submit(f, hole, VGSP_ARRAY_SIZE(hole));
	assert_true(chan_stopped(f));
	assert_int_equal(fb_rd(f, ERRNOT_PA + 8), 31);
	assert_int_equal(fake_rm.copies, 0);
	assert_int_equal(stat(f, "ce_cpu_unmirrored"), 1);

	/* a new channel; the GPU's copy channel RCs */
	renew_channel(f);
	fake_rm.copy_rc = -EFAULT;
	submit(f, one, VGSP_ARRAY_SIZE(one));
	assert_true(chan_stopped(f));
	assert_int_equal(fb_rd(f, ERRNOT_PA + 8), 31);
	assert_int_equal(stat(f, "ce_faults"), 1);
	renew_channel(f);
	fake_rm.copy_rc = 0;
	submit(f, one, VGSP_ARRAY_SIZE(one));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 1);
	assert_int_equal(fake_rm.ce_opens, 3);	/* per channel life; the RC'd one replaced */
}

/*
 * The guest kernel's channels copy and fill by physical address: on the
 * GPU in the instance's physical space (FB at 2^52, each window at 2^53 +
 * its IOVA), nothing else reachable: a physical address outside the
 * instance's memory stays on the CPU, which faults the channel.
 */
#define ENGINE_COPY0	0x09
#define LD_PHYS		(3U << 12)	/* source and destination physical */

static void test_physical_copy_and_fill(void **state)
{
	struct fx *f = *state;
	const u32 pb[] = {
		M4(0x260, 2), 0, 1,			/* src FB, dst coherent sysmem */
		M4(0x400, 4), 0, 0x500000, 0, RAM_IOVA + 0x2000,
		M4(0x418, 2), 0x1000, 1,
		M4(0x300, 1), LD_COPY | LD_PHYS,
		M4(0x264, 1), 0,			/* dst FB */
		M4(0x700, 3), 0xabcd1234, 0, 0x00030004,	/* 4-byte const A */
		M4(0x408, 2), 0, 0x600000,
		M4(0x418, 2), 0x100, 1,
		M4(0x300, 1), LD_FILL | (1U << 13),
	};
	const u32 big[] = {
		M4(0x260, 2), 0, 0,			/* FB to FB */
		M4(0x400, 4), 0, 0x700000, 0, 0x900000,
		M4(0x418, 2), 1 << 20, 1,
		M4(0x300, 1), LD_COPY | LD_PHYS,
	};
	const u32 outside[] = {
		M4(0x264, 1), 1,
		M4(0x400, 4), 0, 0x500000, 0, 0x7000000,
		M4(0x418, 2), 0x100, 1,
		M4(0x300, 1), LD_COPY | LD_PHYS,
	};

	u64 pages[8], seq0, seq;
	u32 np;

	make_channel_on(f, ENGINE_COPY0);
	put_pattern(f, 0x500000, 0x1000, 0x3c000000);
	put_pattern(f, 0x7ffffc, 4, 0x5a5a5a5a);
	/* the filled page holds a table a mirror walked */
	assert_int_equal(vgsp_pt_watch(f->dev, 0x600000, 0x1000), 0);
	assert_int_equal(vgsp_pt_log_since(f->dev, 0, pages, 8, &np, &seq0), 0);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_false(chan_stopped(f));
	assert_ram_pattern(f, 0x2000, 0x1000, 0x3c000000);
	assert_int_equal(fb_rd(f, 0x600000), 0xabcd1234);
	assert_int_equal(fb_rd(f, 0x6003fc), 0xabcd1234);
	assert_int_equal(fb_rd(f, 0x600400), 0);
	assert_int_equal(fake_rm.copies, 1);
	assert_int_equal(fake_rm.fills, 1);
	assert_int_equal(stat(f, "ce_phys"), 2);
	assert_int_equal(fake_rm.phys_syncs, 1);	/* FB chunk 0 + the window */
	assert_int_equal(fake_rm.vas_created, 1);	/* no mirror: no VA space */
	/* the GPU's write to it is logged as the core's own would be */
	assert_int_equal(vgsp_pt_log_since(f->dev, seq0, pages, 8, &np, &seq), 0);
	assert_int_equal(np, 1);
	assert_int_equal(pages[0], 0x600);

	/* 1 MiB and more: the GPU's own bandwidth is accounted apart */
	submit(f, big, VGSP_ARRAY_SIZE(big));
	assert_false(chan_stopped(f));
	assert_int_equal(fb_rd(f, 0x9ffffc), 0x5a5a5a5a);
	assert_int_equal(stat(f, "ce_large_n"), 1);
	assert_int_equal(stat(f, "ce_large_bytes"), 1 << 20);

	/* the window goes: the physical space unmaps it at once */
	assert_int_equal(fake_rm.phys_sys_runs, 1);
	vfu_hostd_dma_removed(f->h, RAM_IOVA, RAM_SIZE);
	assert_int_equal(fake_rm.phys_syncs, 2);
	assert_int_equal(fake_rm.phys_sys_runs, 0);	/* FB chunks only */
	assert_int_equal(vfu_hostd_dma_added(f->h, RAM_IOVA, RAM_SIZE,
					     f->fe.mem), 0);

	submit(f, outside, VGSP_ARRAY_SIZE(outside));
	assert_true(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 2);	/* the 1 MiB one */
	assert_int_equal(stat(f, "ce_cpu_unmirrored"), 1);
}

/* No copy channel at all: copies stay on the CPU, and are right. */
/* Guest copies go to the copy engine with the most PCEs RM reports. */
static void test_copy_engine_with_most_pces(void **state)
{
	struct fx *f = *state;
	const u32 pb[] = {
		0x20018000, 0xc8b5,
		M4(0x400, 4), 0, 0x100000, 0, 0x200000,
		M4(0x418, 2), 0x1000, 1,
		M4(0x300, 1), LD_COPY,
	};

	fake_rm.pce_wide = 4;
	fake_rm.pce_refuse_from = 8;	/* COPY8, 9: no answer, tried last */
	make_channel(f);
	put_pattern(f, VA_PA + 0x100000, 0x1000, 0x3c000000);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 1);
	assert_int_equal(fake_rm.ce_engine, 4);
	assert_true(show_has(f, "ce_pce_mask 0xfff0000\n"));
	assert_ram_pattern(f, 0, 0x1000, 0x3c000000);
}

static void test_copy_without_channel(void **state)
{
	struct fx *f = *state;
	const u32 pb[] = {
		0x20018000, 0xc8b5,
		M4(0x400, 4), 0, 0x100000, 0, 0x200000,
		M4(0x418, 2), 0x40, 1,
		M4(0x300, 1), LD_COPY,
	};

	make_channel(f);
	put_pattern(f, VA_PA + 0x100000, 0x40, 0xc3000000);
	fake_rm.ce_open_fails = 1000;
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 0);
	assert_ram_pattern(f, 0, 0x40, 0xc3000000);
	assert_int_equal(stat(f, "ce_cpu_no_channel"), 1);
	assert_int_equal(stat(f, "ce_open_errors"), 1);
}

/*
 * --fb vidmem: the FB store is the GPU's memory (here the fake's pages):
 * the core writes the channel's rings there, the mirror maps FB runs from
 * that object, and a launch and a copy run as with host memory.
 */
static void test_fb_in_vidmem(void **state)
{
	const struct vgsp_profile *p = vgsp_profile_find("h100-10g");
	struct vgsp_dev_opts o = { 0 };
	u8 uuid[16] = { 4, 4 };
	struct fx *f = *state;
	const u32 cp[] = {
		0x20018000, 0xc8b5,
		M4(0x400, 4), 0, 0x100000, 0, 0x200000,
		M4(0x418, 2), 0x1000, 1,
		M4(0x300, 1), LD_COPY,
	};

	/* the fixture's instance goes; one with its FB in "vidmem" comes */
	vgsp_dev_destroy(f->dev);
	vfu_hostd_close(f->h);
	fake_rm_reset();
	f->h = vfu_hostd_open(p, NULL, true);
	assert_non_null(f->h);
	assert_int_equal(fake_rm.vidmem, 1);
	assert_int_equal(fake_rm.registered, 0);	/* no host FB store */
	vfu_hostd_dev_opts(f->h, &o);
	f->dev = vgsp_dev_create_opts(p, uuid, 8, &fake_fe_ops, &f->fe, &o);
	assert_non_null(f->dev);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 4, (u8[2]){ 0x6, 0 }, 2),
			 0);
	assert_int_equal(vfu_hostd_dma_added(f->h, RAM_IOVA, RAM_SIZE,
					     f->fe.mem), 0);
	assert_int_equal(stat(f, "fb_store_mib"), 10240);

	make_channel(f);
	/* what the core writes to FB is in the partition */
	assert_int_equal(vgsp_get64(fake_rm.mem[0].cpu, PD0), VA_PA | 1);
	submit(f, pb_first, VGSP_ARRAY_SIZE(pb_first));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.launches, 1);
	assert_int_equal(fake_rm.runs[0].hmem, fake_rm.mem[0].h);
	assert_int_equal(fake_rm.runs[0].off, VA_PA);
	/* the partition (2 MiB pages) may map with large pages */
	assert_int_equal(fake_rm.large_hmem, fake_rm.mem[0].h);

	put_pattern(f, VA_PA + 0x100000, 0x1000, 0x7e000000);
	submit(f, cp, VGSP_ARRAY_SIZE(cp));
	assert_false(chan_stopped(f));
	assert_int_equal(fake_rm.copies, 1);
	assert_ram_pattern(f, 0, 0x1000, 0x7e000000);
}

static void test_refused_gpu_means_no_instance(void **state)
{
	const struct vgsp_profile *p = vgsp_profile_find("h100-10g");

	fake_rm_reset();
	fake_rm.open_fails = 1;
	assert_null(vfu_hostd_open(p, NULL, false));
	fake_rm_reset();
	fake_rm.register_fails = 1;
	assert_null(vfu_hostd_open(p, NULL, false));
	assert_int_equal(fake_rm.closed, 1);
	/* no FB partition in the GPU's memory: no instance either */
	fake_rm_reset();
	fake_rm.register_fails = 1;
	assert_null(vfu_hostd_open(p, NULL, true));
	assert_int_equal(fake_rm.closed, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_launch_mirrors_then_replays, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_state_is_shared_by_the_context, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_invalidate_is_the_resync_point, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_resync_walks_what_changed, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_partial_resync_equals_full_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_launch_latency_split,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_event_stamped_at_submit,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_after_many_writes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_and_free, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_group_shared_by_its_channels, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_other_guest_group_other_host_group, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_faulted_group_not_reused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_group_refused_own_group, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_copy_runs_on_the_gpu,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_fallbacks_and_fault,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_engine_with_most_pces,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_without_channel,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_physical_copy_and_fill,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fb_in_vidmem, setup,
						teardown),
		cmocka_unit_test(test_refused_gpu_means_no_instance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
