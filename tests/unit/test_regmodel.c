// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Register model (kernel/core/regmodel.c) on hand-built tables: merge and
 * validation, reset values, ro/w1c masks, arrays, handlers, the unknown
 * histogram and peek/poke.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "regmodel.h"
#include "os_user.h"

/* Handlers record their last call so tests can check idx/old/new. */
struct call {
	unsigned int n;
	struct vgsp_dev *dev;
	const struct vgsp_reg *reg;
	unsigned int idx;
	u32 a, b;		/* read: stored; write: old, new */
};
static struct call rcall, wcall;

static u32 rec_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		    unsigned int idx, u32 stored)
{
	rcall.n++;
	rcall.dev = dev;
	rcall.reg = reg;
	rcall.idx = idx;
	rcall.a = stored;
	/* Distinguishable from the stored value: proves the handler's result wins. */
	return stored ^ (0xa5000000u | idx);
}

static void rec_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		      unsigned int idx, u32 old, u32 val)
{
	wcall.n++;
	wcall.dev = dev;
	wcall.reg = reg;
	wcall.idx = idx;
	wcall.a = old;
	wcall.b = val;
}

static int setup(void **state)
{
	vgsp_os_user_init();
	memset(&rcall, 0, sizeof(rcall));
	memset(&wcall, 0, sizeof(wcall));
	return 0;
}

/* Two tables given out of order: the index must come out sorted. */
static const struct vgsp_reg tab_a[] = {
	{ .name = "A_300", .offset = 0x300, .reset = 0x33 },
	{ .name = "A_ARR", .offset = 0x100, .count = 3, .stride = 0x10,
	  .reset = 0x11 },
};
static const struct vgsp_reg tab_b[] = {
	{ .name = "B_200", .offset = 0x200, .reset = 0x22 },
	{ .name = "B_000", .offset = 0x000, .reset = 0xdeadbeef },
};

static void test_merge_sorted(void **state)
{
	const struct vgsp_reg_table t[] = { VGSP_REG_TABLE(tab_a),
					    VGSP_REG_TABLE(tab_b) };
	const u32 want[] = { 0x000, 0x100, 0x110, 0x120, 0x200, 0x300 };
	struct vgsp_regmodel rm;
	unsigned int i;

	assert_int_equal(vgsp_regmodel_init(&rm, t, 2), 0);
	assert_int_equal(rm.nslots, VGSP_ARRAY_SIZE(want));
	for (i = 0; i < rm.nslots; i++) {
		assert_int_equal(rm.slots[i].offset, want[i]);
		assert_int_equal(vgsp_regmodel_find(&rm, want[i]), (int)i);
	}
	/* Array elements keep their element number and their row. */
	assert_int_equal(rm.slots[3].idx, 2);
	assert_ptr_equal(rm.slots[3].reg, &tab_a[1]);
	assert_int_equal(vgsp_regmodel_find(&rm, 0x104), -1);
	assert_int_equal(vgsp_regmodel_find(&rm, 0x130), -1);
	assert_int_equal(vgsp_regmodel_find(&rm, 0xfffffffc), -1);
	vgsp_regmodel_fini(&rm);
	assert_null(rm.slots);
	assert_int_equal(rm.nslots, 0);
}

static void test_empty_model(void **state)
{
	struct vgsp_regmodel rm;
	u32 v = 123;

	assert_int_equal(vgsp_regmodel_init(&rm, NULL, 0), 0);
	assert_int_equal(rm.nslots, 0);
	assert_false(vgsp_regmodel_read(NULL, &rm, 0, &v));
	assert_int_equal(v, 0);
	vgsp_regmodel_fini(&rm);
}

static void expect_init_fails(const struct vgsp_reg *a, unsigned int na,
			      const struct vgsp_reg *b, unsigned int nb)
{
	const struct vgsp_reg_table t[] = { { a, na }, { b, nb } };
	unsigned int errs = vgsp_os_user_log_count(VGSP_LOG_ERR);
	struct vgsp_regmodel rm;

	assert_int_equal(vgsp_regmodel_init(&rm, t, b ? 2 : 1), -EINVAL);
	/* The reason is logged once, and nothing is left allocated. */
	assert_int_equal(vgsp_os_user_log_count(VGSP_LOG_ERR), errs + 1);
	assert_null(rm.slots);
	assert_null(rm.values);
	assert_int_equal(rm.nslots, 0);
}

