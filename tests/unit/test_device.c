// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Device instance (kernel/core/device.c + chip/gh100.c + aperture.c +
 * views.c): lifecycle, region access rules and the exact counter deltas
 * docs/interfaces.md promises, GH100 identity registers through BAR0,
 * apertures, reset, interrupts, DMA and the core views.
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
#include "aperture.h"
#include "view.h"
#include "os_user.h"
#include "helpers/fake_fe.h"

/* BAR0 offsets from docs/reference gsp-protocol.md §B (GH100). */
#define PMC_BOOT_0		0x000000
#define PMC_BOOT_1		0x000004
#define PMC_BOOT_42		0x000a00
#define PBUS_SW_SCRATCH		0x001400
#define PTIMER_TIME_0		0x009400
#define PTIMER_TIME_1		0x009410
#define PCFG_MIRROR		0x088000
#define USABLE_FB_SIZE_IN_MB	0x1183a4
#define GH100_BOOT_0		0x180000a1u
#define GH100_BOOT_42		0x180a1000u

#define MSIX_VECTORS		8
#define FE_IOVA			0x100000000ULL
#define FE_SIZE			(64 * 1024)

static const u8 test_uuid[16] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
				  0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
				  0x0c, 0x0d, 0x0e, 0x0f };
#define TEST_UUID_STR "00010203-0405-0607-0809-0a0b0c0d0e0f"

struct fix {
	struct fake_fe fe;
	const struct vgsp_profile *p;
	struct vgsp_dev *dev;
};

static int setup_profile(void **state, const char *id)
{
	struct fix *f = calloc(1, sizeof(*f));

	vgsp_os_user_init();
	assert_non_null(f);
	fake_fe_init(&f->fe, FE_IOVA, FE_SIZE);
	f->p = vgsp_profile_find(id);
	assert_non_null(f->p);
	f->dev = vgsp_dev_create(f->p, test_uuid, MSIX_VECTORS, &fake_fe_ops,
				 &f->fe);
	assert_non_null(f->dev);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_profile(state, "h100-10g");
}

static int teardown(void **state)
{
	struct fix *f = *state;

	vgsp_dev_destroy(f->dev);
	fake_fe_fini(&f->fe);
	free(f);
	return 0;
}

/* Every counter equal to @exp; names the first one that is not. */
static void check_cnt(const struct vgsp_dev *dev,
		      const struct vgsp_counters *exp)
{
	unsigned int i;

	for (i = 0; i < vgsp_ncounters; i++) {
		u64 got = vgsp_counter_get(&dev->cnt, i);
		u64 want = vgsp_counter_get(exp, i);

		if (got != want)
			fail_msg("counter %s: %llu, expected %llu",
				 vgsp_counter_descs[i].name,
				 (unsigned long long)got,
				 (unsigned long long)want);
	}
}

static u64 le(const u8 *b, u32 len)
{
	u64 v = 0;

	while (len--)
		v = (v << 8) | b[len];
	return v;
}

static void put_le(u8 *b, u64 v, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		b[i] = (u8)(v >> (8 * i));
}

static u64 bar_rd(struct vgsp_dev *dev, unsigned int bar, u64 off, u32 len)
{
	u8 b[8];

	assert_int_equal(vgsp_dev_bar_read(dev, bar, off, b, len), 0);
	return le(b, len);
}

static void bar_wr(struct vgsp_dev *dev, unsigned int bar, u64 off, u64 v,
		   u32 len)
{
	u8 b[8];

	put_le(b, v, len);
	assert_int_equal(vgsp_dev_bar_write(dev, bar, off, b, len), 0);
}

static u32 rd32(struct vgsp_dev *dev, u32 off)
{
	return (u32)bar_rd(dev, VGSP_BAR0, off, 4);
}

static u32 cfg_rd(struct vgsp_dev *dev, u32 off, u32 len)
{
	u8 b[8] = { 0 };

	assert_int_equal(vgsp_dev_cfg_read(dev, off, b, len), 0);
	return (u32)le(b, len);
}

/*
 * An 8-byte aligned BAR0 offset whose two dwords no table models, found
 * from the top of BAR0 down so GSP register tables landing later cannot
 * turn it into a known register under the test.
 */
static u32 unknown_qword(struct vgsp_dev *dev)
{
	u32 o;

	for (o = VGSP_BAR0_SIZE - 8; o >= 8; o -= 8)
		if (vgsp_regmodel_find(&dev->regs, o) < 0 &&
		    vgsp_regmodel_find(&dev->regs, o + 4) < 0)
			return o;
	fail_msg("no unmodelled qword in BAR0");
	return 0;
}

static u64 host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- lifecycle ---- */

static void test_create_destroy_all_profiles(void **state)
{
	static const unsigned int nvec[] = { 1, 8, VGSP_MSIX_MAX };
	struct fake_fe fe;
	unsigned int i, k;

	vgsp_os_user_init();
	fake_fe_init(&fe, FE_IOVA, FE_SIZE);
	for (i = 0; i < vgsp_nprofiles; i++) {
		const struct vgsp_profile *p = &vgsp_profiles[i];

		for (k = 0; k < VGSP_ARRAY_SIZE(nvec); k++) {
			struct vgsp_dev *dev = vgsp_dev_create(p, test_uuid, nvec[k],
							       &fake_fe_ops, &fe);
			struct vgsp_counters zero = { 0 };

			assert_non_null(dev);
			assert_ptr_equal(dev->profile, p);
			assert_memory_equal(dev->uuid, test_uuid, 16);
			assert_string_equal(dev->name, TEST_UUID_STR);
			assert_int_equal(dev->cfg.msix_vectors, nvec[k]);
			check_cnt(dev, &zero);
			/* Region sizes by config slot (VFIO region index). */
			assert_int_equal(vgsp_dev_bar_size(dev, 0), 16 * VGSP_MIB);
			assert_int_equal(vgsp_dev_bar_size(dev, 1), p->bar1_size);
			assert_int_equal(vgsp_dev_bar_size(dev, 2), 0);
			assert_int_equal(vgsp_dev_bar_size(dev, 3), 32 * VGSP_MIB);
			assert_int_equal(vgsp_dev_bar_size(dev, 4), 0);
			assert_int_equal(vgsp_dev_bar_size(dev, 5), 0);
			assert_int_equal(vgsp_dev_bar_size(dev, 6), 0);
			assert_int_equal(vgsp_dev_bar_size(dev, 7), 0);
			assert_int_equal(rd32(dev, PMC_BOOT_0), GH100_BOOT_0);
			vgsp_dev_destroy(dev);
		}
	}
	vgsp_dev_destroy(NULL);		/* tolerated, like free(NULL) */
	fake_fe_fini(&fe);
}

