/* SPDX-License-Identifier: MIT */
/*
 * test_fwd.c - the pure parts of hostd_fwd.h: the map/unmap planner, the
 * split of guest runs at the host VA space's reservations, the driver
 * version gate and the pushbuffers of a forwarded launch and copy (the
 * copy's run through hostd's copy-class interpreter on host memory).
 *
 * Expected pushbuffer dwords are derived by hand from the class headers
 * (method header SEC_OP 31:29 | COUNT 28:16 | SUBCH 15:13 | ADDR>>2 11:0):
 *   INC, subch 1, CBC0 SET_SHADER_SHARED_MEMORY_WINDOW_A 0x2A0, count 2:
 *     (1<<29) | (2<<16) | (1<<13) | (0x2A0>>2 = 0xA8)          = 0x200220A8
 *   INC, subch 1, SET_SHADER_LOCAL_MEMORY_WINDOW_A 0x7B0, count 2: 0x200221EC
 *   INC, subch 1, SEND_PCAS_A 0x2B4, count 1                    = 0x200120AD
 *     data QMD_ADDRESS_SHIFTED8 = qmd_va >> 8
 *   INC, subch 1, SEND_SIGNALING_PCAS2_B 0x2C0, count 1         = 0x200120B0
 *     data PCAS_ACTION 3:0 = INVALIDATE_COPY_SCHEDULE           = 3
 *   INC, subch 0, C86F SEM_ADDR_LO 0x5C, count 5                = 0x20050017
 *     SEM_ADDR_LO (31:2), SEM_ADDR_HI (24:0), PAYLOAD_LO, PAYLOAD_HI,
 *     SEM_EXECUTE = RELEASE (1) | RELEASE_WFI (1<<20), 32-bit  = 0x00100001
 *   GPFIFO control entry SET_PB_SEGMENT_EXTENDED_BASE: GP_ENTRY0 operand
 *     24:8 = va >> 40, GP_ENTRY1 OPCODE 7:0 = 4, LENGTH 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hostd_fwd.h"
#include "pb.h"
#include "ce_interp.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* ---- planner ------------------------------------------------------------ */

struct call {
	char op;              /* 'u' or 'm' */
	struct hd_run r;
	const struct hd_run *ptr;
};

struct rec {
	struct call calls[32];
	int n;
	uint64_t fail_va[4];  /* calls on these VAs fail */
	int nfail;
};

static int record(struct rec *c, char op, const struct hd_run *r)
{
	assert_true(c->n < 32);
	c->calls[c->n].op = op;
	c->calls[c->n].r = *r;
	c->calls[c->n].ptr = r;
	c->n++;
	for (int i = 0; i < c->nfail; i++)
		if (c->fail_va[i] == r->va)
			return -1;
	return 0;
}

static int fake_unmap(void *ctx, const struct hd_run *r) { return record(ctx, 'u', r); }
static int fake_map(void *ctx, const struct hd_run *r) { return record(ctx, 'm', r); }
static const struct hd_plan_ops fake_ops = { fake_unmap, fake_map };

#define RUN(va_, len_, h_, off_, ro_) { (va_), (len_), (h_), (off_), (ro_), false }

static const struct hd_run base[3] = {
	RUN(0x200000000ull, 64 * KiB, 7, 0, false),
	RUN(0x200100000ull, 4 * KiB, 7, 0x10000, true),
	RUN(0x300000000ull, 2 * MiB, 9, 0x200000, false),
};

