// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GH100 chip HAL: identity and always-present BAR0 registers.
 * Values from docs/reference gsp-protocol.md §B.1–§B.3.
 * GSP/FSP falcon registers are added by the GSP emulation (gsp/).
 */
#include "../chip.h"
#include "../device.h"
#include "../pci_cfg.h"

#define NV_PMC_BOOT_0			0x000000
#define NV_PMC_BOOT_1			0x000004
#define NV_PMC_ENABLE			0x000200
#define NV_PMC_BOOT_42			0x000a00
#define NV_PBUS_SW_SCRATCH(i)		(0x001400 + 4 * (i))
#define NV_PTIMER_TIME_0		0x009400
#define NV_PTIMER_TIME_1		0x009410
#define NV_PCFG				0x088000	/* config-space mirror */
#define NV_EP_PCFGM			0x092000	/* GH100 EP mirror */
#define NV_USABLE_FB_SIZE_IN_MB		0x1183a4

#define GH100_BOOT_0			0x180000a1
#define GH100_BOOT_42			0x180a1000

/*
 * PTIMER: a free-running ns counter. Guest writes set the current time;
 * the model keeps the offset to the host clock in the two stored values.
 */
static u64 ptimer_now(struct vgsp_dev *dev)
{
	return vgsp_now_ns() + vgsp_load64(&dev->timer_offset_ns);
}

static u32 ptimer_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		       unsigned int idx, u32 stored)
{
	u64 now = ptimer_now(dev);

	return reg->offset == NV_PTIMER_TIME_0 ? (u32)now & ~0x1fU
					       : (u32)(now >> 32);
}

static void ptimer_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			 unsigned int idx, u32 old, u32 val)
{
	u64 now = ptimer_now(dev);

	if (reg->offset == NV_PTIMER_TIME_0)
		now = (now & ~0xffffffffULL) | val;
	else
		now = (now & 0xffffffffULL) | ((u64)val << 32);
	vgsp_store64(&dev->timer_offset_ns, now - vgsp_now_ns());
}

static u32 fb_size_mb_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			   unsigned int idx, u32 stored)
{
	return (u32)(dev->profile->fb_size / VGSP_MIB);
}

/* BAR0 0x88000 mirrors PCI config space on Turing and later. */
static u32 pcfg_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		     unsigned int idx, u32 stored)
{
	u32 v = 0;

	vgsp_cfg_read(&dev->cfg, idx * 4, &v, 4);
	return v;
}

static const struct vgsp_reg gh100_regs[] = {
	{ .name = "PMC_BOOT_0", .offset = NV_PMC_BOOT_0,
	  .reset = GH100_BOOT_0, .ro_mask = ~0U },
	{ .name = "PMC_BOOT_1", .offset = NV_PMC_BOOT_1,
	  .reset = 0, .ro_mask = ~0U },		/* VGPU field 0: real GPU */
	{ .name = "PMC_ENABLE", .offset = NV_PMC_ENABLE, .reset = 0xffffffff },
	{ .name = "PMC_BOOT_42", .offset = NV_PMC_BOOT_42,
	  .reset = GH100_BOOT_42, .ro_mask = ~0U },
	{ .name = "PBUS_SW_SCRATCH", .offset = NV_PBUS_SW_SCRATCH(0),
	  .count = 64, .stride = 4 },
	{ .name = "PTIMER_TIME_0", .offset = NV_PTIMER_TIME_0,
	  .read = ptimer_read, .write = ptimer_write },
	{ .name = "PTIMER_TIME_1", .offset = NV_PTIMER_TIME_1,
	  .read = ptimer_read, .write = ptimer_write },
	{ .name = "PCFG", .offset = NV_PCFG, .count = 64, .stride = 4,
	  .ro_mask = ~0U, .read = pcfg_read },
	/* NV_EP_PCFGM: GH100's mirror, read in a VM (gpuReadVgpuConfigReg) */
	{ .name = "EP_PCFGM", .offset = NV_EP_PCFGM, .count = 64, .stride = 4,
	  .ro_mask = ~0U, .read = pcfg_read },
	{ .name = "USABLE_FB_SIZE_IN_MB", .offset = NV_USABLE_FB_SIZE_IN_MB,
	  .ro_mask = ~0U, .read = fb_size_mb_read },
};

/*
 * MSI-X table and PBA at the offsets the capability advertises. Sized for
 * the largest table; QEMU normally emulates these itself, but a plain VFIO
 * user (or the test client) sees a real table. Vector control resets
 * masked, as the PCI spec requires.
 */
#define MSIX_ENTRY(_name, _off, _reset, _ro) {				\
	.name = _name, .offset = VGSP_MSIX_TABLE_OFF + (_off),		\
	.count = VGSP_MSIX_MAX, .stride = 16,				\
	.reset = _reset, .ro_mask = _ro }

static const struct vgsp_reg gh100_msix_regs[] = {
	MSIX_ENTRY("MSIX_ADDR_LO", 0, 0, 0x3),
	MSIX_ENTRY("MSIX_ADDR_HI", 4, 0, 0),
	MSIX_ENTRY("MSIX_DATA", 8, 0, 0),
	MSIX_ENTRY("MSIX_VECTOR_CTRL", 12, 1, ~1U),
	{ .name = "MSIX_PBA", .offset = VGSP_MSIX_PBA_OFF, .count = 2,
	  .stride = 4, .ro_mask = ~0U },
};

static const struct vgsp_reg_table gh100_tables[] = {
	VGSP_REG_TABLE(gh100_regs),
	VGSP_REG_TABLE(gh100_msix_regs),
};

const struct vgsp_chip vgsp_chip_gh100 = {
	.name = "GH100",
	.pmc_boot_0 = GH100_BOOT_0,
	.pmc_boot_1 = 0,
	.pmc_boot_42 = GH100_BOOT_42,
	.tables = gh100_tables,
	.ntables = VGSP_ARRAY_SIZE(gh100_tables),
	.reg_base_gr = 0x400000,		/* NV_PGRAPH */
	.reg_base_timer = 0x9000,		/* NV_PTIMER */
	.reg_base_master = 0x0,			/* NV_PMC */
	.reg_base_usermode = 0xbb0000,		/* NV_VIRTUAL_FUNCTION + 0x30000 */
	/* H100 SXM5 80GB: 1980 MHz boost, HBM3 at 2619 MHz (product specs) */
	.gpc_clk_max_khz = 1980000,
	.mem_clk_max_khz = 2619000,
	/*
	 * H100 SXM5 80GB: 132 SMs = 66 TPCs x 2 SMs in 8 GPCs, of a GH100 die
	 * with 8 GPCs x 9 TPCs (72 TPCs, 144 SMs), 3 PES per GPC, 128 FP32
	 * lanes and 4 tensor cores per SM (NVIDIA H100 Tensor Core GPU
	 * Architecture whitepaper: 16896 FP32 cores, 528 tensor cores). Which
	 * TPCs are fused off varies from part to part; 66 = 6 x 8 + 2 x 9, so
	 * GPCs 0-5 keep 8 TPCs and GPCs 6-7 all 9: the GPCs are then already
	 * in increasing TPC count, the order virtual GPC ids follow.
	 */
	.gr = {
		.gpcs = 8,
		.tpcs = { 8, 8, 8, 8, 8, 8, 9, 9 },
		.sms_per_tpc = 2,
		.max_gpcs = 8,
		.max_tpcs_per_gpc = 9,
		.pes_per_gpc = 3,
		.tpcs_per_pes = 3,
		.cores_per_sm = 128,
		.tensor_cores_per_sm = 4,
	},
};