static void test_create_rejects_bad_args(void **state)
{
	const struct vgsp_profile *p;
	struct fake_fe fe;

	vgsp_os_user_init();
	p = vgsp_profile_find("h100-10g");
	fake_fe_init(&fe, FE_IOVA, FE_SIZE);
	assert_null(vgsp_dev_create(p, test_uuid, 0, &fake_fe_ops, &fe));
	assert_null(vgsp_dev_create(p, test_uuid, VGSP_MSIX_MAX + 1,
				    &fake_fe_ops, &fe));
	assert_null(vgsp_dev_create(NULL, test_uuid, 8, &fake_fe_ops, &fe));
	assert_null(vgsp_dev_create(p, test_uuid, 8, NULL, &fe));
	fake_fe_fini(&fe);
}

static void test_uuid_to_str(void **state)
{
	static const u8 u[16] = { 0xde, 0xad, 0xbe, 0xef, 0x00, 0x11, 0x22,
				  0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
				  0xaa, 0xff };
	char s[40];

	memset(s, 'x', sizeof(s));
	vgsp_uuid_to_str(u, s);
	assert_string_equal(s, "deadbeef-0011-2233-4455-66778899aaff");
}

/* ---- region access rules and counters ---- */

static void test_bar0_access_rules(void **state)
{
	static const u32 sizes[] = { 1, 2, 4, 8 };
	/* Rejected: misaligned, bad size, past the end. */
	static const struct { u64 off; u32 len; } bad[] = {
		{ 1, 2 }, { 2, 4 }, { 4, 8 }, { 1, 4 }, { 3, 2 },
		{ 0, 3 }, { 0, 0 }, { 0, 5 }, { 0, 16 },
		{ PBUS_SW_SCRATCH + 1, 2 }, { PBUS_SW_SCRATCH, 3 },
		{ PBUS_SW_SCRATCH + 2, 4 }, { PBUS_SW_SCRATCH + 4, 8 },
		{ VGSP_BAR0_SIZE, 1 }, { VGSP_BAR0_SIZE, 4 },
		{ VGSP_BAR0_SIZE - 4, 8 }, { 1ULL << 32, 4 }, { ~0ULL - 3, 4 },
	};
	struct fix *f = *state;
	struct vgsp_counters exp = f->dev->cnt;
	unsigned int i, nunk;
	u8 b[16];

	for (i = 0; i < VGSP_ARRAY_SIZE(sizes); i++) {
		/* Modelled registers only, so no unknown counts. */
		assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH,
						   b, sizes[i]), 0);
		exp.bar0_reads++;
		check_cnt(f->dev, &exp);
		assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0,
						    PBUS_SW_SCRATCH, b, sizes[i]), 0);
		exp.bar0_writes++;
		check_cnt(f->dev, &exp);
	}
	/* The last byte/dword/qword of BAR0 are inside. */
	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, VGSP_BAR0_SIZE - 1,
					   b, 1), 0);
	assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, VGSP_BAR0_SIZE - 8,
					   b, 8), 0);
	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH, 0x01020304, 4);
	exp = f->dev->cnt;
	nunk = f->dev->regs.unknown.n;

	for (i = 0; i < VGSP_ARRAY_SIZE(bad); i++) {
		memset(b, 0x5a, sizeof(b));
		assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, bad[i].off, b,
						   bad[i].len), -EINVAL);
		assert_int_equal(b[0], 0x5a);	/* nothing returned */
		exp.bar0_bad++;
		check_cnt(f->dev, &exp);
		assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR0, bad[i].off, b,
						    bad[i].len), -EINVAL);
		exp.bar0_bad++;
		check_cnt(f->dev, &exp);
	}
	/* Rejected writes (0x5a...) reached neither a register nor the
	 * unknown worklist. */
	assert_int_equal(vgsp_reg_peek(&f->dev->regs, PBUS_SW_SCRATCH), 0x01020304);
	assert_int_equal(vgsp_reg_peek(&f->dev->regs, PBUS_SW_SCRATCH + 4), 0);
	assert_int_equal(f->dev->regs.unknown.n, nunk);
}

static void test_aperture_access_rules(void **state)
{
	struct fix *f = *state;
	static const unsigned int bars[] = { VGSP_BAR1, VGSP_BAR3 };
	struct vgsp_counters exp = f->dev->cnt;
	unsigned int i, k;
	u8 b[8] = { 0 };

	for (k = 0; k < VGSP_ARRAY_SIZE(bars); k++) {
		unsigned int bar = bars[k];
		u64 size = vgsp_dev_bar_size(f->dev, bar);
		const struct { u64 off; u32 len; } bad[] = {
			{ 1, 2 }, { 4, 8 }, { 0, 3 }, { 0, 0 }, { 0, 16 },
			{ size, 1 }, { size - 4, 8 }, { ~0ULL - 7, 8 },
		};
		static const u32 sizes[] = { 1, 2, 4, 8 };

		for (i = 0; i < VGSP_ARRAY_SIZE(sizes); i++) {
			assert_int_equal(vgsp_dev_bar_read(f->dev, bar, size - sizes[i],
							   b, sizes[i]), 0);
			assert_int_equal(vgsp_dev_bar_write(f->dev, bar,
							    size - sizes[i], b,
							    sizes[i]), 0);
			if (bar == VGSP_BAR1) {
				exp.bar1_reads++;
				exp.bar1_writes++;
			} else {
				exp.bar3_reads++;
				exp.bar3_writes++;
			}
			check_cnt(f->dev, &exp);
		}
		for (i = 0; i < VGSP_ARRAY_SIZE(bad); i++) {
			assert_int_equal(vgsp_dev_bar_read(f->dev, bar, bad[i].off, b,
							   bad[i].len), -EINVAL);
			assert_int_equal(vgsp_dev_bar_write(f->dev, bar, bad[i].off, b,
							    bad[i].len), -EINVAL);
			exp.bar_bad += 2;
			check_cnt(f->dev, &exp);
		}
	}
}

