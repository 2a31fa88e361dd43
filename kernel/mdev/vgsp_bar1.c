// SPDX-License-Identifier: GPL-2.0
/*
 * BAR1 mapped by the user (bar1_mmap=1; core/mm/bar1_map.h). Nothing is
 * mapped at mmap time: each page is faulted in as the core says (an FB
 * page, the doorbell's scratch page, the dummy page), and every mapping is
 * dropped where BAR1's page tables may change (the core's bar1_zap op), so
 * the next access faults and translates again.
 *
 * BAR1's region offset carries a per-instance tag above the region index:
 * unmap_mapping_range() works on the device file's address_space, which
 * on 6.1 is the one anon inode every VFIO device file shares; the tag
 * makes the range this instance's alone on every kernel.
 */
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vgsp_compat.h"
#include "vgsp_drv.h"
#include "mm/bar1_map.h"

#define DB_SLOTS	8	/* doorbell pages re-armed one by one */
#define TAG_SHIFT	44
#define TAG_MASK	0x7ffffULL	/* offsets stay below 2^63 */
#define DUMMY_WORD	0xbad1bad1U	/* what an invalid BAR1 page reads */

struct vgsp_bar1 {
	struct mutex lock;		/* a zap never races an insert */
	struct address_space *mapping;	/* of the device file (first mmap) */
	u64 base, size;			/* region offset (tagged), BAR1 size */
	struct page *dummy, *scratch;
	bool dummy_dirty;		/* a write landed in the dummy page */
	u32 ndb;
	bool db_all;			/* more doorbell pages than slots */
	u64 db_off[DB_SLOTS];
};

static atomic_t bar1_tags = ATOMIC_INIT(0);

static void dummy_fill(struct vgsp_bar1 *b)
{
	u32 *p = page_address(b->dummy);
	unsigned int i;

	for (i = 0; i < PAGE_SIZE / 4; i++)
		p[i] = DUMMY_WORD;
	b->dummy_dirty = false;
}

int vgsp_bar1_init(struct vgsp_mdev *vm)
{
	struct vgsp_bar1 *b = kzalloc(sizeof(*b), GFP_KERNEL);
	u64 tag = atomic_inc_return(&bar1_tags) & TAG_MASK;

	if (!b)
		return -ENOMEM;
	b->dummy = alloc_page(GFP_KERNEL);
	b->scratch = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!b->dummy || !b->scratch) {
		if (b->dummy)
			__free_page(b->dummy);
		if (b->scratch)
			__free_page(b->scratch);
		kfree(b);
		return -ENOMEM;
	}
	mutex_init(&b->lock);
	dummy_fill(b);
	b->base = VGSP_REGION_OFF(VFIO_PCI_BAR1_REGION_INDEX) |
		  (tag ? tag : 1) << TAG_SHIFT;
	vm->bar1 = b;
	return 0;
}

/* After the core exists: BAR1's size. */
void vgsp_bar1_bind(struct vgsp_mdev *vm)
{
	if (vm->bar1)
		vm->bar1->size = vgsp_dev_bar_size(vm->core, VGSP_BAR1);
}

/* At release: no mapping is left (each held the device file). */
void vgsp_bar1_free(struct vgsp_mdev *vm)
{
	struct vgsp_bar1 *b = vm->bar1;

	if (!b)
		return;
	__free_page(b->dummy);
	__free_page(b->scratch);
	mutex_destroy(&b->lock);
	kfree(b);
	vm->bar1 = NULL;
}

u64 vgsp_bar1_offset(struct vgsp_mdev *vm)
{
	return vm->bar1->base;
}

/* A tagged file position: BAR1's, of this instance (region index 1). */
bool vgsp_bar1_owns(struct vgsp_mdev *vm, u64 pos)
{
	return vm->bar1 && pos >= vm->bar1->base &&
	       pos - vm->bar1->base < VGSP_REGION_OFF(1);
}

static unsigned long mem_pfn(void *p)
{
	return is_vmalloc_addr(p) ? vmalloc_to_pfn(p) : PHYS_PFN(virt_to_phys(p));
}

