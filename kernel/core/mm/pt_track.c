// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Which FB pages hold page tables a mirroring backend walked, and a log of
 * the core's writes to them since. A backend that keeps a copy of a guest
 * VA space on the physical GPU (hostd's mirror) then re-walks, at each
 * guest invalidate, only the subtrees whose tables were written instead of
 * the whole tree: GPUvm's lesson (a full walk per invalidate dominates).
 *
 * The log is a ring of page numbers with a running sequence; a reader
 * that fell more than a ring behind, or any reader once FB can be written
 * behind the core's back, is told to walk everything. All state is under
 * the FB lock, which every FB write already takes.
 */
#include "mm.h"
#include "../aperture.h"

#define PT_PAGE_SHIFT	12

struct vgsp_pt_track {
	u8 *watch;		/* one bit per FB page */
	u64 npages;
	u64 seq;		/* writes logged so far */
	u64 read_mark;		/* seq at the last read */
	u64 log[VGSP_PT_LOG_LEN];	/* page numbers, at seq % LEN */
};

/* The tracker of @dev, made on first use (outside the FB lock). */
static struct vgsp_pt_track *track_get(struct vgsp_dev *dev)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_pt_track *t, *old;

	vgsp_os->lock(mm->fb_lock);
	t = mm->pt;
	vgsp_os->unlock(mm->fb_lock);
	if (t)
		return t;
	t = vgsp_zalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->npages = mm->fb->size >> PT_PAGE_SHIFT;
	t->watch = vgsp_zalloc((size_t)((t->npages + 7) / 8) + 1);
	if (!t->watch) {
		vgsp_free(t);
		return NULL;
	}
	vgsp_os->lock(mm->fb_lock);
	old = mm->pt;
	if (!old)
		mm->pt = t;
	vgsp_os->unlock(mm->fb_lock);
	if (old) {
		vgsp_free(t->watch);
		vgsp_free(t);
		return old;
	}
	return t;
}

int vgsp_pt_watch(struct vgsp_dev *dev, u64 pa, u32 len)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_pt_track *t;
	u64 pg, last;

	if (!mm->fb || !len || pa >= mm->fb->size || len > mm->fb->size - pa)
		return -EINVAL;
	t = track_get(dev);
	if (!t)
		return -ENOMEM;
	last = (pa + len - 1) >> PT_PAGE_SHIFT;
	vgsp_os->lock(mm->fb_lock);
	for (pg = pa >> PT_PAGE_SHIFT; pg <= last && pg < t->npages; pg++)
		t->watch[pg >> 3] |= 1U << (pg & 7);
	vgsp_os->unlock(mm->fb_lock);
	return 0;
}

static void log_page(struct vgsp_pt_track *t, u64 pg)
{
	/*
	 * Repeated writes to one table (a PTE per BAR trap) take one slot,
	 * but only while no reader has seen the slot: after a read, a write
	 * must be logged again or that reader would miss it.
	 */
	if (t->seq > t->read_mark &&
	    t->log[(t->seq - 1) % VGSP_PT_LOG_LEN] == pg)
		return;
	t->log[t->seq % VGSP_PT_LOG_LEN] = pg;
	t->seq++;
}

void vgsp_pt_note_write(struct vgsp_mm *mm, u64 pa, u64 len)
{
	struct vgsp_pt_track *t = mm->pt;
	u64 pg, last;

	if (!t || !len)
		return;
	/* fb.c checked [pa, pa + len) against the FB size */
	last = (pa + len - 1) >> PT_PAGE_SHIFT;
	if (last >= t->npages)
		last = t->npages - 1;
	for (pg = pa >> PT_PAGE_SHIFT; pg <= last; pg++) {
		/* a byte of the bitmap at a time through unwatched FB (scrubs) */
		if (!(pg & 7) && last - pg >= 8 && !t->watch[pg >> 3]) {
			pg += 7;
			continue;
		}
		if (t->watch[pg >> 3] & (1U << (pg & 7)))
			log_page(t, pg);
	}
}

int vgsp_pt_log_since(struct vgsp_dev *dev, u64 since, u64 *pages, u32 max,
		      u32 *n, u64 *now)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_pt_track *t;
	int ret = 0;
	u64 s;

	*n = 0;
	vgsp_os->lock(mm->fb_lock);
	t = mm->pt;
	if (mm->fb_untracked) {
		*now = t ? t->seq : 0;
		ret = -ENOSPC;
		goto out;
	}
	if (!t) {
		*now = 0;
		ret = since ? -ENOSPC : 0;
		goto out;
	}
	*now = t->seq;
	t->read_mark = t->seq;
	if (since > t->seq ||
	    t->seq - since > VGSP_PT_LOG_LEN || t->seq - since > max) {
		ret = -ENOSPC;
		goto out;
	}
	for (s = since; s < t->seq; s++)
		pages[(*n)++] = t->log[s % VGSP_PT_LOG_LEN];
out:
	vgsp_os->unlock(mm->fb_lock);
	return ret;
}

void vgsp_pt_fb_untracked(struct vgsp_dev *dev)
{
	vgsp_os->lock(dev->mm->fb_lock);
	dev->mm->fb_untracked = true;
	vgsp_os->unlock(dev->mm->fb_lock);
}

void vgsp_pt_track_reset(struct vgsp_mm *mm)
{
	struct vgsp_pt_track *t = mm->pt;

	if (!t)
		return;
	memset(t->watch, 0, (size_t)((t->npages + 7) / 8) + 1);
	/* every reader's position is now more than a ring behind */
	t->seq += VGSP_PT_LOG_LEN + 1;
	t->read_mark = t->seq;
}

void vgsp_pt_track_free(struct vgsp_mm *mm)
{
	if (!mm->pt)
		return;
	vgsp_free(mm->pt->watch);
	vgsp_free(mm->pt);
	mm->pt = NULL;
}