static void test_missing_regions(void **state)
{
	/* Slots 2 and 4 are upper BAR halves; 5, ROM (6), config (7, its own
	 * entry points), VGA (8) and beyond are no BAR regions. */
	static const unsigned int none[] = { 2, 4, 5, 6, 7, 8, 100 };
	struct fix *f = *state;
	struct vgsp_counters exp = f->dev->cnt;
	unsigned int i;
	u8 b[4];

	for (i = 0; i < VGSP_ARRAY_SIZE(none); i++) {
		assert_int_equal(vgsp_dev_bar_read(f->dev, none[i], 0, b, 4),
				 -EINVAL);
		assert_int_equal(vgsp_dev_bar_write(f->dev, none[i], 0, b, 4),
				 -EINVAL);
		exp.region_bad += 2;
		check_cnt(f->dev, &exp);
	}
}

static void test_cfg_access_counts(void **state)
{
	struct fix *f = *state;
	struct vgsp_counters exp = f->dev->cnt;
	u8 b[8] = { 0 };

	assert_int_equal(cfg_rd(f->dev, 0x00, 4), 0x233010de);
	assert_int_equal(cfg_rd(f->dev, 0x08, 1), 0xa1);
	assert_int_equal(cfg_rd(f->dev, 0x2c, 4), 0x16c110de);
	exp.cfg_reads += 3;
	check_cnt(f->dev, &exp);
	put_le(b, 0x0006, 2);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 0x04, b, 2), 0);
	exp.cfg_writes++;
	check_cnt(f->dev, &exp);
	assert_int_equal(cfg_rd(f->dev, 0x04, 2), 0x0006);
	exp.cfg_reads++;

	assert_int_equal(vgsp_dev_cfg_read(f->dev, 4096, b, 1), -EINVAL);
	assert_int_equal(vgsp_dev_cfg_read(f->dev, 4095, b, 2), -EINVAL);
	assert_int_equal(vgsp_dev_cfg_read(f->dev, 0, b, 0), -EINVAL);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 4096, b, 4), -EINVAL);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 4094, b, 4), -EINVAL);
	exp.cfg_bad += 5;
	check_cnt(f->dev, &exp);
}

static void test_unknown_offsets(void **state)
{
	struct fix *f = *state;
	u32 unk = unknown_qword(f->dev);
	struct vgsp_counters exp = f->dev->cnt;
	struct str_printer sp;
	char line[96];

	/* Reads 0 at every size; each access counts once in each counter. */
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, unk, 4), 0);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, unk + 1, 1), 0);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, unk + 2, 2), 0);
	exp.bar0_reads += 3;
	exp.bar0_unknown_reads += 3;
	check_cnt(f->dev, &exp);
	bar_wr(f->dev, VGSP_BAR0, unk, 0xffffffff, 4);
	exp.bar0_writes++;
	exp.bar0_unknown_writes++;
	check_cnt(f->dev, &exp);
	/* The write was dropped. */
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, unk, 4), 0);
	exp.bar0_reads++;
	exp.bar0_unknown_reads++;
	check_cnt(f->dev, &exp);

	/* And it is on the bring-up worklist with per-offset counts. */
	str_printer_init(&sp);
	show_core_view(f->dev, "bar0_unknown", &sp);
	snprintf(line, sizeof(line), "0x%06x reads 4 writes 1\nuntracked 0\n", unk);
	assert_string_equal(sp.buf, line);
	str_printer_fini(&sp);
}

/* ---- GH100 registers through BAR0 ---- */

static void test_pmc_boot_sizes(void **state)
{
	struct fix *f = *state;
	struct vgsp_counters exp;
	unsigned int i;

	assert_int_equal(f->dev->profile->chip->pmc_boot_0, GH100_BOOT_0);
	assert_int_equal(f->dev->profile->chip->pmc_boot_42, GH100_BOOT_42);
	/* Little-endian byte lanes of the dword. */
	for (i = 0; i < 4; i++) {
		assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PMC_BOOT_0 + i, 1),
				 (GH100_BOOT_0 >> (8 * i)) & 0xff);
		assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PMC_BOOT_42 + i, 1),
				 (GH100_BOOT_42 >> (8 * i)) & 0xff);
	}
	for (i = 0; i < 4; i += 2) {
		assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PMC_BOOT_0 + i, 2),
				 (GH100_BOOT_0 >> (8 * i)) & 0xffff);
		assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PMC_BOOT_42 + i, 2),
				 (GH100_BOOT_42 >> (8 * i)) & 0xffff);
	}
	assert_int_equal(rd32(f->dev, PMC_BOOT_0), GH100_BOOT_0);
	assert_int_equal(rd32(f->dev, PMC_BOOT_42), GH100_BOOT_42);
	/* 8 bytes at 0: BOOT_0 low, BOOT_1 (0: not a vGPU) high. */
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PMC_BOOT_0, 8),
			 (u64)GH100_BOOT_0);
	/* None of that touched an unknown offset. */
	assert_int_equal(f->dev->cnt.bar0_unknown_reads, 0);

	/* Read-only: writes of every size are accepted, counted, ignored. */
	exp = f->dev->cnt;
	bar_wr(f->dev, VGSP_BAR0, PMC_BOOT_0, 0, 4);
	bar_wr(f->dev, VGSP_BAR0, PMC_BOOT_0 + 1, 0xff, 1);
	bar_wr(f->dev, VGSP_BAR0, PMC_BOOT_0 + 2, 0xffff, 2);
	bar_wr(f->dev, VGSP_BAR0, PMC_BOOT_0, ~0ULL, 8);
	bar_wr(f->dev, VGSP_BAR0, PMC_BOOT_42, 0x12345678, 4);
	exp.bar0_writes += 5;
	check_cnt(f->dev, &exp);
	assert_int_equal(rd32(f->dev, PMC_BOOT_0), GH100_BOOT_0);
	assert_int_equal(rd32(f->dev, PMC_BOOT_1), 0);
	assert_int_equal(rd32(f->dev, PMC_BOOT_42), GH100_BOOT_42);
}

