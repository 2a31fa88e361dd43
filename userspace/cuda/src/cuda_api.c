/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Run-time binding to libcuda.so.1: no CUDA toolkit needed to build. */
#define _POSIX_C_SOURCE 200809L
#include "cuda_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int cu_api_load(struct cu_api *api)
{
	memset(api, 0, sizeof(*api));
	api->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!api->lib) {
		fprintf(stderr, "error: dlopen libcuda.so.1: %s\n", dlerror());
		return -1;
	}
	/*
	 * dlsym returns void *; converting it to a function pointer is what
	 * POSIX requires to work. Copy through memcpy so -Wpedantic-style
	 * object/function pointer casts are not needed.
	 */
#define CU_API_BIND(name, sym, params)                                       \
	do {                                                                 \
		void *p = dlsym(api->lib, sym);                              \
		if (!p) {                                                    \
			fprintf(stderr, "error: libcuda lacks %s\n", sym);   \
			return -1;                                           \
		}                                                            \
		memcpy(&api->name, &p, sizeof(p));                           \
	} while (0);
	CU_API_LIST(CU_API_BIND)
#undef CU_API_BIND
	return 0;
}

const char *cu_api_errname(const struct cu_api *api, CUresult r)
{
	static char buf[32];
	const char *s = NULL;

	if (api->GetErrorName && api->GetErrorName(r, &s) == CUDA_SUCCESS && s)
		return s;
	snprintf(buf, sizeof(buf), "CUresult %d", r);
	return buf;
}
