// SPDX-License-Identifier: GPL-2.0
/*
 * Guest pages the device touches on every GSP RPC - the command and
 * status queue pages and the shared region's page table - kept pinned, so
 * that an access is a copy from a kernel mapping instead of vfio_dma_rw's
 * IOMMU-table lookup and user copy. Four such accesses make one small
 * RPC; through vfio_dma_rw each cost about 2 us under TCG.
 *
 * Pages are pinned on first use through the core's "hot" accessors only
 * (bulk copies keep using vfio_dma_rw), at most VGSP_PIN_SLOTS at a time
 * (direct-mapped: a page whose slot is taken replaces it), and unpinned when the VMM unmaps their
 * IOVA (the dma_unmap callback, as vfio requires of a pinning driver) and
 * at close. Nothing is cached that the guest could change behind it: the
 * page is the guest's page itself.
 *
 * No lock of its own: every access, pin and unpin happens under the
 * instance's device lock (the core's hot accesses run under it; unmap and
 * flush take it), so a hit is a slot compare and a copy.
 */
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/iommu.h>
#include <linux/seq_file.h>
#include <linux/vfio.h>

#include "device.h"
#include "vgsp_compat.h"
#include "vgsp_pincache.h"

void vgsp_pincache_init(struct vgsp_pincache *pc)
{
	memset(pc, 0, sizeof(*pc));
}

static void unpin(struct vgsp_pin *s, struct vfio_device *vdev)
{
	vfio_unpin_pages(vdev, s->iova, 1);
	s->page = NULL;
}

/* Pin @base into its slot @s (what was there goes); false on failure. */
bool vgsp_pincache_fill(struct vgsp_pincache *pc, struct vgsp_pin *s,
			struct vfio_device *vdev, u64 base)
{
	struct page *page;
	int ret;

	vgsp_pincache_assert_locked(pc);
	pc->misses++;
	if (s->page) {
		pc->evictions++;
		unpin(s, vdev);
	}
	ret = vfio_pin_pages(vdev, base, 1, IOMMU_READ | IOMMU_WRITE, &page);
	if (ret != 1) {
		pc->pin_errors++;
		return false;
	}
	s->iova = base;
	s->page = page;
	return true;
}

void vgsp_pincache_unmap(struct vgsp_pincache *pc, struct vfio_device *vdev,
			 u64 iova, u64 len)
{
	int i;

	vgsp_pincache_assert_locked(pc);
	for (i = 0; i < VGSP_PIN_SLOTS; i++) {
		struct vgsp_pin *s = &pc->slot[i];

		if (s->page && s->iova >= iova && s->iova - iova < len) {
			pc->unmapped++;
			unpin(s, vdev);
		}
	}
}

void vgsp_pincache_flush(struct vgsp_pincache *pc, struct vfio_device *vdev)
{
	int i;

	vgsp_pincache_assert_locked(pc);
	for (i = 0; i < VGSP_PIN_SLOTS; i++)
		if (pc->slot[i].page)
			unpin(&pc->slot[i], vdev);
}

static int pincache_show(struct seq_file *m, void *unused)
{
	struct vgsp_pincache *pc = m->private;
	int i, n = 0;

	vgsp_dev_lock(pc->dev);
	for (i = 0; i < VGSP_PIN_SLOTS; i++)
		n += !!pc->slot[i].page;
	seq_printf(m, "pinned %d\nhits %llu\nmisses %llu\npin_errors %llu\nevictions %llu\nunmapped %llu\n",
		   n, pc->hits, pc->misses, pc->pin_errors, pc->evictions,
		   pc->unmapped);
	vgsp_dev_unlock(pc->dev);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pincache);

void vgsp_pincache_debugfs(struct vgsp_pincache *pc, struct vgsp_dev *dev,
			   struct dentry *dir)
{
	pc->dev = dev;
	pc->lock = dev->lock;
	if (!IS_ERR_OR_NULL(dir))
		debugfs_create_file("pincache", 0444, dir, pc, &pincache_fops);
}
