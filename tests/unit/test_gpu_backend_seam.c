// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What the core gives a backend that runs guest work on a physical GPU
 * (vgsp-vfu --backend hostd): the FB store as one flat block the GPU can
 * reach, every mapping of a guest VA space enumerated for the mirror
 * (checked against the single-address walk), the resync point at every
 * guest TLB invalidate, and the compute-class state a launch must replay,
 * in order, with the launch's fault coming back as the channel's MMU
 * fault.
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

struct fake_be {
	unsigned int launches, gone;
	u64 qmd_va;
	int rc;
	struct vgsp_gr_rec rec;		/* the channel's record at the launch */
	u64 seq;
};

static struct fake_be fbe;

static int fake_gr_launch(struct vgsp_dev *dev, struct vgsp_chan *ch,
			  u64 qmd_va)
{
	fbe.launches++;
	fbe.qmd_va = qmd_va;
	fbe.seq = dev->fifo->gr_seq;
	if (ch->gr_rec)
		fbe.rec = *ch->gr_rec;
	return fbe.rc;
}

static void fake_chan_gone(struct vgsp_dev *dev, struct vgsp_chan *ch)
{
	fbe.gone++;
}

static struct vgsp_backend_ops fake_ops = {
	.name = "fake-gpu",
	.gr_launch = fake_gr_launch,
	.gr_state = true,
	.chan_gone = fake_chan_gone,
};

struct fx {
	struct fake_fe fe;
	struct vgsp_dev *dev;
	u8 *fb;			/* the flat FB store (lazily backed) */
	u64 fb_size;
	u32 gp_put;
};

static int setup(void **state)
{
	const struct vgsp_profile *p = vgsp_profile_find("h100-10g");
	u8 uuid[16] = { 9, 9 };
	struct vgsp_dev_opts o = { .backend = &fake_ops };
	struct fx *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	assert_non_null(f);
	fake_ops.ce_xfer = vgsp_backend_sim.ce_xfer;
	memset(&fbe, 0, sizeof(fbe));
	f->fb_size = p->fb_size;
	f->fb = mmap(NULL, f->fb_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	assert_true(f->fb != MAP_FAILED);
	o.fb_flat = f->fb;
	fake_fe_init(&f->fe, 0x100000, 0x10000);
	f->dev = vgsp_dev_create_opts(p, uuid, 8, &fake_fe_ops, &f->fe, &o);
	assert_non_null(f->dev);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	vgsp_dev_destroy(f->dev);
	munmap(f->fb, f->fb_size);
	fake_fe_fini(&f->fe);
	free(f);
	return 0;
}

/* Device lock held. */
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

/* ---- the flat FB store ---------------------------------------------- */

static void test_flat_fb_is_the_frontends_memory(void **state)
{
	struct fx *f = *state;
	u8 b[4] = { 1, 2, 3, 4 };

	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_write(f->dev, 0x123450, b, 4), 0);
	vgsp_dev_unlock(f->dev);
	assert_memory_equal(f->fb + 0x123450, b, 4);
	/* the GPU writes behind the core's back: the core reads it */
	f->fb[0x9000] = 0x5a;
	assert_int_equal(fb_rd(f, 0x9000) & 0xff, 0x5a);
	/* fills write memory, zeros too (nothing is released) */
	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_fb_fill(f->dev, 0x9000, 0xa5a5a5a5, 0x20000),
			 0);
	assert_int_equal(f->fb[0x9000 + 0x1ffff], 0xa5);
	assert_int_equal(vgsp_fb_fill(f->dev, 0x9000, 0x04030201, 8), 0);
	assert_int_equal(f->fb[0x9000 + 5], 2);
	assert_int_equal(vgsp_fb_fill(f->dev, 0x9000, 0, 0x10000), 0);
	assert_int_equal(f->fb[0x9000 + 5], 0);
	/* still bounded by the profile's FB */
	assert_int_not_equal(vgsp_fb_write(f->dev, f->fb_size - 2, b, 4), 0);
	vgsp_dev_unlock(f->dev);
}

/* ---- enumeration of a VA space -------------------------------------- */

#define PT_PD3		0x11000ULL
#define PT_PD2		0x12000ULL
#define PT_PD1		0x13000ULL
#define PT_PD0		0x14000ULL
#define PT_BIG		0x15000ULL
#define PT_SMALL	0x16000ULL
#define PDE_VID		(1ULL << 1)
#define PTE_SYS		(2ULL << 1)
#define PTE_RO		(0x4ULL << 3)

