/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared state of one harness run. The harness prints one "metric NAME VALUE"
 * line per measurement and "check WHAT checks=N bad=M" per verification; the
 * line format is what perf_results (run_parse.c) reads back.
 */
#ifndef PERF_HARNESS_H
#define PERF_HARNESS_H

#include "cuda_api.h"

#define HARNESS_MAX_SIZES 16

struct harness_cfg {
	unsigned int n_warm, n_malloc, n_thru;
	size_t sizes[HARNESS_MAX_SIZES];
	unsigned int nsizes;
	int ordinal;              /* CUDA device ordinal */
	unsigned int fma_trips;   /* loop trips of k_fma (16 FMAs/chain each) */
	unsigned int fma_reps;    /* timed k_fma launches; the median is kept */
	unsigned int clock_iters; /* LCG steps in k_clock */
	unsigned int clock_reps;  /* k_clock launches; the median is kept */
	unsigned int fma_blocks;  /* k_fma grid; 0 = every SM filled (SMs x
				   * max threads per SM / 256) */
	unsigned int fma_gap_ms;  /* --fma-gap-ms: the GPU left idle this long
				   * before each timed k_fma launch (a native
				   * control for a guest that launches sparsely) */
	int mark_fd;              /* --mark-file: phase marks go here; -1 none */
	int skip_kernels;         /* --skip-kernels: no kernel launches, and
				   * no memsets beyond 4 KiB (libcuda runs
				   * those as kernels): for a backend without
				   * SMs; the kernel metrics are "skipped" */
};

struct harness {
	struct cu_api cu;
	struct harness_cfg cfg;
	CUdevice dev;
	CUcontext ctx;
	CUstream stream;
	CUmodule mod;
	CUfunction k_empty, k_tick, k_fma, k_clock;
	int sms, threads_per_sm;
	unsigned long long checks, bad;
};

/* Prints the failed call and its status, then exits 3: no partial results. */
void harness_cuda_fail(struct harness *h, const char *call, CUresult r,
		       const char *file, int line);

/* Every driver call goes through CK so none has its status ignored. */
#define CK(h, call)                                                        \
	do {                                                               \
		CUresult ck_r_ = (h)->cu.call;                             \
		if (ck_r_ != CUDA_SUCCESS)                                 \
			harness_cuda_fail((h), #call, ck_r_, __FILE__,     \
					  __LINE__);                       \
	} while (0)

/* Exits 3 with a message when allocation fails (host side). */
void *harness_xmalloc(size_t bytes);

/* CLOCK_MONOTONIC in milliseconds. */
double now_ms(void);

/* Sleeps ms milliseconds (host), resuming after signals. */
void sleep_ms(unsigned int ms);

/*
 * "vgsp-perf-mark phase PHASE begin|end" to --mark-file, one write() each,
 * so a watcher (scripts/h200/ba.sh: the guest's serial console, or a file
 * natively) can stamp the phases with its own clock. No-op without it.
 */
void harness_mark(const struct harness *h, const char *phase, const char *what);

void emit_metric(const char *name, double value);
/* "skipped NAME REASON": a metric this run did not measure, and why. */
void emit_skipped(const char *name, const char *reason);
void emit_check(struct harness *h, const char *what,
		unsigned long long checks, unsigned long long bad);

/* The measurements, in the order harness_main.c runs them. */
void bench_malloc_first(struct harness *h, CUdeviceptr *keep);
void bench_launch(struct harness *h);
void bench_malloc(struct harness *h);
void bench_throughput(struct harness *h);
void bench_fma(struct harness *h);
void bench_copy(struct harness *h);
void bench_clock64(struct harness *h);

/* p50 and p95 of v[0..n-1] as BASE_p50 / BASE_p95 metrics (n >= 1). */
void emit_p50_p95(const char *base, const double *v, unsigned int n);

#endif /* PERF_HARNESS_H */
