// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * FB pages that live in BAR3's mapped memory (see bar_share.h).
 *
 * Page by page: wherever BAR2 maps mapped-window VA page v onto FB page p
 * (vidmem, writable, not a message page), FB page p is lent the 4 KiB of
 * the frontend's block at v. CPU-RM's BAR2 map is linear but neither
 * 64 KiB aligned nor one piece (its own tables, a test page mapped twice),
 * so chunks would not do. An FB page mapped from two VAs is lent to one
 * only (drop_duplicates); the others are mirrors (struct alias).
 */
#include "mm.h"
#include "bar_share.h"
#include "../aperture.h"

#define PAGE		VGSP_APERTURE_PAGE
#define MAX_PAGES	(VGSP_BAR3_SIZE / PAGE)
#define HASH_SLOTS	(2 * MAX_PAGES)		/* power of two */
#define MAX_TABLES	256	/* BAR2's tree for 32 MiB needs ~20 */
#define MAX_ALIASES	64	/* second VAs of one FB page kept in step */
#define NONE		0xffffffffU

/*
 * A VA page whose FB page is lent to another VA (CPU-RM maps sub-page
 * objects one by one): its memfd page mirrors the FB page as of the last
 * flush, @snap is that content; bytes the guest changed since are written
 * to FB at the next flush (a sync or a trapped BAR0/BAR1 write: before the
 * core acts on a doorbell).
 */
struct alias {
	u32 v, pfn;
	u8 *snap;
};

struct vgsp_bar_share {
	u8 *mem;
	u32 npages;		/* of the mapped window */
	u32 lent[MAX_PAGES];	/* FB page lent the block's page v, NONE */
	u32 want[MAX_PAGES];	/* one sync's view of the tables */
	u32 taken[HASH_SLOTS];	/* FB page + 1 already wanted, 0 free */
	u32 dup[MAX_PAGES];	/* FB page of a VA that lost it, or NONE */
	u32 naliases;
	struct alias alias[MAX_ALIASES];
	u32 unshared;
	struct vgsp_bar_share_stats st;
};

struct vgsp_bar_share *vgsp_bar_share_new(u8 *mem, u64 size)
{
	struct vgsp_bar_share *sh;
	u32 v;

	if (!mem || size <= VGSP_SHARE_TRAP_TOP || size > VGSP_BAR3_SIZE ||
	    size % PAGE)
		return NULL;
	sh = vgsp_zalloc(sizeof(*sh));
	if (!sh)
		return NULL;
	sh->mem = mem;
	sh->npages = (u32)((size - VGSP_SHARE_TRAP_TOP) / PAGE);
	for (v = 0; v < MAX_PAGES; v++) {
		sh->lent[v] = NONE;
		sh->dup[v] = NONE;
	}
	return sh;
}

void vgsp_bar_share_free(struct vgsp_bar_share *sh)
{
	u32 i;

	if (!sh)
		return;
	for (i = 0; i < MAX_ALIASES; i++)
		vgsp_free(sh->alias[i].snap);
	vgsp_free(sh);
}

/* False when FB page @pfn is already wanted by another VA page. */
static bool take(struct vgsp_bar_share *sh, u32 pfn)
{
	u32 h = (pfn * 2654435761U) & (HASH_SLOTS - 1), i;

	for (i = 0; i < HASH_SLOTS; i++, h = (h + 1) & (HASH_SLOTS - 1)) {
		if (!sh->taken[h]) {
			sh->taken[h] = pfn + 1;
			return true;
		}
		if (sh->taken[h] == pfn + 1)
			return false;
	}
	return false;
}

struct walk_ctx {
	struct vgsp_bar_share *sh;
	u64 fb_pages;
};

/* One leaf of the BAR2 tree: the FB page under each of its 4 KiB. */
static int leaf(void *arg, u64 va, const struct vgsp_xlate *x)
{
	struct walk_ctx *w = arg;
	struct vgsp_bar_share *sh = w->sh;
	u64 end, pa, lim = (u64)sh->npages * PAGE;
	bool ok = x->target == VGSP_MEM_VID && !x->ro &&
		  x->kind != VGSP_PTE_KIND_SMSKED_MESSAGE;

	/* the trapped top translates on every access: nothing to lend */
	if (va >= lim)
		return 1;	/* the walk is in VA order */
	end = x->page > lim - va ? lim : va + x->page;
	for (pa = x->pa; va < end; va += PAGE, pa += PAGE) {
		if (ok && pa / PAGE < w->fb_pages)
			sh->want[va / PAGE] = (u32)(pa / PAGE);
		else
			sh->unshared++;
	}
	return 0;
}

/*
 * An FB page wanted by two VA pages goes to the one that has it lent now,
 * else to the first: a PTE CPU-RM writes byte by byte passes through
 * values naming pages other VAs hold, and the guest may be writing those
 * on its other vCPU; a loan that stays valid is never moved.
 */
static void drop_duplicates(struct vgsp_bar_share *sh)
{
	u32 v;

	memset(sh->taken, 0, sizeof(sh->taken));
	for (v = 0; v < sh->npages; v++)
		if (sh->want[v] != NONE && sh->lent[v] == sh->want[v])
			take(sh, sh->want[v]);
	for (v = 0; v < sh->npages; v++) {
		sh->dup[v] = NONE;
		if (sh->want[v] == NONE || sh->lent[v] == sh->want[v])
			continue;
		if (!take(sh, sh->want[v])) {
			sh->dup[v] = sh->want[v];
			sh->want[v] = NONE;
		}
	}
}

