/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Device allocation latency: the first allocation, then n_malloc more. */
#include "harness.h"

#include <stdlib.h>

#define ALLOC_BYTES (1u << 20) /* 1 MiB: a typical small-tensor allocation */

void bench_malloc_first(struct harness *h, CUdeviceptr *keep)
{
	double t0 = now_ms();

	CK(h, MemAlloc(keep, ALLOC_BYTES));
	emit_metric("malloc_first_ms", now_ms() - t0);
}

void bench_malloc(struct harness *h)
{
	unsigned int i, n = h->cfg.n_malloc;
	CUdeviceptr *p = harness_xmalloc(n * sizeof(*p));
	double *ms = harness_xmalloc(n * sizeof(*ms));

	/* Kept live until all are timed, as a program building up state does. */
	for (i = 0; i < n; i++) {
		double t0 = now_ms();

		CK(h, MemAlloc(&p[i], ALLOC_BYTES));
		ms[i] = now_ms() - t0;
	}
	for (i = 0; i < n; i++)
		CK(h, MemFree(p[i]));
	emit_p50_p95("malloc_ms", ms, n);
	free(ms);
	free(p);
}
