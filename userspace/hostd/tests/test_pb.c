/* SPDX-License-Identifier: MIT */
/*
 * test_pb.c - golden-byte tests for the pushbuffer/GPFIFO encoder.
 *
 * Every expected dword below was derived by hand from the class headers
 * (clc86f.h, clc8b5.h, clcbc0.h) and the method-header layout
 * SEC_OP 31:29 | COUNT 28:16 | SUBCH 15:13 | ADDR(dwords) 11:0:
 *   INC header, subch 4, method 0x400, count 4:
 *     (1<<29) | (4<<16) | (4<<13) | (0x400>>2) = 0x20048100
 *   LAUNCH_DMA = NON_PIPELINED(2) | FLUSH(1<<2) | SEM ONE_WORD(1<<3)
 *              | SRC PITCH(1<<7) | DST PITCH(1<<8) = 0x18E
 *   host SEM_EXECUTE = RELEASE(1) | RELEASE_WFI(1<<20) = 0x00100001
 *   GPFIFO entry: dw0 = VA 31:2, dw1 = VA 39:32 | LENGTH<<10
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "pb.h"

static void test_header(void **s)
{
	(void)s;
	assert_int_equal(pb_hdr(PB_SECOP_INC, 4, 0x400, 4), 0x20048100u);
	assert_int_equal(pb_hdr(PB_SECOP_INC, 0, 0x5C, 5), 0x20050017u);
	assert_int_equal(pb_hdr(PB_SECOP_IMMD, 4, 0x300, 5), 0x800580C0u);
	assert_int_equal(pb_hdr(PB_SECOP_NINC, 1, 0x2B4, 1), 0x600120ADu);
}

static void test_ce_copy_golden(void **s)
{
	(void)s;
	uint32_t buf[64];
	struct pb p;
	pb_init(&p, buf, 64);
	assert_int_equal(pb_ce_copy(&p, 0x123456000ull, 0x200000000ull, 0x01000000u,
				    0x300000010ull, 7), 0);
	static const uint32_t golden[] = {
		0x20048100, 0x00000001, 0x23456000, 0x00000002, 0x00000000,
		0x20028106, 0x01000000, 0x00000001,
		0x20038090, 0x00000003, 0x00000010, 0x00000007,
		0x200180C0, 0x0000018E,
	};
	assert_int_equal(p.len, sizeof(golden) / 4);
	assert_memory_equal(buf, golden, sizeof(golden));
	assert_int_equal(p.overflow, 0);
}

static void test_ce_copy_no_sem(void **s)
{
	(void)s;
	uint32_t buf[64];
	struct pb p;
	pb_init(&p, buf, 64);
	assert_int_equal(pb_ce_copy(&p, 0x1000, 0x2000, 4096, 0, 0), 0);
	assert_int_equal(p.len, 10);
	/* no semaphore: SEMAPHORE_TYPE stays NONE */
	assert_int_equal(buf[8], 0x200180C0u);
	assert_int_equal(buf[9], 0x00000186u);
	assert_int_equal(pb_ce_copy(&p, 0x1000, 0x2000, 0, 0, 0), -1);
}

static void test_host_sem_golden(void **s)
{
	(void)s;
	uint32_t buf[16];
	struct pb p;
	pb_init(&p, buf, 16);
	assert_int_equal(pb_host_sem_release(&p, 0x100000040ull, 0x55), 0);
	static const uint32_t golden[] = { 0x20050017, 0x00000040, 0x00000001,
					   0x00000055, 0x00000000, 0x00100001 };
	assert_int_equal(p.len, 6);
	assert_memory_equal(buf, golden, sizeof(golden));
	/* acquire >= : OPERATION 2, no WFI */
	assert_int_equal(pb_host_sem_acquire_geq(&p, 0x100000040ull, 9), 0);
	assert_int_equal(buf[11], 0x00000002u);
	/* unaligned semaphore refused */
	assert_int_equal(pb_host_sem_release(&p, 0x100000042ull, 1), -1);
	assert_int_equal(p.overflow, 1);
}

