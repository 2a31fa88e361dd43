/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The few CUDA driver-API types, constants and entry points the harness uses,
 * declared here so the harness builds without CUDA headers (CI has none) and
 * runs against whatever libcuda.so.1 the machine has (loaded with dlopen).
 * Values match cuda.h; tests/check_cuda_h.c asserts that where cuda.h exists.
 */
#ifndef PERF_CUDA_API_H
#define PERF_CUDA_API_H

#include <stddef.h>

typedef int CUresult;                 /* enum in cuda.h; 0 is CUDA_SUCCESS */
typedef int CUdevice;
typedef unsigned long long CUdeviceptr; /* 64-bit builds only */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUjit_option;

#define CUDA_SUCCESS 0

/* CUdevice_attribute values */
#define CU_DEVICE_ATTRIBUTE_CLOCK_RATE 13
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE 36
#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR 39
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76

/* CUjit_option values used to get the JIT's error log */
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6

#define CU_STREAM_NON_BLOCKING 1
#define CU_EVENT_DEFAULT 0

/*
 * One table of entry points. Each row: member name, exported symbol (the
 * versioned name old and new drivers both export), return, parameters.
 */
#define CU_API_LIST(X) \
	X(Init, "cuInit", (unsigned int flags)) \
	X(DriverGetVersion, "cuDriverGetVersion", (int *v)) \
	X(GetErrorName, "cuGetErrorName", (CUresult e, const char **s)) \
	X(DeviceGetCount, "cuDeviceGetCount", (int *n)) \
	X(DeviceGet, "cuDeviceGet", (CUdevice *d, int ordinal)) \
	X(DeviceGetName, "cuDeviceGetName", (char *name, int len, CUdevice d)) \
	X(DeviceGetAttribute, "cuDeviceGetAttribute", (int *v, int attr, CUdevice d)) \
	X(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *c, CUdevice d)) \
	X(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice d)) \
	X(CtxSetCurrent, "cuCtxSetCurrent", (CUcontext c)) \
	X(CtxSynchronize, "cuCtxSynchronize", (void)) \
	X(ModuleLoadDataEx, "cuModuleLoadDataEx", (CUmodule *m, const void *image, unsigned int nopt, CUjit_option *opts, void **vals)) \
	X(ModuleGetFunction, "cuModuleGetFunction", (CUfunction *f, CUmodule m, const char *name)) \
	X(ModuleUnload, "cuModuleUnload", (CUmodule m)) \
	X(MemAlloc, "cuMemAlloc_v2", (CUdeviceptr *p, size_t bytes)) \
	X(MemFree, "cuMemFree_v2", (CUdeviceptr p)) \
	X(MemAllocHost, "cuMemAllocHost_v2", (void **p, size_t bytes)) \
	X(MemFreeHost, "cuMemFreeHost", (void *p)) \
	X(MemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr dst, const void *src, size_t n)) \
	X(MemcpyDtoH, "cuMemcpyDtoH_v2", (void *dst, CUdeviceptr src, size_t n)) \
	X(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", (CUdeviceptr dst, const void *src, size_t n, CUstream s)) \
	X(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", (void *dst, CUdeviceptr src, size_t n, CUstream s)) \
	X(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)) \
	X(MemsetD8, "cuMemsetD8_v2", (CUdeviceptr p, unsigned char v, size_t n)) \
	X(LaunchKernel, "cuLaunchKernel", (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int shmem, CUstream s, void **params, void **extra)) \
	X(StreamCreate, "cuStreamCreate", (CUstream *s, unsigned int flags)) \
	X(StreamSynchronize, "cuStreamSynchronize", (CUstream s)) \
	X(StreamDestroy, "cuStreamDestroy_v2", (CUstream s)) \
	X(EventCreate, "cuEventCreate", (CUevent *e, unsigned int flags)) \
	X(EventRecord, "cuEventRecord", (CUevent e, CUstream s)) \
	X(EventSynchronize, "cuEventSynchronize", (CUevent e)) \
	X(EventElapsedTime, "cuEventElapsedTime", (float *ms, CUevent a, CUevent b)) \
	X(EventDestroy, "cuEventDestroy_v2", (CUevent e))

struct cu_api {
#define CU_API_MEMBER(name, sym, params) CUresult (*name) params;
	CU_API_LIST(CU_API_MEMBER)
#undef CU_API_MEMBER
	void *lib;
};

/* Loads libcuda.so.1 and every symbol above; 0 on success, else prints why. */
int cu_api_load(struct cu_api *api);

/* "CUDA_ERROR_xxx" for a status, or "CUresult <n>" if the driver can't say. */
const char *cu_api_errname(const struct cu_api *api, CUresult r);

#endif /* PERF_CUDA_API_H */
