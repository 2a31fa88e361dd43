// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GSP HAL of GH100: FSP-booted GSP (§B.6, §F.2). The GSP falcon, the FSP
 * EMEM mailbox, the RISC-V status the driver checks after the FSP answer
 * and the boot-progress scratch registers. A GA100 sibling would list the
 * SEC2 falcon and the TU102-style RISC-V status instead.
 */
#include "gsp_priv.h"

#define NV_THERM_I2CS_SCRATCH		0x0200bc	/* FSP_BOOT_COMPLETE */
#define FSP_BOOT_COMPLETE_SUCCESS	0xff
#define NV_PFB_PRI_MMU_WPR2_ADDR_LO	0x1fa824
#define NV_PFB_PRI_MMU_WPR2_ADDR_HI	0x1fa828
#define GH100_RISCV_IRQMASK		0x111528
#define GH100_RISCV_IRQDEST		0x11152c
#define GH100_RISCV_BCR_CTRL		0x111668
#define BCR_CTRL_VALID			0x1
/* SWGEN0 and HALT are routed to the host (kflcnReadIntrStatus_GA102). */
#define GH100_RISCV_IRQ_HOST		(VGSP_IRQ_SWGEN0 | (1U << 4))
/*
 * Vector of the GSP in the CPU interrupt tree, reported to the guest in
 * INTR_GET_KERNEL_TABLE. Kept in top-level subtree 0 (vectors 0..63),
 * the subtree the zeroed category map of that reply points at.
 */
#define GH100_GSP_VECTOR		0x20
/*
 * Our choice, reported through INTR_GET_KERNEL_TABLE: subtree 3 (vectors
 * 0xc0..0xff), the one the table maps to the notification categories.
 */
#define GH100_GR_NONSTALL_VECTOR	0xc0

static const struct vgsp_reg gh100_gsp_regs[] = {
	{ .name = "FSP_BOOT_COMPLETE", .offset = NV_THERM_I2CS_SCRATCH,
	  .reset = FSP_BOOT_COMPLETE_SUCCESS, .ro_mask = ~0U },
	{ .name = "WPR2_ADDR_LO", .offset = NV_PFB_PRI_MMU_WPR2_ADDR_LO,
	  .ro_mask = ~0U },
	{ .name = "WPR2_ADDR_HI", .offset = NV_PFB_PRI_MMU_WPR2_ADDR_HI,
	  .ro_mask = ~0U },
	{ .name = "GSP_RISCV_CPUCTL", .offset = VGSP_GH100_RISCV_CPUCTL,
	  .reset = VGSP_RISCV_CPUCTL_HALTED, .ro_mask = ~0U },
	{ .name = "GSP_RISCV_IRQMASK", .offset = GH100_RISCV_IRQMASK,
	  .reset = GH100_RISCV_IRQ_HOST, .ro_mask = ~0U },
	{ .name = "GSP_RISCV_IRQDEST", .offset = GH100_RISCV_IRQDEST,
	  .reset = GH100_RISCV_IRQ_HOST, .ro_mask = ~0U },
	{ .name = "GSP_RISCV_BCR_CTRL", .offset = GH100_RISCV_BCR_CTRL,
	  .reset = BCR_CTRL_VALID, .ro_mask = BCR_CTRL_VALID },
};

static const struct vgsp_reg_table gh100_gsp_tables[] = {
	VGSP_REG_TABLE(gh100_gsp_regs),
	VGSP_REG_TABLE(vgsp_gsp_falcon_regs),
	VGSP_REG_TABLE(vgsp_fsp_gh100_regs),
	VGSP_REG_TABLE(vgsp_intr_regs),
};

const struct vgsp_gsp_chip vgsp_gsp_chip_gh100 = {
	.chip = &vgsp_chip_gh100,
	.tables = gh100_gsp_tables,
	.ntables = VGSP_ARRAY_SIZE(gh100_gsp_tables),
	.irq_vector = GH100_GSP_VECTOR,
	.gr_nonstall_vector = GH100_GR_NONSTALL_VECTOR,
};