static void test_plan_identical_no_calls(void **s)
{
	(void)s;
	struct rec c = { .n = 0 };
	struct hd_run copy[3];
	memcpy(copy, base, sizeof(copy));
	assert_int_equal(hd_plan_apply(base, 3, copy, 3, &fake_ops, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(hd_plan_apply(NULL, 0, NULL, 0, &fake_ops, &c), 0);
	assert_int_equal(c.n, 0);
}

/* a change in any one field: that run comes down and goes up again, the
 * others are left alone */
static void test_plan_changed_field_remaps(void **s)
{
	(void)s;
	for (int f = 0; f < 4; f++) {
		struct rec c = { .n = 0 };
		struct hd_run nw[3];
		memcpy(nw, base, sizeof(nw));
		switch (f) {
		case 0: nw[1].off += 4 * KiB; break;
		case 1: nw[1].ro = false; break;
		case 2: nw[1].len = 8 * KiB; break;
		case 3: nw[1].hmem = 8; break;
		}
		assert_int_equal(hd_plan_apply(base, 3, nw, 3, &fake_ops, &c), 0);
		assert_int_equal(c.n, 2);
		assert_int_equal(c.calls[0].op, 'u');
		assert_ptr_equal(c.calls[0].ptr, &base[1]);
		assert_int_equal(c.calls[1].op, 'm');
		assert_ptr_equal(c.calls[1].ptr, &nw[1]);
	}
}

static void test_plan_unmaps_before_maps(void **s)
{
	(void)s;
	/* old: A B C; new: A' (changed) D (new, between) C; B gone */
	struct hd_run nw[3] = {
		RUN(0x200000000ull, 64 * KiB, 7, 0x20000, false),
		RUN(0x280000000ull, 4 * KiB, 7, 0, false),
		base[2],
	};
	struct rec c = { .n = 0 };
	assert_int_equal(hd_plan_apply(base, 3, nw, 3, &fake_ops, &c), 0);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.calls[0].op, 'u');
	assert_int_equal(c.calls[0].r.va, 0x200000000ull);
	assert_int_equal(c.calls[0].r.off, 0);
	assert_int_equal(c.calls[1].op, 'u');
	assert_int_equal(c.calls[1].r.va, 0x200100000ull);
	assert_int_equal(c.calls[2].op, 'm');
	assert_int_equal(c.calls[2].r.va, 0x200000000ull);
	assert_int_equal(c.calls[2].r.off, 0x20000);
	assert_int_equal(c.calls[3].op, 'm');
	assert_int_equal(c.calls[3].r.va, 0x280000000ull);
}

static void test_plan_all_new_all_gone(void **s)
{
	(void)s;
	struct rec c = { .n = 0 };
	assert_int_equal(hd_plan_apply(NULL, 0, base, 3, &fake_ops, &c), 0);
	assert_int_equal(c.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c.calls[i].op, 'm');
		assert_ptr_equal(c.calls[i].ptr, &base[i]);
	}
	struct rec g = { .n = 0 };
	assert_int_equal(hd_plan_apply(base, 3, NULL, 0, &fake_ops, &g), 0);
	assert_int_equal(g.n, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(g.calls[i].op, 'u');
}

static void test_plan_failures_counted(void **s)
{
	(void)s;
	struct hd_run nw[3];
	memcpy(nw, base, sizeof(nw));
	for (int i = 0; i < 3; i++)
		nw[i].off += 4 * KiB;            /* every run changes: 3 unmaps, 3 maps */
	struct rec c = { .n = 0, .fail_va = { 0x200100000ull, 0x300000000ull }, .nfail = 2 };
	/* both VAs fail once as an unmap and once as a map */
	assert_int_equal(hd_plan_apply(base, 3, nw, 3, &fake_ops, &c), 4);
	assert_int_equal(c.n, 6);
	/* a failed unmap does not stop the maps, nor reorder them */
	assert_int_equal(c.calls[3].op, 'm');
	assert_int_equal(c.calls[5].op, 'm');
	struct rec one = { .n = 0, .fail_va = { 0x200000000ull }, .nfail = 1 };
	assert_int_equal(hd_plan_apply(NULL, 0, nw, 3, &fake_ops, &one), 1);
}

/* ---- run splitting ------------------------------------------------------ */

static void test_region(void **s)
{
	(void)s;
	assert_int_equal(hd_va_region(HD_VA_MIN, 4 * KiB), 0);
	assert_int_equal(hd_va_region(HD_VA_MIN - 4 * KiB, 4 * KiB), -1);
	assert_int_equal(hd_va_region(HD_VA_RSVD_LO - 4 * KiB, 4 * KiB), 0);
	assert_int_equal(hd_va_region(HD_VA_RSVD_LO - 4 * KiB, 8 * KiB), -1);
	assert_int_equal(hd_va_region(HD_VA_RSVD_LO, 4 * KiB), -1);
	assert_int_equal(hd_va_region(HD_VA_RSVD_HI - 4 * KiB, 4 * KiB), -1);
	assert_int_equal(hd_va_region(HD_VA_RSVD_HI, 4 * KiB), 1);
	assert_int_equal(hd_va_region(HD_VA_MAX - 4 * KiB, 4 * KiB), 1);
	assert_int_equal(hd_va_region(HD_VA_MAX - 4 * KiB, 8 * KiB), -1);
	assert_int_equal(hd_va_region(HD_VA_OWN_BASE, 4 * KiB), -1);
	assert_int_equal(hd_va_region(0x200000000ull, 0), -1);
	/* the constants themselves: [4 GiB, 4.5 GiB) is the host RM's */
	assert_int_equal(HD_VA_RSVD_LO, 4 * GiB);
	assert_int_equal(HD_VA_RSVD_HI, 4 * GiB + 512 * MiB);
}

static void test_clip_across_rsvd_hole(void **s)
{
	(void)s;
	/* [4 GiB - 8 KiB, 4.5 GiB + 12 KiB) backed by hmem 3 from 0x100000 */
	struct hd_run in[1] = { RUN(HD_VA_RSVD_LO - 8 * KiB, 8 * KiB + 512 * MiB + 12 * KiB, 3,
				    0x100000, true) };
	struct hd_run out[2];
	uint64_t skipped = 5;
	assert_int_equal(hd_vas_clip_runs(in, 1, out, 2, &skipped), 2);
	assert_int_equal(skipped, 6);
	assert_int_equal(out[0].va, HD_VA_RSVD_LO - 8 * KiB);
	assert_int_equal(out[0].len, 8 * KiB);
	assert_int_equal(out[0].off, 0x100000);
	assert_int_equal(out[0].hmem, 3);
	assert_true(out[0].ro);
	assert_int_equal(out[1].va, HD_VA_RSVD_HI);
	assert_int_equal(out[1].len, 12 * KiB);
	assert_int_equal(out[1].off, 0x100000 + 8 * KiB + 512 * MiB);
	assert_int_equal(hd_va_region(out[0].va, out[0].len), 0);
	assert_int_equal(hd_va_region(out[1].va, out[1].len), 1);
}

static void test_clip_inside_hole_and_edges(void **s)
{
	(void)s;
	struct hd_run in[5] = {
		RUN(0, 2 * MiB, 1, 0, false),                              /* straddles HD_VA_MIN */
		RUN(HD_VA_RSVD_LO + 64 * KiB, 64 * KiB, 1, 0, false),      /* inside the hole */
		RUN(HD_VA_RSVD_HI - 4 * KiB, 8 * KiB, 1, 0x3000, false),   /* ends just past it */
		RUN(HD_VA_MAX - 4 * KiB, 12 * KiB, 1, 0x9000, false),      /* straddles HD_VA_MAX */
		RUN(HD_VA_OWN_BASE, 4 * KiB, 1, 0, false),                 /* hostd's window */
	};
	struct hd_run out[10];
	uint64_t skipped = 0;
	assert_int_equal(hd_vas_clip_runs(in, 5, out, 10, &skipped), 3);
	assert_int_equal(skipped, 5);
	assert_int_equal(out[0].va, HD_VA_MIN);
	assert_int_equal(out[0].len, 1 * MiB);
	assert_int_equal(out[0].off, 1 * MiB);
	assert_int_equal(out[1].va, HD_VA_RSVD_HI);
	assert_int_equal(out[1].len, 4 * KiB);
	assert_int_equal(out[1].off, 0x4000);
	assert_int_equal(out[2].va, HD_VA_MAX - 4 * KiB);
	assert_int_equal(out[2].len, 4 * KiB);
	assert_int_equal(out[2].off, 0x9000);
	/* one run over everything: both windows, three gaps */
	struct hd_run all[1] = { RUN(0, HD_VA_MAX + 4 * KiB, 2, 0, false) };
	skipped = 0;
	assert_int_equal(hd_vas_clip_runs(all, 1, out, 10, &skipped), 2);
	assert_int_equal(skipped, 3);
	assert_int_equal(out[0].len, HD_VA_RSVD_LO - HD_VA_MIN);
	assert_int_equal(out[1].off, HD_VA_RSVD_HI);
	/* runs that end exactly where a gap starts skip nothing */
	struct hd_run flush[2] = { RUN(HD_VA_RSVD_LO - 4 * KiB, 4 * KiB, 1, 0, false),
				   RUN(HD_VA_MAX - 4 * KiB, 4 * KiB, 1, 0, false) };
	skipped = 0;
	assert_int_equal(hd_vas_clip_runs(flush, 2, out, 10, &skipped), 2);
	assert_int_equal(skipped, 0);
	/* mirrorable runs pass unchanged, nothing skipped */
	skipped = 0;
	assert_int_equal(hd_vas_clip_runs(base, 3, out, 10, &skipped), 3);
	assert_int_equal(skipped, 0);
	assert_memory_equal(out, base, sizeof(base));
}

static void test_clip_refuses_bad_input(void **s)
{
	(void)s;
	struct hd_run out[8];
	uint64_t skipped = 0;
	struct hd_run unsorted[2] = { base[1], base[0] };
	assert_int_equal(hd_vas_clip_runs(unsorted, 2, out, 8, &skipped), -1);
	struct hd_run overlap[2] = { RUN(0x200000000ull, 8 * KiB, 1, 0, false),
				     RUN(0x200001000ull, 4 * KiB, 1, 0, false) };
	assert_int_equal(hd_vas_clip_runs(overlap, 2, out, 8, &skipped), -1);
	struct hd_run unaligned[3] = { RUN(0x200000800ull, 4 * KiB, 1, 0, false),
				       RUN(0x200000000ull, 100, 1, 0, false),
				       RUN(0x200000000ull, 4 * KiB, 1, 0x10, false) };
	for (int i = 0; i < 3; i++)
		assert_int_equal(hd_vas_clip_runs(&unaligned[i], 1, out, 8, &skipped), -1);
	struct hd_run empty[1] = { RUN(0x200000000ull, 0, 1, 0, false) };
	assert_int_equal(hd_vas_clip_runs(empty, 1, out, 8, &skipped), -1);
	struct hd_run wrap[1] = { RUN(0xfffffffffffff000ull, 8 * KiB, 1, 0, false) };
	assert_int_equal(hd_vas_clip_runs(wrap, 1, out, 8, &skipped), -1);
	assert_int_equal(hd_vas_clip_runs(base, 3, out, 2, &skipped), -1); /* no room */
	assert_int_equal(skipped, 0);
	/* adjacent (touching) runs are fine */
	struct hd_run touch[2] = { RUN(0x200000000ull, 4 * KiB, 1, 0, false),
				   RUN(0x200001000ull, 4 * KiB, 1, 0x1000, false) };
	assert_int_equal(hd_vas_clip_runs(touch, 2, out, 8, &skipped), 2);
}

/* ---- driver version gate -------------------------------------------------- */

static void test_version_gate(void **s)
{
	(void)s;
	assert_true(hd_driver_version_ok("580.159.04"));
	assert_true(hd_driver_version_ok("580.142"));
	assert_true(hd_driver_version_ok("580.65.06"));
	assert_false(hd_driver_version_ok("535.288.01"));
	assert_false(hd_driver_version_ok("590.44.01"));
	assert_false(hd_driver_version_ok("5800.1"));
	assert_false(hd_driver_version_ok("58.0"));
	assert_false(hd_driver_version_ok("580."));
	assert_false(hd_driver_version_ok("580.x"));
	assert_false(hd_driver_version_ok(" 580.1"));
	assert_false(hd_driver_version_ok(""));
	assert_false(hd_driver_version_ok(NULL));
}

/* ---- launch pushbuffer -------------------------------------------------- */

#define FENCE_VA (HD_VA_OWN_BASE + 0x310000ull)   /* hi32 0x01800000, lo32 0x00310000 */
#define QMD_VA 0xC0001200ull

static void test_encode_launch_golden(void **s)
{
	(void)s;
	/* the compute state hostd sends before its launches: shared and local
	 * windows (consecutive pairs), then one lone method */
	const struct hd_mthd m[5] = {
		{ 0x2A0, 0x00007294 }, { 0x2A4, 0x00000000 },
		{ 0x7B0, 0x00007293 }, { 0x7B4, 0x00000000 },
		{ 0x1698, 0x00001011 },
	};
	uint32_t buf[64];
	memset(buf, 0xee, sizeof(buf));
	static const uint32_t golden[] = {
		0x200220A8, 0x00007294, 0x00000000,
		0x200221EC, 0x00007293, 0x00000000,
		0x200125A6, 0x00001011,                 /* 0x1698 >> 2 = 0x5A6 */
		0x200120AD, 0x00C00012,                 /* QMD_VA >> 8 */
		0x200120B0, 0x00000003,
		0x20050017, 0x00310000, 0x01800000, 0x0000002A, 0x00000000, 0x00100001,
	};
	long n = hd_fwd_encode_launch(buf, 64, m, 5, QMD_VA, FENCE_VA, 42);
	assert_int_equal(n, (long)(sizeof(golden) / 4));
	assert_memory_equal(buf, golden, sizeof(golden));
	assert_int_equal(buf[n], 0xeeeeeeeeu); /* nothing past the end */
}

struct dec { struct pb_method m[32]; int n; };
static int collect(void *ctx, const struct pb_method *m)
{
	struct dec *d = ctx;
	if (d->n < 32)
		d->m[d->n++] = *m;
	return 0;
}

static void test_encode_launch_roundtrip(void **s)
{
	(void)s;
	const struct hd_mthd m[4] = { { 0x300, 1 }, { 0x308, 2 }, { 0x30C, 3 }, { 0x304, 4 } };
	uint32_t buf[64];
	long n = hd_fwd_encode_launch(buf, 64, m, 4, QMD_VA, FENCE_VA, 7);
	/* 0x300 | 0x308 0x30C | 0x304: three headers + 4 data, + 4 + 6 */
	assert_int_equal(n, 3 + 4 + 4 + 6);
	struct dec d = { .n = 0 };
	assert_int_equal(pb_decode(buf, (size_t)n, collect, &d), 0);
	assert_int_equal(d.n, 4 + 2 + 5);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(d.m[i].subch, 1);
		assert_int_equal(d.m[i].mthd, m[i].mthd);
		assert_int_equal(d.m[i].data, m[i].data);
	}
	assert_int_equal(d.m[4].mthd, 0x2B4);
	assert_int_equal(d.m[5].mthd, 0x2C0);
	assert_int_equal(d.m[10].subch, 0);
	assert_int_equal(d.m[10].mthd, 0x6C);
	assert_int_equal(d.m[8].data, 7);
	/* no guest methods: launch + fence only */
	assert_int_equal(hd_fwd_encode_launch(buf, 64, NULL, 0, QMD_VA, FENCE_VA, 7), 10);
	assert_int_equal(buf[0], 0x200120ADu);
}

