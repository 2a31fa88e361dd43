// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The hostd backend's VA mirrors (backend_hostd.h): one host VA space per
 * guest address space, holding the guest's mappings as runs of host
 * memory (the FB store, the guest-RAM windows), walked again only where
 * the guest wrote its page tables (pt_track.c, pt_mirror.c). h->mu held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "backend.h"
#include "mm/mm.h"
#include "fifo/fifo.h"
#include "hostd_fwd.h"
#include "backend_hostd.h"
#include "backend_hostd_priv.h"
#include "pt_mirror.h"

struct run_buf {
	struct vfu_hostd *h;
	struct vgsp_dev *dev;
	struct hd_run *r;
	size_t n, cap;
	struct ptm_tab *t;		/* the tables the walk read */
	size_t nt, tcap;
	bool unwatched;			/* a table could not be watched */
	uint64_t unbacked;		/* leaves with no memory behind them */
	int err;
};

/* ---- the guest's mappings as runs of host memory -------------------- */

static int push_run(struct run_buf *rb, uint64_t va, uint64_t len,
		    uint32_t hmem, uint64_t off, bool ro)
{
	struct hd_run *last = rb->n ? &rb->r[rb->n - 1] : NULL, *r;

	/* contiguous in VA and in the same object: one map call */
	if (last && last->va + last->len == va && last->hmem == hmem &&
	    last->off + last->len == off && last->ro == ro) {
		last->len += len;
		return 0;
	}
	r = ptm_room(rb->r, &rb->cap, rb->n, sizeof(*r), 1024);
	if (!r)
		return -ENOMEM;
	rb->r = r;
	rb->r[rb->n++] = (struct hd_run){ .va = va, .len = len, .hmem = hmem,
					 .off = off, .ro = ro };
	return 0;
}

/* One guest page → the registered memory behind it (split at windows). */
static int leaf(void *ctx, u64 va, const struct vgsp_xlate *x)
{
	struct run_buf *rb = ctx;
	struct vfu_hostd *h = rb->h;
	u64 pa = x->pa, len = x->page;
	unsigned int i;
	int ret;

	if (x->target == VGSP_MEM_VID) {
		if (pa >= h->fb_b.size || len > h->fb_b.size - pa) {
			rb->unbacked++;
			return 0;
		}
		return push_run(rb, va, len, h->fb_b.h, pa, x->ro);
	}
	while (len) {
		struct win *w = NULL;
		u64 n, gap = len;	/* bytes up to the next window */

		for (i = 0; i < h->nwin; i++) {
			if (pa >= h->win[i].iova &&
			    pa - h->win[i].iova < h->win[i].size)
				w = &h->win[i];
			else if (h->win[i].iova > pa &&
				 h->win[i].iova - pa < gap)
				gap = h->win[i].iova - pa;
		}
		if (!w) {
			/*
			 * Not guest RAM we were given: the GPU gets nothing.
			 * Skip to the next window in one step, so a guest's
			 * huge unbacked pages cost one pass, not one per 4 KiB.
			 */
			rb->unbacked++;
			pa += gap;
			va += gap;
			len -= gap;
			continue;
		}
		n = w->size - (pa - w->iova);
		if (n > len)
			n = len;
		ret = push_run(rb, va, n, w->b.h, pa - w->iova, x->ro);
		if (ret)
			return ret;
		pa += n;
		va += n;
		len -= n;
	}
	return 0;
}

/* Every table the walk reads: indexed, and watched when it is in FB. */
static int table(void *ctx, enum vgsp_mem_target t, u64 pa, u32 len, u64 va,
		 u64 span)
{
	struct run_buf *rb = ctx;

	struct ptm_tab *n = ptm_room(rb->t, &rb->tcap, rb->nt, sizeof(*n), 64);

	if (!n)
		return -ENOMEM;
	rb->t = n;
	rb->t[rb->nt++] = (struct ptm_tab){ .pa = pa, .va = va, .span = span,
					    .len = len,
					    .sys = t != VGSP_MEM_VID };
	/*
	 * -EINVAL: not in FB, so unreadable; only a write to its parent can
	 * change that, and that write is watched.
	 */
	if (t == VGSP_MEM_VID && vgsp_pt_watch(rb->dev, pa, len) == -ENOMEM)
		rb->unwatched = true;
	return 0;
}

/*
 * Bring the host VA space in line with the guest's tables. The core logs
 * writes to the FB pages holding the tables the last walk read, so only
 * the subtrees under written tables (and under tables in guest system
 * memory, which the core cannot watch) are walked again; a first sync, a
 * window change, an overrun log or FB mapped into the guest walk it all.
 */
