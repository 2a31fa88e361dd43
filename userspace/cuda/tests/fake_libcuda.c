/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A stand-in libcuda.so.1 for the harness's own tests (no GPU here): device
 * memory is host memory, every call runs at once on the CPU, events are
 * CLOCK_MONOTONIC stamps, and the four kernels of kernels.ptx write what the
 * real ones write (k_fma's closed form, k_clock's LCG value), so the
 * harness's measuring and verifying code runs end to end.
 * FAKE_CUDA_DTOD_CORRUPT=1: device -> device copies flip their first byte,
 * so a test can see the harness's read-back catch it.
 */
#define _POSIX_C_SOURCE 200809L
#include "cuda_api.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OK CUDA_SUCCESS
#define FAIL 1 /* CUDA_ERROR_INVALID_VALUE */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *ptr(CUdeviceptr p)
{
	return (void *)(uintptr_t)p;
}

CUresult cuInit(unsigned int flags) { (void)flags; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 12020; return OK; }
CUresult cuGetErrorName(CUresult e, const char **s) { (void)e; *s = "CUDA_ERROR_FAKE"; return OK; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return OK; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { *d = ordinal; return ordinal ? FAIL : OK; }

CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
	(void)d;
	strncpy(name, "Fake GPU", (size_t)len);
	name[len - 1] = '\0';
	return OK;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
	(void)d;
	switch (attr) {
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 2; return OK;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 512; return OK;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; return OK;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; return OK;
	default: return FAIL;
	}
}

static int ctx_obj;
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)(void *)&ctx_obj; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { (void)d; return OK; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return OK; }
CUresult cuCtxSynchronize(void) { return OK; }

static int mod_obj;
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int nopt, CUjit_option *opts, void **vals)
{
	(void)image, (void)nopt, (void)opts, (void)vals;
	*m = (CUmodule)(void *)&mod_obj;
	return OK;
}

/* A function handle is its name. */
static const char *const kernels[] = { "k_empty", "k_tick", "k_fma", "k_clock" };
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	size_t i;

	(void)m;
	for (i = 0; i < sizeof(kernels) / sizeof(kernels[0]); i++)
		if (!strcmp(name, kernels[i])) {
			*f = (CUfunction)(void *)(uintptr_t)kernels[i];
			return OK;
		}
	return FAIL;
}
CUresult cuModuleUnload(CUmodule m) { (void)m; return OK; }

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes)
{
	void *q = malloc(bytes);

	*p = (CUdeviceptr)(uintptr_t)q;
	return q ? OK : FAIL;
}
CUresult cuMemFree_v2(CUdeviceptr p) { free(ptr(p)); return OK; }
CUresult cuMemAllocHost_v2(void **p, size_t bytes) { *p = malloc(bytes); return *p ? OK : FAIL; }
CUresult cuMemFreeHost(void *p) { free(p); return OK; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) { memcpy(ptr(dst), src, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) { memcpy(dst, ptr(src), n); return OK; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	(void)s;
	return cuMemcpyHtoD_v2(dst, src, n);
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	(void)s;
	return cuMemcpyDtoH_v2(dst, src, n);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	const char *bad = getenv("FAKE_CUDA_DTOD_CORRUPT");

	(void)s;
	memcpy(ptr(dst), ptr(src), n);
	if (bad && *bad == '1' && n)
		((uint8_t *)ptr(dst))[0] ^= 0xFF;
	return OK;
}
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) { memset(ptr(p), v, n); return OK; }

static uint32_t lcg_steps(uint32_t x, unsigned int n)
{
	while (n--)
		x = x * 1664525u + 1013904223u;
	return x;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
			unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem,
			CUstream s, void **params, void **extra)
{
	const char *k = (const char *)(void *)f;

	(void)gy, (void)gz, (void)by, (void)bz, (void)shmem, (void)s, (void)extra;
	if (!strcmp(k, "k_tick")) {
		(*(unsigned int *)ptr(*(CUdeviceptr *)params[0]))++;
	} else if (!strcmp(k, "k_fma")) {
		float *out = ptr(*(CUdeviceptr *)params[0]);
		unsigned int trips = *(unsigned int *)params[3], t, n = gx * bx;
		double t0 = now_ms();

		for (t = 0; t < n; t++)
			out[t] = (float)(8.0 * (t & 1023u) + 28.0 + 8.0 * 16.0 * trips);
		while (now_ms() - t0 < 1.0) /* a kernel takes time */
			;
	} else if (!strcmp(k, "k_clock")) {
		uint64_t *out = ptr(*(CUdeviceptr *)params[0]);

		out[1] = lcg_steps(*(uint32_t *)params[2], *(unsigned int *)params[1]);
		out[0] = 28000;
	}
	return OK;
}

static int stream_obj;
CUresult cuStreamCreate(CUstream *s, unsigned int flags) { (void)flags; *s = (CUstream)(void *)&stream_obj; return OK; }
CUresult cuStreamSynchronize(CUstream s) { (void)s; return OK; }
CUresult cuStreamDestroy_v2(CUstream s) { (void)s; return OK; }

CUresult cuEventCreate(CUevent *e, unsigned int flags)
{
	double *t = calloc(1, sizeof(*t));

	(void)flags;
	*e = (CUevent)(void *)t;
	return t ? OK : FAIL;
}
CUresult cuEventRecord(CUevent e, CUstream s) { (void)s; *(double *)(void *)e = now_ms(); return OK; }
CUresult cuEventSynchronize(CUevent e) { (void)e; return OK; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	*ms = (float)(*(double *)(void *)b - *(double *)(void *)a);
	return OK;
}
CUresult cuEventDestroy_v2(CUevent e) { free(e); return OK; }