static void build_tree(struct fx *f)
{
	vgsp_dev_lock(f->dev);
	put(f, PD4, PT_PD3 | PDE_VID, 8);
	put(f, PT_PD3, PT_PD2 | PDE_VID, 8);
	put(f, PT_PD2, PT_PD1 | PDE_VID, 8);
	put(f, PT_PD1, PT_PD0 | PDE_VID, 8);
	put(f, PT_PD1 + 8, 0x20000000ULL | 1, 8);	/* a 512 MiB page */
	put(f, PT_PD0, 0x400000ULL | 1, 8);		/* VA 0: 2 MiB page */
	/* VA 2 MiB: a big-page table and a small table beside it */
	put(f, PT_PD0 + 16, PT_BIG | PDE_VID, 8);
	put(f, PT_PD0 + 24, PT_SMALL | PDE_VID, 8);
	put(f, PT_BIG, 0x600000ULL | 1, 8);
	put(f, PT_BIG + 8, 0x700000ULL | 1, 8);
	/* small PTE 19 = block 1, piece 3: system memory, read-only */
	put(f, PT_SMALL + 19 * 8, 0x100000ULL | PTE_SYS | PTE_RO | 1, 8);
	vgsp_dev_unlock(f->dev);
}

struct leaves {
	struct fx *f;
	struct vgsp_vm vm;
	unsigned int n;
	u64 va[32];
	struct vgsp_xlate x[32];
};

static int collect(void *ctx, u64 va, const struct vgsp_xlate *x)
{
	struct leaves *l = ctx;
	struct vgsp_xlate t;

	if (l->n >= 32)
		return -1;
	l->va[l->n] = va;
	l->x[l->n++] = *x;
	/* the single-address walk agrees with every leaf */
	assert_int_equal(vgsp_mmu_translate(l->f->dev, &l->vm, va, &t), 0);
	assert_int_equal(t.pa, x->pa);
	assert_int_equal(t.target, x->target);
	assert_int_equal(t.ro, x->ro);
	return 0;
}

static void test_for_each_enumerates_every_mapping(void **state)
{
	struct fx *f = *state;
	struct leaves l = { .f = f, .vm = { PD4, VGSP_MEM_VID } };
	unsigned int j;
	int ret;

	build_tree(f);
	vgsp_dev_lock(f->dev);
	ret = vgsp_mmu_for_each(f->dev, &l.vm, 64, collect, &l);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(ret, 0);
	assert_int_equal(l.n, 19);
	assert_int_equal(l.va[0], 0);
	assert_int_equal(l.x[0].page, 2 << 20);
	assert_int_equal(l.x[0].pa, 0x400000);
	assert_int_equal(l.va[1], 0x200000);
	assert_int_equal(l.x[1].page, 64 << 10);
	assert_int_equal(l.x[1].pa, 0x600000);
	/* block 1: sixteen 4 KiB pieces, piece 3 from the small table */
	for (j = 0; j < 16; j++) {
		assert_int_equal(l.va[2 + j], 0x210000 + j * 0x1000);
		assert_int_equal(l.x[2 + j].page, 0x1000);
		if (j == 3) {
			assert_int_equal(l.x[2 + j].target, VGSP_MEM_SYS);
			assert_int_equal(l.x[2 + j].pa, 0x100000);
			assert_true(l.x[2 + j].ro);
		} else {
			assert_int_equal(l.x[2 + j].target, VGSP_MEM_VID);
			assert_int_equal(l.x[2 + j].pa, 0x700000 + j * 0x1000);
		}
	}
	assert_int_equal(l.va[18], 0x20000000);
	assert_int_equal(l.x[18].page, 512 << 20);
}

static int stop_at_two(void *ctx, u64 va, const struct vgsp_xlate *x)
{
	unsigned int *n = ctx;

	return ++*n == 2 ? 77 : 0;
}

static void test_for_each_is_bounded(void **state)
{
	struct fx *f = *state;
	struct vgsp_vm vm = { PD4, VGSP_MEM_VID };
	unsigned int n = 0;

	build_tree(f);
	vgsp_dev_lock(f->dev);
	/* seven tables in the tree: a bound of three stops the walk */
	assert_int_equal(vgsp_mmu_for_each(f->dev, &vm, 3, stop_at_two, &n),
			 -E2BIG);
	/* the callback's verdict stops it and comes back */
	n = 0;
	assert_int_equal(vgsp_mmu_for_each(f->dev, &vm, 64, stop_at_two, &n),
			 77);
	assert_int_equal(n, 2);
	/* a root outside FB is a fault, not a crash */
	vm.pdb = f->fb_size - 4;
	assert_int_equal(vgsp_mmu_for_each(f->dev, &vm, 64, stop_at_two, &n),
			 -EFAULT);
	vgsp_dev_unlock(f->dev);
}

