/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The hostd backend's record of one mirrored guest VA space: the guest's
 * mappings as runs of registered memory at the last resync, and the index
 * of the page tables that resync read (where each is, the VA range it
 * covers). With the core's log of writes to watched table pages
 * (vgsp_pt_log_since) it tells which VA ranges a resync must walk again;
 * the walk's result is spliced into the runs. Pure: no core, no RM.
 */
#ifndef VFU_PT_MIRROR_H
#define VFU_PT_MIRROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "hostd_fwd.h"

/*
 * @p with room for element @n (of @elem bytes): @p itself while @n is
 * below *cap, else realloc'd to twice *cap (@first the first time), *cap
 * updated; NULL when that fails or would overflow, @p then untouched (its
 * owner still frees it). The glue's growing arrays all go through here.
 */
static inline void *ptm_room(void *p, size_t *cap, size_t n, size_t elem,
			     size_t first)
{
	size_t c;

	if (n < *cap)
		return p;
	c = *cap ? *cap * 2 : first;
	if (c <= *cap || c > SIZE_MAX / elem)
		return NULL;
	p = realloc(p, c * elem);
	if (p)
		*cap = c;
	return p;
}

struct ptm_tab {
	uint64_t pa;		/* FB or system-memory address */
	uint64_t va, span;	/* the VA range it covers */
	uint32_t len;		/* bytes of the table */
	bool sys;		/* in guest system memory: never tracked */
};

struct ptm_range {
	uint64_t lo, end;	/* [lo, end) */
};

struct pt_mirror {
	struct hd_run *runs;	/* the guest's mappings, sorted by va */
	size_t nruns;
	struct ptm_tab *tabs;
	size_t ntabs;
	uint64_t log_seq;	/* the core's table-write log read up to here */
};

/*
 * The VA ranges whose tables changed: every table on one of the FB pages
 * @pages (page numbers, any order) and every table in system memory (the
 * core cannot see those writes), sorted and merged. 0 (*@n may be 0:
 * nothing to walk), or -ENOMEM.
 */
int ptm_dirty(const struct pt_mirror *pm, const uint64_t *pages, size_t npages,
	      struct ptm_range **out, size_t *n);

/*
 * Replace what the mirror knows inside @r (sorted, disjoint) with a new
 * walk of those ranges: @runs (clipped to @r here) and the tables @tabs
 * the walk read (those that cover more than one range, the ancestors it
 * passed through, are kept from before). The runs stay sorted, with
 * contiguous pieces of one object coalesced. 0 or -ENOMEM (unchanged).
 */
int ptm_splice(struct pt_mirror *pm, const struct ptm_range *r, size_t nr,
	       const struct hd_run *runs, size_t nruns,
	       const struct ptm_tab *tabs, size_t ntabs);

/* A full walk's result: the mirror becomes exactly @runs and @tabs. */
int ptm_replace(struct pt_mirror *pm, const struct hd_run *runs, size_t nruns,
		const struct ptm_tab *tabs, size_t ntabs);

/*
 * Whether the mirror maps every byte of [va, va + len) (writable too when
 * @write), and inside one of the host VA space's two reservations (what
 * hd_vas_sync can map: hd_va_region). len 0 or a wrapping range: false.
 */
bool ptm_covers(const struct pt_mirror *pm, uint64_t va, uint64_t len,
		bool write);

void ptm_free(struct pt_mirror *pm);

#endif
