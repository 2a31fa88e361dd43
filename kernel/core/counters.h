/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Per-instance counters. One X-macro list gives both the struct and the
 * name table, so debugfs, the vfio-user server and tests print the same
 * names without keeping a second list in step.
 *
 * Counters are bumped with the instance lock held and read without it
 * (64-bit loads do not tear on the supported 64-bit hosts).
 */
#ifndef VGSP_COUNTERS_H
#define VGSP_COUNTERS_H

#include "vgsp_types.h"

#define VGSP_COUNTER_LIST(X)						\
	X(cfg_reads)		/* config space reads */			\
	X(cfg_writes)		/* config space writes */			\
	X(cfg_bad)		/* config accesses rejected (range/size) */	\
	X(bar0_reads)							\
	X(bar0_writes)							\
	X(bar0_unknown_reads)	/* reads of unmodelled offsets */		\
	X(bar0_unknown_writes)	/* writes to unmodelled offsets */		\
	X(bar0_bad)		/* rejected: range, size or alignment */	\
	X(bar1_reads)							\
	X(bar1_writes)							\
	X(bar3_reads)							\
	X(bar3_writes)							\
	X(bar_bad)		/* BAR1/BAR3 accesses rejected */		\
	X(irqs_signalled)	/* interrupts delivered to the frontend */	\
	X(irqs_suppressed)	/* raised while no trigger/masked */		\
	X(irqs_gated)		/* raised while the guest disabled them */	\
	X(resets)		/* device resets (VFIO or core) */		\
	X(dma_reads)		/* guest-memory reads */			\
	X(dma_writes)		/* guest-memory writes */			\
	X(dma_errors)		/* guest-memory accesses that failed */	\
	X(dma_blocked)		/* refused: Bus Master Enable off */	\
	X(dma_unmaps)		/* IOVA ranges unmapped by the user */	\
	X(opens)		/* frontend opened the device */		\
	X(closes)							\
	X(region_bad)		/* access to a region that does not exist */	\
	X(ioctl_bad)		/* malformed or unknown VFIO requests */	\
	X(log_suppressed)	/* log lines over this instance's limit */

struct vgsp_counters {
#define VGSP_COUNTER_FIELD(n) u64 n;
	VGSP_COUNTER_LIST(VGSP_COUNTER_FIELD)
#undef VGSP_COUNTER_FIELD
};

struct vgsp_counter_desc {
	const char *name;
	size_t offset;
};

extern const struct vgsp_counter_desc vgsp_counter_descs[];
extern const unsigned int vgsp_ncounters;

static inline u64 vgsp_counter_get(const struct vgsp_counters *c,
				   unsigned int i)
{
	return *(const u64 *)((const u8 *)c + vgsp_counter_descs[i].offset);
}

#endif /* VGSP_COUNTERS_H */
