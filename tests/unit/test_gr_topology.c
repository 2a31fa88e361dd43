// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The GR topology the guest sees: every place the r535 ABI reports GPCs,
 * TPCs and SMs (INTERNAL_STATIC_KGR_GET_INFO, _FLOORSWEEPING_MASKS,
 * _GLOBAL_SM_ORDER, _PPC_MASKS and GspStaticConfigInfo's GPC/TPC masks)
 * agrees with the others and with the chip file, and gives an H100 SXM5's
 * 132 SMs. CPU-RM hands these to libcuda as they are (GR_GET_INFO,
 * GR_GET_GLOBAL_SM_ORDER, GR_GET_GPC_MASK, GR_GET_TPC_MASK): libcuda's SM
 * count is GLOBAL_SM_ORDER's numSm once SHADER_PIPE_SUB_COUNT is set.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "device.h"
#include "os_user.h"
#include "chip.h"
#include "profiles.h"
#include "helpers/dev_fixture.h"
#include "gsp/gsp_priv.h"
#include "abi/r535/r535.h"

#define ENGINES		8
#define INFO_ROW	(0x35 * 8)
#define FS_ROW		296
#define SM_ROW		(240 * 12 + 4)
#define PPC_ROW		(12 * 4)

/* NV2080_CTRL_GR_INFO_INDEX_* */
#define SHADER_PIPE_COUNT		0x07
#define THREAD_STACK_SCALING_FACTOR	0x08
#define SHADER_PIPE_SUB_COUNT		0x09
#define LITTER_NUM_GPCS			0x14
#define LITTER_NUM_TPC_PER_GPC		0x17
#define LITTER_NUM_PES_PER_GPC		0x1c
#define GPU_CORE_COUNT			0x1d
#define LITTER_NUM_TPCS_PER_PES		0x1e
#define LITTER_NUM_SM_PER_TPC		0x20
#define TENSOR_CORE_COUNT		0x23
#define FAMILY_MAX_TPC_PER_GPC		0x2a

struct topo {
	u8 info[ENGINES * INFO_ROW];
	u8 fs[ENGINES * FS_ROW];
	u8 sm[ENGINES * SM_ROW];
	u8 ppc[ENGINES * PPC_ROW];
	u8 si[R535_SI_SIZE];
};

static u32 ctl(struct dev_fx *f, u32 cmd, u8 *p, u32 size)
{
	bool known = false;
	u32 st = r535_control(f->dev->gsp, cmd, p, size, &known);

	assert_true(known);
	return st;
}

static struct topo *load(struct dev_fx *f)
{
	struct topo *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	assert_int_equal(ctl(f, 0x20800a2a, t->info, sizeof(t->info)), NV_OK);
	assert_int_equal(ctl(f, 0x20800a26, t->fs, sizeof(t->fs)), NV_OK);
	assert_int_equal(ctl(f, 0x20800a22, t->sm, sizeof(t->sm)), NV_OK);
	assert_int_equal(ctl(f, 0x20800a30, t->ppc, sizeof(t->ppc)), NV_OK);
	assert_int_equal(r535_static_info(f->dev->gsp, t->si, sizeof(t->si)),
			 R535_SI_SIZE);
	return t;
}

static u32 info(const struct topo *t, u32 index)
{
	assert_int_equal(vgsp_get32(t->info, 8 * index), index);
	return vgsp_get32(t->info, 8 * index + 4);
}

static u32 fs(const struct topo *t, u32 off)
{
	return vgsp_get32(t->fs, off);
}

static u16 get16(const u8 *b, u32 off)
{
	return b[off] | (u16)b[off + 1] << 8;
}

static unsigned int bits(u32 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The numbers an H100 SXM5 80GB has (whitepaper), from every source. */
static void test_h100_sxm5_counts(void **state)
{
	struct dev_fx *f = *state;
	const struct vgsp_chip *c = f->dev->profile->chip;
	struct topo *t = load(f);

	assert_int_equal(vgsp_chip_num_sms(c), 132);
	assert_int_equal(vgsp_chip_num_tpcs(c), 66);
	assert_int_equal(c->gr.gpcs, 8);
	assert_int_equal(info(t, SHADER_PIPE_COUNT), 8);
	assert_int_equal(info(t, SHADER_PIPE_SUB_COUNT), 66);
	assert_int_equal(info(t, THREAD_STACK_SCALING_FACTOR), 132);
	assert_int_equal(info(t, LITTER_NUM_SM_PER_TPC), 2);
	assert_int_equal(info(t, GPU_CORE_COUNT), 16896);
	assert_int_equal(info(t, TENSOR_CORE_COUNT), 528);
	assert_int_equal(get16(t->sm, 240 * 12), 132);		/* numSm */
	assert_int_equal(get16(t->sm, 240 * 12 + 2), 66);	/* numTpc */
	free(t);
}

/* Counts vs masks vs the SM order table vs the static config info. */
static void test_topology_agrees(void **state)
{
	struct dev_fx *f = *state;
	struct topo *t = load(f);
	u32 gpc_mask = fs(t, 0), ngpc = info(t, SHADER_PIPE_COUNT);
	u32 ntpc = info(t, SHADER_PIPE_SUB_COUNT);
	u32 spt = info(t, LITTER_NUM_SM_PER_TPC);
	u32 tpg = info(t, LITTER_NUM_TPC_PER_GPC);
	u32 nsm = get16(t->sm, 240 * 12), sum = 0, g;
	u32 sms_in[12] = { 0 };
	u8 seen[12][16][4] = { { { 0 } } };
	u16 tpc_of[240][2];
	unsigned int i;

	/* GPCs: the mask is the count, within the die's GPCs */
	assert_int_equal(bits(gpc_mask), ngpc);
	assert_int_equal(fs(t, 100), gpc_mask);			/* physGpcMask */
	assert_true(gpc_mask < (1U << info(t, LITTER_NUM_GPCS)));
	assert_int_equal(vgsp_get32(t->si, R535_SI_GPC_MASK), gpc_mask);
	assert_true(info(t, FAMILY_MAX_TPC_PER_GPC) >= tpg);

	for (g = 0; g < 12; g++) {
		u32 tm = fs(t, 4 + 4 * g), tc = fs(t, 52 + 4 * g);
		u32 pes = vgsp_get32(t->ppc, 4 * g), want_pes = 0, k;

		if (!(gpc_mask & (1U << g))) {
			assert_int_equal(tm, 0);
			assert_int_equal(tc, 0);
			assert_int_equal(pes, 0);
			continue;
		}
		/* TPC mask vs count vs the die's TPCs per GPC */
		assert_int_equal(bits(tm), tc);
		assert_true(tm < (1U << tpg));
		assert_true(tc >= 1);
		sum += tc;
		/* the static config info carries the same TPC mask */
		assert_int_equal(vgsp_get32(t->si, R535_SI_TPC_INFO + 8 * g), g);
		assert_int_equal(vgsp_get32(t->si, R535_SI_TPC_INFO + 8 * g + 4),
				 tm);
		/* PES: each enabled TPC's PES is present, no empty PES */
		for (k = 0; k < tpg; k++)
			if (tm & (1U << k))
				want_pes |= 1U << fs(t, 152 + 4 * k);
		assert_int_equal(pes, want_pes);
		assert_int_equal(fs(t, 192 + 4 * g), bits(pes));
		assert_true(bits(pes) <= info(t, LITTER_NUM_PES_PER_GPC));
	}
	for (i = 0; i < tpg; i++)
		assert_int_equal(fs(t, 152 + 4 * i),
				 i / info(t, LITTER_NUM_TPCS_PER_PES));
	assert_int_equal(sum, ntpc);

	/* the SM order table: one entry per enabled SM, each exactly once */
	assert_int_equal(nsm, ntpc * spt);
	assert_int_equal(get16(t->sm, 240 * 12 + 2), ntpc);
	assert_int_equal(info(t, THREAD_STACK_SCALING_FACTOR), nsm);
	assert_int_equal(info(t, GPU_CORE_COUNT) % nsm, 0);
	for (i = 0; i < nsm; i++) {
		const u8 *e = t->sm + 12 * i;
		u16 gpc = get16(e, 0), ltpc = get16(e, 2), lsm = get16(e, 4);
		u16 gtpc = get16(e, 6);

		assert_true(gpc < 12 && (gpc_mask & (1U << gpc)));
		assert_true(ltpc < 16 && (fs(t, 4 + 4 * gpc) & (1U << ltpc)));
		assert_true(lsm < spt);
		assert_int_equal(seen[gpc][ltpc][lsm], 0);
		seen[gpc][ltpc][lsm] = 1;
		sms_in[gpc]++;
		assert_int_equal(get16(e, 8), gpc);		/* virtualGpcId */
		assert_int_equal(get16(e, 10), ltpc);		/* migratableTpcId */
		/* global TPC ids: dense, one per (GPC, local TPC) */
		assert_true(gtpc < ntpc);
		if (lsm == 0) {
			tpc_of[gtpc][0] = gpc;
			tpc_of[gtpc][1] = ltpc;
		} else {
			assert_int_equal(tpc_of[gtpc][0], gpc);
			assert_int_equal(tpc_of[gtpc][1], ltpc);
		}
	}
	for (g = 0; g < 12; g++)
		assert_int_equal(sms_in[g], fs(t, 52 + 4 * g) * spt);
	/* entries past numSm stay zero */
	for (i = nsm * 12; i < 240 * 12; i++)
		assert_int_equal(t->sm[i], 0);
	free(t);
}

/* Only GR0 exists: the rows of the other engines stay zero. */
static void test_other_engines_empty(void **state)
{
	struct topo *t = load(*state);
	unsigned int i;

	for (i = INFO_ROW; i < sizeof(t->info); i += 8)
		assert_int_equal(vgsp_get32(t->info, i + 4), 0);
	for (i = FS_ROW; i < sizeof(t->fs); i++)
		assert_int_equal(t->fs[i], 0);
	for (i = SM_ROW; i < sizeof(t->sm); i++)
		assert_int_equal(t->sm[i], 0);
	for (i = PPC_ROW; i < sizeof(t->ppc); i++)
		assert_int_equal(t->ppc[i], 0);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_h100_sxm5_counts,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_topology_agrees,
						dev_fx_setup, dev_fx_teardown),
		cmocka_unit_test_setup_teardown(test_other_engines_empty,
						dev_fx_setup, dev_fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
