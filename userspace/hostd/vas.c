/* SPDX-License-Identifier: MIT */
/*
 * vas.c - mirrored VA spaces (forwarding-map.md §3, §8.2, §8.4-6): one
 * FERMI_VASPACE_A per guest VA space, REQUIRE_FIXED_OFFSET, the guest's
 * usable ranges reserved with NV50_MEMORY_VIRTUAL before any channel
 * exists, guest runs mapped through the reservation that holds them with
 * 4 KiB PTEs, deferred TLB invalidation and one invalidate per sync.
 */
#include <stdlib.h>
#include <string.h>

#include "hostd_fwd.h"
#include "nvrm_abi.h"

#define OWNER_HSTD 0x68737464u /* 'hstd': any owner but 0 / ~0 */

static int reserve(struct hd_dev *d, struct hd_vas *v, uint32_t *h, uint64_t base, uint64_t end,
		   const char *what)
{
	/* a fresh struct per call: RM writes outputs back into it, and a
	 * reused one fails the (rangeLo == 0 && rangeHi == 0) check */
	struct nv_memory_alloc p;
	memset(&p, 0, sizeof(p));
	p.owner = OWNER_HSTD;
	p.type = NVOS32_TYPE_IMAGE;
	p.flags = NVOS32_ALLOC_FLAGS_VIRTUAL | NVOS32_ALLOC_FLAGS_FIXED_ADDRESS_ALLOCATE |
		  NVOS32_ALLOC_FLAGS_LAZY;
	p.attr = NVOS32_ATTR_PAGE_SIZE_BIG << NVOS32_ATTR_PAGE_SIZE_SHIFT;
	p.offset = base;
	p.size = end - base;
	p.hVASpace = v->hvas;
	*h = hd_new_handle(d);
	if (rm_alloc(d, d->device, h, NV50_MEMORY_VIRTUAL, &p, sizeof(p), what)) {
		*h = 0;
		return -1;
	}
	return 0;
}

int hd_vas_create(struct hd_dev *d, struct hd_vas *v)
{
	memset(v, 0, sizeof(*v));
	struct nv_vaspace_alloc va;
	memset(&va, 0, sizeof(va));
	va.index = 0; /* NV_VASPACE_ALLOCATION_INDEX_GPU_NEW */
	va.flags = NV_VASPACE_ALLOCATION_FLAGS_REQUIRE_FIXED_OFFSET;
	va.bigPageSize = NV_VASPACE_BIG_PAGE_SIZE_64K;
	v->hvas = hd_new_handle(d);
	if (rm_alloc(d, d->device, &v->hvas, FERMI_VASPACE_A, &va, sizeof(va),
		     "alloc FERMI_VASPACE_A (fixed-offset)")) {
		v->hvas = 0;
		return -1;
	}
	if (d->log)
		fprintf(d->log, "vas: 0x%x base 0x%llx size 0x%llx\n", v->hvas,
			(unsigned long long)va.vaBase, (unsigned long long)va.vaSize);
	/* RM returns the range it gave (1 MiB .. 2^57 on GH100); a range that
	 * misses the guest's or hostd's windows is refused */
	if (va.vaBase > HD_VA_MIN ||
	    (va.vaSize && va.vaBase + va.vaSize < HD_VA_OWN_BASE + HD_VA_OWN_SIZE)) {
		if (d->log)
			fprintf(d->log, "vas: the VA space does not cover [0x%llx, 0x%llx)\n",
				HD_VA_MIN, HD_VA_OWN_BASE + HD_VA_OWN_SIZE);
		d->last_status = NV_ERR_INVALID_STATE;
		goto fail;
	}
	/* before any channel or engine object: RM's own allocations in this
	 * VA space then land above HD_VA_MAX, never on a guest VA */
	if (reserve(d, v, &v->rsv_lo, HD_VA_MIN, HD_VA_RSVD_LO, "alloc NV50_MEMORY_VIRTUAL (low)") ||
	    reserve(d, v, &v->rsv_hi, HD_VA_RSVD_HI, HD_VA_MAX, "alloc NV50_MEMORY_VIRTUAL (high)"))
		goto fail;
	struct nv_memory_virtual_alloc vm;
	memset(&vm, 0, sizeof(vm));
	vm.hVASpace = v->hvas;
	v->hvirt = hd_new_handle(d);
	if (rm_alloc(d, d->device, &v->hvirt, NV01_MEMORY_VIRTUAL, &vm, sizeof(vm),
		     "alloc NV01_MEMORY_VIRTUAL (hostd maps)")) {
		v->hvirt = 0;
		goto fail;
	}
	v->own_next = HD_VA_OWN_BASE;
	return 0;
fail:
	hd_vas_destroy(d, v);
	return -1;
}

