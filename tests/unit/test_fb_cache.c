// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The FB read cache (mm/fb_cache.c) over a flat FB store standing in for
 * the GPU's memory behind BAR1: repeated reads come from host memory (the
 * store's reads are counted, and a write behind the core's back stays
 * unseen until it is reported), a GPU write reported through
 * vgsp_fb_engine_wrote or made by a forwarded copy is seen by the next
 * read, a forwarded launch drops everything and reads go to the store
 * while it runs, the guest's BAR writes are seen, the cap holds, and a
 * call that may have left the GPU running turns the cache off, and the
 * counters reach the mm view (vgsp-vfu's --stats).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "profiles.h"
#include "backend.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "rm/rm.h"
#include "view.h"
#include "helpers/fake_fe.h"

#define CLIENT		0xc1e00003
#define HDEVICE		0x1
#define HCHAN		0x2
#define PD4		0x10000ULL
#define VA_PA		0x200000ULL	/* the channel's VA 0 .. 2 MiB */
#define GPFIFO_VA	0x1000
#define PB_VA		0x2000
#define ERRNOT_PA	0x5000ULL
#define USERD_PA	0x300000ULL
#define CHID		7
#define ENGINE_GR0	0x01
#define QMD_VA		0x8000ULL
#define DATA_PA		0x800000ULL	/* pages the tests cache */
#define CAP		8	/* the cap test's */
#define PAGES		64	/* room for a channel's pages besides */

struct fx {
	struct fake_fe fe;
	struct vgsp_dev *dev;
	u8 *fb;			/* the "BAR1" mapping of the GPU's memory */
	u64 fb_size;
	u32 gp_put;
};

/* What the fake GPU does in a forwarded launch or copy. */
struct fake_gpu {
	struct fx *f;
	unsigned int launches, copies;
	int rc;
	u64 poke_pa;		/* written behind the core during a launch */
	u32 poke_val;
	u32 seen_inside;	/* the core's read of poke_pa meanwhile */
};

static struct fake_gpu gpu;

static u32 rd(struct fx *f, u64 pa);

static int fake_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			  u64 qmd_va)
{
	gpu.launches++;
	if (gpu.poke_pa) {
		memcpy(gpu.f->fb + gpu.poke_pa, &gpu.poke_val, 4);
		/* a BAR trap while the kernel runs reads the store */
		gpu.seen_inside = rd(gpu.f, gpu.poke_pa);
	}
	return gpu.rc;
}

/* A copy "on the GPU": straight into the store, reporting nothing. */
static int fake_ce_xfer(struct vgsp_dev *dev, struct vgsp_ce_xfer *x)
{
	u64 src = x->src.addr + (x->src.virt ? VA_PA : 0);
	u64 dst = x->dst.addr + (x->dst.virt ? VA_PA : 0);

	gpu.copies++;
	memmove(gpu.f->fb + dst, gpu.f->fb + src, x->line_bytes);
	x->line = x->lines;
	return gpu.rc;
}

static struct vgsp_backend_ops fake_ops = {
	.name = "fake-gpu",
	.ce_xfer = fake_ce_xfer,
	.gr_launch = fake_gr_launch,
	.gr_state = true,
};

static int make(void **state, bool flat, u32 cache_pages)
{
	const struct vgsp_profile *p = vgsp_profile_find("h100-10g");
	u8 uuid[16] = { 9, 10 };
	struct vgsp_dev_opts o = { .backend = &fake_ops };
	struct fx *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	assert_non_null(f);
	memset(&gpu, 0, sizeof(gpu));
	gpu.f = f;
	f->fb_size = p->fb_size;
	if (flat) {
		f->fb = mmap(NULL, f->fb_size, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			     0);
		assert_true(f->fb != MAP_FAILED);
		o.fb_flat = f->fb;
	}
	o.fb_cache_pages = cache_pages;
	fake_fe_init(&f->fe, 0x100000, 0x10000);
	f->dev = vgsp_dev_create_opts(p, uuid, 8, &fake_fe_ops, &f->fe, &o);
	assert_non_null(f->dev);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return make(state, true, PAGES);
}

