/* SPDX-License-Identifier: MIT */
/*
 * test_qmd.c - golden-word test for the QMDV03_00 encoder.
 *
 * Launch: program 0x2_0000_0100 (0x400 bytes), grid 4x2x1, block 128x1x1,
 * 16 registers, no shared memory, cb0 at 0x2_0001_0000 (64 KiB), release
 * semaphore 0x3_0000_0040 payload 0xabcd, SASS version 0x90.
 * Expected words, hand-derived from clcbc0qmd.h MW(hi:lo) positions
 * (word = bit / 32, shift = bit % 32):
 *  w4  GROUP_ID 133:128 = 0x3f, SM_GLOBAL_CACHING 134      -> 0x0000007f
 *  w5  INVALIDATE_* 186..191                               -> 0xfc000000
 *  w8  PROGRAM_PREFETCH_ADDR_LOWER_SHIFTED = VA>>8         -> 0x02000001
 *  w11 CWD_MEMBAR 369:368=1, API_CALL_LIMIT 378, SAMPLER_INDEX 382
 *                                                          -> 0x44010000
 *  w12 CTA_RASTER_WIDTH = 4; w13 HEIGHT = 2; w14 DEPTH = 1
 *  w17 MIN_SM_CONFIG 567:562 = 32/4+1 = 9, MAX 574:569 = 100/4+1 = 26
 *                                           (9<<18)|(26<<25) -> 0x34240000
 *  w18 QMD_MAJOR_VERSION 583:580 = 3, THREAD_DIM0 607:592 = 128
 *                                                          -> 0x00800030
 *  w19 THREAD_DIM1 = 1, THREAD_DIM2 = 1                     -> 0x00010001
 *  w20 CB_VALID0 640, REGISTER_COUNT_V 656:648 = 16, TARGET_SM_CONFIG
 *      662:657 = 9                        1|(16<<8)|(9<<17) -> 0x00121001
 *  w23 BARRIER_COUNT 767:763 = 1                            -> 0x08000000
 *  w24 RELEASE0_ADDRESS_LOWER                               -> 0x00000040
 *  w25 ADDRESS_UPPER 807:800 = 3, MEMBAR 819, ENABLE 823, STRUCTURE_SIZE
 *      831:830 = 1 (one word)                               -> 0x40880003
 *  w26 RELEASE0_PAYLOAD_LOWER                               -> 0x0000abcd
 *  w32 CONSTANT_BUFFER_ADDR_LOWER(0)                        -> 0x00010000
 *  w33 ADDR_UPPER(0) 1072:1056 = 2, INVALIDATE(0) 1074, SIZE_SHIFTED4(0)
 *      1087:1075 = 0x10000>>4 = 0x1000                      -> 0x80040002
 *  w48 PROGRAM_ADDRESS_LOWER                                -> 0x00000100
 *  w49 PROGRAM_ADDRESS_UPPER                                -> 0x00000002
 *  w51 PREFETCH_SIZE 1649:1641 = 0x400>>8 = 4, SASS_VERSION 1663:1656
 *                                                          -> 0x90000800
 *  all other words 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "qmd.h"

static struct qmd_launch base(void)
{
	struct qmd_launch l;
	memset(&l, 0, sizeof(l));
	l.program_va = 0x200000100ull;
	l.program_bytes = 0x400;
	l.grid[0] = 4; l.grid[1] = 2; l.grid[2] = 1;
	l.block[0] = 128; l.block[1] = 1; l.block[2] = 1;
	l.regs = 16;
	l.cb0_va = 0x200010000ull;
	l.cb0_bytes = 0x10000;
	l.release_va = 0x300000040ull;
	l.release_payload = 0xabcd;
	l.sass_version = 0x90;
	return l;
}

static void test_golden(void **s)
{
	(void)s;
	uint32_t q[QMD_V03_DWORDS], want[QMD_V03_DWORDS];
	struct qmd_launch l = base();
	memset(want, 0, sizeof(want));
	want[4] = 0x0000007f; want[5] = 0xfc000000; want[8] = 0x02000001;
	want[11] = 0x44010000; want[12] = 4; want[13] = 2; want[14] = 1;
	want[17] = 0x34240000; want[18] = 0x00800030; want[19] = 0x00010001;
	want[20] = 0x00121001; want[23] = 0x08000000; want[24] = 0x00000040;
	want[25] = 0x40880003; want[26] = 0x0000abcd; want[32] = 0x00010000;
	want[33] = 0x80040002; want[48] = 0x00000100; want[49] = 0x00000002;
	want[51] = 0x90000800;
	assert_int_equal(qmd_v03_encode(q, &l), 0);
	for (unsigned i = 0; i < QMD_V03_DWORDS; i++) {
		if (q[i] != want[i])
			print_error("word %u: got 0x%08x want 0x%08x\n", i, q[i], want[i]);
		assert_int_equal(q[i], want[i]);
	}
}

/* V04 words for the same launch, hand-derived from the QMDV04_00 MW(hi:lo):
 *  w0  GROUP_ID 21:16 = 0x3f, QMD_TYPE 25:23 = 2 (GRID_CTA)    -> 0x013f0000
 *  w10 RELEASE_ENABLE(0) 320, STRUCTURE_SIZE(0) 322:321 = 1, MEMBAR 323
 *                                                            -> 0x0000000b
 *  w13 CB_VALID(0) 416, CB_INVALIDATE(0) 419                   -> 0x00000009
 *  w16 SASS_VERSION 543:536 = 0x90                            -> 0x90000000
 *  w17 API_VISIBLE_CALL_LIMIT 568, SAMPLER_INDEX 569          -> 0x03000000
 *  w18 MAJOR_VERSION 583:580 = 4, INVALIDATE_* 607:602        -> 0xfc000040
 *  w19 MIN 613:608 = 9, MAX 619:614 = 26, TARGET 625:620 = 9  -> 0x00009689
 *  w20/21/22 RELEASE_SEMAPHORE0 addr lo 0x40, hi 3, payload 0xabcd
 *  w32/33/34 GRID 4, 2, 1; w35 CWD_MEMBAR_TYPE 1137:1136 = 1  -> 0x00010000
 *  w36 THREAD_DIM0 = 128, DIM1 = 1                            -> 0x00010080
 *  w37 DIM2 = 1, REGISTER_COUNT 1208:1200 = 16, BARRIER_COUNT 1215:1211 = 1
 *                                                            -> 0x08100001
 *  w38/39 PROGRAM_ADDRESS 0x100 / 2
 *  w42 PREFETCH_ADDR_LOWER_SHIFTED = VA>>8                    -> 0x02000001
 *  w43 PREFETCH_SIZE 1401:1393 = 4                            -> 0x00080000
 *  w48 CB ADDR_LOWER_SHIFTED6 = 0x200010000>>6                -> 0x08000400
 *  w49 SIZE_SHIFTED4 1599:1587 = 0x1000                       -> 0x80000000 */
