/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BAR1 mapped into the guest (bar1_map.c; vgsp.ko bar1_mmap=1).
 *
 * BAR1 is a view of FB through CPU-RM's BAR1 page tables (flat before
 * static info), so a mapping of it must follow those tables. The frontend
 * maps nothing at mmap time; each 4 KiB page is faulted in and the core
 * says what backs it (vgsp_bar1_page):
 *
 *  - an FB page (or, flat, a page of the BAR1 aperture): its host memory,
 *    whose chunk is pinned until the frontend drops every mapping;
 *  - the doorbell page (PTE kind SMSKED_MESSAGE naming the usermode
 *    window, UVM's and libcuda's): a per-instance scratch page, read-only
 *    until written; the write fault is the doorbell (vgsp_bar1_doorbell:
 *    the value is not seen, so every channel's GP_PUT is looked at) and
 *    the fifo worker re-arms it (fe_ops->bar1_zap) before that scan;
 *  - anything else (no valid PTE, system memory, other message pages, FB
 *    beyond the store, memory refused): a per-instance dummy page, counted.
 *
 * The frontend drops all of BAR1's mappings (fe_ops->bar1_zap) where the
 * tables may change: static info, UPDATE_BAR_PDE, the MMU-invalidate
 * register, GSP or device reset, BAR3 loans moving; then it calls
 * vgsp_bar1_unpinned(). The fault path takes only the FB-store lock, never
 * the device lock (the VMM's page fault may hold its mm lock, which the
 * device lock's holders take for guest memory).
 */
#ifndef VGSP_BAR1_MAP_H
#define VGSP_BAR1_MAP_H

#include "../vgsp_types.h"

struct vgsp_dev;

/* VF offset of the usermode window's first page (NOTIFY_CHANNEL_PENDING) */
#define VGSP_BAR1_DOORBELL_VF	0x30000

enum vgsp_bar1_kind {
	VGSP_BAR1_MEM,		/* @mem: the page's host memory */
	VGSP_BAR1_DOORBELL,	/* the scratch page; a write rings */
	VGSP_BAR1_DUMMY,	/* the dummy page */
};

struct vgsp_bar1_page {
	enum vgsp_bar1_kind kind;
	bool ro;		/* MEM: PTE read-only, writes get the dummy */
	void *mem;
};

#define VGSP_BAR1_MAP_LIST(X)						\
	X(faults)		/* pages asked for */			\
	X(mem)			/* FB/aperture pages given */		\
	X(doorbell_pages)	/* doorbell page faults */		\
	X(doorbells)		/* doorbell page writes (scan all) */	\
	X(rearms)		/* doorbell pages dropped to fault again */ \
	X(dummy)		/* dummy page given (any reason below) */ \
	X(invalid)		/* no valid PTE or outside BAR1 */	\
	X(sysmem)		/* PTE names system memory */		\
	X(msg_other)		/* message page other than the doorbell */ \
	X(nomem)		/* backing refused (cap, memory) */	\
	X(ro_writes)		/* write to a read-only PTE */		\
	X(zaps)			/* every mapping dropped */

struct vgsp_bar1_map_stats {
#define VGSP_BAR1_MAP_FIELD(n) u64 n;
	VGSP_BAR1_MAP_LIST(VGSP_BAR1_MAP_FIELD)
#undef VGSP_BAR1_MAP_FIELD
};

/*
 * What backs BAR1 offset @off (rounded down to 4 KiB) for a fault; @write
 * only counts. No device lock (see above). 0, or -EINVAL outside BAR1
 * (the dummy page then, counted).
 */
int vgsp_bar1_page(struct vgsp_dev *dev, u64 off, bool write,
		   struct vgsp_bar1_page *pg);
/* The doorbell page was written: wake the fifo worker to scan. Lockless. */
void vgsp_bar1_doorbell(struct vgsp_dev *dev);
/* The frontend dropped every BAR1 mapping: pins end. No device lock needed. */
void vgsp_bar1_unpinned(struct vgsp_dev *dev);
/* BAR1's tables may have changed: the frontend drops its mappings. */
void vgsp_bar1_changed(struct vgsp_dev *dev);
void vgsp_bar1_map_stats(struct vgsp_dev *dev, struct vgsp_bar1_map_stats *out);
extern const char * const vgsp_bar1_map_names[];
#define VGSP_BAR1_MAP_COUNT	(sizeof(struct vgsp_bar1_map_stats) / sizeof(u64))

#endif /* VGSP_BAR1_MAP_H */
