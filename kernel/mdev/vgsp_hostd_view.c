// SPDX-License-Identifier: GPL-2.0
/*
 * hostd's view of one instance's guest RAM (backend=hostd, a hostd that
 * attached with VGSP_HR_FEAT_GUEST_VIEW; docs/forwarding.md §5).
 * /dev/vgsp-hostd mapped at VGSP_HR_VIEW_OFF(id) shows the instance's IOVA
 * space; nothing is mapped at mmap time. A fault pins the IOVA's page
 * through VFIO (vfio_pin_pages, as vgsp_pincache.c) and inserts it; an
 * IOVA the VMM has not mapped, a device nobody has open or an instance
 * that went is SIGBUS (counted "refused"). Every mapped page is pinned:
 * the VMM's DMA unmap, the device's close or reset, hostd's release and
 * the instance's end zap the range from hostd's mapping first, then unpin
 * it. At most hostd_pin_pages pages are pinned per instance; a fault past
 * that zaps and unpins them all first ("evictions": hostd faults back what
 * it uses, an item touches at most 64 pages).
 */
#include <linux/iommu.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vfio.h>
#include <linux/xarray.h>

#include "vgsp_compat.h"
#include "vgsp_hostd_view.h"
#include "hostd_ring.h"

static unsigned int hostd_pin_pages = 65536;
module_param(hostd_pin_pages, uint, 0644);
MODULE_PARM_DESC(hostd_pin_pages,
		 "backend=hostd: guest pages pinned for hostd's view per instance, at most (default 65536 = 256 MiB; at least 256)");

#define PIN_PAGES_MIN	256U

struct vgsp_hostd_view {
	struct kref ref;		/* the instance, each VMA */
	struct mutex lock;		/* everything below */
	struct vfio_device *vdev;	/* NULL: not bound, or gone */
	bool open;			/* the VMM has the device open */
	bool live;			/* false once the instance went */
	struct address_space *mapping;	/* hostd's file, first mmap */
	u64 base;			/* file offset of IOVA 0 */
	u32 vmas;
	struct xarray pins;		/* IOVA page -> struct page */
	unsigned long npinned;
	u64 faults, zaps, refused, evictions;
};

struct vgsp_hostd_view *vgsp_view_new(u32 id)
{
	struct vgsp_hostd_view *v = kzalloc(sizeof(*v), GFP_KERNEL);

	if (!v)
		return NULL;
	kref_init(&v->ref);
	mutex_init(&v->lock);
	xa_init(&v->pins);
	v->live = true;
	v->base = VGSP_HR_VIEW_OFF(id);
	return v;
}

static void view_free(struct kref *ref)
{
	struct vgsp_hostd_view *v = container_of(ref, struct vgsp_hostd_view,
						 ref);

	/* vgsp_view_kill() unpinned everything before the last reference */
	xa_destroy(&v->pins);
	mutex_destroy(&v->lock);
	kfree(v);
}

void vgsp_view_bind(struct vgsp_hostd_view *v, struct vfio_device *vdev)
{
	mutex_lock(&v->lock);
	v->vdev = vdev;
	mutex_unlock(&v->lock);
}

/*
 * Zap IOVA pages [first, last] from hostd's mapping, then unpin what was
 * pinned there. Lock held. Nothing pinned: nothing can be mapped.
 */
static void unpin_pages(struct vgsp_hostd_view *v, unsigned long first,
			unsigned long last)
{
	unsigned long idx = first;
	struct page *page;

	if (!xa_find(&v->pins, &idx, last, XA_PRESENT))
		return;
	if (v->mapping)
		unmap_mapping_range(v->mapping,
				    v->base + ((u64)first << PAGE_SHIFT),
				    (u64)(last - first + 1) << PAGE_SHIFT, 1);
	v->zaps++;
	xa_for_each_range(&v->pins, idx, page, first, last) {
		vfio_unpin_pages(v->vdev, (u64)idx << PAGE_SHIFT, 1);
		xa_erase(&v->pins, idx);
		v->npinned--;
	}
}

static void unpin_all(struct vgsp_hostd_view *v)
{
	unpin_pages(v, 0, (VGSP_HR_VIEW_BYTES >> PAGE_SHIFT) - 1);
}

void vgsp_view_set_open(struct vgsp_hostd_view *v, bool open)
{
	mutex_lock(&v->lock);
	if (!open)
		unpin_all(v);
	v->open = open;
	mutex_unlock(&v->lock);
}

