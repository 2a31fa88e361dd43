/* nvtrace.c — LD_PRELOAD library for the guest: logs every ioctl on an NVIDIA or UVM device
 * with the RM request decoded (control cmd, alloc class, handles, the RM status after the
 * call), one line each on stderr. libcuda is closed; this is how its requests are seen.
 * NVTRACE_PARAMS=1: a control's parameters (up to 1 KiB) are also printed as 32-bit words,
 * before the call and after it, and the GR_GET_INFO lists and the global SM order decoded.
 * Build: gcc -shared -fPIC -O2 -o nvtrace.so nvtrace.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define NV_ESC_RM_FREE 0x29
#define NV_ESC_RM_CONTROL 0x2a
#define NV_ESC_RM_ALLOC 0x2b

typedef int (*ioctl_fn)(int, unsigned long, void *);

static const uint32_t *u32p(const void *p, size_t off)
{
	return (const uint32_t *)((const char *)p + off);
}

/*
 * Controls whose answer the word dump does not show: GR_GET_INFO (0x20801201 and the device's
 * 0x00801104) carry a pointer to their { index, data } list; GR_GET_GLOBAL_SM_ORDER
 * (0x2080121b) has numSm/numTpc after 512 entries of 12 bytes, past the 1 KiB dump.
 */
static void decode(uint32_t cmd, const void *params, uint32_t size)
{
	if (!params)
		return;
	if ((cmd == 0x20801201 || cmd == 0x00801104) && size >= 16) {
		uint32_t n = *u32p(params, 0);
		const uint32_t *list = (const uint32_t *)(uintptr_t)*(const uint64_t *)
			((const char *)params + 8);

		fprintf(stderr, "nvtrace: grinfo 0x%08x n %u", cmd, n);
		for (uint32_t i = 0; list && i < n && i < 64; i++)
			fprintf(stderr, " [0x%x]=%u", list[2 * i], list[2 * i + 1]);
		fprintf(stderr, "\n");
	} else if (cmd == 0x2080121b && size >= 512 * 12 + 4) {
		const uint16_t *e = (const uint16_t *)params;
		uint16_t nsm = e[512 * 6], ntpc = e[512 * 6 + 1];

		fprintf(stderr, "nvtrace: sm_order numSm %u numTpc %u", nsm, ntpc);
		for (uint32_t i = 0; i < nsm && i < 512; i++)
			fprintf(stderr, " %u:%u.%u.%u", i, e[6 * i], e[6 * i + 1], e[6 * i + 2]);
		fprintf(stderr, "\n");
	}
}

int ioctl(int fd, unsigned long req, ...)
{
	static ioctl_fn real;
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	/* NVOS54: params pointer @16, paramsSize @24 */
	uint32_t before[256], psize = 0;
	const void *params = NULL;
	static int want_params = -1;
	if (want_params < 0)
		want_params = getenv("NVTRACE_PARAMS") && getenv("NVTRACE_PARAMS")[0] == '1';
	if (want_params && arg && _IOC_TYPE(req) == 'F' && _IOC_NR(req) == NV_ESC_RM_CONTROL &&
	    _IOC_SIZE(req) >= 32) {
		params = (const void *)(uintptr_t)*(const uint64_t *)((const char *)arg + 16);
		psize = *u32p(arg, 24);
		psize = psize > sizeof(before) ? sizeof(before) : psize;
		if (params)
			memcpy(before, params, psize);
	}
	rc = real(fd, req, arg);
	if (!arg)
		return rc;
	if (params && psize) {
		fprintf(stderr, "nvtrace: params 0x%08x in ", *u32p(arg, 8));
		for (uint32_t i = 0; i < psize / 4; i++)
			fprintf(stderr, " %08x", before[i]);
		fprintf(stderr, " out");
		for (uint32_t i = 0; i < psize / 4; i++)
			fprintf(stderr, " %08x", *u32p(params, 4 * i));
		fprintf(stderr, "\n");
	}
	if (want_params && arg && _IOC_TYPE(req) == 'F' && _IOC_NR(req) == NV_ESC_RM_CONTROL &&
	    _IOC_SIZE(req) >= 32)
		decode(*u32p(arg, 8), (const void *)(uintptr_t)*(const uint64_t *)((const char *)arg + 16),
		       *u32p(arg, 24));
	if (_IOC_TYPE(req) == 'F') {
		unsigned int nr = _IOC_NR(req), sz = _IOC_SIZE(req);

		if (nr == NV_ESC_RM_CONTROL && sz >= 32)
			fprintf(stderr, "nvtrace: ctrl 0x%08x h 0x%x/0x%x size 0x%x -> rc %d status 0x%x\n",
				*u32p(arg, 8), *u32p(arg, 0), *u32p(arg, 4), *u32p(arg, 24), rc,
				*u32p(arg, 28));
		else if (nr == NV_ESC_RM_ALLOC && sz >= 44)
			fprintf(stderr, "nvtrace: alloc class 0x%04x h 0x%x/0x%x/0x%x -> rc %d status 0x%x\n",
				*u32p(arg, 12), *u32p(arg, 0), *u32p(arg, 4), *u32p(arg, 8), rc,
				*u32p(arg, 40));
		else if (nr == NV_ESC_RM_ALLOC && sz >= 28)
			fprintf(stderr, "nvtrace: alloc class 0x%04x h 0x%x/0x%x/0x%x -> rc %d status 0x%x\n",
				*u32p(arg, 12), *u32p(arg, 0), *u32p(arg, 4), *u32p(arg, 8), rc,
				*u32p(arg, 24));
		else if (nr == NV_ESC_RM_FREE && sz >= 16)
			fprintf(stderr, "nvtrace: free h 0x%x/0x%x -> rc %d status 0x%x\n",
				*u32p(arg, 0), *u32p(arg, 8), rc, *u32p(arg, 12));
		else
			fprintf(stderr, "nvtrace: esc 0x%x size 0x%x fd %d -> rc %d\n", nr, sz, fd, rc);
	} else if (req < 0x1000 || (req & 0xffff0000) == 0x30000000) {
		/* UVM: plain numbers (uvm_ioctl.h); REGISTER_GPU (37) carries rmStatus @36 */
		if (req == 37)
			fprintf(stderr, "nvtrace: uvm REGISTER_GPU fd %d -> rc %d rmStatus 0x%x\n",
				fd, rc, *u32p(arg, 36));
		else
			fprintf(stderr, "nvtrace: uvm %lu fd %d -> rc %d\n", req, fd, rc);
	}
	return rc;
}