static void test_compute_launch_golden(void **s)
{
	(void)s;
	uint32_t buf[16];
	struct pb p;
	pb_init(&p, buf, 16);
	assert_int_equal(pb_compute_launch(&p, 0x200001200ull), 0);
	/* SEND_PCAS_A (0x2B4) = QMD VA >> 8; SEND_SIGNALING_PCAS2_B (0x2C0) =
	 * INVALIDATE_COPY_SCHEDULE (3) */
	static const uint32_t golden[] = { 0x200120AD, 0x02000012, 0x200120B0, 0x00000003 };
	assert_int_equal(p.len, 4);
	assert_memory_equal(buf, golden, sizeof(golden));
	assert_int_equal(pb_compute_launch(&p, 0x200001280ull), -1); /* not 256-aligned */
}

static void test_launch_variants_and_local_memory(void **s)
{
	(void)s;
	uint32_t buf[16];
	struct pb p;
	pb_init(&p, buf, 16);
	/* PREFETCH_SCHEDULE (9) through PCAS2_B */
	assert_int_equal(pb_compute_launch_v(&p, 0x200001200ull, 1), 0);
	assert_int_equal(buf[2], 0x200120B0u);
	assert_int_equal(buf[3], 9u);
	/* legacy SEND_SIGNALING_PCAS_B (0x2BC -> 0xAF) = INVALIDATE|SCHEDULE */
	pb_init(&p, buf, 16);
	assert_int_equal(pb_compute_launch_v(&p, 0x200001200ull, 2), 0);
	assert_int_equal(buf[2], 0x200120AFu);
	assert_int_equal(buf[3], 3u);
	assert_int_equal(pb_compute_launch_v(&p, 0x200001200ull, 3), -1);
	/* SET_SHADER_LOCAL_MEMORY_A (0x790 -> 0x1E4) hi, lo;
	 * NON_THROTTLED_A (0x2E4 -> 0xB9) size hi, lo, max SM count 0xff */
	pb_init(&p, buf, 16);
	assert_int_equal(pb_compute_local_memory(&p, 0x300000000ull, 0x240000), 0);
	static const uint32_t golden[] = { 0x200221E4, 0x00000003, 0x00000000,
					   0x200320B9, 0x00000000, 0x00240000, 0x000000FF };
	assert_int_equal(p.len, 7);
	assert_memory_equal(buf, golden, sizeof(golden));
}

static void test_set_object_and_windows(void **s)
{
	(void)s;
	uint32_t buf[16];
	struct pb p;
	pb_init(&p, buf, 16);
	assert_int_equal(pb_set_object(&p, PB_SUBCH_COPY, 0xC8B5), 0);
	assert_int_equal(buf[0], 0x20018000u);
	assert_int_equal(buf[1], 0x0000C8B5u);
	assert_int_equal(pb_compute_windows(&p, 0x729400000000ull, 0x729300000000ull), 0);
	/* SHARED_MEMORY_WINDOW_A 0x2A0 -> 0xA8; LOCAL_MEMORY_WINDOW_A 0x7B0 -> 0x1EC */
	assert_int_equal(buf[2], 0x200220A8u);
	assert_int_equal(buf[3], 0x00007294u);
	assert_int_equal(buf[4], 0x00000000u);
	assert_int_equal(buf[5], 0x200221ECu);
	assert_int_equal(buf[6], 0x00007293u);
}

static void test_gpfifo_entry(void **s)
{
	(void)s;
	assert_true(pb_gpfifo_entry(0x1234567890ull, 10) == 0x0000281234567890ull);
	assert_true(pb_gpfifo_entry(0x1000, 0x1fffff) == 0x7ffffc0000001000ull);
}

static void test_overflow_sticky(void **s)
{
	(void)s;
	uint32_t buf[4];
	struct pb p;
	pb_init(&p, buf, 4);
	uint32_t d[4] = { 1, 2, 3, 4 };
	assert_int_equal(pb_inc(&p, 0, 0x100, d, 4), -1);
	assert_int_equal(p.len, 0);
	assert_int_equal(p.overflow, 1);
	/* later writes that would fit still fail: the stream is poisoned */
	assert_int_equal(pb_mthd1(&p, 0, 0x100, 1), -1);
	assert_int_equal(p.len, 0);
	/* bad method address / subchannel */
	pb_init(&p, buf, 4);
	assert_int_equal(pb_mthd1(&p, 8, 0x100, 1), -1);
	pb_init(&p, buf, 4);
	assert_int_equal(pb_mthd1(&p, 0, 0x102, 1), -1);
	pb_init(&p, buf, 4);
	assert_int_equal(pb_imm(&p, 0, 0x100, 0x2000), -1);
}