static int resync(struct vfu_hostd *h, struct vgsp_dev *dev,
		  struct mirror *m, uint64_t gen)
{
	struct run_buf rb = { .h = h, .dev = dev };
	struct ptm_range all = { 0, VGSP_MMU_VA_END }, *r = &all, *dirty = NULL;
	u64 pages[VGSP_PT_LOG_LEN], seq;
	uint64_t t0 = vfu_hostd_now_ns(), dt;
	size_t nr = 1, i;
	u32 np = 0;
	bool full;
	int ret;

	/* the log position before the walk: writes during it come next time */
	full = vgsp_pt_log_since(dev, m->pm.log_seq, pages,
				 VGSP_PT_LOG_LEN, &np, &seq) || !m->synced;
	if (!full) {
		ret = ptm_dirty(&m->pm, pages, np, &dirty, &nr);
		if (ret)
			goto out;
		if (!nr) {		/* nothing the mirror depends on moved */
			h->resync_none++;
			h->last_resync_tables = 0;
			m->pm.log_seq = seq;
			m->gen = gen;
			ret = 0;
			goto out;
		}
		r = dirty;
	}
	ret = 0;
	for (i = 0; i < nr && !ret; i++) {
		struct vgsp_mmu_walk req = {
			.va_lo = r[i].lo, .va_end = r[i].end,
			.max_tables = MAX_TABLES, .leaf = leaf,
			.table = table, .ctx = &rb,
		};

		ret = vgsp_mmu_walk_range(dev, &m->vm, &req);
	}
	if (!ret)
		ret = full ? ptm_replace(&m->pm, rb.r, rb.n, rb.t, rb.nt) :
			     ptm_splice(&m->pm, r, nr, rb.r, rb.n, rb.t, rb.nt);
	if (!ret)
		ret = hd_vas_sync(&h->d, &m->v, m->pm.runs, m->pm.nruns) ?
		      -EIO : 0;
	h->unbacked += rb.unbacked;
	h->last_resync_tables = rb.nt;
	h->resync_tables += rb.nt;
	if (full)
		h->resync_full++;
	else
		h->resync_partial++;
	if (!ret) {
		m->synced = !rb.unwatched;	/* unwatched: walk it all again */
		m->pm.log_seq = seq;
		m->gen = gen;
	}
out:
	free(rb.r);
	free(rb.t);
	free(dirty);
	dt = vfu_hostd_now_ns() - t0;
	h->last_resync_ns = dt;
	if (dt > h->max_resync_ns)
		h->max_resync_ns = dt;
	h->resyncs++;
	if (ret)
		h->resync_errors++;
	return ret;
}

int vfu_hostd_mirror_current(struct vfu_hostd *h, struct vgsp_dev *dev,
			     struct mirror *m, uint64_t gen)
{
	if (m->synced && m->gen == gen)
		return 0;
	return resync(h, dev, m, gen);
}

struct mirror *vfu_hostd_mirror_get(struct vfu_hostd *h,
				    const struct vgsp_vm *vm)
{
	struct mirror *free_m = NULL;
	unsigned int i;

	for (i = 0; i < MAX_VAS; i++) {
		struct mirror *m = &h->mir[i];

		if (m->used && m->vm.pdb == vm->pdb &&
		    m->vm.target == vm->target)
			return m;
		if (!m->used && !free_m)
			free_m = m;
	}
	if (!free_m)
		return NULL;
	ptm_free(&free_m->pm);
	memset(free_m, 0, sizeof(*free_m));
	if (hd_vas_create(&h->d, &free_m->v))
		return NULL;
	/* the FB partition in vidmem (2 MiB pages) maps with large pages
	 * where the guest's runs line up, as CUDA maps its own vidmem */
	free_m->v.large_hmem = h->fb_b.vid ? h->fb_b.h : 0;
	free_m->used = true;
	free_m->vm = *vm;
	return free_m;
}

/* A mirror made for one call that found no user is not kept. */
void vfu_hostd_mirror_drop_unused(struct vfu_hostd *h, struct mirror *m)
{
	if (m->users)
		return;
	h->gone_large_maps += m->v.large_maps;
	h->gone_large_fallbacks += m->v.large_fallbacks;
	hd_vas_destroy(&h->d, &m->v);
	ptm_free(&m->pm);
	memset(m, 0, sizeof(*m));
}

void vfu_hostd_mirror_put(struct vfu_hostd *h, struct mirror *m)
{
	if (m && !--m->users)
		vfu_hostd_mirror_drop_unused(h, m);
}

struct mirror *vfu_hostd_mirror_find(struct vfu_hostd *h,
				      const struct vgsp_vm *vm)
{
	unsigned int i;

	for (i = 0; i < MAX_VAS; i++)
		if (h->mir[i].used && h->mir[i].vm.pdb == vm->pdb &&
		    h->mir[i].vm.target == vm->target)
			return &h->mir[i];
	return NULL;
}