static void test_encode_launch_refusals(void **s)
{
	(void)s;
	uint32_t buf[64];
	const struct hd_mthd host[3] = { { 0x0, 0xCBC0 }, { 0x5C, 0 }, { 0x34, 9 } };
	for (int i = 0; i < 3; i++)   /* SET_OBJECT, SEM_ADDR_LO, MEM_OP_D */
		assert_int_equal(hd_fwd_encode_launch(buf, 64, &host[i], 1, QMD_VA, FENCE_VA, 1), -1);
	const struct hd_mthd bad[2] = { { 0x2A2, 0 }, { 0x4000, 0 } };
	for (int i = 0; i < 2; i++)
		assert_int_equal(hd_fwd_encode_launch(buf, 64, &bad[i], 1, QMD_VA, FENCE_VA, 1), -1);
	/* a consecutive run may not step past the method space */
	const struct hd_mthd edge[2] = { { 0x3FFC, 0 }, { 0x4000, 0 } };
	assert_int_equal(hd_fwd_encode_launch(buf, 64, edge, 2, QMD_VA, FENCE_VA, 1), -1);
	assert_int_equal(hd_fwd_encode_launch(buf, 64, edge, 1, QMD_VA, FENCE_VA, 1), 12);
	/* QMD not 256-aligned; fence not 4-aligned; no room */
	assert_int_equal(hd_fwd_encode_launch(buf, 64, NULL, 0, QMD_VA + 0x80, FENCE_VA, 1), -1);
	assert_int_equal(hd_fwd_encode_launch(buf, 64, NULL, 0, QMD_VA, FENCE_VA + 2, 1), -1);
	assert_int_equal(hd_fwd_encode_launch(buf, 9, NULL, 0, QMD_VA, FENCE_VA, 1), -1);
	assert_int_equal(hd_fwd_encode_launch(buf, 10, NULL, 0, QMD_VA, FENCE_VA, 1), 10);
}

