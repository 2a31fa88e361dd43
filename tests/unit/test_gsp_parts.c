// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Pieces of the emulated GSP on their own: the RM object table (parent
 * rules, duplicates, cascading free, capacity and depth limits), the FSP
 * mailbox (EMEM auto-increment, refused packets, COT with unusable boot
 * arguments), the interrupt tree gating and the checksum.
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
#include "helpers/fake_fe.h"
#include "gsp/gsp_priv.h"

#define FSP_EMEMC0	0x8f2ac0
#define FSP_EMEMD0	0x8f2ac4
#define FSP_QUEUE_HEAD0	0x8f2c00
#define FSP_QUEUE_TAIL0	0x8f2c04
#define FSP_MSGQ_HEAD0	0x8f2c80
#define FSP_MSGQ_TAIL0	0x8f2c84
#define AINCW		(1U << 24)
#define AINCR		(1U << 25)

/* ---- object table ---- */

static void test_objects_tree_rules(void **state)
{
	struct vgsp_objtab t;

	vgsp_os_user_init();
	assert_int_equal(vgsp_obj_init(&t), 0);
	/* a client is its own handle */
	assert_int_equal(vgsp_obj_alloc(&t, 1, 0, 2, 0, VGSP_OBJ_ROOT),
			 VGSP_OBJ_BAD_HANDLE);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 1, 0, VGSP_OBJ_ROOT),
			 VGSP_OBJ_OK);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 1, 0, VGSP_OBJ_ROOT),
			 VGSP_OBJ_DUPLICATE);
	/* device under the client, subdevice only under a device */
	assert_int_equal(vgsp_obj_alloc(&t, 9, 9, 10, 0x80, VGSP_OBJ_DEVICE),
			 VGSP_OBJ_NO_CLIENT);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 20, 0x2080,
					VGSP_OBJ_SUBDEVICE), VGSP_OBJ_BAD_PARENT);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 10, 0x80, VGSP_OBJ_DEVICE),
			 VGSP_OBJ_OK);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 10, 20, 0x2080,
					VGSP_OBJ_SUBDEVICE), VGSP_OBJ_OK);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 77, 30, 0xc86f, VGSP_OBJ_OTHER),
			 VGSP_OBJ_NO_PARENT);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 20, 30, 0xc86f, VGSP_OBJ_OTHER),
			 VGSP_OBJ_OK);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 20, 0, 0xc86f, VGSP_OBJ_OTHER),
			 VGSP_OBJ_BAD_HANDLE);
	/* the same handle in another client is another object */
	assert_int_equal(vgsp_obj_alloc(&t, 2, 2, 2, 0, VGSP_OBJ_ROOT),
			 VGSP_OBJ_OK);
	assert_int_equal(vgsp_obj_alloc(&t, 2, 2, 10, 0x80, VGSP_OBJ_DEVICE),
			 VGSP_OBJ_OK);
	assert_int_equal(t.used, 6);

	/* freeing the device takes subdevice and channel with it */
	assert_int_equal(vgsp_obj_free(&t, 1, 10), 3);
	assert_null(vgsp_obj_find(&t, 1, 30));
	assert_non_null(vgsp_obj_find(&t, 1, 1));
	assert_non_null(vgsp_obj_find(&t, 2, 10));
	assert_int_equal(vgsp_obj_free(&t, 1, 10), -ENOENT);
	/* freeing a client frees all of it, and only it */
	assert_int_equal(vgsp_obj_free(&t, 2, 2), 2);
	assert_int_equal(t.used, 1);
	vgsp_obj_fini(&t);
}

/* What vgsp_obj_find must agree with: a scan of every live slot. */
static struct vgsp_obj *scan_find(struct vgsp_objtab *t, u32 client,
				  u32 handle)
{
	unsigned int i;

	for (i = 0; i < t->high; i++)
		if (t->o[i].used && t->o[i].client == client &&
		    t->o[i].handle == handle)
			return &t->o[i];
	return NULL;
}

/*
 * The (client, handle) index against a scan, through a full table, frees
 * of whole subtrees and of clients, reuse of freed slots and of handles,
 * and a clear: every handle ever used is looked up after every step.
 */