static void note_doorbell(struct vgsp_bar1 *b, u64 off)
{
	u32 i;

	for (i = 0; i < b->ndb; i++)
		if (b->db_off[i] == off)
			return;
	if (b->ndb < DB_SLOTS)
		b->db_off[b->ndb++] = off;
	else
		b->db_all = true;
}

static vm_fault_t bar1_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vgsp_mdev *vm = vma->vm_private_data;
	struct vgsp_bar1 *b = vm->bar1;
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	u64 off = ((u64)vmf->pgoff << PAGE_SHIFT) - b->base;
	struct vgsp_bar1_page pg;
	unsigned long pfn;
	vm_fault_t ret;

	mutex_lock(&b->lock);
	/* out of range (cannot happen: mmap checked) gives the dummy page */
	vgsp_bar1_page(vm->core, off, write, &pg);
	switch (pg.kind) {
	case VGSP_BAR1_MEM:
		pfn = mem_pfn(pg.mem);
		break;
	case VGSP_BAR1_DOORBELL:
		pfn = page_to_pfn(b->scratch);
		note_doorbell(b, off & PAGE_MASK);
		/* the worker re-arms the page before it scans (b->lock) */
		if (write)
			vgsp_bar1_doorbell(vm->core);
		break;
	default:
		pfn = page_to_pfn(b->dummy);
		if (write)
			b->dummy_dirty = true;
		break;
	}
	ret = vmf_insert_pfn_prot(vma, vmf->address, pfn,
				  vm_get_page_prot(write ? vma->vm_flags :
						   vma->vm_flags & ~VM_WRITE));
	mutex_unlock(&b->lock);
	return ret;
}

/*
 * A page mapped for a read is written: drop it, so the write faults and
 * the fault decides (a doorbell, a read-only PTE's dummy, the FB page).
 */
static vm_fault_t bar1_pfn_mkwrite(struct vm_fault *vmf)
{
	vgsp_zap_pfn_range(vmf->vma, vmf->address & PAGE_MASK, PAGE_SIZE);
	return VM_FAULT_NOPAGE;
}

static const struct vm_operations_struct bar1_vm_ops = {
	.fault = bar1_fault,
	.pfn_mkwrite = bar1_pfn_mkwrite,
};

int vgsp_bar1_map_vma(struct vgsp_mdev *vm, struct vm_area_struct *vma)
{
	struct vgsp_bar1 *b = vm->bar1;
	u64 off = ((u64)vma->vm_pgoff << PAGE_SHIFT) - b->base;
	u64 size = vma->vm_end - vma->vm_start;
	int ret = 0;

	if (off >= b->size || size > b->size - off ||
	    !(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&b->lock);
	/* one address_space per device file on every kernel we build for */
	if (b->mapping && b->mapping != vma->vm_file->f_mapping)
		ret = -EINVAL;
	else
		b->mapping = vma->vm_file->f_mapping;
	mutex_unlock(&b->lock);
	if (ret)
		return ret;
	vgsp_vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &bar1_vm_ops;
	vma->vm_private_data = vm;
	return 0;
}

/* The core's bar1_zap op (device lock or no lock held). */
void vgsp_bar1_zap(void *fe, bool doorbells)
{
	struct vgsp_mdev *vm = fe;
	struct vgsp_bar1 *b = vm->bar1;
	u32 i;

	if (!b || !vm->core)	/* the core calls while being created */
		return;
	mutex_lock(&b->lock);
	if (b->mapping && doorbells && !b->db_all) {
		for (i = 0; i < b->ndb; i++)
			unmap_mapping_range(b->mapping, b->base + b->db_off[i],
					    PAGE_SIZE, 1);
	} else if (b->mapping) {
		unmap_mapping_range(b->mapping, b->base, b->size, 1);
	}
	b->ndb = 0;
	b->db_all = false;
	if (!doorbells) {
		if (b->dummy_dirty)
			dummy_fill(b);
		vgsp_bar1_unpinned(vm->core);	/* nothing maps them now */
	}
	mutex_unlock(&b->lock);
}