static int setup_small(void **state)
{
	return make(state, true, CAP);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	vgsp_dev_destroy(f->dev);
	if (f->fb)
		munmap(f->fb, f->fb_size);
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

static u32 rd(struct fx *f, u64 pa)
{
	u8 b[4];

	assert_int_equal(vgsp_fb_read(f->dev, pa, b, 4), 0);
	return vgsp_get32(b, 0);
}

/* The GPU writes the store; the core is not told. */
static void behind(struct fx *f, u64 pa, u32 v)
{
	memcpy(f->fb + pa, &v, 4);
}

static struct vgsp_fbc_stats stats(struct fx *f)
{
	struct vgsp_fbc_stats st;

	assert_true(vgsp_fbc_stats(f->dev, &st));
	return st;
}

/* ---- reads ------------------------------------------------------------ */

static void test_repeated_reads_hit(void **state)
{
	struct fx *f = *state;
	struct vgsp_fbc_stats st;
	u8 big[3 * 64];
	int i;

	put(f, DATA_PA + 8, 0x1111, 4);		/* not cached: no slot */
	assert_int_equal(stats(f).pages, 0);
	assert_int_equal(rd(f, DATA_PA + 8), 0x1111);
	st = stats(f);
	assert_int_equal(st.misses, 1);
	assert_int_equal(st.store_reads, 1);
	assert_int_equal(st.line_fills, 1);	/* one line, not the page */
	for (i = 0; i < 100; i++)
		assert_int_equal(rd(f, DATA_PA + 8), 0x1111);
	st = stats(f);
	assert_int_equal(st.hits, 100);
	assert_int_equal(st.store_reads, 1);	/* BAR1 read once */
	/* the copy is what is read: an unreported write stays unseen */
	behind(f, DATA_PA + 8, 0x2222);
	assert_int_equal(rd(f, DATA_PA + 8), 0x1111);
	/* a read over three lines, one cached: one store read for two */
	assert_int_equal(vgsp_fb_read(f->dev, DATA_PA, big, sizeof(big)), 0);
	st = stats(f);
	assert_int_equal(st.store_reads, 2);
	assert_int_equal(st.line_fills, 3);
	assert_int_equal(vgsp_get32(big, 8), 0x1111);
	/* across a page end: both pages, each filled */
	assert_int_equal(vgsp_fb_read(f->dev, DATA_PA + 0x1000 - 64, big,
				      128), 0);
	assert_int_equal(stats(f).pages, 2);
	/* bulk reads go around the cache to the store */
	{
		static u8 bulk[5 * 4096];

		assert_int_equal(vgsp_fb_read(f->dev, DATA_PA, bulk,
					      sizeof(bulk)), 0);
		assert_int_equal(vgsp_get32(bulk, 8), 0x2222);
		assert_int_equal(stats(f).bypassed, 1);
	}
}

/* The sysmem FB (sparse store) and a flat one asked for none: no cache. */
static void test_no_cache_without_a_flat_store(void **state)
{
	struct fx *f;
	struct vgsp_fbc_stats st;

	make((void **)&f, false, CAP);
	assert_false(vgsp_fbc_stats(f->dev, &st));
	put(f, DATA_PA, 5, 4);
	assert_int_equal(rd(f, DATA_PA), 5);
	teardown((void **)&f);
	make((void **)&f, true, 0);
	assert_false(vgsp_fbc_stats(f->dev, &st));
	behind(f, DATA_PA, 6);
	assert_int_equal(rd(f, DATA_PA), 6);
	assert_int_equal(rd(f, DATA_PA), 6);
	behind(f, DATA_PA, 7);
	assert_int_equal(rd(f, DATA_PA), 7);
	teardown((void **)&f);
}

/* ---- what the core writes ------------------------------------------- */

static void test_guest_bar_writes_are_seen(void **state)
{
	struct fx *f = *state;
	u32 win = DATA_PA >> 16, v = 0xabcd0123;
	struct vgsp_fbc_stats st;
	u8 b[8];

	/* PRAMIN: BAR0 0x700000 is FB at WINDOW << 16 */
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0x10fd40, &win,
					    4), 0);
	put(f, DATA_PA + 0x40, 0x55, 8);
	assert_int_equal(rd(f, DATA_PA + 0x40), 0x55);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0x700044, &v,
					    4), 0);
	/* through to the store, and the cached line follows: no store read */
	assert_memory_equal(f->fb + DATA_PA + 0x44, &v, 4);
	st = stats(f);
	assert_int_equal(rd(f, DATA_PA + 0x44), 0xabcd0123);
	assert_int_equal(rd(f, DATA_PA + 0x40), 0x55);
	assert_int_equal(stats(f).store_reads, st.store_reads);
	assert_true(stats(f).patched >= 1);
	/* the guest reads it back through the window */
	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, 0x700044, b, 4),
			 0);
	assert_int_equal(vgsp_get32(b, 0), 0xabcd0123);
	/* a partial write to a line never read leaves it to the store */
	behind(f, DATA_PA + 0x80, 0x77);
	v = 0x88;
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0x700084, &v,
					    4), 0);
	assert_int_equal(rd(f, DATA_PA + 0x80), 0x77);
	assert_int_equal(rd(f, DATA_PA + 0x84), 0x88);
	/* a fill (the scrubber on the CPU) drops what it covers */
	assert_int_equal(vgsp_fb_fill(f->dev, DATA_PA, 0x01010101, 0x1000),
			 0);
	assert_int_equal(rd(f, DATA_PA + 0x44), 0x01010101);
}

