/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Per-chip HAL: identity registers and the register tables a chip adds to
 * BAR0. GH100 (FSP boot) is the first; GA100 (SEC2 boot) is meant to be a
 * sibling file with its own table, not #ifdefs in shared code.
 */
#ifndef VGSP_CHIP_H
#define VGSP_CHIP_H

#include "regmodel.h"

/* Most GPCs a chip may describe (NV2080_CTRL_INTERNAL_GR_MAX_GPC is 12). */
#define VGSP_CHIP_MAX_GPC	12

/*
 * GR floorsweeping of the part a chip presents: the GPCs present (0..gpcs-1)
 * and the TPCs present in each (0..tpcs[g]-1). Every count, mask and SM
 * table the GSP ABI reports is derived from this, so they cannot disagree.
 */
struct vgsp_chip_gr {
	u8 gpcs;			/* enabled GPCs */
	u8 tpcs[VGSP_CHIP_MAX_GPC];	/* enabled TPCs per GPC */
	u8 sms_per_tpc;
	u8 max_gpcs;			/* design (litter) values of the die */
	u8 max_tpcs_per_gpc;
	u8 pes_per_gpc;
	u8 tpcs_per_pes;
	u16 cores_per_sm;		/* FP32 lanes per SM */
	u16 tensor_cores_per_sm;
};

struct vgsp_chip {
	const char *name;		/* "GH100" */
	u32 pmc_boot_0;
	u32 pmc_boot_1;
	u32 pmc_boot_42;
	const struct vgsp_reg_table *tables;
	unsigned int ntables;
	/*
	 * BAR0 bases GSP-RM reports in GET_CHIP_INFO.regBases[NV_REG_BASE_*]:
	 * CPU-RM maps the usermode doorbell window (VOLTA_USERMODE_A) and the
	 * timer at these offsets (gpuGetRegBaseOffset_FWCLIENT).
	 */
	u32 reg_base_gr, reg_base_timer, reg_base_master, reg_base_usermode;
	/* Maximum clocks libcuda reports (CLOCK_RATE, MEMORY_CLOCK_RATE), kHz */
	u32 gpc_clk_max_khz, mem_clk_max_khz;
	struct vgsp_chip_gr gr;
};

static inline u32 vgsp_chip_gpc_mask(const struct vgsp_chip *c)
{
	return (1U << c->gr.gpcs) - 1;
}

static inline u32 vgsp_chip_tpc_mask(const struct vgsp_chip *c, unsigned int gpc)
{
	return gpc < c->gr.gpcs ? (1U << c->gr.tpcs[gpc]) - 1 : 0;
}

static inline unsigned int vgsp_chip_num_tpcs(const struct vgsp_chip *c)
{
	unsigned int g, n = 0;

	for (g = 0; g < c->gr.gpcs; g++)
		n += c->gr.tpcs[g];
	return n;
}

static inline unsigned int vgsp_chip_num_sms(const struct vgsp_chip *c)
{
	return vgsp_chip_num_tpcs(c) * c->gr.sms_per_tpc;
}

extern const struct vgsp_chip vgsp_chip_gh100;

#endif /* VGSP_CHIP_H */