static void test_scratch_byte_merge(void **state)
{
	struct fix *f = *state;
	unsigned int i;

	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH, 0x11223344, 4);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH), 0x11223344);
	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 1, 0xaa, 1);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH), 0x1122aa44);
	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 2, 0xbbcc, 2);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH), 0xbbccaa44);
	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 3, 0xdd, 1);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH), 0xddccaa44);
	/* 8 bytes write two consecutive scratch registers, low dword first. */
	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 8, 0x0123456789abcdefULL, 8);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH + 8), 0x89abcdef);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH + 12), 0x01234567);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 8, 8),
			 0x0123456789abcdefULL);
	/* Neighbours untouched; all 64 elements are independent storage. */
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH + 4), 0);
	for (i = 0; i < 64; i++)
		bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 4 * i, 0x5c000000 | i, 4);
	for (i = 0; i < 64; i++)
		assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH + 4 * i), 0x5c000000 | i);
	assert_int_equal(f->dev->cnt.bar0_unknown_writes, 0);
}

/* PTIMER as one 64-bit value, read hi/lo/hi as a driver does. */
static u64 ptimer(struct vgsp_dev *dev)
{
	u32 hi, lo, hi2;

	do {
		hi = rd32(dev, PTIMER_TIME_1);
		lo = rd32(dev, PTIMER_TIME_0);
		hi2 = rd32(dev, PTIMER_TIME_1);
	} while (hi != hi2);
	return ((u64)hi << 32) | lo;
}

static void test_ptimer(void **state)
{
	struct fix *f = *state;
	u64 h0 = host_ns(), t0 = ptimer(f->dev), t1, set;

	/* Runs on the host clock from creation; low 5 bits read as 0. */
	assert_int_equal(t0 & 0x1f, 0);
	assert_true(t0 + 64 >= h0 && t0 < h0 + 1000000000ULL);
	sleep_ms(5);
	t1 = ptimer(f->dev);
	assert_true(t1 >= t0 + 5000000ULL - 32);
	assert_true(t1 < t0 + 5000000ULL + 1000000000ULL);

	/* A guest write sets the time (far from the host clock). */
	set = ((((h0 >> 32) + 0x1000) & 0xffffffffULL) << 32) | 0x40000000;
	bar_wr(f->dev, VGSP_BAR0, PTIMER_TIME_1, set >> 32, 4);
	bar_wr(f->dev, VGSP_BAR0, PTIMER_TIME_0, (u32)set, 4);
	t0 = ptimer(f->dev);
	assert_true(t0 >= set && t0 < set + 1000000000ULL);
	sleep_ms(5);
	t1 = ptimer(f->dev);
	assert_true(t1 >= t0 + 5000000ULL - 32);
	assert_true(t1 < t0 + 5000000ULL + 1000000000ULL);

	/* Reset goes back to the host clock. */
	vgsp_dev_reset(f->dev);
	h0 = host_ns();
	t0 = ptimer(f->dev);
	assert_true(t0 + 64 >= h0 && t0 < h0 + 1000000000ULL);
}

static void test_pcfg_mirror(void **state)
{
	struct fix *f = *state;
	u8 b[4];
	u32 o;

	assert_int_equal(rd32(f->dev, PCFG_MIRROR + 0x00), 0x233010de);
	assert_int_equal(rd32(f->dev, PCFG_MIRROR + 0x08), 0x030200a1);
	assert_int_equal(rd32(f->dev, PCFG_MIRROR + 0x2c), 0x16c110de);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PCFG_MIRROR + 0x02, 2), 0x2330);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR0, PCFG_MIRROR, 8),
			 0x00100000233010deULL);
	/* Every mirrored dword equals config space. */
	for (o = 0; o < 0x100; o += 4)
		assert_int_equal(rd32(f->dev, PCFG_MIRROR + o), cfg_rd(f->dev, o, 4));
	/* Live: a config write shows up in the mirror. */
	put_le(b, 0x0006, 2);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 0x04, b, 2), 0);
	assert_int_equal(rd32(f->dev, PCFG_MIRROR + 0x04), 0x00100006);
	/* The mirror is read-only: writing it does not change config space. */
	bar_wr(f->dev, VGSP_BAR0, PCFG_MIRROR + 0x04, 0, 4);
	bar_wr(f->dev, VGSP_BAR0, PCFG_MIRROR + 0x3c, 0, 4);
	assert_int_equal(cfg_rd(f->dev, 0x04, 2), 0x0006);
	assert_int_equal(cfg_rd(f->dev, 0x3c, 1), 0xff);
}

