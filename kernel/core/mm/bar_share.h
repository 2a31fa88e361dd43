/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BAR3 (the BAR2 view) mapped into the guest (bar_share.c).
 *
 * The frontend owns one block of memory of BAR3's size that the guest maps
 * (a memfd for vfio-user, vmalloc_user pages for VFIO): BAR3 offset X is
 * always byte X of that block, a static mapping that never needs a fault
 * handler or a zap. What changes is on the core's side: wherever CPU-RM's
 * BAR2 page tables map a 4 KiB page of the mapped part onto a page of FB
 * (vidmem, writable, not a message page), that page of the FB store *is*
 * the block's page (vgsp_aperture_lend), so the guest's writes through the
 * mapping are what the core and the engines read, with no copy.
 *
 * The loans are recomputed at the points where the guest says its BAR2
 * tables changed: UPDATE_BAR_PDE, every MMU invalidate register write, a
 * GSP reset (unbind) and a device reset, and after every trapped write to
 * BAR3's top (below). An FB page mapped at a second VA (CPU-RM maps
 * sub-page objects one by one) is mirrored there: the guest's bytes reach
 * FB at the next sync or trapped BAR0/BAR1 write, and the mirror shows FB
 * as of then. Pages mapped in any other way (system memory, read-only) stay
 * plain memory the core does not see; they are counted (unshared), and a
 * guest that needs them exact must not map BAR3 (the default: all traps).
 * Not available with a flat FB store (a physical backend's FB).
 */
#ifndef VGSP_BAR_SHARE_H
#define VGSP_BAR_SHARE_H

#include "../device.h"

struct vgsp_dev;

/*
 * The top of BAR3 stays trapped: CPU-RM keeps BAR2's own page tables
 * there (the 535 guest maps them at VA 0x1fea000..0x1ffffff), so every
 * change to BAR2's mappings is a trapped write that resyncs the loans
 * before the guest's next access. The rest may be mapped.
 */
#define VGSP_SHARE_TRAP_TOP	(128 * 1024)

struct vgsp_bar_share_stats {
	u64 syncs;		/* times the loans were recomputed */
	u64 lends;		/* FB pages lent to BAR3 pages */
	u64 reclaims;		/* loans ended (tables changed, unbind) */
	u64 errors;		/* lend/reclaim failed (memory), walk refused */
	u64 shared;		/* FB pages lent now */
	u64 unshared;		/* 4 KiB pages BAR2 maps that are not shared */
	u64 unshared_peak;	/* the most at any sync since creation */
	u64 aliases;		/* VA pages mirroring a page lent elsewhere */
	u64 alias_bytes;	/* bytes written through mirrors, merged */
};

struct vgsp_bar_share *vgsp_bar_share_new(u8 *mem, u64 size);
void vgsp_bar_share_free(struct vgsp_bar_share *sh);
/* Recompute the loans from the BAR2 view (device lock held). */
void vgsp_bar_share_sync(struct vgsp_dev *dev);
void vgsp_bar_share_merge(struct vgsp_dev *dev);
/*
 * Bytes written through alias mirrors reach FB (device lock held): before
 * the core acts on a trapped BAR0 or BAR1 write (a doorbell). Inline: with
 * BAR3 trapped (no share) it is one test, on every doorbell.
 */
static inline void vgsp_bar_share_flush(struct vgsp_dev *dev)
{
	if (dev->share)
		vgsp_bar_share_merge(dev);
}
/* Device reset: every loan ends, its bytes dropped (FB is cleared). */
void vgsp_bar_share_reset(struct vgsp_dev *dev);
void vgsp_bar_share_stats(const struct vgsp_dev *dev,
			  struct vgsp_bar_share_stats *out);

#endif /* VGSP_BAR_SHARE_H */
