// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What backs each page of BAR1 when the frontend maps it (bar1_map.h).
 * The same translation the trapped path does (bar.c), page by page.
 */
#include "mm.h"
#include "bar1_map.h"
#include "../aperture.h"
#include "../fifo/fifo.h"
#include "../trace.h"

#define PAGE		VGSP_APERTURE_PAGE

const char * const vgsp_bar1_map_names[] = {
#define VGSP_BAR1_MAP_NAME(n) #n,
	VGSP_BAR1_MAP_LIST(VGSP_BAR1_MAP_NAME)
#undef VGSP_BAR1_MAP_NAME
};

static int dummy(struct vgsp_mm *mm, u64 *why, struct vgsp_bar1_page *pg)
{
	vgsp_inc(why);
	vgsp_inc(&mm->b1.dummy);
	pg->kind = VGSP_BAR1_DUMMY;
	pg->mem = NULL;
	return 0;
}

/* The host page of @ap at @off, pinned (FB-store lock). */
static int pin(struct vgsp_mm *mm, struct vgsp_aperture *ap, u64 off,
	       struct vgsp_bar1_page *pg)
{
	vgsp_os->lock(mm->fb_lock);
	pg->mem = vgsp_aperture_pin_page(ap, off);
	vgsp_os->unlock(mm->fb_lock);
	if (!pg->mem)
		return dummy(mm, &mm->b1.nomem, pg);
	vgsp_inc(&mm->b1.mem);
	pg->kind = VGSP_BAR1_MEM;
	return 0;
}

int vgsp_bar1_page(struct vgsp_dev *dev, u64 off, bool write,
		   struct vgsp_bar1_page *pg)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_vm vm = { .target = VGSP_MEM_VID, .vid_tables = true };
	struct vgsp_xlate x;

	memset(pg, 0, sizeof(*pg));
	vgsp_inc(&mm->b1.faults);
	if (off >= dev->bar1->size) {
		dummy(mm, &mm->b1.invalid, pg);
		return -EINVAL;
	}
	off &= ~(u64)(PAGE - 1);
	/* a change to these is followed by bar1_changed(): a zap */
	if (!mm->bar_active[VGSP_VIEW_BAR1])
		return pin(mm, dev->bar1, off, pg);
	vm.pdb = mm->bar_pdb[VGSP_VIEW_BAR1];
	if (vgsp_mmu_translate(dev, &vm, off, &x))
		return dummy(mm, &mm->b1.invalid, pg);
	if (x.kind == VGSP_PTE_KIND_SMSKED_MESSAGE &&
	    x.target == VGSP_MEM_SYS) {
		if ((x.pa & ~(u64)(PAGE - 1)) != VGSP_BAR1_DOORBELL_VF)
			return dummy(mm, &mm->b1.msg_other, pg);
		vgsp_inc(&mm->b1.doorbell_pages);
		pg->kind = VGSP_BAR1_DOORBELL;
		return 0;
	}
	if (x.target != VGSP_MEM_VID)
		return dummy(mm, &mm->b1.sysmem, pg);
	if (x.pa >= mm->fb->size)
		return dummy(mm, &mm->b1.invalid, pg);
	if (x.ro && write)
		return dummy(mm, &mm->b1.ro_writes, pg);
	pg->ro = x.ro;
	return pin(mm, mm->fb, x.pa, pg);
}

void vgsp_bar1_doorbell(struct vgsp_dev *dev)
{
	struct vgsp_fifo *f = dev->fifo;

	vgsp_inc(&dev->mm->b1.doorbells);
	vgsp_trace_doorbell(dev, VGSP_TRACE_DB_CHANNEL, ~0U);	/* any */
	if (!f)
		return;
	vgsp_inc(&f->st.doorbells_any);
	vgsp_store_bool(&f->db_any, true);
	vgsp_os->worker_wake(f->worker);
}

void vgsp_bar1_unpinned(struct vgsp_dev *dev)
{
	struct vgsp_mm *mm = dev->mm;

	vgsp_inc(&mm->b1.zaps);
	vgsp_os->lock(mm->fb_lock);
	vgsp_aperture_unpin_all(dev->bar1);
	vgsp_aperture_unpin_all(mm->fb);
	vgsp_os->unlock(mm->fb_lock);
}

void vgsp_bar1_changed(struct vgsp_dev *dev)
{
	if (dev->fe_ops && dev->fe_ops->bar1_zap)
		dev->fe_ops->bar1_zap(dev->fe, false);
}

void vgsp_bar1_map_stats(struct vgsp_dev *dev, struct vgsp_bar1_map_stats *out)
{
	const u64 *in = (const u64 *)&dev->mm->b1;
	u64 *o = (u64 *)out;
	unsigned int i;

	for (i = 0; i < VGSP_BAR1_MAP_COUNT; i++)
		o[i] = vgsp_load64(&in[i]);
}
