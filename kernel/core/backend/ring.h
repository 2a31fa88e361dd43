/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The ring backend: the core's backend table for an instance whose work
 * hostd executes. ce_xfer and gr_launch marshal each work item into the
 * instance's submission ring (hostd_ring.h), wait for its completion and
 * apply it; everything hostd wrote is range-checked first. The transport
 * under it (vgsp.ko's /dev/vgsp-hostd, or a test's loopback) only wakes
 * the two sides: struct vgsp_ring_link_ops.
 */
#ifndef VGSP_BACKEND_RING_H
#define VGSP_BACKEND_RING_H

#include "../backend.h"
#include "../hostd_ring.h"

struct vgsp_ring_link_ops {
	/* Submissions were published: wake hostd. */
	void (*kick)(void *link);
	/*
	 * Sleep until hostd may have completed something (its kick), the
	 * link failed, or @timeout_ns passed. 0 or -ETIMEDOUT; the caller
	 * re-reads the ring and the failed flag either way.
	 */
	int (*wait)(void *link, u64 timeout_ns);
};

#define VGSP_RING_STATS(X)						\
	X(items)		/* submissions published */		\
	X(completions)		/* completions accepted */		\
	X(item_errors)		/* completions with status != 0 */	\
	X(bytes)		/* CE bytes moved through the ring */	\
	X(view_bytes)		/* of them, hostd's through its view */	\
	X(bad_index)		/* an impossible index from hostd */	\
	X(bad_completion)	/* a status out of range */		\
	X(stale)		/* a completion for no pending item */	\
	X(timeouts)		/* no completion in time */		\
	X(failed_items)		/* refused: the instance failed */

struct vgsp_ring_stats {
#define VGSP_RING_FIELD(n) u64 n;
	VGSP_RING_STATS(VGSP_RING_FIELD)
#undef VGSP_RING_FIELD
};

/* Per instance, the backend_priv of an instance on vgsp_backend_ring. */
struct vgsp_ring_be {
	u8 *area;			/* VGSP_HR_MAP_BYTES, shared with hostd */
	const struct vgsp_ring_link_ops *ops;
	void *link;
	struct vgsp_lock *lock;		/* one item in flight */
	bool view;			/* hostd maps guest RAM: no staging */
	u64 timeout_ns;
	u32 sub_head, sub_tail, comp_tail;	/* the kernel's own copies */
	u64 cookie;
	struct vgsp_hr_sub sub;		/* the item being built */
	bool failed;			/* hostd died or misbehaved */
	struct vgsp_ring_stats st;
};

#define VGSP_RING_TIMEOUT_NS	(10ULL * 1000 * 1000 * 1000)

/* @area: zeroed, VGSP_HR_MAP_BYTES. 0 or -ENOMEM. */
int vgsp_ring_be_init(struct vgsp_ring_be *rb, void *area, u32 id,
		      const struct vgsp_ring_link_ops *ops, void *link);
/*
 * What the attached hostd does itself (VGSP_HR_FEAT_*), before the first
 * item: with VGSP_HR_FEAT_GUEST_VIEW guest-RAM extents go as
 * VGSP_HR_TARGET_VIEW and are not staged.
 */
void vgsp_ring_be_features(struct vgsp_ring_be *rb, u32 features);
/* The instance goes: its area says VGSP_HR_MAGIC_CLOSED from now on. */
void vgsp_ring_be_fini(struct vgsp_ring_be *rb);
/*
 * hostd is gone (or broke the protocol): the pending item and every later
 * one complete with -EIO; the instance stays failed. Any context.
 */
void vgsp_ring_be_fail(struct vgsp_ring_be *rb);
bool vgsp_ring_be_failed(struct vgsp_ring_be *rb);
/* A completion may be waiting (for the OS side's wait condition). */
bool vgsp_ring_be_comp_ready(struct vgsp_ring_be *rb);

extern const struct vgsp_backend_ops vgsp_backend_ring;

#endif /* VGSP_BACKEND_RING_H */
