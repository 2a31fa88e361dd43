// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A CPU-side copy of the FB lines the core reads, for an FB store the CPU
 * reaches uncached (vgsp-vfu --fb vidmem: the GPU's memory through BAR1,
 * where every load is a PCIe round trip). 4 KiB pages, each filled one
 * 64-byte line at a time as reads reach it (a page-table walk reads 8
 * bytes of a table, not 4 KiB); at most a fixed number of pages, evicted
 * by a clock hand.
 *
 * The store stays the truth: the core's writes go through to it and patch
 * the cached lines, so dropping any page at any time is correct. What the
 * core does not write itself:
 *  - a backend's engine wrote a known FB range (vgsp_fb_engine_wrote):
 *    those pages are dropped;
 *  - a backend call that may run work on the GPU is bracketed by
 *    vgsp_fb_gpu_start/done (engine/gr.c, engine/ce.c): meanwhile every
 *    read goes to the store (a BAR trap must not see an old line beside a
 *    new semaphore), after it what the work may have written is dropped
 *    (all of FB for a launch or a copy to a VA);
 *  - a call that failed may have left the engine running: the cache stays
 *    off until the device reset;
 *  - FB mapped into the guest (vgsp_pt_fb_untracked): off for good.
 * All state is under the FB lock.
 */
#include "mm.h"
#include "../aperture.h"

#define FBC_PAGE_SHIFT	12
#define FBC_PAGE	(1U << FBC_PAGE_SHIFT)
#define FBC_LINE_SHIFT	6
#define FBC_LINE	(1U << FBC_LINE_SHIFT)
#define FBC_NONE	0xffffffffU
/* Bulk reads (a copy on the CPU) go around: they would evict the tables. */
#define FBC_BYPASS_LEN	(4 * FBC_PAGE)

struct fbc_ent {
	u64 pfn;
	u64 gen;		/* holds nothing unless the cache's gen */
	u64 valid;		/* one bit per line */
	u32 next;		/* hash chain */
	bool ref;		/* read since the hand last passed */
};

struct vgsp_fb_cache {
	struct fbc_ent *ent;
	u8 *data;		/* cap pages, entry i at i * FBC_PAGE */
	u32 *bucket;
	u32 nbuckets;		/* a power of two */
	u32 cap, used, hand;
	u64 gen;		/* bumped: every page dropped at once */
	u32 busy;		/* backend calls that may be writing FB now */
	bool stopped;		/* an engine may still run: until reset */
	struct vgsp_fbc_stats st;
};

int vgsp_fbc_create(struct vgsp_mm *mm, u32 pages)
{
	struct vgsp_fb_cache *c;
	u32 i;

	/* a sparse store is host memory already; fills are whole lines */
	if (!pages || !mm->fb->flat || mm->fb->size % FBC_PAGE)
		return 0;
	if (pages > VGSP_FBC_MAX_PAGES)
		pages = VGSP_FBC_MAX_PAGES;
	if (pages > mm->fb->size >> FBC_PAGE_SHIFT)
		pages = (u32)(mm->fb->size >> FBC_PAGE_SHIFT);
	if (!pages)
		return 0;
	c = vgsp_zalloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cap = pages;
	for (c->nbuckets = 1; c->nbuckets < pages; c->nbuckets <<= 1)
		;
	c->ent = vgsp_zalloc(sizeof(*c->ent) * pages);
	c->bucket = vgsp_zalloc(sizeof(*c->bucket) * c->nbuckets);
	c->data = vgsp_zalloc((size_t)pages * FBC_PAGE);
	if (!c->ent || !c->bucket || !c->data) {
		vgsp_fbc_free(c);
		return -ENOMEM;
	}
	for (i = 0; i < c->nbuckets; i++)
		c->bucket[i] = FBC_NONE;
	c->gen = 1;		/* fresh entries (gen 0) hold nothing */
	mm->fbc = c;
	return 0;
}

void vgsp_fbc_free(struct vgsp_fb_cache *c)
{
	if (!c)
		return;
	vgsp_free(c->ent);
	vgsp_free(c->bucket);
	vgsp_free(c->data);
	vgsp_free(c);
}

static u32 hash(const struct vgsp_fb_cache *c, u64 pfn)
{
	return (u32)((pfn * 0x9e3779b97f4a7c15ULL) >> 32) & (c->nbuckets - 1);
}