static void test_usable_fb_size_all_profiles(void **state)
{
	struct fake_fe fe;
	unsigned int i;

	vgsp_os_user_init();
	fake_fe_init(&fe, FE_IOVA, FE_SIZE);
	for (i = 0; i < vgsp_nprofiles; i++) {
		struct vgsp_dev *dev = vgsp_dev_create(&vgsp_profiles[i], test_uuid,
						       MSIX_VECTORS, &fake_fe_ops, &fe);

		assert_non_null(dev);
		/* 10/20/40/80 GiB in MiB. */
		assert_int_equal(rd32(dev, USABLE_FB_SIZE_IN_MB),
				 vgsp_profiles[i].fb_size >> 20);
		bar_wr(dev, VGSP_BAR0, USABLE_FB_SIZE_IN_MB, 1, 4);
		assert_int_equal(rd32(dev, USABLE_FB_SIZE_IN_MB),
				 vgsp_profiles[i].fb_size >> 20);
		vgsp_dev_destroy(dev);
	}
	assert_int_equal(vgsp_profile_find("h100-10g")->fb_size >> 20, 10240);
	assert_int_equal(vgsp_profile_find("h100-80g")->fb_size >> 20, 81920);
	fake_fe_fini(&fe);
}

static void test_msix_table(void **state)
{
	struct fix *f = *state;
	u32 tbl = cfg_rd(f->dev, VGSP_CAP_MSIX + 4, 4);
	u32 pba = cfg_rd(f->dev, VGSP_CAP_MSIX + 8, 4);
	unsigned int v;

	/* Where the capability says (BIR 0 = BAR0). */
	assert_int_equal(tbl, 0xb90000);
	assert_int_equal(pba, 0xba0000);
	for (v = 0; v < MSIX_VECTORS; v++) {
		u32 e = tbl + 16 * v;

		assert_int_equal(rd32(f->dev, e + 0), 0);
		assert_int_equal(rd32(f->dev, e + 4), 0);
		assert_int_equal(rd32(f->dev, e + 8), 0);
		assert_int_equal(rd32(f->dev, e + 12), 1);	/* masked */
	}
	assert_int_equal(rd32(f->dev, pba), 0);
	assert_int_equal(f->dev->cnt.bar0_unknown_reads, 0);

	/* Program vector 3: address dword aligned, mask bit only in ctrl. */
	bar_wr(f->dev, VGSP_BAR0, tbl + 48, 0x00000000fee01003ULL, 8);
	bar_wr(f->dev, VGSP_BAR0, tbl + 56, 0xfffffffe00004021ULL, 8);
	assert_int_equal(rd32(f->dev, tbl + 48), 0xfee01000);
	assert_int_equal(rd32(f->dev, tbl + 52), 0);
	assert_int_equal(rd32(f->dev, tbl + 56), 0x4021);
	assert_int_equal(rd32(f->dev, tbl + 60), 0);		/* unmasked */
	bar_wr(f->dev, VGSP_BAR0, tbl + 60, 0xffffffff, 4);
	assert_int_equal(rd32(f->dev, tbl + 60), 1);
	/* Other vectors unaffected; PBA is read-only. */
	assert_int_equal(rd32(f->dev, tbl + 44), 1);
	bar_wr(f->dev, VGSP_BAR0, pba, 0xffffffff, 4);
	assert_int_equal(rd32(f->dev, pba), 0);

	vgsp_dev_reset(f->dev);
	assert_int_equal(rd32(f->dev, tbl + 48), 0);
	assert_int_equal(rd32(f->dev, tbl + 56), 0);
	assert_int_equal(rd32(f->dev, tbl + 60), 1);
}

/* ---- apertures ---- */

static void test_aperture_rw(void **state)
{
	struct fix *f = *state;
	static const unsigned int bars[] = { VGSP_BAR1, VGSP_BAR3 };
	unsigned int k;

	for (k = 0; k < VGSP_ARRAY_SIZE(bars); k++) {
		unsigned int bar = bars[k];
		u64 size = vgsp_dev_bar_size(f->dev, bar);
		u64 mid = size / 2 + VGSP_APERTURE_CHUNK - 8;

		/* Never written: zeroes everywhere. */
		assert_int_equal(bar_rd(f->dev, bar, 0, 8), 0);
		assert_int_equal(bar_rd(f->dev, bar, mid, 8), 0);
		assert_int_equal(bar_rd(f->dev, bar, size - 8, 8), 0);

		bar_wr(f->dev, bar, mid, 0x1122334455667788ULL, 8);
		assert_int_equal(bar_rd(f->dev, bar, mid, 8), 0x1122334455667788ULL);
		assert_int_equal(bar_rd(f->dev, bar, mid, 4), 0x55667788);
		assert_int_equal(bar_rd(f->dev, bar, mid + 4, 2), 0x3344);
		assert_int_equal(bar_rd(f->dev, bar, mid + 7, 1), 0x11);
		bar_wr(f->dev, bar, mid + 1, 0xab, 1);
		bar_wr(f->dev, bar, mid + 2, 0xcdef, 2);
		bar_wr(f->dev, bar, mid + 4, 0x01020304, 4);
		assert_int_equal(bar_rd(f->dev, bar, mid, 8), 0x01020304cdefab88ULL);
		/* The neighbouring chunk is still unbacked and reads 0. */
		assert_int_equal(bar_rd(f->dev, bar, mid + 8, 8), 0);
		bar_wr(f->dev, bar, size - 1, 0x7e, 1);
		assert_int_equal(bar_rd(f->dev, bar, size - 1, 1), 0x7e);
		assert_int_equal(bar_rd(f->dev, bar, size - 8, 8), 0x7e00000000000000ULL);
	}
	/* BAR1 and BAR3 are separate memories. */
	bar_wr(f->dev, VGSP_BAR1, 0x100, 0xaaaa, 2);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR3, 0x100, 2), 0);
	assert_int_equal(f->dev->bar1->backed, 3 * VGSP_APERTURE_CHUNK);
	assert_int_equal(f->dev->bar3->backed, 2 * VGSP_APERTURE_CHUNK);
}