struct rec { unsigned n; struct pb_method m[32]; };
static int record(void *ctx, const struct pb_method *m)
{
	struct rec *r = ctx;
	if (r->n < 32)
		r->m[r->n] = *m;
	r->n++;
	return 0;
}

static void test_decode_roundtrip(void **s)
{
	(void)s;
	uint32_t buf[64];
	struct pb p;
	struct rec r = { 0 };
	pb_init(&p, buf, 64);
	pb_ce_copy(&p, 0x123456000ull, 0x200000000ull, 64, 0x300000010ull, 7);
	assert_int_equal(pb_decode(buf, p.len, record, &r), 0);
	assert_int_equal(r.n, 10);
	assert_int_equal(r.m[0].mthd, 0x400);
	assert_int_equal(r.m[3].mthd, 0x40C);
	assert_int_equal(r.m[3].data, 0);
	assert_int_equal(r.m[4].mthd, 0x418);
	assert_int_equal(r.m[4].data, 64);
	assert_int_equal(r.m[9].mthd, 0x300);
	assert_int_equal(r.m[9].subch, 4);
}

static void test_decode_modes(void **s)
{
	(void)s;
	struct rec r = { 0 };
	/* NINC x2 to 0x240, ONEINC x3 from 0x400, IMMD 5 to 0x300, NOP, END */
	uint32_t seg[] = {
		pb_hdr(PB_SECOP_NINC, 4, 0x240, 2), 0xa, 0xb,
		pb_hdr(PB_SECOP_ONEINC, 4, 0x400, 3), 1, 2, 3,
		0x00000000,
		pb_hdr(PB_SECOP_IMMD, 4, 0x300, 5),
		pb_hdr(PB_SECOP_END, 0, 0, 0),
		pb_hdr(PB_SECOP_IMMD, 4, 0x300, 6), /* after END: not executed */
	};
	assert_int_equal(pb_decode(seg, sizeof(seg) / 4, record, &r), 0);
	assert_int_equal(r.n, 6);
	assert_int_equal(r.m[0].mthd, 0x240);
	assert_int_equal(r.m[1].mthd, 0x240);
	assert_int_equal(r.m[2].mthd, 0x400);
	assert_int_equal(r.m[3].mthd, 0x404);
	assert_int_equal(r.m[4].mthd, 0x404);
	assert_int_equal(r.m[5].mthd, 0x300);
	assert_int_equal(r.m[5].data, 5);
}

static void test_decode_malformed(void **s)
{
	(void)s;
	struct rec r = { 0 };
	uint32_t past_end[] = { pb_hdr(PB_SECOP_INC, 4, 0x400, 3), 1, 2 };
	assert_int_equal(pb_decode(past_end, 3, record, &r), -1);
	uint32_t grp0[] = { 0x00010000 };   /* tertiary op: refused */
	assert_int_equal(pb_decode(grp0, 1, record, &r), -1);
	uint32_t wrap[] = { pb_hdr(PB_SECOP_INC, 4, 0x3ffc, 2), 1, 2 }; /* runs past 0x3ffc */
	r.n = 0;
	assert_int_equal(pb_decode(wrap, 3, record, &r), -1);
	assert_int_equal(r.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_ce_copy_golden),
		cmocka_unit_test(test_ce_copy_no_sem),
		cmocka_unit_test(test_host_sem_golden),
		cmocka_unit_test(test_compute_launch_golden),
		cmocka_unit_test(test_launch_variants_and_local_memory),
		cmocka_unit_test(test_set_object_and_windows),
		cmocka_unit_test(test_gpfifo_entry),
		cmocka_unit_test(test_overflow_sticky),
		cmocka_unit_test(test_decode_roundtrip),
		cmocka_unit_test(test_decode_modes),
		cmocka_unit_test(test_decode_malformed),
	};
	return cmocka_run_group_tests_name("pb", tests, NULL, NULL);
}
