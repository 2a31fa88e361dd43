/* cuprobe.c — which engine does libcuda use for each copy/memset entry point?
 *
 * Each probe runs in its own process (a channel error is sticky for a CUDA process): cuInit,
 * a context, two buffers, the source filled by HtoD, then the probed operation, a
 * cuCtxSynchronize, and a read-back verified byte for byte. One line per probe:
 *   cuprobe: <op> <size> op=<rc> sync=<rc> <verified|mismatch ...|->
 * Run beside vgsp-vfu's log: a probe that reaches the compute class shows up there as a
 * refused (or run) compute launch between "cuprobe: begin <op>" kmsg markers.
 *
 * usage: cuprobe [sizes in bytes ...]   (default 4096 2097152)
 * build: gcc -std=c11 -Wall -Wextra -Werror -O2 cuprobe.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;

/* CUDA_MEMCPY2D (driver ABI, _v2 layout). */
struct memcpy2d {
	size_t src_x, src_y;
	int src_type;
	const void *src_host;
	CUdeviceptr src_dev;
	void *src_array;
	size_t src_pitch;
	size_t dst_x, dst_y;
	int dst_type;
	void *dst_host;
	CUdeviceptr dst_dev;
	void *dst_array;
	size_t dst_pitch;
	size_t width, height;
};

enum { MEM_HOST = 1, MEM_DEVICE = 2 };

#define CU_FUNCS(X)                                                                            \
	X(cuInit, (unsigned int flags))                                                        \
	X(cuDeviceGet, (CUdevice *d, int ordinal))                                             \
	X(cuCtxCreate_v2, (CUcontext *c, unsigned int flags, CUdevice d))                      \
	X(cuCtxSynchronize, (void))                                                            \
	X(cuMemAlloc_v2, (CUdeviceptr *p, size_t bytes))                                       \
	X(cuMemAllocHost_v2, (void **p, size_t bytes))                                         \
	X(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t n))                       \
	X(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t n))                             \
	X(cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n))                       \
	X(cuMemcpyDtoDAsync_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s))      \
	X(cuMemcpyHtoDAsync_v2, (CUdeviceptr dst, const void *src, size_t n, CUstream s))      \
	X(cuMemcpy, (CUdeviceptr dst, CUdeviceptr src, size_t n))                              \
	X(cuMemcpy2D_v2, (const struct memcpy2d *p))                                           \
	X(cuMemsetD8_v2, (CUdeviceptr dst, unsigned char v, size_t n))                         \
	X(cuMemsetD16_v2, (CUdeviceptr dst, unsigned short v, size_t n))                       \
	X(cuMemsetD32_v2, (CUdeviceptr dst, unsigned int v, size_t n))                         \
	X(cuMemsetD2D32_v2, (CUdeviceptr dst, size_t pitch, unsigned int v, size_t w, size_t h))

#define CU_DECLARE(name, args) static CUresult (*name) args;
CU_FUNCS(CU_DECLARE)

enum op { HTOD, HTOD_PINNED, DTOD, DTOD_ASYNC, MEMCPY, MEMCPY2D, SET8, SET16, SET32, SET2D32, N_OPS };
static const char *const op_names[N_OPS] = { "htod", "htod_pinned_async", "dtod", "dtod_async",
					     "memcpy_unified", "memcpy2d_dtod", "memsetD8",
					     "memsetD16", "memsetD32", "memsetD2D32" };

static void kmsg(const char *op, size_t sz)
{
	char line[96];
	int fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		return;
	int n = snprintf(line, sizeof(line), "cuprobe: begin %s %zu\n", op, sz);
	if (n > 0 && write(fd, line, (size_t)n) < 0) {
		/* a marker only */
	}
	close(fd);
}

/* The expected content of b after the op: the source pattern or a fill. */
static void expect(enum op op, uint8_t *want, const uint8_t *src, size_t sz)
{
	size_t i;
	switch (op) {
	case SET8:
		memset(want, 0x5c, sz);
		return;
	case SET16:
		for (i = 0; i + 2 <= sz; i += 2)
			memcpy(want + i, &(uint16_t){ 0xbeef }, 2);
		return;
	case SET32:
	case SET2D32:
		for (i = 0; i + 4 <= sz; i += 4)
			memcpy(want + i, &(uint32_t){ 0x12345678 }, 4);
		return;
	default:
		memcpy(want, src, sz);
	}
}

