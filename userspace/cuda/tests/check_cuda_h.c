/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Compiled only where the CUDA toolkit exists (make check-cuda-h): asserts
 * that the constants and signatures src/cuda_api.h declares by hand match
 * the real cuda.h. It includes cuda.h alone, so the numbers are literals
 * copied from cuda_api.h; a mismatch fails the build.
 */
#include <cuda.h>

#define SAME_FN(fn, type) _Static_assert(_Generic(&fn, type: 1, default: 0), #fn)

_Static_assert(sizeof(CUdeviceptr) == 8, "CUdeviceptr is 64-bit");
_Static_assert(sizeof(CUresult) == sizeof(int), "CUresult is int-sized");
_Static_assert(CUDA_SUCCESS == 0, "CUDA_SUCCESS");
_Static_assert(CU_DEVICE_ATTRIBUTE_CLOCK_RATE == 13, "CLOCK_RATE");
_Static_assert(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT == 16, "MP_COUNT");
_Static_assert(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE == 36, "MEM_CLOCK");
_Static_assert(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR == 39, "THR/SM");
_Static_assert(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR == 75, "CC major");
_Static_assert(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR == 76, "CC minor");
_Static_assert(CU_JIT_ERROR_LOG_BUFFER == 5, "JIT log");
_Static_assert(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES == 6, "JIT log size");
_Static_assert(CU_STREAM_NON_BLOCKING == 1, "stream flag");
_Static_assert(CU_EVENT_DEFAULT == 0, "event flag");

SAME_FN(cuMemAlloc_v2, CUresult (*)(CUdeviceptr *, size_t));
SAME_FN(cuMemcpyHtoDAsync_v2, CUresult (*)(CUdeviceptr, const void *, size_t, CUstream));
SAME_FN(cuMemcpyDtoHAsync_v2, CUresult (*)(void *, CUdeviceptr, size_t, CUstream));
SAME_FN(cuMemcpyDtoDAsync_v2, CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream));
SAME_FN(cuMemsetD8_v2, CUresult (*)(CUdeviceptr, unsigned char, size_t));
SAME_FN(cuLaunchKernel, CUresult (*)(CUfunction, unsigned int, unsigned int, unsigned int,
				     unsigned int, unsigned int, unsigned int, unsigned int,
				     CUstream, void **, void **));
SAME_FN(cuModuleLoadDataEx, CUresult (*)(CUmodule *, const void *, unsigned int,
					 CUjit_option *, void **));
SAME_FN(cuDeviceGetAttribute, CUresult (*)(int *, CUdevice_attribute, CUdevice));
SAME_FN(cuDevicePrimaryCtxRelease_v2, CUresult (*)(CUdevice));
SAME_FN(cuStreamDestroy_v2, CUresult (*)(CUstream));
SAME_FN(cuEventDestroy_v2, CUresult (*)(CUevent));

int main(void)
{
	return 0;
}