/* ---- what the GPU writes -------------------------------------------- */

static void test_engine_write_is_seen(void **state)
{
	struct fx *f = *state;
	struct vgsp_fbc_stats st;

	put(f, DATA_PA, 1, 4);
	put(f, DATA_PA + 0x3000, 3, 4);
	assert_int_equal(rd(f, DATA_PA), 1);
	assert_int_equal(rd(f, DATA_PA + 0x3000), 3);
	behind(f, DATA_PA, 2);
	behind(f, DATA_PA + 0x3000, 4);
	assert_int_equal(rd(f, DATA_PA), 1);	/* not told yet */
	assert_int_equal(vgsp_fb_engine_wrote(f->dev, DATA_PA, 4), 0);
	assert_int_equal(rd(f, DATA_PA), 2);
	assert_int_equal(rd(f, DATA_PA + 0x3000), 3);	/* not covered */
	st = stats(f);
	assert_int_equal(st.invalidated, 1);
	/* a range far larger than the cache: each entry in it goes */
	assert_int_equal(vgsp_fb_engine_wrote(f->dev, 0, 1ULL << 30), 0);
	assert_int_equal(rd(f, DATA_PA + 0x3000), 4);
	assert_int_equal(vgsp_fb_engine_wrote(f->dev, f->fb_size, 4),
			 -EINVAL);
}

/* ---- through a channel: launches and copies forwarded ---------------- */

static void make_channel(struct fx *f)
{
	struct vgsp_chan_desc d = {
		.client = CLIENT, .handle = HCHAN, .parent = HDEVICE,
		.hdevice = HDEVICE, .chid = CHID, .runlist = 0,
		.engine_type = ENGINE_GR0, .gpfifo_va = GPFIFO_VA,
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

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

static u32 rd_locked(struct fx *f, u64 pa)
{
	u32 v;

	vgsp_dev_lock(f->dev);
	v = rd(f, pa);
	vgsp_dev_unlock(f->dev);
	return v;
}

/* One GPFIFO entry of @n dwords at PB_VA + 0x100 * entry; waits for it. */
static void submit(struct fx *f, const u32 *pb, u32 n)
{
	u32 i, e = f->gp_put, token = CHID;
	u64 pb_va = PB_VA + 0x100 * e;

	vgsp_dev_lock(f->dev);
	for (i = 0; i < n; i++)
		put(f, VA_PA + pb_va + 4 * i, pb[i], 4);
	put(f, VA_PA + GPFIFO_VA + 8 * e, pb_va, 4);
	put(f, VA_PA + GPFIFO_VA + 8 * e + 4, n << 10, 4);
	f->gp_put = e + 1;
	put(f, USERD_PA + VGSP_USERD_GP_PUT, f->gp_put, 4);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xbb0090,
					    &token, 4), 0);
	for (i = 0; i < 2000; i++) {
		struct vgsp_chan *ch;
		bool stopped;

		vgsp_dev_lock(f->dev);
		ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
		stopped = ch && ch->state == VGSP_CHAN_ERROR;
		vgsp_dev_unlock(f->dev);
		if (stopped ||
		    rd_locked(f, USERD_PA + VGSP_USERD_GP_GET) == f->gp_put)
			return;
		nap();
	}
	fail_msg("the channel never fetched entry %u", e);
}