static void test_duplicates_rejected(void **state)
{
	static const struct vgsp_reg x[] = { { .name = "X", .offset = 0x40 } };
	static const struct vgsp_reg y[] = { { .name = "Y", .offset = 0x40 } };
	/* An array element landing on another table's register. */
	static const struct vgsp_reg arr[] = { { .name = "ARR", .offset = 0x20,
						 .count = 4, .stride = 0x10 } };
	static const struct vgsp_reg same[] = {
		{ .name = "S1", .offset = 0x8 }, { .name = "S2", .offset = 0x8 },
	};

	expect_init_fails(x, 1, y, 1);
	expect_init_fails(arr, 1, y, 1);
	expect_init_fails(same, 2, NULL, 0);
}

static void test_bad_offset_stride_rejected(void **state)
{
	static const struct vgsp_reg misaligned[] = { { .name = "M",
							.offset = 0x42 } };
	static const struct vgsp_reg stride2[] = { { .name = "S", .offset = 0x40,
						     .count = 2, .stride = 2 } };
	static const struct vgsp_reg stride6[] = { { .name = "S", .offset = 0x40,
						     .count = 2, .stride = 6 } };
	static const struct vgsp_reg stride0[] = { { .name = "S", .offset = 0x40,
						     .count = 2, .stride = 0 } };
	static const struct vgsp_reg ok[] = { { .name = "OK", .offset = 0 } };

	expect_init_fails(misaligned, 1, NULL, 0);
	expect_init_fails(stride2, 1, NULL, 0);
	expect_init_fails(stride6, 1, NULL, 0);
	expect_init_fails(stride0, 1, NULL, 0);
	/* A bad row in a later table fails the whole merge too. */
	expect_init_fails(ok, 1, misaligned, 1);
}

static const struct vgsp_reg mask_regs[] = {
	{ .name = "RW", .offset = 0x0, .reset = 0x12345678 },
	{ .name = "RO", .offset = 0x4, .reset = 0xcafef00d, .ro_mask = ~0u },
	{ .name = "MIX", .offset = 0x8, .reset = 0xff00ff00,
	  .ro_mask = 0xffff0000 },
	{ .name = "W1C", .offset = 0xc, .reset = 0x000000ff,
	  .w1c_mask = 0x000000f0 },
};

static void init_masks(struct vgsp_regmodel *rm)
{
	const struct vgsp_reg_table t[] = { VGSP_REG_TABLE(mask_regs) };

	assert_int_equal(vgsp_regmodel_init(rm, t, 1), 0);
}

static u32 rd(struct vgsp_regmodel *rm, u32 off)
{
	u32 v = 0xbadbad;

	assert_true(vgsp_regmodel_read(NULL, rm, off, &v));
	return v;
}

static void test_reset_values(void **state)
{
	struct vgsp_regmodel rm;
	unsigned int i;

	init_masks(&rm);
	for (i = 0; i < VGSP_ARRAY_SIZE(mask_regs); i++)
		assert_int_equal(rd(&rm, mask_regs[i].offset), mask_regs[i].reset);
	/* Writes change values; reset brings every reset value back. */
	for (i = 0; i < VGSP_ARRAY_SIZE(mask_regs); i++)
		assert_true(vgsp_regmodel_write(NULL, &rm, mask_regs[i].offset,
						0x0f0f0f0f));
	assert_int_equal(rd(&rm, 0x0), 0x0f0f0f0f);
	vgsp_regmodel_reset(&rm);
	for (i = 0; i < VGSP_ARRAY_SIZE(mask_regs); i++)
		assert_int_equal(rd(&rm, mask_regs[i].offset), mask_regs[i].reset);
	vgsp_regmodel_fini(&rm);
}

static void test_ro_mask(void **state)
{
	struct vgsp_regmodel rm;

	init_masks(&rm);
	assert_true(vgsp_regmodel_write(NULL, &rm, 0x4, 0));
	assert_int_equal(rd(&rm, 0x4), 0xcafef00d);
	assert_true(vgsp_regmodel_write(NULL, &rm, 0x4, 0xffffffff));
	assert_int_equal(rd(&rm, 0x4), 0xcafef00d);
	/* Only the low half of MIX is writable. */
	assert_true(vgsp_regmodel_write(NULL, &rm, 0x8, 0x00ff1234));
	assert_int_equal(rd(&rm, 0x8), 0xff001234);
	assert_true(vgsp_regmodel_write(NULL, &rm, 0x8, 0xffffffff));
	assert_int_equal(rd(&rm, 0x8), 0xff00ffff);
	vgsp_regmodel_fini(&rm);
}