static void test_aperture_cap(void **state)
{
	struct fix *f = *state;
	u64 nchunks = VGSP_APERTURE_CAP / VGSP_APERTURE_CHUNK;
	struct vgsp_counters exp;
	u64 i;
	u8 b = 0x42;

	/* The cap must be reachable inside BAR1 for this test to mean anything. */
	assert_true(vgsp_dev_bar_size(f->dev, VGSP_BAR1) >
		    VGSP_APERTURE_CAP + VGSP_APERTURE_CHUNK);
	for (i = 0; i < nchunks; i++)
		assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR1,
						    i * VGSP_APERTURE_CHUNK, &b, 1), 0);
	assert_int_equal(f->dev->bar1->backed, VGSP_APERTURE_CAP);
	exp = f->dev->cnt;
	/* One more chunk is refused and counted as a bad BAR access. */
	assert_int_equal(vgsp_dev_bar_write(f->dev, VGSP_BAR1,
					    nchunks * VGSP_APERTURE_CHUNK, &b, 1),
			 -ENOMEM);
	exp.bar_bad++;
	check_cnt(f->dev, &exp);
	assert_int_equal(f->dev->bar1->backed, VGSP_APERTURE_CAP);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR1, nchunks * VGSP_APERTURE_CHUNK, 1), 0);
	/* Backed chunks stay writable; BAR3 has its own budget. */
	bar_wr(f->dev, VGSP_BAR1, 8, 0x99, 1);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR1, 8, 1), 0x99);
	bar_wr(f->dev, VGSP_BAR3, 0, 0x77, 1);
	/* Reset frees the backing, so the cap is available again. */
	vgsp_dev_reset(f->dev);
	assert_int_equal(f->dev->bar1->backed, 0);
	bar_wr(f->dev, VGSP_BAR1, nchunks * VGSP_APERTURE_CHUNK, 0x31, 1);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR1, nchunks * VGSP_APERTURE_CHUNK, 1),
			 0x31);
}

/* ---- reset ---- */

static void test_reset(void **state)
{
	struct fix *f = *state;
	u32 unk = unknown_qword(f->dev);
	struct vgsp_counters exp;
	u8 cfg0[256], cfg1[256], b[4];
	u32 o;

	for (o = 0; o < sizeof(cfg0); o += 4)
		assert_int_equal(vgsp_dev_cfg_read(f->dev, o, cfg0 + o, 4), 0);

	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH + 16, 0xfeedface, 4);
	bar_wr(f->dev, VGSP_BAR0, unk, 1, 4);
	put_le(b, 0x0406, 2);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 0x04, b, 2), 0);
	put_le(b, 0xfd000000, 4);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, 0x10, b, 4), 0);
	put_le(b, 0x8001, 2);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, VGSP_CAP_MSIX + 2, b, 2), 0);
	put_le(b, 0x0001, 2);
	assert_int_equal(vgsp_dev_cfg_write(f->dev, VGSP_CAP_MSI + 2, b, 2), 0);
	assert_true(vgsp_cfg_msix_enabled(&f->dev->cfg));
	assert_true(vgsp_cfg_msi_enabled(&f->dev->cfg));
	bar_wr(f->dev, VGSP_BAR1, 0x1000, 0xabcdef, 4);
	bar_wr(f->dev, VGSP_BAR3, 0x2000, 0x123456, 4);

	exp = f->dev->cnt;
	vgsp_dev_reset(f->dev);
	exp.resets++;
	check_cnt(f->dev, &exp);	/* counters kept, resets +1, nothing else */

	assert_memory_equal(f->dev->uuid, test_uuid, 16);
	assert_string_equal(f->dev->name, TEST_UUID_STR);
	assert_int_equal(rd32(f->dev, PBUS_SW_SCRATCH + 16), 0);
	assert_int_equal(rd32(f->dev, PMC_BOOT_0), GH100_BOOT_0);
	for (o = 0; o < sizeof(cfg1); o += 4)
		assert_int_equal(vgsp_dev_cfg_read(f->dev, o, cfg1 + o, 4), 0);
	assert_memory_equal(cfg0, cfg1, sizeof(cfg0));
	assert_false(vgsp_cfg_msix_enabled(&f->dev->cfg));
	assert_false(vgsp_cfg_msi_enabled(&f->dev->cfg));
	assert_int_equal(vgsp_cfg_command(&f->dev->cfg), 0);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR1, 0x1000, 4), 0);
	assert_int_equal(bar_rd(f->dev, VGSP_BAR3, 0x2000, 4), 0);
	assert_int_equal(f->dev->bar1->backed, 0);
	assert_int_equal(f->dev->bar3->backed, 0);

	vgsp_dev_reset(f->dev);
	assert_int_equal(f->dev->cnt.resets, exp.resets + 1);
}

/* ---- interrupts and DMA ---- */

static void test_raise_irq(void **state)
{
	struct fix *f = *state;
	struct vgsp_counters exp = f->dev->cnt;
	static const struct vgsp_fe_ops no_irq_ops = {
		.dma_read = NULL, .dma_write = NULL, .irq_signal = NULL,
	};
	const struct vgsp_fe_ops *saved;

	f->fe.irq_ret = true;
	vgsp_dev_raise_irq(f->dev, 0);
	vgsp_dev_raise_irq(f->dev, 5);
	exp.irqs_signalled += 2;
	check_cnt(f->dev, &exp);
	/* The frontend says nothing was delivered (no trigger / masked). */
	f->fe.irq_ret = false;
	vgsp_dev_raise_irq(f->dev, 7);
	exp.irqs_suppressed++;
	check_cnt(f->dev, &exp);
	assert_int_equal(f->fe.nirqs, 3);
	assert_int_equal(f->fe.irq_vec[0], 0);
	assert_int_equal(f->fe.irq_vec[1], 5);
	assert_int_equal(f->fe.irq_vec[2], 7);

	/* A frontend without irq delivery suppresses everything. */
	saved = f->dev->fe_ops;
	f->dev->fe_ops = &no_irq_ops;
	vgsp_dev_raise_irq(f->dev, 1);
	exp.irqs_suppressed++;
	check_cnt(f->dev, &exp);
	f->dev->fe_ops = saved;
}