/* The pieces tile the run exactly, each one page size, aligned both ways. */
static void check_tiling(const struct hd_run *r, const struct hd_run_piece *p, size_t n)
{
	uint64_t va = r->va, off = r->off;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(p[i].va, va);
		assert_int_equal(p[i].off, off);
		assert_int_equal(p[i].va % p[i].page, 0);
		assert_int_equal(p[i].off % p[i].page, 0);
		assert_int_equal(p[i].len % p[i].page, 0);
		assert_true(p[i].len > 0);
		va += p[i].len;
		off += p[i].len;
	}
	assert_int_equal(va, r->va + r->len);
}

static void test_run_pieces(void **s)
{
	(void)s;
	struct hd_run_piece p[HD_RUN_PIECES_MAX];
	/* lined up: 2 MiB pages throughout */
	struct hd_run a = RUN(0x40000000ull, 8 * MiB, 1, 2 * MiB, false);
	assert_int_equal(hd_run_pieces(&a, p, HD_RUN_PIECES_MAX), 1);
	assert_int_equal(p[0].page, 2 * MiB);
	check_tiling(&a, p, 1);
	/* ragged both ends: 4K up to 64K, 64K up to 2M, 2M, 64K, 4K */
	struct hd_run b = RUN(0x40011000ull, 6 * MiB, 1, 0x11000, false);
	assert_int_equal(hd_run_pieces(&b, p, HD_RUN_PIECES_MAX), 5);
	check_tiling(&b, p, 5);
	assert_int_equal(p[0].page, 4 * KiB);
	assert_int_equal(p[0].len, 0xf000);
	assert_int_equal(p[1].page, 64 * KiB);
	assert_int_equal(p[1].len, 0x1e0000);
	assert_int_equal(p[2].page, 2 * MiB);
	assert_int_equal(p[2].len, 4 * MiB);
	assert_int_equal(p[3].page, 64 * KiB);
	assert_int_equal(p[3].len, 0x10000);
	assert_int_equal(p[4].page, 4 * KiB);
	assert_int_equal(p[4].len, 0x1000);
	/* va - off a multiple of 64K, not 2M: 64K pages, never 2M */
	struct hd_run c = RUN(0x40000000ull, 4 * MiB, 1, 0x10000, false);
	assert_int_equal(hd_run_pieces(&c, p, HD_RUN_PIECES_MAX), 1);
	assert_int_equal(p[0].page, 64 * KiB);
	check_tiling(&c, p, 1);
	/* nothing lines up: one 4K piece */
	struct hd_run d = RUN(0x40001000ull, 4 * MiB, 1, 0, false);
	assert_int_equal(hd_run_pieces(&d, p, HD_RUN_PIECES_MAX), 1);
	assert_int_equal(p[0].page, 4 * KiB);
	/* shorter than a large page although aligned: 4K / 64K */
	struct hd_run e = RUN(0x40000000ull, 64 * KiB + 4 * KiB, 1, 0, false);
	assert_int_equal(hd_run_pieces(&e, p, HD_RUN_PIECES_MAX), 2);
	assert_int_equal(p[0].page, 64 * KiB);
	assert_int_equal(p[1].page, 4 * KiB);
	check_tiling(&e, p, 2);
	/* too little room, or not 4K-aligned: 0, never a partial answer */
	assert_int_equal(hd_run_pieces(&b, p, 4), 0);
	struct hd_run f = RUN(0x40000800ull, 4 * KiB, 1, 0x800, false);
	assert_int_equal(hd_run_pieces(&f, p, HD_RUN_PIECES_MAX), 0);
}

