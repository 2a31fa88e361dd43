/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A latency distribution of fixed size: log-linear buckets, 8 per power of
 * two from 8 ns up to 2^40 ns (below 8 ns exact), so any percentile read
 * back is within 12.5 % of the true value. Adding is a few shifts and an
 * increment (no allocation, no lock of its own: the caller's lock).
 * (The gsp_latency view keeps its older power-of-two histogram.)
 */
#ifndef VGSP_LAT_H
#define VGSP_LAT_H

#include "vgsp_types.h"

#define VGSP_LATD_SUB		8
#define VGSP_LATD_MAX_SHIFT	40
#define VGSP_LATD_BUCKETS	((VGSP_LATD_MAX_SHIFT - 2) * VGSP_LATD_SUB)

struct vgsp_lat {
	u64 n, sum_ns, max_ns;
	u32 b[VGSP_LATD_BUCKETS];
};

void vgsp_lat_add(struct vgsp_lat *l, u64 ns);
/* The @permille-th percentile (500: p50, 990: p99) in ns; 0 when empty. */
u64 vgsp_lat_pct(const struct vgsp_lat *l, u32 permille);
void vgsp_lat_clear(struct vgsp_lat *l);

#endif /* VGSP_LAT_H */