static void cfg_wr16(struct vgsp_dev *dev, u32 off, u16 v)
{
	u8 b[2] = { (u8)v, (u8)(v >> 8) };

	assert_int_equal(vgsp_dev_cfg_write(dev, off, b, 2), 0);
}

/*
 * Review 1i: Bus Master Enable gates every device DMA (power-on and after
 * reset it is off); the frontend is never asked while it is off.
 */
static void test_bme_gates_dma(void **state)
{
	struct fix *f = *state;
	u8 b[4] = { 1, 2, 3, 4 };

	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA, b, 4), -EIO);
	assert_int_equal(vgsp_dev_dma_write(f->dev, FE_IOVA, b, 4), -EIO);
	assert_int_equal(f->dev->cnt.dma_blocked, 2);
	assert_int_equal(f->dev->cnt.dma_errors, 2);
	assert_int_equal(f->fe.dma_reads + f->fe.dma_writes, 0);
	cfg_wr16(f->dev, 4, 0x0002);			/* memory only */
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA, b, 4), -EIO);
	cfg_wr16(f->dev, 4, 0x0006);			/* + bus master */
	assert_int_equal(vgsp_dev_dma_write(f->dev, FE_IOVA, b, 4), 0);
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA, b, 4), 0);
	assert_int_equal(f->fe.dma_reads + f->fe.dma_writes, 2);
	assert_int_equal(f->dev->cnt.dma_blocked, 3);
	/* a device reset clears the command register: off again */
	vgsp_dev_reset(f->dev);
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA, b, 4), -EIO);
	assert_int_equal(f->dev->cnt.dma_blocked, 4);
}

/*
 * Review 1i: interrupts follow the guest's enables. INTx unless the
 * command register disables it; MSI when enabled; MSI-X when enabled and
 * not function-masked. Held-back raises are counted (irqs_gated).
 */
static void test_irq_enables_gate(void **state)
{
	struct fix *f = *state;
	const u32 msi = VGSP_CAP_MSI + 2, msix = VGSP_CAP_MSIX + 2;
	u8 b[2];
	u16 msix_ctl;

	f->fe.irq_ret = true;
	vgsp_dev_raise_irq(f->dev, 0);			/* INTx allowed */
	assert_int_equal(f->fe.nirqs, 1);
	cfg_wr16(f->dev, 4, 0x0400);			/* INTx disabled */
	vgsp_dev_raise_irq(f->dev, 0);
	assert_int_equal(f->fe.nirqs, 1);
	assert_int_equal(f->dev->cnt.irqs_gated, 1);
	cfg_wr16(f->dev, msi, 0x0001);			/* MSI on */
	vgsp_dev_raise_irq(f->dev, 0);
	assert_int_equal(f->fe.nirqs, 2);
	cfg_wr16(f->dev, msi, 0x0000);
	assert_int_equal(vgsp_dev_cfg_read(f->dev, msix, b, 2), 0);
	msix_ctl = (u16)(b[0] | b[1] << 8);
	cfg_wr16(f->dev, msix, msix_ctl | 0xc000);	/* on, masked */
	vgsp_dev_raise_irq(f->dev, 3);
	assert_int_equal(f->fe.nirqs, 2);
	assert_int_equal(f->dev->cnt.irqs_gated, 2);
	cfg_wr16(f->dev, msix, (msix_ctl & ~0x4000) | 0x8000);	/* on */
	vgsp_dev_raise_irq(f->dev, 3);
	assert_int_equal(f->fe.nirqs, 3);
	assert_int_equal(f->fe.irq_vec[2], 3);
	cfg_wr16(f->dev, msix, msix_ctl & ~0xc000);	/* off: INTx disabled */
	vgsp_dev_raise_irq(f->dev, 0);
	assert_int_equal(f->fe.nirqs, 3);
	assert_int_equal(f->dev->cnt.irqs_gated, 3);
	assert_int_equal(f->dev->cnt.irqs_signalled, 3);
}

static void test_dma(void **state)
{
	struct fix *f = *state;
	struct vgsp_counters exp = f->dev->cnt;
	static const struct vgsp_fe_ops no_dma_ops = { 0 };
	const struct vgsp_fe_ops *saved;
	u8 out[16], in[16];
	unsigned int i;

	fake_bus_master(f->dev);
	exp.cfg_reads++;
	exp.cfg_writes++;
	for (i = 0; i < sizeof(out); i++)
		out[i] = (u8)(0xc0 + i);
	assert_int_equal(vgsp_dev_dma_write(f->dev, FE_IOVA + 0x100, out,
					    sizeof(out)), 0);
	assert_memory_equal(f->fe.mem + 0x100, out, sizeof(out));
	f->fe.mem[0x200] = 0x5e;
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA + 0x1f8, in, 16), 0);
	assert_int_equal(in[8], 0x5e);
	exp.dma_writes++;
	exp.dma_reads++;
	check_cnt(f->dev, &exp);

	/* Failures return the frontend's error and count as errors too. */
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA - 16, in, 16), -EFAULT);
	assert_int_equal(vgsp_dev_dma_write(f->dev, FE_IOVA + FE_SIZE - 8, out, 16),
			 -EFAULT);
	exp.dma_reads++;
	exp.dma_writes++;
	exp.dma_errors += 2;
	check_cnt(f->dev, &exp);
	f->fe.dma_err = -EIO;
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA, in, 4), -EIO);
	exp.dma_reads++;
	exp.dma_errors++;
	check_cnt(f->dev, &exp);
	f->fe.dma_err = 0;
	assert_int_equal(f->fe.dma_reads, 3);
	assert_int_equal(f->fe.dma_writes, 2);

	/* No guest-memory access at all: -ENODEV, counted. */
	saved = f->dev->fe_ops;
	f->dev->fe_ops = &no_dma_ops;
	assert_int_equal(vgsp_dev_dma_read(f->dev, FE_IOVA, in, 4), -ENODEV);
	assert_int_equal(vgsp_dev_dma_write(f->dev, FE_IOVA, out, 4), -ENODEV);
	exp.dma_reads++;
	exp.dma_writes++;
	exp.dma_errors += 2;
	check_cnt(f->dev, &exp);
	f->dev->fe_ops = saved;

	vgsp_dev_dma_unmapped(f->dev, FE_IOVA, FE_SIZE);
	exp.dma_unmaps++;
	check_cnt(f->dev, &exp);
}