static void test_gpfifo_extended_base(void **s)
{
	(void)s;
	/* pushbuffer at HD_VA_OWN_BASE + 0x100: bits 56:40 = 0x18000 */
	assert_int_equal(hd_gpfifo_ext_base(HD_VA_OWN_BASE + 0x100), 0x0000000401800000ull);
	assert_int_equal(hd_gpfifo_ext_base(0x12345678ull), 0x0000000400000000ull);
	assert_int_equal(hd_gpfifo_ext_base(1ull << 56), 0x0000000401000000ull);
	/* and the ordinary entry after it carries the low 40 bits only */
	assert_int_equal(pb_gpfifo_entry(HD_VA_OWN_BASE + 0x100, 10), 0x0000280000000100ull);
	assert_int_equal(pb_gpfifo_entry(HD_VA_OWN_BASE + 0x12345600ull, 10),
			 0x0000280012345600ull);
}

/* ---- the copy: run through the copy-class interpreter ------------------ */

#define CP_VA 0x200000ull	/* one region: source, destination, fence */
#define CP_SIZE 0x10000ull

static int run_copy(uint8_t *mem, const struct hd_copy *c, uint32_t payload)
{
	struct vgsp_regions t = { .n = 0 };
	struct vgsp_be_mem m = { CP_VA, CP_SIZE, mem, 0 };
	struct ce_interp ci;
	uint32_t seg[48];
	struct pb p;
	long n;

	assert_int_equal(vgsp_regions_add(&t, &m), 0);
	pb_init(&p, seg, 48);
	pb_set_object(&p, PB_SUBCH_COPY, 0xC8B5u);
	n = hd_fwd_encode_copy(seg + p.len, 48 - p.len, c, CP_VA + CP_SIZE - 4, payload);
	if (n < 0)
		return -1;
	ce_interp_init(&ci, &t, 1);
	assert_int_equal(ce_interp_run(&ci, seg, p.len + (size_t)n), 0);
	assert_int_equal(ci.copies, 1);
	return 0;
}