static void test_golden_v04(void **s)
{
	(void)s;
	uint32_t q[QMD_V04_DWORDS], want[QMD_V04_DWORDS];
	struct qmd_launch l = base();
	memset(want, 0, sizeof(want));
	want[0] = 0x013f0000; want[10] = 0x0000000b; want[13] = 0x00000009;
	want[16] = 0x90000000; want[17] = 0x03000000; want[18] = 0xfc000040;
	want[19] = 0x00009689; want[20] = 0x40; want[21] = 3; want[22] = 0xabcd;
	want[32] = 4; want[33] = 2; want[34] = 1; want[35] = 0x00010000;
	want[36] = 0x00010080; want[37] = 0x08100001; want[38] = 0x100; want[39] = 2;
	want[42] = 0x02000001; want[43] = 0x00080000; want[48] = 0x08000400;
	want[49] = 0x80000000;
	assert_int_equal(qmd_v04_encode(q, &l), 0);
	for (unsigned i = 0; i < QMD_V04_DWORDS; i++) {
		if (q[i] != want[i])
			print_error("word %u: got 0x%08x want 0x%08x\n", i, q[i], want[i]);
		assert_int_equal(q[i], want[i]);
	}
	l.block[0] = 0;
	assert_int_equal(qmd_v04_encode(q, &l), -1);
}

static void test_no_release(void **s)
{
	(void)s;
	uint32_t q[QMD_V03_DWORDS];
	struct qmd_launch l = base();
	l.release_va = 0;
	assert_int_equal(qmd_v03_encode(q, &l), 0);
	assert_int_equal(q[24], 0);
	assert_int_equal(q[25], 0);
	assert_int_equal(q[26], 0);
}

static void test_local_memory_field(void **s)
{
	(void)s;
	uint32_t q[QMD_V03_DWORDS];
	struct qmd_launch l = base();
	/* SHADER_LOCAL_MEMORY_HIGH_SIZE 1623:1600 -> word 50 bits 23:0 */
	l.local_bytes = 0x240;
	assert_int_equal(qmd_v03_encode(q, &l), 0);
	assert_int_equal(q[50], 0x00000240u);
	l.local_bytes = 0x1000000;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
}

static void test_field_helpers(void **s)
{
	(void)s;
	uint32_t q[4] = { 0, 0, 0, 0 };
	qmd_set(q, 40, 28, 0x1fff); /* crosses a word boundary */
	assert_int_equal(q[0], 0xf0000000u);
	assert_int_equal(q[1], 0x000001ffu);
	assert_int_equal(qmd_get(q, 40, 28), 0x1fff);
	qmd_set(q, 40, 28, 0x2000); /* truncated to 13 bits -> 0 */
	assert_int_equal(q[0], 0);
	assert_int_equal(q[1], 0);
}

static void test_rejects(void **s)
{
	(void)s;
	uint32_t q[QMD_V03_DWORDS];
	struct qmd_launch l;
	l = base(); l.block[0] = 0;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
	l = base(); l.block[0] = 1024; l.block[1] = 2;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
	l = base(); l.grid[1] = 0x10000;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
	l = base(); l.regs = 256;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
	l = base(); l.cb0_va |= 0x40;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
	l = base(); l.release_va = 1ull << 40;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
	l = base(); l.cb0_bytes = 0x20000;
	assert_int_equal(qmd_v03_encode(q, &l), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_golden_v04),
		cmocka_unit_test(test_no_release),
		cmocka_unit_test(test_local_memory_field),
		cmocka_unit_test(test_field_helpers),
		cmocka_unit_test(test_rejects),
	};
	return cmocka_run_group_tests_name("qmd", tests, NULL, NULL);
}