/* ---- views ---- */

static void test_view_counters(void **state)
{
	/* docs/interfaces.md, <uuid>/counters, in this order. */
	static const char *const names[] = {
		"cfg_reads", "cfg_writes", "cfg_bad", "bar0_reads", "bar0_writes",
		"bar0_unknown_reads", "bar0_unknown_writes", "bar0_bad",
		"bar1_reads", "bar1_writes", "bar3_reads", "bar3_writes",
		"bar_bad", "irqs_signalled", "irqs_suppressed", "irqs_gated",
		"resets", "dma_reads", "dma_writes", "dma_errors",
		"dma_blocked", "dma_unmaps", "opens",
		"closes", "region_bad", "ioctl_bad", "log_suppressed",
	};
	struct fix *f = *state;
	struct str_printer sp;
	char want[2048];
	size_t n = 0;
	unsigned int i;
	u8 b[4];

	assert_int_equal(vgsp_ncounters, VGSP_ARRAY_SIZE(names));
	/* Known activity: 2 config reads, 1 BAR0 write, 3 bad BAR0 reads. */
	assert_int_equal(vgsp_dev_cfg_read(f->dev, 0, b, 4), 0);
	assert_int_equal(vgsp_dev_cfg_read(f->dev, 4, b, 4), 0);
	bar_wr(f->dev, VGSP_BAR0, PBUS_SW_SCRATCH, 1, 4);
	for (i = 0; i < 3; i++)
		assert_int_equal(vgsp_dev_bar_read(f->dev, VGSP_BAR0, 1, b, 4),
				 -EINVAL);
	for (i = 0; i < VGSP_ARRAY_SIZE(names); i++) {
		unsigned int v = !strcmp(names[i], "cfg_reads") ? 2 :
				 !strcmp(names[i], "bar0_writes") ? 1 :
				 !strcmp(names[i], "bar0_bad") ? 3 : 0;

		n += snprintf(want + n, sizeof(want) - n, "%s %u\n", names[i], v);
	}
	str_printer_init(&sp);
	show_core_view(f->dev, "counters", &sp);
	assert_string_equal(sp.buf, want);
	str_printer_fini(&sp);
}

static void test_view_info(void **state)
{
	/* docs/interfaces.md <uuid>/info; `open` and `irq_mode` are frontend
	 * state that the frontend appends after the core's lines. */
	static const char want[] =
		"uuid " TEST_UUID_STR "\n"
		"type h100-10g\n"
		"name H100-SXM5-10GB\n"
		"product NVIDIA H100 80GB HBM3\n"
		"id 10de:2330\n"
		"subsystem 10de:16c1\n"
		"chip GH100\n"
		"fb_bytes 10737418240\n"
		"bar0_size 16777216\n"
		"bar1_size 268435456\n"
		"bar3_size 33554432\n"
		"msix_vectors 8\n";
	struct fix *f = *state;
	struct str_printer sp;

	str_printer_init(&sp);
	show_core_view(f->dev, "info", &sp);
	assert_string_equal(sp.buf, want);
	str_printer_fini(&sp);
}

static void test_view_bar0_unknown(void **state)
{
	struct fix *f = *state;
	struct str_printer sp;
	char want[8192];
	size_t n = 0;
	u32 first = unknown_qword(f->dev), o, seen = 0;

	/* Empty worklist. */
	str_printer_init(&sp);
	show_core_view(f->dev, "bar0_unknown", &sp);
	assert_string_equal(sp.buf, "untracked 0\n");
	str_printer_fini(&sp);

	/* 64 distinct unmodelled dwords listed in first-touch order, then
	 * accesses to a 65th and 66th land in `untracked`. */
	for (o = first; seen < VGSP_UNKNOWN_TRACK + 2; o -= 4) {
		if (vgsp_regmodel_find(&f->dev->regs, o) >= 0)
			continue;
		if (seen < VGSP_UNKNOWN_TRACK)
			n += snprintf(want + n, sizeof(want) - n,
				      "0x%06x reads 1 writes %u\n", o, seen & 1);
		assert_int_equal(bar_rd(f->dev, VGSP_BAR0, o, 4), 0);
		if (seen & 1)
			bar_wr(f->dev, VGSP_BAR0, o, 7, 4);
		seen++;
	}
	/* Offsets 65 (1 read) and 66 (1 read + 1 write) are untracked. */
	snprintf(want + n, sizeof(want) - n, "untracked 3\n");
	str_printer_init(&sp);
	show_core_view(f->dev, "bar0_unknown", &sp);
	assert_string_equal(sp.buf, want);
	str_printer_fini(&sp);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_destroy_all_profiles),
		cmocka_unit_test(test_create_rejects_bad_args),
		cmocka_unit_test(test_uuid_to_str),
		T(test_bar0_access_rules),
		T(test_aperture_access_rules),
		T(test_missing_regions),
		T(test_cfg_access_counts),
		T(test_unknown_offsets),
		T(test_pmc_boot_sizes),
		T(test_scratch_byte_merge),
		T(test_ptimer),
		T(test_pcfg_mirror),
		cmocka_unit_test(test_usable_fb_size_all_profiles),
		T(test_msix_table),
		T(test_aperture_rw),
		T(test_aperture_cap),
		T(test_reset),
		T(test_raise_irq),
		T(test_dma),
		T(test_bme_gates_dma),
		T(test_irq_enables_gate),
		T(test_view_counters),
		T(test_view_info),
		T(test_view_bar0_unknown),
	};
#undef T

	return cmocka_run_group_tests_name("device", tests, NULL, NULL);
}