static void test_encode_copy_runs(void **s)
{
	(void)s;
	static uint8_t mem[CP_SIZE];
	uint32_t fence;
	/* one line: 0x3000 bytes from +0x1000 to +0x8000 */
	const struct hd_copy one = { .src = CP_VA + 0x1000, .dst = CP_VA + 0x8000,
				     .line_bytes = 0x3000, .lines = 1 };
	/* three lines of 0x100, source pitch 0x400, destination pitch 0x200 */
	const struct hd_copy three = { .src = CP_VA + 0x4000, .dst = CP_VA + 0xc000,
				       .line_bytes = 0x100, .pitch_in = 0x400,
				       .pitch_out = 0x200, .lines = 3 };

	for (unsigned i = 0; i < CP_SIZE; i++)
		mem[i] = (uint8_t)(i * 7 + (i >> 8));
	memset(mem + 0x8000, 0, 0x8000);
	assert_int_equal(run_copy(mem, &one, 5), 0);
	assert_memory_equal(mem + 0x8000, mem + 0x1000, 0x3000);
	memcpy(&fence, mem + CP_SIZE - 4, 4);
	assert_int_equal(fence, 5);
	assert_int_equal(mem[0xb000], 0);	/* not a byte past the line */

	assert_int_equal(run_copy(mem, &three, 6), 0);
	for (unsigned l = 0; l < 3; l++)
		assert_memory_equal(mem + 0xc000 + 0x200 * l, mem + 0x4000 + 0x400 * l, 0x100);
	assert_int_equal(mem[0xc100], 0);	/* the gap between two lines */
	memcpy(&fence, mem + CP_SIZE - 4, 4);
	assert_int_equal(fence, 6);
}

