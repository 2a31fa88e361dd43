/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Concurrent access from several threads of one process (the guest has
 * 2 CPUs): every thread's BAR1 data stays its own, identity reads stay
 * right, and the counters (bumped under the instance lock) add up exactly.
 */
#include <pthread.h>
#include <stdio.h>
#include "rig.h"

struct worker {
	struct vdev *d;
	pthread_t tid;
	unsigned int id, iters, errs;
	uint32_t boot0;
};

static void *work(void *p)
{
	struct worker *w = p;

	for (unsigned int i = 0; i < w->iters; i++) {
		uint64_t off = 0x100000ull * (w->id + 1) + (i % 1024) * 4;
		uint32_t v = w->id << 24 | i;

		if (bar_wr32(w->d, 1, off, v) || bar_rd32(w->d, 1, off) != v)
			w->errs++;
		if (cfg32(w->d, 0) != (VGSP_DEVICE << 16 | VGSP_VENDOR))
			w->errs++;
		if (bar_rd32(w->d, 0, BAR0_BOOT0) != w->boot0)
			w->errs++;
	}
	return NULL;
}

void t_stress(struct vdev *d, unsigned int nthreads, unsigned int iters)
{
	struct worker w[16];
	struct ctrs b, a;
	char expect[256];
	unsigned int errs = 0, n = nthreads > 16 ? 16 : nthreads;
	uint32_t boot0 = bar_rd32(d, 0, BAR0_BOOT0);

	if (ctrs_read(d->uuid, &b)) {
		fail("stress.counters", "cannot read counters");
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		w[i] = (struct worker){ .d = d, .id = i, .iters = iters, .boot0 = boot0 };
		pthread_create(&w[i].tid, NULL, work, &w[i]);
	}
	for (unsigned int i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		errs += w[i].errs;
	}
	check(!errs, "stress.data", "%u wrong values over %u threads x %u iterations", errs, n, iters);
	ctrs_read(d->uuid, &a);
	snprintf(expect, sizeof(expect), "bar1_writes=%u,bar1_reads=%u,cfg_reads=%u,bar0_reads=%u",
		 n * iters, n * iters, n * iters, n * iters);
	ctrs_check("stress.counters_exact", &b, &a, expect, NULL);
}