static void test_objects_index_matches_scan(void **state)
{
	struct vgsp_objtab t;
	unsigned int i, n, step, c, peak = 0;
	u32 seed = 12345;

	vgsp_os_user_init();
	assert_int_equal(vgsp_obj_init(&t), 0);
	for (c = 1; c <= 4; c++)
		assert_int_equal(vgsp_obj_alloc(&t, c, c, c, 0, VGSP_OBJ_ROOT),
				 VGSP_OBJ_OK);
	for (step = 0; step < 9000; step++) {
		u32 client, handle, parent;

		seed = seed * 1103515245U + 12345U;
		client = 1 + (seed >> 8) % 4;
		handle = 0x100 + (seed >> 12) % 700;
		/* a parent that may exist: the client or a smaller handle */
		parent = (seed & 7) ? client : 0x100 + (seed >> 20) % 700;
		if ((seed >> 4) % 8 == 0 && handle != client)
			vgsp_obj_free(&t, client, handle);
		else
			vgsp_obj_alloc(&t, client, parent, handle, 0x50a0,
				       VGSP_OBJ_OTHER);
		if (step % 997 == 0) {
			/* a client, and it again */
			vgsp_obj_free(&t, client, client);
			vgsp_obj_alloc(&t, client, client, client, 0,
				       VGSP_OBJ_ROOT);
		}
		if (t.used > peak)
			peak = t.used;
		if (step == 8000) {
			vgsp_obj_clear(&t);
			for (c = 1; c <= 4; c++)
				vgsp_obj_alloc(&t, c, c, c, 0, VGSP_OBJ_ROOT);
		}
		if (step % 10)
			continue;
		/* the index holds the live objects and nothing else */
		for (i = 0, n = 0; i < VGSP_OBJ_HASH; i++)
			n += t.hash[i] != 0;
		assert_int_equal(n, t.used);
		for (c = 1; c <= 4; c++) {
			assert_ptr_equal(vgsp_obj_find(&t, c, c),
					 scan_find(&t, c, c));
			for (i = 0x100; i < 0x100 + 700; i++)
				assert_ptr_equal(vgsp_obj_find(&t, c, i),
						 scan_find(&t, c, i));
		}
	}
	/*
	 * Through a full table and many frees: more allocations between
	 * clears than the index has buckets (4714, 2786, 1024 measured).
	 */
	assert_true(t.allocs > 4000 && t.frees > 2000);
	assert_int_equal(peak, VGSP_OBJ_MAX);
	vgsp_obj_fini(&t);
}

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/*
 * Review 1g: FREE scanned the table once per level and once per parent
 * lookup (O(depth x n^2): 13 ms for a 15-deep chain in a full table, lock
 * held). A full table with the chain laid out bottom-up (each child in a
 * lower slot than its parent, the old code's worst case) must free in one
 * scan: well under 1 ms (best of 5).
 */
static void test_objects_free_fast(void **state)
{
	struct vgsp_objtab t;
	u64 best = ~0ULL;
	unsigned int run, i, depth = VGSP_OBJ_MAX_DEPTH - 1;

	vgsp_os_user_init();
	assert_int_equal(vgsp_obj_init(&t), 0);
	for (run = 0; run < 5; run++) {
		u64 t0;

		vgsp_obj_clear(&t);
		t.high = 0;
		assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 1, 0, VGSP_OBJ_ROOT), 0);
		/* fillers 1..: slots 1..1023 */
		for (i = 1; i < VGSP_OBJ_MAX; i++)
			assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 5000 + i, 0x50a0,
							VGSP_OBJ_OTHER), 0);
		/* the chain, each link in the slot below its parent's */
		for (i = 0; i < depth; i++) {
			assert_int_equal(vgsp_obj_free(&t, 1, 5000 + depth - i), 1);
			assert_int_equal(vgsp_obj_alloc(&t, 1, i ? 100 + i - 1 : 1,
							100 + i, 0x50a0,
							VGSP_OBJ_OTHER), 0);
		}
		assert_int_equal(t.used, VGSP_OBJ_MAX);
		t0 = mono_ns();
		assert_int_equal(vgsp_obj_free(&t, 1, 100), (int)depth);
		t0 = mono_ns() - t0;
		if (t0 < best)
			best = t0;
		assert_null(vgsp_obj_find(&t, 1, 100 + depth - 1));
		assert_non_null(vgsp_obj_find(&t, 1, 5000 + depth + 1));
	}
	print_message("free of a %u-deep chain in a full table: %llu ns\n",
		      depth, (unsigned long long)best);
	assert_true(best < 1000000);
	vgsp_obj_fini(&t);
}