static const u32 launch_pb[] = {
	0x20012000, 0x0000cbc0,		/* SET_OBJECT compute, subch 1 */
	0x200120ad, QMD_VA >> 8,	/* SEND_PCAS_A */
	0x200120b0, 0x9,		/* SEND_SIGNALING_PCAS2_B */
};

static void test_launch_drops_everything(void **state)
{
	struct fx *f = *state;
	struct vgsp_fbc_stats st;

	make_channel(f);
	vgsp_dev_lock(f->dev);
	put(f, DATA_PA, 1, 4);
	assert_int_equal(rd(f, DATA_PA), 1);
	vgsp_dev_unlock(f->dev);
	st = stats(f);
	gpu.poke_pa = DATA_PA;
	gpu.poke_val = 2;
	submit(f, launch_pb, VGSP_ARRAY_SIZE(launch_pb));
	assert_int_equal(gpu.launches, 1);
	/* while it ran, reads went to the store; after it, all was dropped */
	assert_int_equal(gpu.seen_inside, 2);
	assert_int_equal(stats(f).drops, st.drops + 1);
	assert_true(stats(f).bypassed > st.bypassed);
	assert_int_equal(rd_locked(f, DATA_PA), 2);
	assert_int_equal(rd_locked(f, ERRNOT_PA + 12) >> 16, 0);
	assert_false(stats(f).off);
}

/* A launch the backend gave up on may still be writing: cache off. */
static void test_failed_launch_turns_it_off(void **state)
{
	struct fx *f = *state;
	struct vgsp_fbc_stats st;

	make_channel(f);
	gpu.rc = -ETIMEDOUT;
	submit(f, launch_pb, VGSP_ARRAY_SIZE(launch_pb));
	st = stats(f);
	assert_true(st.off);
	assert_int_equal(st.stops, 1);
	vgsp_dev_lock(f->dev);
	behind(f, DATA_PA, 9);
	assert_int_equal(rd(f, DATA_PA), 9);
	behind(f, DATA_PA, 10);
	assert_int_equal(rd(f, DATA_PA), 10);
	vgsp_dev_unlock(f->dev);
	/* the device reset starts it again */
	vgsp_dev_reset(f->dev);
	assert_false(stats(f).off);
}

#define CE_SUB		0x8000		/* subchannel 4 */
#define CE_LD_PHYS	0x3182		/* non-pipelined, pitch, both phys */
#define CE_LD_VIRT	0x0182		/* the same at VAs */

static void test_copy_drops_its_destination(void **state)
{
	struct fx *f = *state;
	u64 src = DATA_PA + 0x10000, dst = DATA_PA + 0x2000;
	const u32 pb[] = {
		0x20010000 | CE_SUB, 0xc8b5,		/* SET_OBJECT copy */
		0x20040100 | CE_SUB, 0, (u32)src, 0, (u32)dst,
		0x20010106 | CE_SUB, 256,		/* LINE_LENGTH_IN */
		0x20010107 | CE_SUB, 1,			/* LINE_COUNT */
		0x200100c0 | CE_SUB, CE_LD_PHYS,	/* LAUNCH_DMA */
	};
	const u32 vpb[] = {
		0x20040100 | CE_SUB, 0, 0x6000, 0, 0x7000,
		0x20010106 | CE_SUB, 64,
		0x20010107 | CE_SUB, 1,
		0x200100c0 | CE_SUB, CE_LD_VIRT,
	};
	struct vgsp_fbc_stats st;

	make_channel(f);
	vgsp_dev_lock(f->dev);
	put(f, src, 0x5eed, 4);
	put(f, dst, 1, 4);
	put(f, DATA_PA, 7, 4);
	assert_int_equal(rd(f, dst), 1);
	assert_int_equal(rd(f, DATA_PA), 7);
	vgsp_dev_unlock(f->dev);
	st = stats(f);
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_int_equal(gpu.copies, 1);
	assert_int_equal(rd_locked(f, dst), 0x5eed);
	/* only the destination went: the other page is still a hit */
	behind(f, DATA_PA, 8);
	assert_int_equal(rd_locked(f, DATA_PA), 7);
	assert_int_equal(stats(f).drops, st.drops);
	assert_int_equal(stats(f).invalidated, st.invalidated + 1);

	/* to a VA, where it lands is unknown here: everything goes */
	vgsp_dev_lock(f->dev);
	put(f, VA_PA + 0x6000, 0x77, 4);
	assert_int_equal(rd(f, VA_PA + 0x7000), 0);
	vgsp_dev_unlock(f->dev);
	submit(f, vpb, VGSP_ARRAY_SIZE(vpb));
	assert_int_equal(gpu.copies, 2);
	assert_int_equal(rd_locked(f, VA_PA + 0x7000), 0x77);
	assert_int_equal(rd_locked(f, DATA_PA), 8);
	assert_int_equal(stats(f).drops, st.drops + 1);
	assert_int_equal(rd_locked(f, ERRNOT_PA + 12) >> 16, 0);
}