static void test_w1c(void **state)
{
	struct vgsp_regmodel rm;

	init_masks(&rm);
	/* Writing 0 to W1C bits keeps them; plain bits take the value. */
	assert_true(vgsp_regmodel_write(NULL, &rm, 0xc, 0x00000000));
	assert_int_equal(rd(&rm, 0xc), 0x000000f0);
	vgsp_regmodel_reset(&rm);
	/* Writing 1 clears exactly those W1C bits; 1s never set them. */
	assert_true(vgsp_regmodel_write(NULL, &rm, 0xc, 0x0000003f));
	assert_int_equal(rd(&rm, 0xc), 0x000000cf);
	assert_true(vgsp_regmodel_write(NULL, &rm, 0xc, 0x000000cf));
	assert_int_equal(rd(&rm, 0xc), 0x0000000f);
	assert_true(vgsp_regmodel_write(NULL, &rm, 0xc, 0x000000f0));
	assert_int_equal(rd(&rm, 0xc), 0x00000000);
	/* Device side sets a W1C bit; a guest write of 0 there keeps it. */
	assert_true(vgsp_reg_poke(&rm, 0xc, 0x00000080));
	assert_true(vgsp_regmodel_write(NULL, &rm, 0xc, 0x00000001));
	assert_int_equal(rd(&rm, 0xc), 0x00000081);
	vgsp_regmodel_fini(&rm);
}

static const struct vgsp_reg hdl_regs[] = {
	{ .name = "H_ARR", .offset = 0x1000, .count = 8, .stride = 8,
	  .reset = 0x100, .ro_mask = 0xf0000000, .read = rec_read,
	  .write = rec_write },
	{ .name = "PLAIN_ARR", .offset = 0x2000, .count = 4, .stride = 4 },
};

static void test_arrays_and_handlers(void **state)
{
	const struct vgsp_reg_table t[] = { VGSP_REG_TABLE(hdl_regs) };
	struct vgsp_dev *fake_dev = (struct vgsp_dev *)0x1234;
	struct vgsp_regmodel rm;
	unsigned int e;
	u32 v;

	assert_int_equal(vgsp_regmodel_init(&rm, t, 1), 0);
	assert_int_equal(rm.nslots, 12);

	/* Each element is its own storage; handlers see the element number. */
	for (e = 0; e < 8; e++)
		assert_true(vgsp_regmodel_write(fake_dev, &rm, 0x1000 + 8 * e,
						0xf0000000 | e));
	assert_int_equal(wcall.n, 8);
	for (e = 0; e < 8; e++) {
		assert_true(vgsp_regmodel_read(fake_dev, &rm, 0x1000 + 8 * e, &v));
		assert_ptr_equal(rcall.dev, fake_dev);
		assert_ptr_equal(rcall.reg, &hdl_regs[0]);
		assert_int_equal(rcall.idx, e);
		assert_int_equal(rcall.a, e);	/* ro bits masked off */
		assert_int_equal(v, e ^ (0xa5000000u | e));
		assert_int_equal(vgsp_reg_peek(&rm, 0x1000 + 8 * e), e);
	}
	assert_int_equal(rcall.n, 8);

	/* Write handler: old value, then the masked value that was stored. */
	assert_true(vgsp_regmodel_write(fake_dev, &rm, 0x1018, 0xffff0042));
	assert_int_equal(wcall.n, 9);
	assert_ptr_equal(wcall.dev, fake_dev);
	assert_ptr_equal(wcall.reg, &hdl_regs[0]);
	assert_int_equal(wcall.idx, 3);
	assert_int_equal(wcall.a, 3);
	assert_int_equal(wcall.b, 0x0fff0042);
	assert_int_equal(vgsp_reg_peek(&rm, 0x1018), 0x0fff0042);

	/* Gaps inside a strided array are not registers. */
	assert_false(vgsp_regmodel_read(fake_dev, &rm, 0x1004, &v));
	assert_int_equal(rcall.n, 8);

	/* Handler-less arrays store per element. */
	for (e = 0; e < 4; e++)
		assert_true(vgsp_regmodel_write(NULL, &rm, 0x2000 + 4 * e, 10 + e));
	for (e = 0; e < 4; e++)
		assert_int_equal(rd(&rm, 0x2000 + 4 * e), 10 + e);
	assert_int_equal(wcall.n, 9);

	vgsp_regmodel_fini(&rm);
}

