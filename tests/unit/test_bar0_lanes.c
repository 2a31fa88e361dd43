// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR0 access width rules: a narrow write changes only its own byte lanes
 * (write-1-to-clear bits in other lanes survive), and an access to an
 * unmodelled offset counts once however wide it is.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "helpers/fake_fe.h"

static const u8 uuid[16] = { 1 };

struct fix {
	struct fake_fe fe;
	struct vgsp_dev *dev;
};

static int setup(void **state)
{
	struct fix *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	fake_fe_init(&f->fe, 0x100000000ULL, 4096);
	f->dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8,
				 &fake_fe_ops, &f->fe);
	assert_non_null(f->dev);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	vgsp_dev_destroy(f->dev);
	fake_fe_fini(&f->fe);
	free(f);
	return 0;
}

/*
 * A sub-dword write merges into the stored dword; W1C bits set in lanes
 * the guest did not write must not be written back as 1 (and cleared).
 */
static const struct vgsp_reg w1c_reg[] = {
	{ .name = "TEST_W1C", .offset = 0x1000, .w1c_mask = 0x0000ff00 },
};

static void test_byte_write_keeps_w1c_bits_of_other_bytes(void **state)
{
	struct fix *f = *state;
	const struct vgsp_reg_table t[] = { VGSP_REG_TABLE(w1c_reg) };
	u8 zero = 0;

	/* Swap in a register model with one W1C register (white box). */
	vgsp_regmodel_fini(&f->dev->regs);
	assert_int_equal(vgsp_regmodel_init(&f->dev->regs, t, 1), 0);
	assert_true(vgsp_reg_poke(&f->dev->regs, 0x1000, 0x0000ff00));
	/* Write byte 0 only: bits 15:8 were not written and must stay set. */
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0x1000, &zero, 1), 0);
	assert_int_equal(vgsp_reg_peek(&f->dev->regs, 0x1000), 0x0000ff00);
}

/* The same on a real register: the GSP interrupt tree's CPU_INTR_LEAF
 * (all bits W1C): acking bits 7:0 with a byte write leaves bits 15:8. */
static void test_intr_leaf_byte_ack(void **state)
{
	struct fix *f = *state;
	unsigned int i;
	u32 off = 0;
	u8 ack = 0x01;

	for (i = 0; i < f->dev->regs.nslots; i++)
		if (!strcmp(f->dev->regs.slots[i].reg->name, "CPU_INTR_LEAF") &&
		    f->dev->regs.slots[i].idx == 0)
			off = f->dev->regs.slots[i].offset;
	assert_true(off != 0);
	assert_true(vgsp_reg_poke(&f->dev->regs, off, 0x00000101));
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, off, &ack, 1), 0);
	assert_int_equal(vgsp_reg_peek(&f->dev->regs, off), 0x00000100);
}

/* A command (strobe) register acts only on what the guest wrote. */
static u32 strobe_seen;

static void strobe_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			 unsigned int idx, u32 old, u32 val)
{
	strobe_seen = val;
}

static const struct vgsp_reg strobe_reg[] = {
	{ .name = "TEST_STROBE", .offset = 0x1000, .write = strobe_write,
	  .strobe = true },
};

static void test_strobe_narrow_write_sees_only_its_lanes(void **state)
{
	struct fix *f = *state;
	const struct vgsp_reg_table t[] = { VGSP_REG_TABLE(strobe_reg) };
	u32 full = 0x0000ff00;
	u8 one = 0x01;

	vgsp_regmodel_fini(&f->dev->regs);
	assert_int_equal(vgsp_regmodel_init(&f->dev->regs, t, 1), 0);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0x1000, &full, 4), 0);
	assert_int_equal(strobe_seen, 0x0000ff00);
	/* The stored value is back to reset, not the last command. */
	assert_int_equal(vgsp_reg_peek(&f->dev->regs, 0x1000), 0);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, 0x1000, &one, 1), 0);
	assert_int_equal(strobe_seen, 0x00000001);
}

static void test_unknown_qword_counts_once(void **state)
{
	struct fix *f = *state;
	u32 o = 0xfffff8;
	u8 b[8] = { 0 };

	assert_true(vgsp_regmodel_find(&f->dev->regs, o) < 0);
	assert_true(vgsp_regmodel_find(&f->dev->regs, o + 4) < 0);
	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, o, b, 8), 0);
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, o, b, 8), 0);
	assert_int_equal(f->dev->cnt.bar0_reads, 1);
	assert_int_equal(f->dev->cnt.bar0_unknown_reads, 1);
	assert_int_equal(f->dev->cnt.bar0_writes, 1);
	assert_int_equal(f->dev->cnt.bar0_unknown_writes, 1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_byte_write_keeps_w1c_bits_of_other_bytes),
		T(test_intr_leaf_byte_ack),
		
		T(test_unknown_qword_counts_once),
		T(test_strobe_narrow_write_sees_only_its_lanes),
	};
#undef T
	return cmocka_run_group_tests_name("bar0_lanes", tests, NULL, NULL);
}
