// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * GSP falcon registers at BAR0 0x110000 (§B.4), shared by every chip that
 * boots a GSP: interrupt status/mask, mailboxes, HWCFG2 lockdown, reset,
 * retrigger and the command-queue doorbell NV_PGSP_QUEUE_HEAD(0).
 * Chip-specific RISC-V registers live in the chip files.
 */
#include "gsp_priv.h"

#define R(off)		(VGSP_GSP_FALCON_BASE + (off))
#define HWCFG_IMEM_BLOCKS	0x100
#define ENGINE_RESET		(1U << 0)
#define ENGINE_STATUS_SHIFT	8
#define ENGINE_STATUS_DEASSERTED 2

static struct vgsp_gsp *gsp_of(struct vgsp_dev *dev)
{
	return dev->gsp;
}

/*
 * Write-only strobes: the handler needs the raw value (so no ro_mask) and
 * a read shows 0 as on hardware.
 */
static u32 zero_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		     unsigned int idx, u32 stored)
{
	return 0;
}

/* IRQSSET/IRQSCLR/IRQMSET/IRQMCLR: set or clear bits of a state register. */
static void set_clear_bits(struct vgsp_dev *dev, u32 target, u32 bits, bool set)
{
	struct vgsp_gsp *gsp = gsp_of(dev);
	u32 v;

	if (!gsp)
		return;
	v = vgsp_gsp_reg(gsp, target);
	vgsp_gsp_reg_set(gsp, target, set ? v | bits : v & ~bits);
}

static void irqsset_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			  unsigned int idx, u32 old, u32 val)
{
	set_clear_bits(dev, R(VGSP_FLCN_IRQSTAT), val, true);
}

static void irqsclr_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			  unsigned int idx, u32 old, u32 val)
{
	set_clear_bits(dev, R(VGSP_FLCN_IRQSTAT), val, false);
}

static void irqmset_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			  unsigned int idx, u32 old, u32 val)
{
	set_clear_bits(dev, R(VGSP_FLCN_IRQMASK), val, true);
}

static void irqmclr_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			  unsigned int idx, u32 old, u32 val)
{
	set_clear_bits(dev, R(VGSP_FLCN_IRQMASK), val, false);
}

/* RESET_STATUS (10:8) reads "deasserted" whenever bit 0 is clear. */
static u32 engine_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		       unsigned int idx, u32 stored)
{
	if (stored & ENGINE_RESET)
		return stored & ~(7U << ENGINE_STATUS_SHIFT);
	return (stored & ~(7U << ENGINE_STATUS_SHIFT)) |
	       (ENGINE_STATUS_DEASSERTED << ENGINE_STATUS_SHIFT);
}

/* Asserting the core reset kills the "firmware" (kflcnReset). */
static void engine_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			 unsigned int idx, u32 old, u32 val)
{
	if (dev->gsp && (val & ENGINE_RESET) && !(old & ENGINE_RESET))
		vgsp_gsp_stop(dev->gsp);
}

static void retrigger_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			    unsigned int idx, u32 old, u32 val)
{
	if (gsp_of(dev) && (val & 1))
		vgsp_intr_gsp_retrigger(gsp_of(dev));
}

const struct vgsp_reg vgsp_gsp_falcon_regs[] = {
	{ .name = "GSP_IRQSSET", .offset = R(VGSP_FLCN_IRQSSET),
	  .read = zero_read, .write = irqsset_write, .strobe = true },
	{ .name = "GSP_IRQSCLR", .offset = R(VGSP_FLCN_IRQSCLR),
	  .read = zero_read, .write = irqsclr_write, .strobe = true },
	{ .name = "GSP_IRQSTAT", .offset = R(VGSP_FLCN_IRQSTAT),
	  .ro_mask = ~0U },
	{ .name = "GSP_IRQMSET", .offset = R(VGSP_FLCN_IRQMSET),
	  .read = zero_read, .write = irqmset_write, .strobe = true },
	{ .name = "GSP_IRQMCLR", .offset = R(VGSP_FLCN_IRQMCLR),
	  .read = zero_read, .write = irqmclr_write, .strobe = true },
	{ .name = "GSP_IRQMASK", .offset = R(VGSP_FLCN_IRQMASK),
	  .ro_mask = ~0U },
	{ .name = "GSP_IRQDEST", .offset = R(VGSP_FLCN_IRQDEST) },
	{ .name = "GSP_MAILBOX0", .offset = R(VGSP_FLCN_MAILBOX0) },
	{ .name = "GSP_MAILBOX1", .offset = R(VGSP_FLCN_MAILBOX1) },
	{ .name = "GSP_FALCON_OS", .offset = R(VGSP_FLCN_OS) },
	{ .name = "GSP_FALCON_RM", .offset = R(VGSP_FLCN_RM) },
	{ .name = "GSP_HWCFG2", .offset = R(VGSP_FLCN_HWCFG2),
	  .reset = VGSP_HWCFG2_RISCV | VGSP_HWCFG2_LOCKDOWN |
		   VGSP_HWCFG2_RESET_READY,
	  .ro_mask = ~0U },
	{ .name = "GSP_CPUCTL", .offset = R(VGSP_FLCN_CPUCTL),
	  .reset = VGSP_RISCV_CPUCTL_HALTED, .ro_mask = VGSP_RISCV_CPUCTL_HALTED },
	{ .name = "GSP_BOOTVEC", .offset = R(0x104) },
	{ .name = "GSP_HWCFG", .offset = R(0x108), .reset = HWCFG_IMEM_BLOCKS,
	  .ro_mask = ~0U },
	{ .name = "GSP_DMACTL", .offset = R(0x10c), .ro_mask = 0x6 },
	{ .name = "GSP_CPUCTL_ALIAS", .offset = R(0x130) },
	{ .name = "GSP_ENGINE", .offset = R(VGSP_FLCN_ENGINE),
	  .read = engine_read, .write = engine_write },
	{ .name = "GSP_INTR_RETRIGGER", .offset = R(VGSP_FLCN_RETRIGGER),
	  .count = 2, .stride = 4, .read = zero_read,
	  .write = retrigger_write, .strobe = true },
	{ .name = "GSP_FBIF_CTL", .offset = R(0x624) },
	{ .name = "PGSP_MAILBOX", .offset = R(0x804), .count = 4, .stride = 4 },
	{ .name = "PGSP_QUEUE_HEAD", .offset = VGSP_GSP_QUEUE_HEAD0,
	  .count = 8, .stride = 8, .write = vgsp_gsp_queue_head_write },
};