static void test_objects_limits(void **state)
{
	struct vgsp_objtab t;
	unsigned int i;

	vgsp_os_user_init();
	assert_int_equal(vgsp_obj_init(&t), 0);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 1, 0, VGSP_OBJ_ROOT), 0);
	/* a chain deeper than the cap is refused */
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 100, 0x50a0,
					VGSP_OBJ_OTHER), 0);
	for (i = 0; i < VGSP_OBJ_MAX_DEPTH - 1; i++)
		assert_int_equal(vgsp_obj_alloc(&t, 1, 100 + i, 101 + i, 0x50a0,
						VGSP_OBJ_OTHER), 0);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 100 + i, 101 + i, 0x50a0,
					VGSP_OBJ_OTHER), VGSP_OBJ_TOO_DEEP);
	/* freeing the top of the chain frees the whole chain */
	assert_int_equal(vgsp_obj_free(&t, 1, 100), VGSP_OBJ_MAX_DEPTH);
	/* capacity */
	for (i = 0; t.used < VGSP_OBJ_MAX; i++)
		assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 1000 + i, 0x50a0,
						VGSP_OBJ_OTHER), 0);
	assert_int_equal(vgsp_obj_alloc(&t, 1, 1, 5, 0x50a0, VGSP_OBJ_OTHER),
			 VGSP_OBJ_FULL);
	assert_int_equal(vgsp_obj_free(&t, 1, 1), VGSP_OBJ_MAX);
	assert_int_equal(t.used, 0);
	vgsp_obj_fini(&t);
}

/* ---- device-level pieces ---- */

struct fx {
	struct vgsp_dev *dev;
	u8 mem[0x4000];
	int irqs;
};

static int fx_dma_read(void *fe, u64 iova, void *buf, size_t len)
{
	struct fx *f = fe;

	if (iova < 0x1000 || iova - 0x1000 + len > sizeof(f->mem))
		return -EFAULT;
	memcpy(buf, f->mem + iova - 0x1000, len);
	return 0;
}

static int fx_dma_write(void *fe, u64 iova, const void *buf, size_t len)
{
	return -EFAULT;
}

static bool fx_irq(void *fe, unsigned int v)
{
	((struct fx *)fe)->irqs++;
	return true;
}

static const struct vgsp_fe_ops fx_ops = {
	.dma_read = fx_dma_read, .dma_write = fx_dma_write,
	.irq_signal = fx_irq,
};

static int setup(void **state)
{
	static const u8 uuid[16] = { 1, 2, 3 };
	struct fx *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	assert_non_null(f);
	f->dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8,
				 &fx_ops, f);
	assert_non_null(f->dev);
	fake_bus_master(f->dev);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	vgsp_dev_destroy(f->dev);
	free(f);
	return 0;
}

static u32 rd(struct fx *f, u32 off)
{
	u32 v = 0;

	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, off, &v, 4), 0);
	return v;
}

static void wr(struct fx *f, u32 off, u32 v)
{
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, off, &v, 4), 0);
}

/* Send @n dwords through EMEM and return the FSP's errorCode. */
static u32 fsp_send(struct fx *f, const u32 *dw, unsigned int n)
{
	unsigned int i;

	wr(f, FSP_EMEMC0, AINCW);
	for (i = 0; i < n; i++)
		wr(f, FSP_EMEMD0, dw[i]);
	wr(f, FSP_QUEUE_TAIL0, n * 4 - 4);
	wr(f, FSP_QUEUE_HEAD0, 0);
	/* consumed, answered */
	assert_int_equal(rd(f, FSP_QUEUE_TAIL0), rd(f, FSP_QUEUE_HEAD0));
	assert_int_equal(rd(f, FSP_MSGQ_TAIL0) - rd(f, FSP_MSGQ_HEAD0), 16);
	wr(f, FSP_EMEMC0, AINCR);
	for (i = 0; i < 4; i++)
		rd(f, FSP_EMEMD0);
	return rd(f, FSP_EMEMD0);
}

