/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest pages the device touches on every GSP RPC, kept pinned (see
 * vgsp_pincache.c).
 */
#ifndef VGSP_PINCACHE_H
#define VGSP_PINCACHE_H

#include <linux/highmem.h>
#include <linux/lockdep.h>
#include <linux/string.h>
#include <linux/types.h>

#include "vgsp_os_linux.h"
#include "vgsp_types.h"

struct vfio_device;
struct dentry;
struct vgsp_dev;

/*
 * Direct-mapped by IOVA page: enough for both GSP queues (each RPC moves
 * to the next slot page of each) and the region's page table, so a warm
 * instance pins nothing more; at most 1 MiB of guest RAM pinned.
 */
#define VGSP_PIN_SLOTS	256

/* Serialised by the instance's device lock (vgsp_pincache.c). */
struct vgsp_pincache {
	struct vgsp_pin {
		u64 iova;		/* page-aligned */
		struct page *page;	/* NULL: slot empty */
	} slot[VGSP_PIN_SLOTS];
	u64 hits, misses, pin_errors, evictions, unmapped;
	struct vgsp_dev *dev;	/* whose lock: for the debugfs file */
	struct vgsp_lock *lock;	/* the instance's device lock */
};

/*
 * Every access, pin and unpin runs under the instance's device lock (the
 * cache has none of its own); lockdep checks it where it is built in.
 */
static inline void vgsp_pincache_assert_locked(const struct vgsp_pincache *pc)
{
	if (pc->lock)
		lockdep_assert_held(&pc->lock->m);
}

void vgsp_pincache_init(struct vgsp_pincache *pc);
bool vgsp_pincache_fill(struct vgsp_pincache *pc, struct vgsp_pin *s,
			struct vfio_device *vdev, u64 base);

/*
 * Copy @len bytes at @iova from or to a pinned page (device lock held): 0,
 * or -EAGAIN when the access crosses a page or the page cannot be pinned
 * (the caller then goes through vfio_dma_rw, which reports the real
 * error). Inline: under TCG every call on the RPC path costs.
 */
static __always_inline int vgsp_pincache_rw(struct vgsp_pincache *pc,
				   struct vfio_device *vdev, u64 iova,
				   void *buf, size_t len, bool write)
{
	u64 off = iova & ~PAGE_MASK, base = iova & PAGE_MASK;
	struct vgsp_pin *s = &pc->slot[(base >> PAGE_SHIFT) % VGSP_PIN_SLOTS];
	void *k;

	vgsp_pincache_assert_locked(pc);
	if (!len || len > PAGE_SIZE - off)
		return -EAGAIN;
	if (s->page && s->iova == base)
		pc->hits++;
	else if (!vgsp_pincache_fill(pc, s, vdev, base))
		return -EAGAIN;
	k = kmap_local_page(s->page);
	if (write)
		vgsp_copy(k + off, buf, len);
	else
		vgsp_copy(buf, k + off, len);
	kunmap_local(k);
	return 0;
}

/* The VMM unmapped [iova, iova + len): unpin what lies there (locked). */
void vgsp_pincache_unmap(struct vgsp_pincache *pc, struct vfio_device *vdev,
			 u64 iova, u64 len);
/* Unpin everything (device close, locked). */
void vgsp_pincache_flush(struct vgsp_pincache *pc, struct vfio_device *vdev);
/* The "pincache" file in @dir; @dev is the instance whose lock it takes. */
void vgsp_pincache_debugfs(struct vgsp_pincache *pc, struct vgsp_dev *dev,
			   struct dentry *dir);

#endif /* VGSP_PINCACHE_H */