int hd_vas_alloc(struct hd_dev *d, struct hd_vas *v, struct hd_mem *m, uint64_t size, int flags)
{
	/* the VA is aligned to the allocation's page size (hd_alloc: 2 MiB
	 * pages for vidmem from 8 MiB up, else 4 KiB); 64 KiB otherwise */
	const uint64_t align = ((flags & HD_MEM_VID) && size >= (8u << 20)) ? (2u << 20) : (64u << 10);
	uint64_t va = (v->own_next + align - 1) & ~(align - 1);
	if (!v->hvirt || !size || size > HD_VA_OWN_BASE + HD_VA_OWN_SIZE - va) {
		memset(m, 0, sizeof(*m));
		m->map_fd = -1;
		return -1;
	}
	if (hd_alloc_at(d, m, size, flags, v->hvirt, va))
		return -1;
	v->own_next = (va + m->size + align - 1) & ~(align - 1);
	return 0;
}

/* ---- sync: the planner with RM map/unmap as its operations ------------ */

struct sync_ctx {
	struct hd_dev *d;
	struct hd_vas *v;
	const struct hd_run *old;
	struct hd_run *nw;	/* ours: op_map notes how each was mapped */
	unsigned char *old_stuck, *new_bad; /* per run: unmap / map failed */
	uint64_t maps, unmaps, fails;
};

static uint32_t rsv_of(const struct hd_vas *v, const struct hd_run *r)
{
	int g = hd_va_region(r->va, r->len);
	return g == 0 ? v->rsv_lo : g == 1 ? v->rsv_hi : 0;
}

#define PAGE_4K (4ull << 10)
#define PAGE_64K (64ull << 10)
#define PAGE_2M (2ull << 20)

size_t hd_run_pieces(const struct hd_run *r, struct hd_run_piece *p, size_t cap)
{
	static const uint64_t sizes[] = { PAGE_2M, PAGE_64K, PAGE_4K };
	uint64_t va = r->va, off = r->off, n = r->len;
	size_t k = 0;

	while (n) {
		unsigned int i = 0;
		uint64_t len;

		while (i < 2 && (va % sizes[i] || off % sizes[i] || n < sizes[i]))
			i++;
		if (i == 2 && (va % PAGE_4K || off % PAGE_4K || n % PAGE_4K))
			return 0;	/* runs are 4 KiB-aligned: never */
		len = n / sizes[i] * sizes[i];
		if (i > 0) {
			/* stop where the next larger page can start */
			uint64_t big = sizes[i - 1], to = (big - va % big) % big;

			if ((va - off) % big == 0 && to && n - to >= big)
				len = to;
		}
		if (k == cap)
			return 0;
		p[k++] = (struct hd_run_piece){ va, off, len, sizes[i] };
		va += len;
		off += len;
		n -= len;
	}
	return k;
}

static uint32_t page_flag(uint64_t page)
{
	return page == PAGE_2M ? NVOS46_FLAGS_PAGE_SIZE_HUGE :
	       page == PAGE_64K ? NVOS46_FLAGS_PAGE_SIZE_BIG : NVOS46_FLAGS_PAGE_SIZE_4KB;
}