static void test_fsp_emem_and_refusals(void **state)
{
	struct fx *f = *state;
	u32 pkt[217] = { 0 };
	unsigned int i;

	/* auto-increment is visible in EMEMC, as OpenRM checks */
	wr(f, FSP_EMEMC0, AINCW);
	for (i = 0; i < 5; i++)
		wr(f, FSP_EMEMD0, i);
	assert_int_equal(rd(f, FSP_EMEMC0) & 0xfffc, 20);
	/* past the end of EMEM: dropped and counted, reads 0 */
	wr(f, FSP_EMEMC0, 0xfffc | AINCR);
	assert_int_equal(rd(f, FSP_EMEMD0), 0);
	assert_true(f->dev->gsp->st.e.emem_bad > 0);

	/* no SOM/EOM */
	pkt[0] = 0;
	pkt[1] = 0x7e | 0x10de << 8 | 0x14u << 24;
	assert_int_equal(fsp_send(f, pkt, 217), 1);
	/* unsupported NVDM type */
	pkt[0] = 3u << 30;
	pkt[1] = 0x7e | 0x10de << 8 | 0x33u << 24;
	assert_int_equal(fsp_send(f, pkt, 217), 2);
	/* COT too short */
	pkt[1] = 0x7e | 0x10de << 8 | 0x14u << 24;
	assert_int_equal(fsp_send(f, pkt, 8), 1);
	assert_int_equal(f->dev->gsp->st.e.fsp_errors, 3);
	/* lockdown still engaged: nothing booted */
	assert_true(rd(f, 0x1100f4) & (1U << 13));
	assert_int_equal(f->dev->gsp->boot, VGSP_BOOT_OFF);
}

/*
 * Review defect 1a: queue head/tail are the guest's and were summed before
 * being bounded, so values near 2^32 wrapped the checks and the packet was
 * read up to 4 GiB past EMEM. Each pair must be refused with BAD_PACKET and
 * counted, and nothing outside EMEM may be read (ASan/valgrind would see it;
 * without them the old code faulted on the unmapped address).
 */
static void test_fsp_queue_bounds_do_not_wrap(void **state)
{
	static const u32 pairs[][2] = {		/* { head, tail } */
		{ 0xfffffff8, 0xfffffffc },
		{ 0xfffffffc, 0x000003fc },
		{ 0xfffffffc, 0x00000000 },
		{ 0x80000000, 0x80000004 },
		{ 0x000003fc, 0x000003fc },	/* head + 8 > EMEM */
		{ 0x00000000, 0x00000400 },	/* tail + 4 > EMEM */
		{ 0x00000000, 0xfffffffc },
	};
	struct fx *f = *state;
	unsigned int i, j;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		wr(f, FSP_QUEUE_TAIL0, pairs[i][1]);
		wr(f, FSP_QUEUE_HEAD0, pairs[i][0]);
		/* consumed and answered with BAD_PACKET */
		assert_int_equal(rd(f, FSP_QUEUE_TAIL0), pairs[i][0]);
		wr(f, FSP_EMEMC0, AINCR);
		for (j = 0; j < 4; j++)
			rd(f, FSP_EMEMD0);
		assert_int_equal(rd(f, FSP_EMEMD0), 1);
	}
	assert_int_equal(f->dev->gsp->st.e.fsp_bad_queue, i);
	assert_int_equal(f->dev->gsp->st.e.fsp_errors, i);
	assert_int_equal(f->dev->gsp->boot, VGSP_BOOT_OFF);
	/* the mailbox still works after the refusals */
	{
		u32 pkt[217] = { 0 };

		pkt[1] = 0x7e | 0x10de << 8 | 0x14u << 24;
		assert_int_equal(fsp_send(f, pkt, 217), 1);
	}
}

/*
 * Review defect 1f: a huge cmdq_off wrapped cmdq_off + min_q (64-bit) and
 * was accepted, truncated to 32 bits. Offsets outside the region are refused
 * before any sum; the queue state stays untouched.
 */
static void test_msgq_link_offsets_do_not_wrap(void **state)
{
	struct fx *f = *state;
	struct vgsp_gsp *gsp = f->dev->gsp;

	vgsp_dev_lock(f->dev);
	assert_int_equal(vgsp_msgq_link(gsp, 0, 16, 0xfffffffffffff000ULL,
					0x2000), -EINVAL);
	assert_int_equal(gsp->q.cmdq_off, 0);
	assert_int_equal(vgsp_msgq_link(gsp, 0, 16, 0x1000,
					0xfffffffffffff000ULL), -EINVAL);
	assert_int_equal(vgsp_msgq_link(gsp, 0, 16, 0x10000, 0x13000),
			 -EINVAL);
	assert_int_equal(gsp->q.cmdq_off, 0);
	vgsp_dev_unlock(f->dev);
}