/* ---- the counters in --stats (the mm view) ---------------------------- */

struct strbuf {
	struct vgsp_printer p;
	char s[8192];
	size_t n;
};

static void sprint(struct vgsp_printer *p, const char *fmt, ...)
{
	struct strbuf *b = (struct strbuf *)p;
	va_list ap;

	va_start(ap, fmt);
	b->n += vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	assert_true(b->n < sizeof(b->s));
}

static void show_mm(struct vgsp_dev *dev, struct strbuf *b)
{
	unsigned int i;

	b->p.print = sprint;
	b->n = 0;
	b->s[0] = 0;
	for (i = 0; i < vgsp_core_nviews; i++)
		if (!strcmp(vgsp_core_views[i].name, "mm"))
			vgsp_core_views[i].show(dev, &b->p);
}

static void test_counters_in_the_mm_view(void **state)
{
	struct fx *f = *state;
	static struct strbuf b;
	int i;

	for (i = 0; i < 3; i++)
		rd(f, DATA_PA);
	show_mm(f->dev, &b);
	assert_non_null(strstr(b.s, "fb_cache on pages 1 cap 64\n"));
	assert_non_null(strstr(b.s, "fb_cache_hits 2\n"));
	assert_non_null(strstr(b.s, "fb_cache_misses 1\n"));
	assert_non_null(strstr(b.s, "fb_cache_store_reads 1\n"));
	assert_non_null(strstr(b.s, "fb_cache_stops 0\n"));
	teardown(state);
	make(state, false, PAGES);
	show_mm(((struct fx *)*state)->dev, &b);
	assert_non_null(strstr(b.s, "fb_cache none\n"));
}

/* ---- the cap ---------------------------------------------------------- */

static void test_cap_is_respected(void **state)
{
	struct fx *f = *state;
	struct vgsp_fbc_stats st;
	unsigned int i, round;

	for (i = 0; i < 3 * CAP; i++)
		put(f, DATA_PA + 0x1000ULL * i, 0x100 + i, 4);
	for (round = 0; round < 3; round++)
		for (i = 0; i < 3 * CAP; i++)
			assert_int_equal(rd(f, DATA_PA + 0x1000ULL * i),
					 0x100 + i);
	st = stats(f);
	assert_int_equal(st.cap, CAP);
	assert_int_equal(st.pages, CAP);
	assert_true(st.evictions >= 2 * CAP);
	/* a hot page survives a stream of cold ones */
	for (i = 0; i < 4 * CAP; i++) {
		assert_int_equal(rd(f, DATA_PA), 0x100);
		assert_int_equal(rd(f, DATA_PA + 0x1000ULL * (3 * CAP + i)),
				 0);
	}
	st = stats(f);
	behind(f, DATA_PA, 0xdead);
	assert_int_equal(rd(f, DATA_PA), 0x100);	/* still cached */
	assert_int_equal(stats(f).pages, CAP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_repeated_reads_hit,
						setup, teardown),
		cmocka_unit_test(test_no_cache_without_a_flat_store),
		cmocka_unit_test_setup_teardown(test_guest_bar_writes_are_seen,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_engine_write_is_seen,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_launch_drops_everything,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_failed_launch_turns_it_off, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_copy_drops_its_destination, setup, teardown),
		cmocka_unit_test_setup_teardown(test_counters_in_the_mm_view,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cap_is_respected,
						setup_small, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