/* Map [va, va + len) of @r's memory at @off with @page PTEs; 0 or -1. */
static int map_at(struct sync_ctx *s, uint32_t h, const struct hd_run *r, uint64_t va0,
		  uint64_t off, uint64_t len, uint64_t page)
{
	uint32_t flags = NVOS46_FLAGS_DMA_OFFSET_FIXED |
			 (page_flag(page) << NVOS46_FLAGS_PAGE_SIZE_SHIFT) |
			 (r->ro ? NVOS46_FLAGS_ACCESS_READ_ONLY : 0) |
			 NVOS46_FLAGS_DEFER_TLB_INVALIDATION;
	uint64_t va = va0;

	if (rm_map_gpu_at(s->d, h, r->hmem, off, len, flags, &va, "map mirror run"))
		return -1;
	if (va != va0) {
		/* RM put it elsewhere (it must not, with an explicit page size):
		 * take it down again, it is not what the guest mapped */
		if (s->d->log)
			fprintf(s->d->log, "vas: asked va 0x%llx, RM mapped at 0x%llx; unmapping\n",
				(unsigned long long)va0, (unsigned long long)va);
		rm_unmap_gpu(s->d, h, r->hmem, va, NVOS47_FLAGS_DEFER_TLB_INVALIDATION,
			     "unmap misplaced run");
		return -1;
	}
	return 0;
}

static int op_unmap(void *ctx, const struct hd_run *r)
{
	struct sync_ctx *s = ctx;
	uint32_t h = rsv_of(s->v, r);
	struct hd_run_piece p[HD_RUN_PIECES_MAX];
	size_t k, n = 1;
	int bad = !h;

	if (r->large)
		n = hd_run_pieces(r, p, HD_RUN_PIECES_MAX);
	else
		p[0].va = r->va;
	for (k = 0; !bad && k < n; k++)
		bad = rm_unmap_gpu(s->d, h, r->hmem, p[k].va, NVOS47_FLAGS_DEFER_TLB_INVALIDATION,
				   "unmap mirror run") != 0;
	if (bad || !n) {
		s->old_stuck[r - s->old] = 1;
		s->fails++;
		return -1;
	}
	s->unmaps++;
	return 0;
}

/* Large pages where they line up; should RM refuse any piece, the
 * pieces done come down and the run maps with 4 KiB PTEs as before. */
static int map_large(struct sync_ctx *s, uint32_t h, struct hd_run *r)
{
	struct hd_run_piece p[HD_RUN_PIECES_MAX];
	size_t k, n = hd_run_pieces(r, p, HD_RUN_PIECES_MAX);

	if (n == 1 && p[0].page == PAGE_4K)
		return -1;	/* nothing lines up: a plain map */
	for (k = 0; k < n; k++)
		if (map_at(s, h, r, p[k].va, p[k].off, p[k].len, p[k].page))
			break;
	if (n && k == n) {
		r->large = true;
		s->v->large_maps++;
		return 0;
	}
	while (k--)
		rm_unmap_gpu(s->d, h, r->hmem, p[k].va, NVOS47_FLAGS_DEFER_TLB_INVALIDATION,
			     "unmap large piece");
	s->v->large_fallbacks++;
	return -1;
}

static int op_map(void *ctx, const struct hd_run *cr)
{
	struct sync_ctx *s = ctx;
	/* the run is one of s->nw's (ours): record how it was mapped */
	struct hd_run *r = &s->nw[cr - s->nw];
	uint32_t h = rsv_of(s->v, r);

	r->large = false;
	if (!h)
		goto fail;
	if (s->v->large_hmem && r->hmem == s->v->large_hmem && !map_large(s, h, r))
		goto done;
	if (map_at(s, h, r, r->va, r->off, r->len, PAGE_4K))
		goto fail;
done:
	s->maps++;
	return 0;
fail:
	s->new_bad[r - s->nw] = 1;
	s->fails++;
	return -1;
}

static int cmp_run(const void *a, const void *b)
{
	const struct hd_run *x = a, *y = b;
	return x->va < y->va ? -1 : x->va > y->va;
}