/* A COT whose boot arguments lead nowhere: boot fails, no hang, no write. */
static void test_cot_with_unusable_boot_args(void **state)
{
	struct fx *f = *state;
	u32 pkt[217] = { 0 };
	int i;

	pkt[0] = 3u << 30;
	pkt[1] = 0x7e | 0x10de << 8 | 0x14u << 24;
	pkt[2 + 852 / 4] = 0x1000;	/* boot params at IOVA 0x1000: zeroes */
	assert_int_equal(fsp_send(f, pkt, 217), 0);
	assert_false(rd(f, 0x1100f4) & (1U << 13));
	assert_int_equal(rd(f, 0x111388) >> 7 & 1, 1);
	for (i = 0; i < 1000 && f->dev->gsp->boot == VGSP_BOOT_STARTING; i++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	vgsp_dev_lock(f->dev);
	assert_int_equal(f->dev->gsp->boot, VGSP_BOOT_FAILED);
	assert_int_equal(f->dev->gsp->st.e.boot_errors, 1);
	vgsp_dev_unlock(f->dev);
	/* doorbells now do nothing */
	for (i = 0; i < 100; i++)
		wr(f, 0x110c00, 0);
	assert_int_equal(f->dev->cnt.dma_writes, 0);
	/* reset: power-on state again, lockdown engaged */
	vgsp_dev_reset(f->dev);
	assert_int_equal(f->dev->gsp->boot, VGSP_BOOT_OFF);
	assert_true(rd(f, 0x1100f4) & (1U << 13));
}

static void test_intr_gating(void **state)
{
	struct fx *f = *state;
	u32 v = f->dev->gsp->chip->irq_vector, leaf = 0xb81000 + 4 * (v / 32);

	/* the top level comes up enabled; with the top bit cleared... */
	assert_int_equal(rd(f, 0xb81608), 0xff);
	wr(f, 0xb81610, 1U << (v / 64));
	vgsp_dev_lock(f->dev);
	vgsp_intr_gsp_raise(f->dev->gsp);	/* leaf not enabled */
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->irqs, 0);
	assert_true(rd(f, leaf) & (1U << (v % 32)));
	assert_true(rd(f, 0x110008) & 0x40);
	/* ...leaf enable alone is not enough; top enable delivers it */
	wr(f, 0xb81200 + 4 * (v / 32), 1U << (v % 32));
	assert_int_equal(f->irqs, 0);
	wr(f, 0xb81608, 1U << (v / 64));
	assert_int_equal(f->irqs, 1);
	assert_true(rd(f, 0xb81600) & (1U << (v / 64)));
	/* W1C leaf, then retrigger while SWGEN0 is still set re-delivers */
	wr(f, leaf, 1U << (v % 32));
	assert_int_equal(rd(f, leaf) & (1U << (v % 32)), 0);
	wr(f, 0x1103e8, 1);
	assert_int_equal(f->irqs, 2);
	/* acknowledged: retrigger is quiet */
	wr(f, 0x110004, 0x40);
	wr(f, leaf, 1U << (v % 32));
	wr(f, 0x1103e8, 1);
	assert_int_equal(f->irqs, 2);
	/* disabled at the leaf: raise sets pending, delivers nothing */
	wr(f, 0xb81400 + 4 * (v / 32), 1U << (v % 32));
	vgsp_dev_lock(f->dev);
	vgsp_intr_gsp_raise(f->dev->gsp);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->irqs, 2);
}

/*
 * SWGEN0 is edge triggered (kgspService clears it before draining the
 * queue, then retriggers): a message posted while it is pending sends no
 * second MSI-X and sets no leaf bit; clearing it re-arms the edge; the
 * retrigger re-sends; the falcon's reset clears it.
 */