static u64 valid_of(const struct vgsp_fb_cache *c, const struct fbc_ent *e)
{
	return e->gen == c->gen ? e->valid : 0;
}

/* Lines @first..@last of a page (inclusive). */
static u64 lines(u32 first, u32 last)
{
	return (~0ULL >> (63 - last)) & (~0ULL << first);
}

static u32 lookup(const struct vgsp_fb_cache *c, u64 pfn)
{
	u32 i;

	for (i = c->bucket[hash(c, pfn)]; i != FBC_NONE; i = c->ent[i].next)
		if (c->ent[i].pfn == pfn)
			return i;
	return FBC_NONE;
}

static void chain_remove(struct vgsp_fb_cache *c, u32 idx)
{
	u32 *p = &c->bucket[hash(c, c->ent[idx].pfn)];

	while (*p != FBC_NONE && *p != idx)
		p = &c->ent[*p].next;
	if (*p == idx)
		*p = c->ent[idx].next;
}

/* A slot for @pfn: a new one while under the cap, else the clock's pick. */
static u32 take(struct vgsp_fb_cache *c, u64 pfn)
{
	struct fbc_ent *e;
	u32 idx;

	if (c->used < c->cap) {
		idx = c->used++;
	} else {
		/* one turn at most clears every ref */
		for (;;) {
			idx = c->hand;
			c->hand = (c->hand + 1) % c->cap;
			e = &c->ent[idx];
			if (!valid_of(c, e) || !e->ref)
				break;
			e->ref = false;
		}
		if (valid_of(c, e))
			c->st.evictions++;
		chain_remove(c, idx);
	}
	e = &c->ent[idx];
	e->pfn = pfn;
	e->gen = c->gen;
	e->valid = 0;
	e->next = c->bucket[hash(c, pfn)];
	c->bucket[hash(c, pfn)] = idx;
	return idx;
}

static bool bypass(const struct vgsp_mm *mm, u32 len)
{
	const struct vgsp_fb_cache *c = mm->fbc;

	return c->busy || c->stopped || mm->fb_untracked ||
	       len > FBC_BYPASS_LEN;
}

/* FB lock held, bounds checked. False: read the store instead. */
bool vgsp_fbc_read(struct vgsp_mm *mm, u64 pa, void *buf, u32 len)
{
	struct vgsp_fb_cache *c = mm->fbc;
	bool missed = false;
	u8 *out = buf;

	if (!c)
		return false;
	if (bypass(mm, len)) {
		c->st.bypassed++;
		c->st.store_reads++;
		return false;
	}
	while (len) {
		u32 off = (u32)(pa & (FBC_PAGE - 1));
		u32 n = len < FBC_PAGE - off ? len : FBC_PAGE - off;
		u32 idx = lookup(c, pa >> FBC_PAGE_SHIFT), l, first, last;
		struct fbc_ent *e;
		u8 *page;
		u64 need;

		if (idx == FBC_NONE)
			idx = take(c, pa >> FBC_PAGE_SHIFT);
		e = &c->ent[idx];
		if (e->gen != c->gen) {
			e->gen = c->gen;
			e->valid = 0;
		}
		page = c->data + (size_t)idx * FBC_PAGE;
		first = off >> FBC_LINE_SHIFT;
		last = (off + n - 1) >> FBC_LINE_SHIFT;
		need = lines(first, last) & ~e->valid;
		/* runs of missing lines, one store read each */
		for (l = first; need && l <= last; l++) {
			u32 end = l;

			if (!(need & (1ULL << l)))
				continue;
			while (end < last && (need & (1ULL << (end + 1))))
				end++;
			vgsp_aperture_read(mm->fb,
					   (pa & ~(u64)(FBC_PAGE - 1)) +
					   ((u64)l << FBC_LINE_SHIFT),
					   page + (l << FBC_LINE_SHIFT),
					   (end - l + 1) << FBC_LINE_SHIFT);
			c->st.store_reads++;
			c->st.line_fills += end - l + 1;
			e->valid |= lines(l, end);
			need &= ~lines(l, end);
			missed = true;
			l = end;
		}
		memcpy(out, page + off, n);
		e->ref = true;
		out += n;
		pa += n;
		len -= n;
	}
	if (missed)
		c->st.misses++;
	else
		c->st.hits++;
	return true;
}

/*
 * Each cached page in [@pa, @pa + @len): @fn on it. Page by page when the
 * range is smaller than what is cached, else over the entries (a fill or
 * a copy of many MiB).
 */
