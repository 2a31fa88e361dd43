// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Latency distributions (see lat.h). */
#include "lat.h"
#include "vgsp_os.h"

static unsigned int msb64(u64 v)
{
	unsigned int r = 0;

	while (v >>= 1)
		r++;
	return r;
}

static unsigned int bucket(u64 ns)
{
	unsigned int m;

	if (ns < VGSP_LATD_SUB)
		return (unsigned int)ns;
	m = msb64(ns);
	if (m >= VGSP_LATD_MAX_SHIFT)
		return VGSP_LATD_BUCKETS - 1;
	/* 8 sub-buckets of [2^m, 2^(m+1)): the 3 bits below the top one */
	return (m - 2) * VGSP_LATD_SUB + (unsigned int)((ns >> (m - 3)) & 7);
}

/* The middle of bucket @i's range. */
static u64 bucket_mid(unsigned int i)
{
	unsigned int m;
	u64 lo, w;

	if (i < VGSP_LATD_SUB)
		return i;
	m = i / VGSP_LATD_SUB + 2;
	w = 1ULL << (m - 3);
	lo = (1ULL << m) + (u64)(i % VGSP_LATD_SUB) * w;
	return lo + w / 2;
}

void vgsp_lat_add(struct vgsp_lat *l, u64 ns)
{
	l->n++;
	l->sum_ns += ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	l->b[bucket(ns)]++;
}

u64 vgsp_lat_pct(const struct vgsp_lat *l, u32 permille)
{
	u64 want, seen = 0;
	unsigned int i;

	if (!l->n)
		return 0;
	if (permille > 1000)
		permille = 1000;
	/* the smallest value with at least permille/1000 of them at or below */
	want = (l->n * permille + 999) / 1000;
	if (!want)
		want = 1;
	for (i = 0; i < VGSP_LATD_BUCKETS; i++) {
		seen += l->b[i];
		if (seen >= want) {
			/* the last bucket holds everything past 2^40 ns */
			u64 v = i == VGSP_LATD_BUCKETS - 1 ? l->max_ns :
				bucket_mid(i);

			return v > l->max_ns ? l->max_ns : v;
		}
	}
	return l->max_ns;
}

void vgsp_lat_clear(struct vgsp_lat *l)
{
	memset(l, 0, sizeof(*l));
}
