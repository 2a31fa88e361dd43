// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The hostd backend's record of a mirrored VA space (see pt_mirror.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pt_mirror.h"

#define PAGE_SHIFT 12

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_range(const void *a, const void *b)
{
	const struct ptm_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int cmp_run(const void *a, const void *b)
{
	const struct hd_run *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/* Is any page in [first, last] among the sorted @pages? */
static bool any_page(const uint64_t *pages, size_t n, uint64_t first,
		     uint64_t last)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {		/* the first page >= first */
		size_t mid = lo + (hi - lo) / 2;

		if (pages[mid] < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && pages[lo] <= last;
}

int ptm_dirty(const struct pt_mirror *pm, const uint64_t *pages, size_t npages,
	      struct ptm_range **out, size_t *n)
{
	uint64_t *sorted = NULL;
	struct ptm_range *r;
	size_t i, k = 0, m;

	*out = NULL;
	*n = 0;
	r = malloc((pm->ntabs + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (npages) {
		sorted = malloc(npages * sizeof(*sorted));
		if (!sorted) {
			free(r);
			return -ENOMEM;
		}
		memcpy(sorted, pages, npages * sizeof(*sorted));
		qsort(sorted, npages, sizeof(*sorted), cmp_u64);
	}
	for (i = 0; i < pm->ntabs; i++) {
		const struct ptm_tab *t = &pm->tabs[i];

		if (t->sys || (npages && t->len &&
			       any_page(sorted, npages, t->pa >> PAGE_SHIFT,
					(t->pa + t->len - 1) >> PAGE_SHIFT)))
			r[k++] = (struct ptm_range){ t->va, t->va + t->span };
	}
	free(sorted);
	qsort(r, k, sizeof(*r), cmp_range);
	/* merge nested, overlapping and touching ranges */
	for (i = 0, m = 0; i < k; i++) {
		if (m && r[i].lo <= r[m - 1].end) {
			if (r[i].end > r[m - 1].end)
				r[m - 1].end = r[i].end;
			continue;
		}
		r[m++] = r[i];
	}
	if (!m) {
		free(r);
		return 0;
	}
	*out = r;
	*n = m;
	return 0;
}

/* The range of sorted, disjoint @r that holds @va, or NULL. */
static const struct ptm_range *range_of(const struct ptm_range *r, size_t nr,
					uint64_t va)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].end <= va)
			lo = mid + 1;
		else if (r[mid].lo > va)
			hi = mid;
		else
			return &r[mid];
	}
	return NULL;
}

struct run_list {
	struct hd_run *r;
	size_t n, cap;
};

static int add(struct run_list *l, const struct hd_run *x, uint64_t lo,
	       uint64_t end)
{
	struct hd_run p = *x, *n;

	if (lo < p.va)
		lo = p.va;
	if (end > p.va + p.len)
		end = p.va + p.len;
	if (lo >= end)
		return 0;
	p.off += lo - p.va;
	p.va = lo;
	p.len = end - lo;
	n = ptm_room(l->r, &l->cap, l->n, sizeof(*n), 64);
	if (!n)
		return -ENOMEM;
	l->r = n;
	l->r[l->n++] = p;
	return 0;
}

/* The parts of @x outside every range of @r. */
static int add_outside(struct run_list *l, const struct hd_run *x,
		       const struct ptm_range *r, size_t nr)
{
	uint64_t va = x->va, end = x->va + x->len;

	while (va < end) {
		const struct ptm_range *in = range_of(r, nr, va);
		uint64_t next = end;
		size_t i;

		if (in) {
			va = in->end;
			continue;
		}
		/* up to the next range that starts inside */
		for (i = 0; i < nr; i++)
			if (r[i].lo > va && r[i].lo < next) {
				next = r[i].lo;
				break;
			}
		if (add(l, x, va, next))
			return -ENOMEM;
		va = next;
	}
	return 0;
}

static void coalesce(struct run_list *l)
{
	size_t i, k = 0;

	if (!l->n)
		return;
	qsort(l->r, l->n, sizeof(*l->r), cmp_run);
	for (i = 0; i < l->n; i++) {
		struct hd_run *p = k ? &l->r[k - 1] : NULL;

		if (p && p->va + p->len == l->r[i].va &&
		    p->hmem == l->r[i].hmem && p->ro == l->r[i].ro &&
		    p->off + p->len == l->r[i].off) {
			p->len += l->r[i].len;
			continue;
		}
		l->r[k++] = l->r[i];
	}
	l->n = k;
}

/* Is [va, va + span) inside one range of @r? */
static bool inside(const struct ptm_range *r, size_t nr, uint64_t va,
		   uint64_t span)
{
	const struct ptm_range *in = range_of(r, nr, va);

	return in && va + span <= in->end;
}

int ptm_splice(struct pt_mirror *pm, const struct ptm_range *r, size_t nr,
	       const struct hd_run *runs, size_t nruns,
	       const struct ptm_tab *tabs, size_t ntabs)
{
	struct run_list l = { 0 };
	struct ptm_tab *t;
	size_t i, k = 0;

	for (i = 0; i < pm->nruns; i++)
		if (add_outside(&l, &pm->runs[i], r, nr))
			goto nomem;
	for (i = 0; i < nruns; i++) {
		size_t j;

		for (j = 0; j < nr; j++)
			if (add(&l, &runs[i], r[j].lo, r[j].end))
				goto nomem;
	}
	coalesce(&l);
	t = malloc((pm->ntabs + ntabs + 1) * sizeof(*t));
	if (!t)
		goto nomem;
	for (i = 0; i < pm->ntabs; i++)
		if (!inside(r, nr, pm->tabs[i].va, pm->tabs[i].span))
			t[k++] = pm->tabs[i];
	for (i = 0; i < ntabs; i++)
		if (inside(r, nr, tabs[i].va, tabs[i].span))
			t[k++] = tabs[i];
	free(pm->runs);
	free(pm->tabs);
	pm->runs = l.r;
	pm->nruns = l.n;
	pm->tabs = t;
	pm->ntabs = k;
	return 0;
nomem:
	free(l.r);
	return -ENOMEM;
}

int ptm_replace(struct pt_mirror *pm, const struct hd_run *runs, size_t nruns,
		const struct ptm_tab *tabs, size_t ntabs)
{
	struct hd_run *r = malloc((nruns + 1) * sizeof(*r));
	struct ptm_tab *t = malloc((ntabs + 1) * sizeof(*t));

	if (!r || !t) {
		free(r);
		free(t);
		return -ENOMEM;
	}
	if (nruns)
		memcpy(r, runs, nruns * sizeof(*r));
	if (ntabs)
		memcpy(t, tabs, ntabs * sizeof(*t));
	free(pm->runs);
	free(pm->tabs);
	pm->runs = r;
	pm->nruns = nruns;
	pm->tabs = t;
	pm->ntabs = ntabs;
	return 0;
}

bool ptm_covers(const struct pt_mirror *pm, uint64_t va, uint64_t len,
		bool write)
{
	size_t lo = 0, hi = pm->nruns;
	uint64_t end;

	if (!len || va > UINT64_MAX - len || hd_va_region(va, len) < 0)
		return false;
	end = va + len;
	/* the first run that ends after va */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hd_run *r = &pm->runs[mid];

		if (r->va + r->len <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* then runs must follow each other without a gap up to end */
	for (; lo < pm->nruns && va < end; lo++) {
		const struct hd_run *r = &pm->runs[lo];

		if (r->va > va || (write && r->ro))
			return false;
		va = r->va + r->len;
	}
	return va >= end;
}

void ptm_free(struct pt_mirror *pm)
{
	free(pm->runs);
	free(pm->tabs);
	memset(pm, 0, sizeof(*pm));
}