static void test_unknown_histogram(void **state)
{
	struct vgsp_regmodel rm;
	unsigned int i;
	u32 v;

	init_masks(&rm);
	v = 77;
	assert_false(vgsp_regmodel_read(NULL, &rm, 0x100, &v));
	assert_int_equal(v, 0);
	assert_false(vgsp_regmodel_read(NULL, &rm, 0x100, &v));
	assert_false(vgsp_regmodel_write(NULL, &rm, 0x100, 0xffffffff));
	assert_false(vgsp_regmodel_write(NULL, &rm, 0x200, 1));
	/* The dropped write leaves the offset reading 0. */
	assert_false(vgsp_regmodel_read(NULL, &rm, 0x200, &v));
	assert_int_equal(v, 0);

	assert_int_equal(rm.unknown.n, 2);
	assert_int_equal(rm.unknown.offset[0], 0x100);
	assert_int_equal(rm.unknown.reads[0], 2);
	assert_int_equal(rm.unknown.writes[0], 1);
	assert_int_equal(rm.unknown.offset[1], 0x200);
	assert_int_equal(rm.unknown.reads[1], 1);
	assert_int_equal(rm.unknown.writes[1], 1);
	assert_int_equal(rm.unknown.untracked, 0);

	/* Known offsets never enter the histogram. */
	assert_true(vgsp_regmodel_read(NULL, &rm, 0x0, &v));
	assert_int_equal(rm.unknown.n, 2);

	/* Fill the table: 64 distinct offsets tracked, the 65th is not. */
	for (i = 2; i < VGSP_UNKNOWN_TRACK; i++)
		assert_false(vgsp_regmodel_read(NULL, &rm, 0x10000 + 4 * i, &v));
	assert_int_equal(rm.unknown.n, VGSP_UNKNOWN_TRACK);
	assert_int_equal(rm.unknown.untracked, 0);
	assert_false(vgsp_regmodel_read(NULL, &rm, 0x20000, &v));
	assert_false(vgsp_regmodel_write(NULL, &rm, 0x20000, 5));
	assert_false(vgsp_regmodel_write(NULL, &rm, 0x20004, 5));
	assert_int_equal(rm.unknown.n, VGSP_UNKNOWN_TRACK);
	assert_int_equal(rm.unknown.untracked, 3);
	/* Offsets already tracked still count per offset once full. */
	assert_false(vgsp_regmodel_write(NULL, &rm, 0x100, 0));
	assert_int_equal(rm.unknown.writes[0], 2);
	assert_int_equal(rm.unknown.untracked, 3);

	/* Reset keeps the worklist: a resetting guest must not erase it. */
	vgsp_regmodel_reset(&rm);
	assert_int_equal(rm.unknown.n, VGSP_UNKNOWN_TRACK);
	assert_int_equal(rm.unknown.untracked, 3);
	vgsp_regmodel_fini(&rm);
}

static void test_peek_poke(void **state)
{
	const struct vgsp_reg_table t[] = { VGSP_REG_TABLE(hdl_regs),
					    VGSP_REG_TABLE(mask_regs) };
	struct vgsp_regmodel rm;

	assert_int_equal(vgsp_regmodel_init(&rm, t, 2), 0);
	/* Poke ignores ro/w1c masks and never runs handlers. */
	assert_true(vgsp_reg_poke(&rm, 0x4, 0x11112222));
	assert_int_equal(vgsp_reg_peek(&rm, 0x4), 0x11112222);
	assert_int_equal(rd(&rm, 0x4), 0x11112222);
	assert_true(vgsp_reg_poke(&rm, 0x1008, 0xf00000ff));
	assert_int_equal(vgsp_reg_peek(&rm, 0x1008), 0xf00000ff);
	assert_int_equal(wcall.n, 0);
	assert_int_equal(rcall.n, 0);	/* peek bypasses the read handler */
	/* Unmodelled offsets: poke refused, peek 0, nothing recorded. */
	assert_false(vgsp_reg_poke(&rm, 0x1004, 1));
	assert_int_equal(vgsp_reg_peek(&rm, 0x1004), 0);
	assert_int_equal(rm.unknown.n, 0);
	vgsp_regmodel_fini(&rm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_merge_sorted, setup),
		cmocka_unit_test_setup(test_empty_model, setup),
		cmocka_unit_test_setup(test_duplicates_rejected, setup),
		cmocka_unit_test_setup(test_bad_offset_stride_rejected, setup),
		cmocka_unit_test_setup(test_reset_values, setup),
		cmocka_unit_test_setup(test_ro_mask, setup),
		cmocka_unit_test_setup(test_w1c, setup),
		cmocka_unit_test_setup(test_arrays_and_handlers, setup),
		cmocka_unit_test_setup(test_unknown_histogram, setup),
		cmocka_unit_test_setup(test_peek_poke, setup),
	};

	return cmocka_run_group_tests_name("regmodel", tests, NULL, NULL);
}