static void test_encode_copy_refusals(void **s)
{
	(void)s;
	uint32_t buf[32];
	const struct hd_copy ok = { .src = 0x1000, .dst = 0x2000, .line_bytes = 0x1000,
				    .lines = 1 };
	struct hd_copy c = ok;

	assert_int_equal(hd_fwd_encode_copy(buf, 32, &ok, FENCE_VA, 1), 14);
	c.line_bytes = 0;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 1), -1);
	c = ok;
	c.line_bytes = 1ull << 32;	/* LINE_LENGTH_IN is 32 bits */
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 1), -1);
	c = ok;
	c.lines = 0;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 1), -1);
	c = ok;
	c.lines = 2;
	c.pitch_in = 1ull << 32;	/* so are the pitches */
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 1), -1);
	c.pitch_in = 0x1000;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 1), 16);
	c = ok;
	c.dst = 1ull << 57;		/* past the 57-bit VA */
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 1), -1);
	assert_int_equal(hd_fwd_encode_copy(buf, 13, &ok, FENCE_VA, 1), -1);
}

/*
 * A fill: OFFSET_OUT (INC subch 4 0x408 count 2 = 0x20028102), remap
 * CONST_A/CONST_B/COMPONENTS (0x700 count 3 = 0x200381C0; components
 * DST_X = CONST_A 4 | (size - 1) << 16), LINE_LENGTH_IN in elements +
 * LINE_COUNT 1 (0x418 count 2 = 0x20028106), the semaphore (0x240 count
 * 3 = 0x20038090), LAUNCH_DMA (0x300 = 0x200180C0) with REMAP_ENABLE
 * (1 << 10) on top of a copy's 0x18E.
 */