void vgsp_view_unmapped(struct vgsp_hostd_view *v, u64 iova, u64 len)
{
	if (!len || iova >= VGSP_HR_VIEW_BYTES)
		return;
	if (len > VGSP_HR_VIEW_BYTES - iova)
		len = VGSP_HR_VIEW_BYTES - iova;
	mutex_lock(&v->lock);
	unpin_pages(v, iova >> PAGE_SHIFT, (iova + len - 1) >> PAGE_SHIFT);
	mutex_unlock(&v->lock);
}

void vgsp_view_release(struct vgsp_hostd_view *v)
{
	mutex_lock(&v->lock);
	unpin_all(v);
	mutex_unlock(&v->lock);
}

void vgsp_view_kill(struct vgsp_hostd_view *v)
{
	mutex_lock(&v->lock);
	unpin_all(v);
	v->live = false;
	v->vdev = NULL;
	mutex_unlock(&v->lock);
	kref_put(&v->ref, view_free);
}

static vm_fault_t view_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vgsp_hostd_view *v = vma->vm_private_data;
	u64 off = (u64)vmf->pgoff << PAGE_SHIFT, iova = off - v->base;
	struct page *page;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	mutex_lock(&v->lock);
	if (!v->live || !v->open || !v->vdev || off < v->base ||
	    iova >= VGSP_HR_VIEW_BYTES) {
		v->refused++;
		goto out;
	}
	page = xa_load(&v->pins, iova >> PAGE_SHIFT);
	if (!page) {
		if (v->npinned >= max(hostd_pin_pages, PIN_PAGES_MIN)) {
			v->evictions++;
			unpin_all(v);
		}
		/* only what the VMM mapped, writable, resolves */
		if (vfio_pin_pages(v->vdev, iova, 1, IOMMU_READ | IOMMU_WRITE,
				   &page) != 1) {
			v->refused++;
			goto out;
		}
		if (xa_err(xa_store(&v->pins, iova >> PAGE_SHIFT, page,
				    GFP_KERNEL))) {
			vfio_unpin_pages(v->vdev, iova, 1);
			v->refused++;
			goto out;
		}
		v->npinned++;
	}
	v->faults++;
	ret = vmf_insert_pfn(vma, vmf->address, page_to_pfn(page));
out:
	mutex_unlock(&v->lock);
	return ret;
}

static void view_vma_open(struct vm_area_struct *vma)
{
	struct vgsp_hostd_view *v = vma->vm_private_data;

	kref_get(&v->ref);
	mutex_lock(&v->lock);
	v->vmas++;
	mutex_unlock(&v->lock);
}

/*
 * hostd's last mapping of the view went (munmap, exit): nothing needs the
 * pins, and nothing is left to zap (the file may go with it).
 */
static void view_vma_close(struct vm_area_struct *vma)
{
	struct vgsp_hostd_view *v = vma->vm_private_data;

	mutex_lock(&v->lock);
	if (!--v->vmas) {
		v->mapping = NULL;
		unpin_all(v);
	}
	mutex_unlock(&v->lock);
	kref_put(&v->ref, view_free);
}

static const struct vm_operations_struct view_vm_ops = {
	.open = view_vma_open,
	.close = view_vma_close,
	.fault = view_fault,
};

int vgsp_view_mmap(struct vgsp_hostd_view *v, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 size = vma->vm_end - vma->vm_start;
	int ret = 0;

	if (off < v->base || off - v->base >= VGSP_HR_VIEW_BYTES ||
	    size > VGSP_HR_VIEW_BYTES - (off - v->base) ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&v->lock);
	if (!v->live)
		ret = -ENOENT;
	else if (v->mapping && v->mapping != vma->vm_file->f_mapping)
		ret = -EINVAL;
	else
		v->mapping = vma->vm_file->f_mapping;
	mutex_unlock(&v->lock);
	if (ret)
		return ret;
	/* pages of the VMM's memory: no fork, no core dump, no GUP on them */
	vgsp_vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND |
			  VM_DONTDUMP | VM_DONTCOPY);
	vma->vm_ops = &view_vm_ops;
	vma->vm_private_data = v;
	view_vma_open(vma);
	return 0;
}

void vgsp_view_show(struct vgsp_hostd_view *v, struct seq_file *s)
{
	mutex_lock(&v->lock);
	seq_printf(s, " pinned %lu faults %llu zaps %llu refused %llu evictions %llu",
		   v->npinned, v->faults, v->zaps, v->refused, v->evictions);
	mutex_unlock(&v->lock);
}
