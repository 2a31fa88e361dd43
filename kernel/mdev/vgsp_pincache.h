/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest pages the device touches on every GSP RPC, kept pinned (see
 * vgsp_pincache.c).
 */
#ifndef VGSP_PINCACHE_H
#define VGSP_PINCACHE_H

#include <linux/mutex.h>
#include <linux/types.h>

struct page;
struct vfio_device;
struct dentry;

/*
 * Direct-mapped by IOVA page: enough for both GSP queues (each RPC moves
 * to the next slot page of each) and the region's page table, so a warm
 * instance pins nothing more; at most 1 MiB of guest RAM pinned.
 */
#define VGSP_PIN_SLOTS	256

struct vgsp_pincache {
	struct mutex lock;
	struct vgsp_pin {
		u64 iova;		/* page-aligned */
		struct page *page;	/* NULL: slot empty */
	} slot[VGSP_PIN_SLOTS];
	u64 hits, misses, pin_errors, evictions, unmapped;
};

void vgsp_pincache_init(struct vgsp_pincache *pc);
/*
 * Copy @len bytes at @iova from or to a pinned page: 0, or -EAGAIN when
 * the access crosses a page or the page cannot be pinned (the caller then
 * goes through vfio_dma_rw, which reports the real error).
 */
int vgsp_pincache_rw(struct vgsp_pincache *pc, struct vfio_device *vdev,
		     u64 iova, void *buf, size_t len, bool write);
/* The VMM unmapped [iova, iova + len): unpin what lies there. */
void vgsp_pincache_unmap(struct vgsp_pincache *pc, struct vfio_device *vdev,
			 u64 iova, u64 len);
/* Unpin everything (device close). */
void vgsp_pincache_flush(struct vgsp_pincache *pc, struct vfio_device *vdev);
void vgsp_pincache_debugfs(struct vgsp_pincache *pc, struct dentry *dir);

#endif /* VGSP_PINCACHE_H */