static void each_cached(struct vgsp_fb_cache *c, u64 pa, u64 len,
			void (*fn)(struct vgsp_fb_cache *c, u32 idx, u64 pa,
				   u64 len, const u8 *src),
			const u8 *src)
{
	u64 first = pa >> FBC_PAGE_SHIFT;
	u64 last = (pa + len - 1) >> FBC_PAGE_SHIFT, pfn;
	u32 i;

	if (!len)
		return;
	if (last - first < c->used) {
		for (pfn = first; pfn <= last; pfn++) {
			i = lookup(c, pfn);
			if (i != FBC_NONE && valid_of(c, &c->ent[i]))
				fn(c, i, pa, len, src);
		}
		return;
	}
	for (i = 0; i < c->used; i++)
		if (c->ent[i].pfn >= first && c->ent[i].pfn <= last &&
		    valid_of(c, &c->ent[i]))
			fn(c, i, pa, len, src);
}

static void drop_page(struct vgsp_fb_cache *c, u32 idx, u64 pa, u64 len,
		      const u8 *src)
{
	c->ent[idx].valid = 0;
	c->st.invalidated++;
}

/* The written part of page @idx: its bytes, and whole lines become valid. */
static void patch_page(struct vgsp_fb_cache *c, u32 idx, u64 pa, u64 len,
		       const u8 *src)
{
	struct fbc_ent *e = &c->ent[idx];
	u64 base = e->pfn << FBC_PAGE_SHIFT;
	u64 lo = pa > base ? pa : base;
	u64 hi = pa + len < base + FBC_PAGE ? pa + len : base + FBC_PAGE;
	u32 off = (u32)(lo - base), end = (u32)(hi - base);
	u32 fl = (off + FBC_LINE - 1) >> FBC_LINE_SHIFT;
	u32 ll = end >> FBC_LINE_SHIFT;	/* first line not wholly written */

	/* an invalid line's other bytes stay unknown: it stays invalid */
	memcpy(c->data + (size_t)idx * FBC_PAGE + off, src + (lo - pa),
	       end - off);
	if (fl < ll)
		e->valid |= lines(fl, ll - 1);
	c->st.patched++;
}

void vgsp_fbc_wrote(struct vgsp_mm *mm, u64 pa, const void *buf, u32 len)
{
	if (mm->fbc)
		each_cached(mm->fbc, pa, len, patch_page, buf);
}

void vgsp_fbc_drop(struct vgsp_mm *mm, u64 pa, u64 len)
{
	if (mm->fbc)
		each_cached(mm->fbc, pa, len, drop_page, NULL);
}

static void drop_all(struct vgsp_fb_cache *c)
{
	c->gen++;
	c->st.drops++;
}

void vgsp_fb_gpu_start(struct vgsp_dev *dev)
{
	struct vgsp_mm *mm = dev->mm;

	if (!mm->fbc)
		return;
	vgsp_os->lock(mm->fb_lock);
	mm->fbc->busy++;
	vgsp_os->unlock(mm->fb_lock);
}

void vgsp_fb_gpu_done(struct vgsp_dev *dev, u64 pa, u64 len, bool ended)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_fb_cache *c = mm->fbc;

	if (!c)
		return;
	vgsp_os->lock(mm->fb_lock);
	if (c->busy)
		c->busy--;
	if (!ended && !c->stopped) {
		c->stopped = true;
		c->st.stops++;
	}
	/* a range that is not inside FB is no promise: everything */
	if (len && (pa >= mm->fb->size || len > mm->fb->size - pa))
		drop_all(c);
	else
		each_cached(c, pa, len, drop_page, NULL);
	vgsp_os->unlock(mm->fb_lock);
}

void vgsp_fbc_reset(struct vgsp_mm *mm)
{
	if (!mm->fbc)
		return;
	drop_all(mm->fbc);
	mm->fbc->stopped = false;
}

bool vgsp_fbc_stats(struct vgsp_dev *dev, struct vgsp_fbc_stats *st)
{
	struct vgsp_mm *mm = dev->mm;
	struct vgsp_fb_cache *c = mm->fbc;

	memset(st, 0, sizeof(*st));
	if (!c)
		return false;
	vgsp_os->lock(mm->fb_lock);
	*st = c->st;
	st->cap = c->cap;
	st->pages = c->used;
	st->off = c->stopped || mm->fb_untracked;
	vgsp_os->unlock(mm->fb_lock);
	return true;
}
