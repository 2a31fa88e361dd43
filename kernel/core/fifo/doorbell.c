// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BAR0 registers of the host front end, inside the VF window at 0xB80000:
 *
 *  - the usermode window (VF + 0x30000, 64 KiB; what CPU-RM reports as
 *    regBases[USERMODE] and maps for VOLTA/HOPPER_USERMODE_A):
 *    NOTIFY_CHANNEL_PENDING (+0x90) is the doorbell, the value written is
 *    the work-submit token; TIME_0/1 (+0x80/+0x84) the GPU time UVM reads;
 *  - the MMU-invalidate registers (VF + 0x30A0/0x30A4/0x30B0): CPU-RM
 *    polls TRIGGER (bit 31) for 0, so the register is a strobe. A trigger
 *    bumps mm->pt_gen, the resync point of a mirroring backend; sim walks
 *    page tables on every access.
 */
#include "fifo.h"
#include "../trace.h"
#include "../mm/bar_share.h"

#define VF_BASE			0xb80000
#define USERMODE		(VF_BASE + 0x30000)
#define UM_TIME_0		(USERMODE + 0x80)
#define UM_TIME_1		(USERMODE + 0x84)
#define UM_NOTIFY_PENDING	(USERMODE + 0x90)
#define MMU_INVALIDATE_PDB	(VF_BASE + 0x30a0)
#define MMU_INVALIDATE_UPPER	(VF_BASE + 0x30a4)
#define MMU_INVALIDATE		(VF_BASE + 0x30b0)
#define MMU_INVALIDATE_TRIGGER	(1U << 31)

static void doorbell_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			   unsigned int idx, u32 old, u32 val)
{
	vgsp_trace_doorbell(dev, VGSP_TRACE_DB_CHANNEL, val);
	if (dev->fifo)
		vgsp_fifo_doorbell(dev, val);
}

static u32 time_read(struct vgsp_dev *dev, const struct vgsp_reg *reg,
		     unsigned int idx, u32 stored)
{
	u64 now = vgsp_now_ns() + vgsp_load64(&dev->timer_offset_ns);

	return reg->offset == UM_TIME_0 ? (u32)now & ~0x1fU : (u32)(now >> 32);
}

static void invalidate_write(struct vgsp_dev *dev, const struct vgsp_reg *reg,
			     unsigned int idx, u32 old, u32 val)
{
	if (!(val & MMU_INVALIDATE_TRIGGER))
		return;
	vgsp_mm_pt_changed(dev);
	vgsp_bar_share_sync(dev);	/* BAR2's tables may have moved */
	vgsp_bar1_changed(dev);		/* and BAR1's */
	if (dev->fifo)
		dev->fifo->st.tlb_invalidates++;
}

static const struct vgsp_reg fifo_regs[] = {
	{ .name = "USERMODE_TIME_0", .offset = UM_TIME_0, .read = time_read,
	  .ro_mask = ~0U },
	{ .name = "USERMODE_TIME_1", .offset = UM_TIME_1, .read = time_read,
	  .ro_mask = ~0U },
	{ .name = "USERMODE_NOTIFY_CHANNEL_PENDING",
	  .offset = UM_NOTIFY_PENDING, .write = doorbell_write, .strobe = true },
	{ .name = "VF_MMU_INVALIDATE_PDB", .offset = MMU_INVALIDATE_PDB },
	{ .name = "VF_MMU_INVALIDATE_UPPER_PDB",
	  .offset = MMU_INVALIDATE_UPPER },
	{ .name = "VF_MMU_INVALIDATE", .offset = MMU_INVALIDATE,
	  .write = invalidate_write, .strobe = true },
};

const struct vgsp_reg_table vgsp_fifo_reg_table = VGSP_REG_TABLE(fifo_regs);
