/* SPDX-License-Identifier: MIT */
/*
 * cuda_bench.c - the "A" side of the hostd B/A: the same operations as
 * vgsp-hostd's measurements, through the CUDA driver API (libcuda), on the
 * same GPU, with the same iteration counts and a spinning synchronize so
 * both sides wait the same way.
 *
 *   cuda_bench build/kern.cubin      -> "METRIC cuda <name> <value>" lines
 */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { \
	const char *s_ = NULL; cuGetErrorString(e_, &s_); \
	printf("FAIL cuda %s: %s\n", #x, s_ ? s_ : "?"); exit(1); } } while (0)

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t pct(uint64_t *v, unsigned n, double p)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	unsigned i = (unsigned)ceil(p * n) - 1;
	return v[i < n ? i : n - 1];
}

static CUstream st;

static void bench_copy(CUdeviceptr src, CUdeviceptr dst, size_t bytes, unsigned iters,
		       unsigned stream, const char *tag)
{
	uint64_t *t = calloc(iters, sizeof(*t));
	for (unsigned i = 0; i < iters + 5; i++) {
		uint64_t t0 = now_ns();
		CK(cuMemcpyDtoDAsync(dst, src, bytes, st));
		CK(cuStreamSynchronize(st));
		if (i >= 5)
			t[i - 5] = now_ns() - t0;
	}
	uint64_t p50 = pct(t, iters, 0.5), p95 = pct(t, iters, 0.95);
	printf("METRIC cuda copy_%s_sync_p50_us %.2f\n", tag, p50 / 1e3);
	printf("METRIC cuda copy_%s_sync_p95_us %.2f\n", tag, p95 / 1e3);
	printf("METRIC cuda copy_%s_sync_GBps %.2f\n", tag, bytes / (double)p50);
	uint64_t t0 = now_ns();
	for (unsigned i = 0; i < stream; i++)
		CK(cuMemcpyDtoDAsync(dst, src, bytes, st));
	CK(cuStreamSynchronize(st));
	printf("METRIC cuda copy_%s_stream_GBps %.2f\n", tag, (double)bytes * stream / (now_ns() - t0));
	free(t);
}

int main(int argc, char **argv)
{
	const char *cubin = argc > 1 ? argv[1] : "build/kern.cubin";
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUfunction fill, nop;
	CK(cuInit(0));
	CK(cuDeviceGet(&dev, 0));
	CK(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_SPIN));
	CK(cuDevicePrimaryCtxRetain(&ctx, dev));
	CK(cuCtxSetCurrent(ctx));
	CK(cuModuleLoad(&mod, cubin));
	CK(cuModuleGetFunction(&fill, mod, "vgsp_fill"));
	CK(cuModuleGetFunction(&nop, mod, "vgsp_nop"));
	CK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));

	const size_t big = 16u << 20;
	CUdeviceptr src, dst, out;
	CK(cuMemAlloc(&src, big));
	CK(cuMemAlloc(&dst, big));
	CK(cuMemAlloc(&out, 4u << 20));
	CK(cuMemsetD32(src, 0x5a5a5a5a, big / 4));

	/* correctness of the A side too: the same kernel, verified */
	unsigned n = 1u << 20, mul = 3, add = 0x1234;
	void *args[] = { &out, &n, &mul, &add };
	CK(cuLaunchKernel(fill, n / 256, 1, 1, 256, 1, 1, 0, st, args, NULL));
	CK(cuStreamSynchronize(st));
	unsigned *h = malloc((size_t)n * 4);
	CK(cuMemcpyDtoH(h, out, (size_t)n * 4));
	unsigned bad = 0;
	for (unsigned i = 0; i < n; i++)
		bad += h[i] != i * mul + add;
	printf("%s cuda vgsp_fill via cuLaunchKernel, %u outputs verified (%u wrong)\n",
	       bad ? "FAIL" : "PASS", n, bad);
	free(h);

	bench_copy(src, dst, 4096, 2000, 2000, "4KiB");
	bench_copy(src, dst, big, 200, 64, "16MiB");

	const unsigned iters = 2000, burst = 4000;
	uint64_t *t = calloc(iters, sizeof(*t));
	for (unsigned i = 0; i < iters + 10; i++) {
		uint64_t t0 = now_ns();
		CK(cuLaunchKernel(nop, 1, 1, 1, 32, 1, 1, 0, st, NULL, NULL));
		CK(cuStreamSynchronize(st));
		if (i >= 10)
			t[i - 10] = now_ns() - t0;
	}
	printf("METRIC cuda launch_lat_p50_us %.2f\n", pct(t, iters, 0.5) / 1e3);
	printf("METRIC cuda launch_lat_p95_us %.2f\n", pct(t, iters, 0.95) / 1e3);
	uint64_t t0 = now_ns();
	for (unsigned i = 0; i < burst; i++)
		CK(cuLaunchKernel(nop, 1, 1, 1, 32, 1, 1, 0, st, NULL, NULL));
	CK(cuStreamSynchronize(st));
	printf("METRIC cuda launches_per_s %.0f\n", burst / ((now_ns() - t0) / 1e9));
	free(t);
	return bad ? 1 : 0;
}