/* ---- the resync point ------------------------------------------------ */

static void test_invalidate_bumps_pt_gen(void **state)
{
	struct fx *f = *state;
	u64 before = f->dev->mm->pt_gen;
	u32 v = 0x12345;

	/* the register without TRIGGER is not an invalidate */
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xb830b0, &v,
					    4), 0);
	assert_int_equal(f->dev->mm->pt_gen, before);
	v |= 1U << 31;
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0xb830b0, &v,
					    4), 0);
	assert_int_equal(f->dev->mm->pt_gen, before + 1);
}

/* ---- compute state for the launch ------------------------------------ */

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
		if (stopped || fb_rd(f, USERD_PA + VGSP_USERD_GP_GET) ==
		    f->gp_put)
			return;
		nap();
	}
	fail_msg("the channel never fetched entry %u", e);
}

static void test_launch_replays_state_in_order(void **state)
{
	struct fx *f = *state;
	static const u32 pb1[] = {
		0x20012000, 0x0000cbc0,		/* SET_OBJECT compute, subch 1 */
		0x200221e4, 0x11, 0x22,		/* 0x790, 0x794 */
		0x200120ad, QMD_VA >> 8,	/* SEND_PCAS_A */
		0x200120b0, 0x9,		/* SEND_SIGNALING_PCAS2_B */
	};
	static const u32 pb2[] = {
		0x200121e4, 0x33,		/* 0x790 again */
		0x200120ad, (QMD_VA + 0x100) >> 8,
		0x200120b0, 0x9,
	};
	struct vgsp_chan *ch;

	make_channel(f);
	submit(f, pb1, VGSP_ARRAY_SIZE(pb1));
	assert_int_equal(fbe.launches, 1);
	assert_int_equal(fbe.qmd_va, QMD_VA);
	/* the state, each write stamped in order; not the launch methods */
	assert_int_equal(fbe.seq, 2);
	assert_int_equal(fbe.rec.val[0x790 >> 2], 0x11);
	assert_int_equal(fbe.rec.stamp[0x790 >> 2], 1);
	assert_int_equal(fbe.rec.val[0x794 >> 2], 0x22);
	assert_int_equal(fbe.rec.stamp[0x794 >> 2], 2);
	assert_int_equal(fbe.rec.stamp[0x2b4 >> 2], 0);
	assert_int_equal(fbe.rec.stamp[0x2c0 >> 2], 0);

	submit(f, pb2, VGSP_ARRAY_SIZE(pb2));
	assert_int_equal(fbe.launches, 2);
	assert_int_equal(fbe.qmd_va, QMD_VA + 0x100);
	/* the rewrite is the newest write; the other keeps its stamp */
	assert_int_equal(fbe.seq, 3);
	assert_int_equal(fbe.rec.val[0x790 >> 2], 0x33);
	assert_int_equal(fbe.rec.stamp[0x790 >> 2], 3);
	assert_int_equal(fbe.rec.stamp[0x794 >> 2], 2);
	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_non_null(ch->gr_rec);
	assert_int_not_equal(ch->state, VGSP_CHAN_ERROR);
	/* the channel goes: the backend hears it once */
	vgsp_fifo_reset(f->dev);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(fbe.gone, 1);
}

static void test_launch_fault_is_the_channels_mmu_fault(void **state)
{
	struct fx *f = *state;
	static const u32 pb[] = {
		0x20012000, 0x0000cbc0,
		0x200120ad, QMD_VA >> 8,
		0x200120b0, 0x9,
	};
	struct vgsp_chan *ch;

	make_channel(f);
	fbe.rc = -EFAULT;
	submit(f, pb, VGSP_ARRAY_SIZE(pb));
	assert_int_equal(fbe.launches, 1);
	/* NvNotification: info32 = ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT */
	assert_int_equal(fb_rd(f, ERRNOT_PA + 8), 31);
	assert_int_not_equal(fb_rd(f, ERRNOT_PA + 12) >> 16, 0);
	vgsp_dev_lock(f->dev);
	ch = vgsp_fifo_chan_find(f->dev, CLIENT, HCHAN);
	assert_non_null(ch);
	assert_int_equal(ch->state, VGSP_CHAN_ERROR);
	vgsp_dev_unlock(f->dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_flat_fb_is_the_frontends_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_for_each_enumerates_every_mapping, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_for_each_is_bounded,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalidate_bumps_pt_gen,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_launch_replays_state_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_launch_fault_is_the_channels_mmu_fault, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