static int invalidate(struct hd_dev *d, struct hd_vas *v)
{
	struct nv0080_invalidate_tlb p = { v->hvas, 0 };
	v->tlb_invalidates++;
	return rm_control(d, d->device, NV0080_CTRL_CMD_DMA_INVALIDATE_TLB, &p, sizeof(p),
			  "ctrl DMA_INVALIDATE_TLB");
}

/* Whether the mapped run identical to @r (if any) has large pages. */
static bool mapped_large(const struct hd_vas *v, const struct hd_run *r)
{
	size_t lo = 0, hi = v->nruns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hd_run *m = &v->runs[mid];

		if (m->va == r->va)
			return m->large && m->len == r->len && m->hmem == r->hmem &&
			       m->off == r->off && m->ro == r->ro;
		if (m->va < r->va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int hd_vas_sync(struct hd_dev *d, struct hd_vas *v, const struct hd_run *runs, size_t n)
{
	if (!v->hvas)
		return -1;
	v->syncs++;
	size_t cap = 2 * n + 1;
	struct hd_run *nw = malloc(cap * sizeof(*nw));
	unsigned char *flags = calloc(cap + v->nruns + 1, 1);
	if (!nw || !flags) {
		free(nw);
		free(flags);
		return -1;
	}
	long nn = hd_vas_clip_runs(runs, n, nw, cap, &v->skipped);
	if (nn < 0) {
		if (d->log)
			fprintf(d->log, "vas: sync refused: runs not sorted / overlapping / unaligned\n");
		free(nw);
		free(flags);
		return -1;
	}
	/* the caller's .large means nothing here: a run the planner keeps
	 * (identical to one mapped now) stays mapped as it was */
	for (long i = 0; i < nn; i++)
		nw[i].large = mapped_large(v, &nw[i]);
	struct sync_ctx s = { d, v, v->runs, nw, flags, flags + v->nruns, 0, 0, 0 };
	struct hd_plan_ops ops = { op_unmap, op_map };
	hd_plan_apply(v->runs, v->nruns, nw, (size_t)nn, &ops, &s);
	int rc = 0;
	if (s.maps + s.unmaps + s.fails && invalidate(d, v)) {
		s.fails++;
		rc = -1;
	}
	v->maps += s.maps;
	v->unmaps += s.unmaps;
	v->map_errors += s.fails;

	/* what is mapped now: the new runs that are in place (identical ones
	 * were never touched) and the old runs that would not come down */
	size_t keep = 0;
	for (long i = 0; i < nn; i++)
		keep += !s.new_bad[i];
	for (size_t i = 0; i < v->nruns; i++)
		keep += s.old_stuck[i];
	struct hd_run *now = malloc((keep + 1) * sizeof(*now));
	if (!now) {
		/* cannot record: keep the old list, the next sync redoes it */
		free(nw);
		free(flags);
		return -1;
	}
	size_t k = 0;
	for (size_t i = 0; i < v->nruns; i++)
		if (s.old_stuck[i])
			now[k++] = v->runs[i];
	for (long i = 0; i < nn; i++)
		if (!s.new_bad[i])
			now[k++] = nw[i];
	qsort(now, k, sizeof(*now), cmp_run);
	free(v->runs);
	v->runs = now;
	v->nruns = k;
	v->cap = keep + 1;
	free(nw);
	free(flags);
	return (rc || s.fails) ? -1 : 0;
}

void hd_vas_destroy(struct hd_dev *d, struct hd_vas *v)
{
	if (v->nruns)
		hd_vas_sync(d, v, NULL, 0);
	/* freeing a reservation drops what is mapped through it, but whether
	 * RM then invalidates is not measured: unmap first (above) */
	if (v->hvirt)
		rm_free(d, d->device, v->hvirt);
	if (v->rsv_hi)
		rm_free(d, d->device, v->rsv_hi);
	if (v->rsv_lo)
		rm_free(d, d->device, v->rsv_lo);
	if (v->hvas)
		rm_free(d, d->device, v->hvas);
	free(v->runs);
	memset(v, 0, sizeof(*v));
}