static void test_intr_swgen0_edge(void **state)
{
	struct fx *f = *state;
	struct vgsp_gsp *gsp = f->dev->gsp;
	u32 v = gsp->chip->irq_vector, leaf = 0xb81000 + 4 * (v / 32);
	u32 bit = 1U << (v % 32);

	wr(f, 0xb81200 + 4 * (v / 32), bit);		/* leaf enable */
	vgsp_dev_lock(f->dev);
	vgsp_intr_gsp_raise(gsp);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->irqs, 1);
	/* the driver takes the leaf first; SWGEN0 still pending */
	wr(f, leaf, bit);
	vgsp_dev_lock(f->dev);
	vgsp_intr_gsp_raise(gsp);
	vgsp_intr_gsp_raise(gsp);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->irqs, 1);
	assert_int_equal(rd(f, leaf) & bit, 0);
	assert_int_equal(gsp->st.e.irqs_merged, 2);
	assert_int_equal(gsp->st.e.irqs, 1);
	/* SWGEN0 cleared: the next message is a new edge */
	wr(f, 0x110004, 0x40);
	vgsp_dev_lock(f->dev);
	vgsp_intr_gsp_raise(gsp);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->irqs, 2);
	assert_true(rd(f, leaf) & bit);
	/* a pending SWGEN0 is re-sent by the retrigger, as before */
	wr(f, leaf, bit);
	wr(f, 0x1103e8, 1);
	assert_int_equal(f->irqs, 3);
	assert_true(rd(f, leaf) & bit);
	/* the falcon's reset clears SWGEN0: the next boot's first is an edge */
	gsp->boot = VGSP_BOOT_RUNNING;
	vgsp_dev_lock(f->dev);
	vgsp_gsp_stop(gsp);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(rd(f, 0x110008) & 0x40, 0);
	wr(f, leaf, bit);
	vgsp_dev_lock(f->dev);
	vgsp_intr_gsp_raise(gsp);
	vgsp_dev_unlock(f->dev);
	assert_int_equal(f->irqs, 4);
}

/*
 * The control histogram through its index: the first VGSP_CTRL_TRACK
 * commands seen, in that order, each counted in its own row; the rest
 * untracked.
 */
static void test_ctrl_stats_index(void **state)
{
	struct fx *f = *state;
	struct vgsp_gsp_stats *st = &f->dev->gsp->st;
	unsigned int round, i;

	vgsp_dev_lock(f->dev);
	for (round = 0; round < 2; round++)
		for (i = 0; i < 200; i++)
			vgsp_stats_ctrl(f->dev->gsp, 0x20800000 + i * 0x101,
					i, 0, true);
	assert_int_equal(st->nctrl, VGSP_CTRL_TRACK);
	assert_int_equal(st->ctrl_untracked, 2 * (200 - VGSP_CTRL_TRACK));
	for (i = 0; i < VGSP_CTRL_TRACK; i++) {
		assert_int_equal(st->ctrl[i].cmd, 0x20800000 + i * 0x101);
		assert_int_equal(st->ctrl[i].count, 2);
		assert_int_equal(st->ctrl[i].last_size, i);
	}
	vgsp_dev_unlock(f->dev);
}

static void test_checksum_folds_to_zero(void **state)
{
	u8 m[0x60];
	unsigned int i;

	for (i = 0; i < sizeof(m); i++)
		m[i] = (u8)(i * 37 + 11);
	vgsp_put32(m, VGSP_ELEM_CHECKSUM, 0);
	vgsp_put32(m, VGSP_ELEM_CHECKSUM, vgsp_msgq_checksum(m, sizeof(m)));
	assert_int_equal(vgsp_msgq_checksum(m, sizeof(m)), 0);
	m[0x41] ^= 0x10;
	assert_int_not_equal(vgsp_msgq_checksum(m, sizeof(m)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_tree_rules),
		cmocka_unit_test(test_objects_index_matches_scan),
		cmocka_unit_test(test_objects_limits),
		cmocka_unit_test(test_objects_free_fast),
		cmocka_unit_test_setup_teardown(test_fsp_emem_and_refusals,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsp_queue_bounds_do_not_wrap,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_msgq_link_offsets_do_not_wrap,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cot_with_unusable_boot_args,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_intr_gating, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_intr_swgen0_edge, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_stats_index, setup,
						teardown),
		cmocka_unit_test(test_checksum_folds_to_zero),
	};

	return cmocka_run_group_tests_name("gsp_parts", tests, NULL, NULL);
}
