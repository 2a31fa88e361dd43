/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* FP32 FMA throughput and a clock64 cycle count of a fixed loop. */
#include "harness.h"
#include "stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FMA_BLOCK 256u
#define FMA_CHAINS 8u    /* independent chains per thread (k_fma) */
#define FMA_UNROLL 16u   /* FMAs per chain per loop trip (k_fma) */

/* Counts outputs that differ from the closed form documented in kernels.ptx. */
static unsigned long long fma_bad(const float *out, unsigned int nthreads,
				  unsigned int trips)
{
	unsigned long long bad = 0;
	unsigned int t;

	for (t = 0; t < nthreads; t++) {
		double want = 8.0 * (t & 1023u) + 28.0 +
			      (double)FMA_CHAINS * FMA_UNROLL * trips;

		if ((double)out[t] != want)
			bad++;
	}
	return bad;
}

void bench_fma(struct harness *h)
{
	unsigned int blocks_per_sm = (unsigned int)h->threads_per_sm / FMA_BLOCK;
	unsigned int grid, nthreads, r, trips = h->cfg.fma_trips;
	unsigned int reps = h->cfg.fma_reps;
	float a = 1.0f, b = 1.0f, *host;
	double *ms = harness_xmalloc(reps * sizeof(*ms)), flops;
	double *gap = harness_xmalloc(reps * sizeof(*gap)), t_done = 0.0;
	unsigned long long bad = 0, checks = 0;
	CUdeviceptr out;
	CUevent e0, e1;
	void *args[4] = { &out, &a, &b, &trips };
	struct stats s;

	/* Enough resident blocks to fill every multiprocessor. */
	if (blocks_per_sm == 0)
		blocks_per_sm = 1;
	grid = (unsigned int)h->sms * blocks_per_sm;
	/* --fma-blocks: the same grid on both sides of an A/B pair when the
	 * vGPU reports fewer SMs than the GPU that runs its kernels. */
	if (h->cfg.fma_blocks)
		grid = h->cfg.fma_blocks;
	nthreads = grid * FMA_BLOCK;
	host = harness_xmalloc(nthreads * sizeof(*host));
	CK(h, MemAlloc(&out, nthreads * sizeof(float)));
	CK(h, EventCreate(&e0, CU_EVENT_DEFAULT));
	CK(h, EventCreate(&e1, CU_EVENT_DEFAULT));

	/* One untimed launch (clocks ramp, code cached), then timed ones. */
	for (r = 0; r <= reps; r++) {
		float f = 0.0f;

		/* 0xFF bytes are NaN: an unwritten output cannot pass. */
		CK(h, MemsetD8(out, 0xFF, nthreads * sizeof(float)));
		if (r > 0 && h->cfg.fma_gap_ms) {
			/* --fma-gap-ms: the GPU idle (nothing queued) for the
			 * gap, then the timed launch as without it */
			CK(h, CtxSynchronize());
			sleep_ms(h->cfg.fma_gap_ms);
		}
		/* Host time from the last kernel's end seen to this launch:
		 * how sparse the launches are (under TCG, the guest's CPU). */
		if (r > 0)
			gap[r - 1] = now_ms() - t_done;
		CK(h, EventRecord(e0, h->stream));
		CK(h, LaunchKernel(h->k_fma, grid, 1, 1, FMA_BLOCK, 1, 1, 0,
				   h->stream, args, NULL));
		CK(h, EventRecord(e1, h->stream));
		CK(h, EventSynchronize(e1));
		t_done = now_ms();
		CK(h, EventElapsedTime(&f, e0, e1));
		CK(h, MemcpyDtoH(host, out, nthreads * sizeof(float)));
		bad += fma_bad(host, nthreads, trips);
		checks += nthreads;
		if (r > 0)
			ms[r - 1] = f;
	}
	emit_check(h, "kernel_fma_outputs", checks, bad);
	if (stats_compute(ms, reps, &s) != 0)
		exit(3);
	/* Exact count: 2 FLOPs per FMA, every FMA of every chain and thread. */
	flops = 2.0 * (double)nthreads * FMA_CHAINS * FMA_UNROLL * (double)trips;
	emit_metric("kernel_fma_ms", s.median);
	emit_metric("kernel_fma_gflops", flops / (s.median * 1e6));
	printf("info kernel_fma grid=%u block=%u threads=%u trips=%u flops=%.0f\n",
	       grid, FMA_BLOCK, nthreads, trips, flops);
	if (stats_compute(gap, reps, &s) != 0)
		exit(3);
	printf("info kernel_fma_gap gap_ms_set=%u host_gap_ms_min=%.3f "
	       "host_gap_ms_p50=%.3f host_gap_ms_max=%.3f\n", h->cfg.fma_gap_ms,
	       s.min, s.median, s.max);
	CK(h, EventDestroy(e0));
	CK(h, EventDestroy(e1));
	CK(h, MemFree(out));
	free(host);
	free(ms);
	free(gap);
}

static uint32_t lcg_steps(uint32_t x, unsigned int n)
{
	while (n--)
		x = x * 1664525u + 1013904223u;
	return x;
}

void bench_clock64(struct harness *h)
{
	unsigned int r, reps = h->cfg.clock_reps, iters = h->cfg.clock_iters;
	double *cyc = harness_xmalloc(reps * sizeof(*cyc));
	unsigned long long bad = 0;
	CUdeviceptr out;
	struct stats s;

	CK(h, MemAlloc(&out, 2 * sizeof(uint64_t)));
	for (r = 0; r < reps; r++) {
		uint32_t seed = 0x9e3779b9u + r;
		uint64_t got[2];
		void *args[3] = { &out, &iters, &seed };

		CK(h, MemsetD8(out, 0xFF, sizeof(got)));
		CK(h, LaunchKernel(h->k_clock, 1, 1, 1, 1, 1, 1, 0, h->stream,
				   args, NULL));
		CK(h, StreamSynchronize(h->stream));
		CK(h, MemcpyDtoH(got, out, sizeof(got)));
		/* The loop's value proves it ran; a zero/huge count is bogus. */
		if (got[1] != lcg_steps(seed, iters) || got[0] == 0 ||
		    got[0] > (uint64_t)1 << 40)
			bad++;
		cyc[r] = (double)got[0];
	}
	emit_check(h, "clock64_loop", reps, bad);
	if (stats_compute(cyc, reps, &s) != 0)
		exit(3);
	emit_metric("clock64_median", s.median);
	CK(h, MemFree(out));
	free(cyc);
}