static CUresult run_op(enum op op, CUdeviceptr a, CUdeviceptr b, const uint8_t *src, size_t sz)
{
	struct memcpy2d p;
	void *pinned = NULL;
	CUresult rc;

	switch (op) {
	case HTOD:
		return cuMemcpyHtoD_v2(b, src, sz);
	case HTOD_PINNED:
		rc = cuMemAllocHost_v2(&pinned, sz);
		if (rc)
			return rc;
		memcpy(pinned, src, sz);
		return cuMemcpyHtoDAsync_v2(b, pinned, sz, NULL);
	case DTOD:
		return cuMemcpyDtoD_v2(b, a, sz);
	case DTOD_ASYNC:
		return cuMemcpyDtoDAsync_v2(b, a, sz, NULL);
	case MEMCPY:
		return cuMemcpy(b, a, sz);
	case MEMCPY2D:
		memset(&p, 0, sizeof(p));
		p.src_type = p.dst_type = MEM_DEVICE;
		p.src_dev = a;
		p.dst_dev = b;
		p.src_pitch = p.dst_pitch = p.width = sz / 4;
		p.height = 4;
		return cuMemcpy2D_v2(&p);
	case SET8:
		return cuMemsetD8_v2(b, 0x5c, sz);
	case SET16:
		return cuMemsetD16_v2(b, 0xbeef, sz / 2);
	case SET32:
		return cuMemsetD32_v2(b, 0x12345678, sz / 4);
	case SET2D32:
		return cuMemsetD2D32_v2(b, sz / 4, 0x12345678, sz / 16, 4);
	default:
		return -1;
	}
}

static int probe(enum op op, size_t sz)
{
	uint8_t *src = malloc(sz), *got = malloc(sz), *want = malloc(sz);
	CUdeviceptr a = 0, b = 0;
	CUcontext ctx;
	CUdevice dev;
	CUresult rc, orc = -1, src_rc = -1;

	if (!src || !got || !want)
		return 2;
	for (size_t i = 0; i < sz; i++)
		src[i] = (uint8_t)(i * 7 + (i >> 8) + 1);
	rc = cuInit(0);
	if (!rc)
		rc = cuDeviceGet(&dev, 0);
	if (!rc)
		rc = cuCtxCreate_v2(&ctx, 0, dev);
	if (!rc)
		rc = cuMemAlloc_v2(&a, sz);
	if (!rc)
		rc = cuMemAlloc_v2(&b, sz);
	if (!rc && op != HTOD && op != HTOD_PINNED)
		rc = src_rc = cuMemcpyHtoD_v2(a, src, sz);
	if (rc) {
		printf("cuprobe: %s %zu setup=%d\n", op_names[op], sz, rc);
		return 1;
	}
	kmsg(op_names[op], sz);
	orc = run_op(op, a, b, src, sz);
	CUresult src_sync = cuCtxSynchronize();
	memset(got, 0, sz);
	CUresult brc = cuMemcpyDtoH_v2(got, b, sz);
	expect(op, want, src, sz);
	size_t bad = 0, first = sz;
	for (size_t i = 0; i < sz; i++)
		if (got[i] != want[i] && bad++ == 0)
			first = i;
	printf("cuprobe: %s %zu op=%d sync=%d readback=%d %s", op_names[op], sz, orc, src_sync,
	       brc, brc ? "-" : bad ? "mismatch" : "verified");
	if (!brc && bad)
		printf(" (%zu bytes differ, first at %zu)", bad, first);
	printf("\n");
	return orc || src_sync || brc || bad;
}

int main(int argc, char **argv)
{
	size_t sizes[8] = { 4096, 2 << 20 };
	int n_sizes = 2, fails = 0;

	if (argc > 1) {
		n_sizes = 0;
		for (int i = 1; i < argc && n_sizes < 8; i++)
			sizes[n_sizes++] = strtoull(argv[i], NULL, 0);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		printf("cuprobe: dlopen: %s\n", dlerror());
		return 2;
	}
#define CU_LOAD(name, args)                                                                    \
	name = (CUresult(*) args)dlsym(h, #name);                                              \
	if (!name) {                                                                           \
		printf("cuprobe: dlsym %s missing\n", #name);                                  \
		return 2;                                                                      \
	}
	CU_FUNCS(CU_LOAD)
	for (int s = 0; s < n_sizes; s++)
		for (int op = 0; op < N_OPS; op++) {
			pid_t pid = fork();
			if (pid == 0) {
				alarm(120);	/* a hung probe dies, the rest run */
				_exit(probe((enum op)op, sizes[s]));
			}
			int st = 0;
			if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
			    WEXITSTATUS(st))
				fails++;
		}
	printf("cuprobe: done, %d probes failed\n", fails);
	return fails ? 1 : 0;
}
