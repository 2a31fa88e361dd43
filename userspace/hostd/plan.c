/* SPDX-License-Identifier: MIT */
/*
 * plan.c - the pure half of hostd_fwd.h: the driver-version gate, the
 * split of guest runs at the host VA space's reservations, and the
 * map/unmap planner behind hd_vas_sync(). No OS calls (unit-tested).
 */
#include <string.h>

#include "hostd_fwd.h"

int hd_driver_version_ok(const char *ver)
{
	size_t n = sizeof(HD_DRIVER_BRANCH) - 1;
	return ver && !strncmp(ver, HD_DRIVER_BRANCH, n) && ver[n] >= '0' && ver[n] <= '9';
}

int hd_va_region(uint64_t va, uint64_t len)
{
	if (len == 0 || va + len < va)
		return -1;
	if (va >= HD_VA_MIN && va + len <= HD_VA_RSVD_LO)
		return 0;
	if (va >= HD_VA_RSVD_HI && va + len <= HD_VA_MAX)
		return 1;
	return -1;
}

#define PAGE_MASK 0xfffull

static int run_ok(const struct hd_run *r)
{
	return r->len && !((r->va | r->len | r->off) & PAGE_MASK) && r->va + r->len > r->va;
}

long hd_vas_clip_runs(const struct hd_run *in, size_t n, struct hd_run *out, size_t cap,
		      uint64_t *skipped)
{
	static const uint64_t lo[2] = { HD_VA_MIN, HD_VA_RSVD_HI };
	static const uint64_t hi[2] = { HD_VA_RSVD_LO, HD_VA_MAX };
	static const uint64_t gap_lo[3] = { 0, HD_VA_RSVD_LO, HD_VA_MAX };
	static const uint64_t gap_hi[3] = { HD_VA_MIN, HD_VA_RSVD_HI, UINT64_MAX };
	size_t k = 0;
	uint64_t skip = 0;

	for (size_t i = 0; i < n; i++) {
		if (!run_ok(&in[i]) || (i && in[i].va < in[i - 1].va + in[i - 1].len))
			return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct hd_run *r = &in[i];
		uint64_t end = r->va + r->len;
		for (int g = 0; g < 2; g++) {
			uint64_t a = r->va > lo[g] ? r->va : lo[g];
			uint64_t b = end < hi[g] ? end : hi[g];
			if (a >= b)
				continue;
			if (k >= cap)
				return -1;
			out[k] = *r;
			out[k].va = a;
			out[k].len = b - a;
			out[k].off = r->off + (a - r->va);
			k++;
		}
		/* parts outside both: below, between and above the windows */
		for (int g = 0; g < 3; g++)
			if (r->va < gap_hi[g] && end > gap_lo[g])
				skip++;
	}
	if (skipped)
		*skipped += skip;
	return (long)k;
}

static int same_run(const struct hd_run *a, const struct hd_run *b)
{
	return a->va == b->va && a->len == b->len && a->hmem == b->hmem && a->off == b->off &&
	       a->ro == b->ro;
}

/* is x (from list a) present, identical, in the sorted list b? *j is a
 * cursor into b that only moves forward while x walks a in order */
static int in_sorted(const struct hd_run *x, const struct hd_run *b, size_t nb, size_t *j)
{
	while (*j < nb && b[*j].va < x->va)
		(*j)++;
	return *j < nb && same_run(x, &b[*j]);
}

int hd_plan_apply(const struct hd_run *old, size_t nold,
		  const struct hd_run *new_runs, size_t nnew,
		  const struct hd_plan_ops *ops, void *ctx)
{
	int failed = 0;
	size_t j = 0;

	for (size_t i = 0; i < nold; i++)
		if (!in_sorted(&old[i], new_runs, nnew, &j) && ops->unmap(ctx, &old[i]))
			failed++;
	j = 0;
	for (size_t i = 0; i < nnew; i++)
		if (!in_sorted(&new_runs[i], old, nold, &j) && ops->map(ctx, &new_runs[i]))
			failed++;
	return failed;
}