/* What the guest wrote through mirrors since the last flush goes to FB. */
static void merge_aliases(struct vgsp_bar_share *sh, struct vgsp_aperture *fb)
{
	u32 i, k;

	for (i = 0; i < sh->naliases; i++) {
		struct alias *a = &sh->alias[i];
		u8 *m = sh->mem + (u64)a->v * PAGE;

		for (k = 0; k < PAGE; k++) {
			u32 n = 0;

			while (k + n < PAGE && m[k + n] != a->snap[k + n])
				n++;
			if (!n)
				continue;
			if (vgsp_aperture_write(fb, (u64)a->pfn * PAGE + k,
						m + k, n))
				sh->st.errors++;
			memcpy(a->snap + k, m + k, n);
			sh->st.alias_bytes += n;
			k += n;
		}
	}
}

/* Mirrors show FB as it is now (FB lock held). */
static void refresh_aliases(struct vgsp_bar_share *sh, struct vgsp_aperture *fb)
{
	u32 i;

	for (i = 0; i < sh->naliases; i++) {
		struct alias *a = &sh->alias[i];

		vgsp_aperture_read(fb, (u64)a->pfn * PAGE, a->snap, PAGE);
		memcpy(sh->mem + (u64)a->v * PAGE, a->snap, PAGE);
	}
}

/* The alias set from this sync's duplicates (FB lock held). */
static void set_aliases(struct vgsp_bar_share *sh)
{
	u32 v, n = 0;

	for (v = 0; v < sh->npages; v++) {
		if (sh->dup[v] == NONE)
			continue;
		if (n < MAX_ALIASES && !sh->alias[n].snap)
			sh->alias[n].snap = vgsp_zalloc(PAGE);
		if (n >= MAX_ALIASES || !sh->alias[n].snap) {
			sh->unshared++;		/* not even mirrored */
			continue;
		}
		sh->alias[n].v = v;
		sh->alias[n].pfn = sh->dup[v];
		n++;
	}
	sh->naliases = n;
	sh->st.aliases = n;
}

/* vgsp_bar_share_flush with a share: merge and refresh the mirrors. */
void vgsp_bar_share_merge(struct vgsp_dev *dev)
{
	struct vgsp_bar_share *sh = dev->share;

	if (!sh || !sh->naliases)
		return;
	vgsp_os->lock(dev->mm->fb_lock);
	merge_aliases(sh, dev->mm->fb);
	refresh_aliases(sh, dev->mm->fb);
	vgsp_os->unlock(dev->mm->fb_lock);
}

void vgsp_bar_share_sync(struct vgsp_dev *dev)
{
	struct vgsp_bar_share *sh = dev->share;
	struct vgsp_mm *mm = dev->mm;
	struct walk_ctx w = { .sh = sh };
	u64 shared = 0, moved;
	u32 v;

	if (!sh || !mm || mm->fb->flat)
		return;
	sh->st.syncs++;
	w.fb_pages = mm->fb->size / PAGE;
	sh->unshared = 0;
	for (v = 0; v < sh->npages; v++)
		sh->want[v] = NONE;
	if (mm->bar_active[VGSP_VIEW_BAR2]) {
		struct vgsp_vm vm = { .pdb = mm->bar_pdb[VGSP_VIEW_BAR2],
				      .target = VGSP_MEM_VID };

		if (vgsp_mmu_for_each(dev, &vm, MAX_TABLES, leaf, &w) < 0) {
			/* a tree we cannot read whole: share nothing */
			sh->st.errors++;
			for (v = 0; v < sh->npages; v++)
				sh->want[v] = NONE;
		}
	}
	drop_duplicates(sh);
	moved = sh->st.lends + sh->st.reclaims;

	vgsp_os->lock(mm->fb_lock);
	merge_aliases(sh, mm->fb);
	/* first every loan that moves ends, then the new ones start */
	for (v = 0; v < sh->npages; v++) {
		if (sh->lent[v] == NONE || sh->lent[v] == sh->want[v])
			continue;
		if (vgsp_aperture_reclaim(mm->fb, sh->lent[v]))
			sh->st.errors++;
		sh->lent[v] = NONE;
		sh->st.reclaims++;
	}
	for (v = 0; v < sh->npages; v++) {
		if (sh->want[v] != NONE && sh->lent[v] != sh->want[v]) {
			if (vgsp_aperture_lend(mm->fb, sh->want[v],
					       sh->mem + (u64)v * PAGE)) {
				sh->st.errors++;
				continue;
			}
			sh->lent[v] = sh->want[v];
			sh->st.lends++;
		}
		shared += sh->lent[v] != NONE;
	}
	set_aliases(sh);
	refresh_aliases(sh, mm->fb);
	vgsp_os->unlock(mm->fb_lock);
	sh->st.shared = shared;
	sh->st.unshared = sh->unshared;
	if (sh->unshared > sh->st.unshared_peak)
		sh->st.unshared_peak = sh->unshared;
	/* a BAR1 mapping of a page that moved shows the old memory */
	if (sh->st.lends + sh->st.reclaims != moved)
		vgsp_bar1_changed(dev);
}

void vgsp_bar_share_reset(struct vgsp_dev *dev)
{
	struct vgsp_bar_share *sh = dev->share;
	u32 v;

	if (!sh || !dev->mm)
		return;
	vgsp_os->lock(dev->mm->fb_lock);
	for (v = 0; v < sh->npages; v++) {
		if (sh->lent[v] != NONE)
			vgsp_aperture_forget(dev->mm->fb, sh->lent[v]);
		sh->lent[v] = NONE;
	}
	sh->naliases = 0;
	vgsp_os->unlock(dev->mm->fb_lock);
	sh->st.shared = 0;
	sh->st.unshared = 0;
}

void vgsp_bar_share_stats(const struct vgsp_dev *dev,
			  struct vgsp_bar_share_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (dev->share)
		*out = dev->share->st;
}