static void test_encode_fill(void **s)
{
	(void)s;
	uint32_t buf[32];
	const struct hd_copy f = { .dst = 0x1234567000ull, .line_bytes = 0x1000, .lines = 1,
				   .fill = true, .elem_size = 4, .value = 0xdeadbeef };
	const uint32_t want[15] = {
		0x20028102, 0x12, 0x34567000,
		0x200381C0, 0xdeadbeef, 0, 0x00030004,
		0x20028106, 0x400, 1,
		0x20038090, (uint32_t)(FENCE_VA >> 32), (uint32_t)FENCE_VA, 9,
		0x200180C0,
	};
	struct hd_copy c = f;

	assert_int_equal(hd_fwd_encode_copy(buf, 32, &f, FENCE_VA, 9), 16);
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(buf[15], 0x58Eu);
	/* several lines: pitches, length in elements, count */
	c.lines = 3;
	c.pitch_out = 0x2000;
	c.elem_size = 2;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 9), 18);
	assert_int_equal(buf[7], 0x20048104u);
	assert_int_equal(buf[10], 0x800u);
	assert_int_equal(buf[11], 3u);
	assert_int_equal(buf[6], 0x00010004u);
	assert_int_equal(buf[17], 0x78Eu);
	/* sizes the remap cannot make, and misaligned fills */
	c = f;
	c.elem_size = 8;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 9), -1);
	c = f;
	c.line_bytes = 0x1002;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 9), -1);
	c = f;
	c.dst += 2;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 9), -1);
	c = f;
	c.elem_size = 1;	/* any byte address, any length */
	c.dst += 1;
	c.line_bytes = 3;
	assert_int_equal(hd_fwd_encode_copy(buf, 32, &c, FENCE_VA, 9), 16);
	assert_int_equal(buf[8], 3u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_identical_no_calls),
		cmocka_unit_test(test_plan_changed_field_remaps),
		cmocka_unit_test(test_plan_unmaps_before_maps),
		cmocka_unit_test(test_plan_all_new_all_gone),
		cmocka_unit_test(test_plan_failures_counted),
		cmocka_unit_test(test_region),
		cmocka_unit_test(test_clip_across_rsvd_hole),
		cmocka_unit_test(test_clip_inside_hole_and_edges),
		cmocka_unit_test(test_clip_refuses_bad_input),
		cmocka_unit_test(test_version_gate),
		cmocka_unit_test(test_encode_launch_golden),
		cmocka_unit_test(test_encode_launch_roundtrip),
		cmocka_unit_test(test_encode_launch_refusals),
		cmocka_unit_test(test_gpfifo_extended_base),
		cmocka_unit_test(test_run_pieces),
		cmocka_unit_test(test_encode_copy_runs),
		cmocka_unit_test(test_encode_copy_refusals),
		cmocka_unit_test(test_encode_fill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
