/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Per-chip HAL: identity registers and the register tables a chip adds to
 * BAR0. GH100 (FSP boot) is the first; GA100 (SEC2 boot) is meant to be a
 * sibling file with its own table, not #ifdefs in shared code.
 */
#ifndef VGSP_CHIP_H
#define VGSP_CHIP_H

#include "regmodel.h"

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
};

extern const struct vgsp_chip vgsp_chip_gh100;

#endif /* VGSP_CHIP_H */
