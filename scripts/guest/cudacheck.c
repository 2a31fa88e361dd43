/* cudacheck.c — rung-2 guest check: the CUDA driver API against the vGPU.
 *
 * dlopen("libcuda.so.1") and dlsym (no CUDA headers here: the prototypes below follow the CUDA
 * driver ABI, CUresult is int, CUdeviceptr is unsigned long long, the _v2 names where the ABI
 * has them). The sequence:
 *   cuInit; driver version; device count, name, total memory, attributes (compute capability
 *   75/76, multiprocessor count 16, ...);
 *   ×ITERS: cuCtxCreate; cuMemGetInfo; for 4 KiB, 16 KiB, ... 256 MiB (powers of 4): cuMemAlloc
 *   two buffers, each HtoD → DtoH verified byte for byte, the first re-read after the second
 *   was written; pinned host memory (cuMemAllocHost) with async copies on two streams timed by
 *   events; cuMemFree; cuCtxDestroy; free memory at each cuCtxCreate must not shrink (no leak);
 *   all of that is copy-engine work;
 *   SM work, each operation in a new process: cuMemcpyDtoD, cuMemsetD8, cuMemsetD32 of 4 KiB
 *   and 1 MiB (libcuda runs them as compute kernels on sm_90). --sm-work run (default): each
 *   must verify byte for byte. --sm-work refused (a backend without SMs, sim): each must
 *   verify or fail cleanly with CUDA_ERROR_LAUNCH_FAILED (no hang, no wrong data), and a new
 *   process must then work;
 *   a new process with a CU_CTX_SCHED_BLOCKING_SYNC context (its waits sleep until the GPU's
 *   non-stall interrupt) and a round trip;
 *   cuModuleLoadData of a small sm_90 PTX module (JIT: libnvidia-ptxjitcompiler);
 *   cuLaunchKernel: on the sim backend it is expected to FAIL cleanly (an error from the launch
 *   or from the stream, never a hang and never a fake completion); then the context must still
 *   be usable, or, if it was lost as real hardware loses it after a channel error, a new context
 *   must work; where the error is sticky for the whole process (what real hardware does after
 *   CUDA_ERROR_ILLEGAL_ADDRESS: even a new context in the process gets it), a new process
 *   (this program re-executed with --fresh-check 1) must work.
 *
 * Output: one line per check "cudacheck: <name> ok|FAIL <detail>" (iterations after the first
 * print one line each plus their failures), then
 *   "cudacheck: summary cuInit=<rc> copies_verified=<N> failed=<N> sm_verified=<N> sm_refused=<N>".
 * copies_verified counts device→host read-backs that matched byte for byte.
 * With --sm-work refused the launch is exempt from `failed` when it fails cleanly (or really
 * runs and writes the right values); a hang or a "success" that wrote nothing counts as a
 * failure.
 * Exit 0 only when failed=0. A stage that makes no progress for --stage-timeout seconds ends the
 * program (watchdog, exit 3) with the summary line still printed.
 * Markers "cudacheck: launch begins/ends" go to /dev/kmsg, so a log reader can tell Xid lines
 * caused by the expected launch failure from earlier ones.
 *
 * usage: cudacheck [--iters N (10)] [--max-mib M (256)] [--async-kib K (1024)]
 *                  [--stage-timeout S (300)] [--launch-timeout S (60)] [--launch-null 1]
 *                  [--sm-work run|refused (run)] [--ctx-flags F (0)]
 * --sm-work run also requires the kernel launch to run and write the right values.
 * --launch-null 1: the kernel writes through a null pointer; on real hardware this exercises the
 * context-lost path (CUDA_ERROR_ILLEGAL_ADDRESS, then a new context).
 * build: gcc -std=c11 -Wall -Wextra -Werror -O2 cudacheck.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_NOT_READY = 600,
	ATTR_MAX_THREADS_PER_BLOCK = 1,
	ATTR_WARP_SIZE = 10,
	ATTR_CLOCK_RATE = 13,
	ATTR_MULTIPROCESSOR_COUNT = 16,
	ATTR_PCI_BUS_ID = 33,
	ATTR_PCI_DEVICE_ID = 34,
	ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37,
	ATTR_L2_CACHE_SIZE = 38,
	ATTR_UNIFIED_ADDRESSING = 41,
	ATTR_CC_MAJOR = 75,
	ATTR_CC_MINOR = 76,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The driver API entry points used, as (name, return, arguments). */
#define CU_FUNCS(X)                                                                            \
	X(cuInit, (unsigned int flags))                                                        \
	X(cuDriverGetVersion, (int *v))                                                        \
	X(cuGetErrorName, (CUresult rc, const char **s))                                       \
	X(cuDeviceGetCount, (int *n))                                                          \
	X(cuDeviceGet, (CUdevice *d, int ordinal))                                             \
	X(cuDeviceGetName, (char *name, int len, CUdevice d))                                  \
	X(cuDeviceTotalMem_v2, (size_t *bytes, CUdevice d))                                    \
	X(cuDeviceGetAttribute, (int *v, int attr, CUdevice d))                                \
	X(cuCtxCreate_v2, (CUcontext *c, unsigned int flags, CUdevice d))                      \
	X(cuCtxDestroy_v2, (CUcontext c))                                                      \
	X(cuCtxSynchronize, (void))                                                            \
	X(cuMemGetInfo_v2, (size_t *free, size_t *total))                                      \
	X(cuMemAlloc_v2, (CUdeviceptr *p, size_t bytes))                                       \
	X(cuMemFree_v2, (CUdeviceptr p))                                                       \
	X(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t n))                       \
	X(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t n))                             \
	X(cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n))                       \
	X(cuMemsetD8_v2, (CUdeviceptr dst, unsigned char v, size_t n))                         \
	X(cuMemsetD32_v2, (CUdeviceptr dst, unsigned int v, size_t n))                         \
	X(cuMemAllocHost_v2, (void **p, size_t bytes))                                         \
	X(cuMemFreeHost, (void *p))                                                            \
	X(cuMemcpyHtoDAsync_v2, (CUdeviceptr dst, const void *src, size_t n, CUstream s))      \
	X(cuMemcpyDtoHAsync_v2, (void *dst, CUdeviceptr src, size_t n, CUstream s))            \
	X(cuStreamCreate, (CUstream *s, unsigned int flags))                                   \
	X(cuStreamSynchronize, (CUstream s))                                                   \
	X(cuStreamQuery, (CUstream s))                                                         \
	X(cuStreamDestroy_v2, (CUstream s))                                                    \
	X(cuEventCreate, (CUevent *e, unsigned int flags))                                     \
	X(cuEventRecord, (CUevent e, CUstream s))                                              \
	X(cuEventSynchronize, (CUevent e))                                                     \
	X(cuEventElapsedTime, (float *ms, CUevent start, CUevent end))                         \
	X(cuEventDestroy_v2, (CUevent e))                                                      \
	X(cuModuleLoadData, (CUmodule *m, const void *image))                                  \
	X(cuModuleLoadDataEx, (CUmodule *m, const void *image, unsigned int n, int *opts,     \
			       void **vals))                                                   \
	X(cuModuleGetFunction, (CUfunction *f, CUmodule m, const char *name))                  \
	X(cuModuleUnload, (CUmodule m))                                                        \
	X(cuLaunchKernel, (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,   \
			   unsigned int bx, unsigned int by, unsigned int bz, unsigned int shm, \
			   CUstream s, void **params, void **extra))

#define CU_DECLARE(name, args) static CUresult (*name) args;
CU_FUNCS(CU_DECLARE)

/* A trivial sm_90 kernel: out[threadIdx.x] = val + threadIdx.x. */
static const char ptx_src[] =
	".version 7.8\n"
	".target sm_90\n"
	".address_size 64\n"
	"\n"
	".visible .entry vgsp_write(\n"
	"\t.param .u64 vgsp_write_out,\n"
	"\t.param .u32 vgsp_write_val\n"
	")\n"
	"{\n"
	"\t.reg .b32 %r<4>;\n"
	"\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [vgsp_write_out];\n"
	"\tld.param.u32 %r1, [vgsp_write_val];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r2, %tid.x;\n"
	"\tadd.s32 %r3, %r1, %r2;\n"
	"\tmul.wide.u32 %rd3, %r2, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd4], %r3;\n"
	"\tret;\n"
	"}\n";

static int n_failed, n_verified, n_sm_verified, n_sm_refused, cuinit_rc = -1;
static const char *volatile stage = "start";
static unsigned int stage_timeout = 300;
/* --ctx-flags: cuCtxCreate flags of every context (4: CU_CTX_SCHED_BLOCKING_SYNC, whose waits
 * sleep until the GPU's non-stall interrupt instead of polling) */
static unsigned int ctx_flags;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *ename(CUresult rc)
{
	const char *s = NULL;
	if (cuGetErrorName && cuGetErrorName(rc, &s) == CUDA_SUCCESS && s)
		return s;
	return "?";
}

static void summary(void)
{
	printf("cudacheck: summary cuInit=%d copies_verified=%d failed=%d sm_verified=%d "
	       "sm_refused=%d\n",
	       cuinit_rc, n_verified, n_failed, n_sm_verified, n_sm_refused);
	fflush(stdout);
}

static void on_alarm(int sig)
{
	char buf[256];
	int n;
	(void)sig;
	n = snprintf(buf, sizeof(buf),
		     "cudacheck: watchdog FAIL stage %s made no progress in %u s\n"
		     "cudacheck: summary cuInit=%d copies_verified=%d failed=%d\n",
		     stage, stage_timeout, cuinit_rc, n_verified, n_failed + 1);
	if (n > 0 && write(STDOUT_FILENO, buf, (size_t)n) < 0)
		_exit(4);
	_exit(3);
}

/* Enter a stage: re-arms the watchdog. */
static void enter(const char *name)
{
	stage = name;
	alarm(stage_timeout);
}

/* Print one check line; report() also counts a failure. */
static void vemit(const char *name, int ok, const char *fmt, va_list ap)
{
	printf("cudacheck: %s %s ", name, ok ? "ok" : "FAIL");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

static void emit(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit(name, ok, fmt, ap);
	va_end(ap);
}

static void report(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vemit(name, ok, fmt, ap);
	va_end(ap);
	if (!ok)
		n_failed++;
}

static void kmsg(const char *line)
{
	int fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		return;
	if (write(fd, line, strlen(line)) < 0) {
		/* the marker is a convenience only */
	}
	close(fd);
}

/* Pattern unique per 8-byte word, per seed: a misplaced page or a stale buffer shows. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t *w = (uint64_t *)p;
	for (size_t i = 0; i < n / 8; i++)
		w[i] = ((i + 1) * 0x9E3779B97F4A7C15ull) ^ seed;
}

/* Byte-for-byte comparison; on mismatch, describe the first differing byte. */
static int same(const uint8_t *got, const uint8_t *want, size_t n, char *why, size_t whylen)
{
	if (memcmp(got, want, n) == 0)
		return 1;
	size_t i = 0, bad = 0;
	while (i < n && got[i] == want[i])
		i++;
	for (size_t j = i; j < n; j++)
		bad += got[j] != want[j];
	snprintf(why, whylen, "first mismatch at byte %zu got 0x%02x want 0x%02x, %zu bytes differ", i,
		 got[i], want[i], bad);
	return 0;
}

static void human(size_t n, char *buf, size_t len)
{
	if (n >= (1u << 20))
		snprintf(buf, len, "%zuMiB", n >> 20);
	else
		snprintf(buf, len, "%zuKiB", n >> 10);
}

struct opts {
	int iters;
	size_t max_bytes;
	size_t async_bytes;
	unsigned int launch_timeout;
	int launch_null;
	int fresh_check;
	int sm_run;	/* --sm-work run (1, default) or refused (0) */
	int op;		/* --op N: one SM-work operation in this process (child mode) */
	size_t op_bytes;
};

/* Per-iteration results. */
struct iter {
	int fails, verified;
	size_t free_start, free_end, total;
};

/* Inside an iteration: a failure line is always printed, an ok line only when verbose; the
 * iteration's failures are added to n_failed when it ends. */
#define CHECK(v, it, name, ok, ...)                                                            \
	do {                                                                                   \
		int ok_ = (ok);                                                                \
		if (!ok_)                                                                      \
			(it)->fails++;                                                         \
		if ((v) || !ok_)                                                               \
			emit((name), ok_, __VA_ARGS__);                                        \
	} while (0)

/*
 * One size, copy-engine work only: two buffers, each written by HtoD and read back by DtoH
 * byte for byte, then the first re-read (the second write stayed in its buffer). DtoD and
 * memsets are libcuda compute kernels on sm_90 (see sm_work()).
 */
static void one_size(int v, struct iter *it, int iter_no, size_t sz, uint8_t *src, uint8_t *dst)
{
	char nm[64], hs[24], why[160] = "";
	CUdeviceptr a = 0, b = 0;
	CUresult rc;
	human(sz, hs, sizeof(hs));
	uint64_t seed = 0x5a5a000000000000ull ^ ((uint64_t)iter_no << 32) ^ sz;

	snprintf(nm, sizeof(nm), "alloc.%s", hs);
	rc = cuMemAlloc_v2(&a, sz);
	CUresult rc2 = rc ? rc : cuMemAlloc_v2(&b, sz);
	int disjoint = rc2 == 0 && (a + sz <= b || b + sz <= a);
	CHECK(v, it, nm, rc == 0 && rc2 == 0 && disjoint, "rc=%d/%d (%s) a=0x%llx b=0x%llx%s", rc,
	      rc2, ename(rc ? rc : rc2), a, b, rc2 == 0 && !disjoint ? " OVERLAP" : "");
	if (rc || rc2)
		goto out;

	fill(src, sz, seed);
	memset(dst, 0, sz);
	snprintf(nm, sizeof(nm), "copy.%s", hs);
	double t0 = now_s();
	CUresult r1 = cuMemcpyHtoD_v2(a, src, sz);
	CUresult r2 = r1 ? r1 : cuMemcpyDtoH_v2(dst, a, sz);
	double dt = now_s() - t0;
	int ok = r2 == 0 && same(dst, src, sz, why, sizeof(why));
	if (ok)
		it->verified++;
	CHECK(v, it, nm, ok, "HtoD rc=%d DtoH rc=%d %s %.3f s %s", r1, r2, ename(r2 ? r2 : r1),
	      dt, ok ? "verified" : why);

	snprintf(nm, sizeof(nm), "copy2.%s", hs);
	fill(src, sz, ~seed);
	memset(dst, 0, sz);
	r1 = cuMemcpyHtoD_v2(b, src, sz);
	r2 = r1 ? r1 : cuMemcpyDtoH_v2(dst, b, sz);
	ok = r2 == 0 && same(dst, src, sz, why, sizeof(why));
	if (ok)
		it->verified++;
	CHECK(v, it, nm, ok, "HtoD rc=%d DtoH rc=%d %s %s", r1, r2, ename(r2 ? r2 : r1),
	      ok ? "verified" : why);

	/* The second write went to b only: a still holds the first pattern. */
	snprintf(nm, sizeof(nm), "isolation.%s", hs);
	fill(src, sz, seed);
	memset(dst, 0, sz);
	r1 = cuMemcpyDtoH_v2(dst, a, sz);
	ok = r1 == 0 && same(dst, src, sz, why, sizeof(why));
	if (ok)
		it->verified++;
	CHECK(v, it, nm, ok, "rc=%d %s %s", r1, ename(r1), ok ? "first buffer intact" : why);
out:
	snprintf(nm, sizeof(nm), "free.%s", hs);
	r1 = a ? cuMemFree_v2(a) : 0;
	r2 = b ? cuMemFree_v2(b) : 0;
	if (a || b)
		CHECK(v, it, nm, r1 == 0 && r2 == 0, "rc=%d/%d %s", r1, r2, ename(r1 ? r1 : r2));
}

/* Pinned host memory, two streams, async HtoD + DtoH on each, events timing each stream. */
static void async_streams(int v, struct iter *it, size_t sz, int iter_no)
{
	void *h[2] = { NULL, NULL }, *r[2] = { NULL, NULL };
	CUdeviceptr d[2] = { 0, 0 };
	CUstream s[2] = { NULL, NULL };
	CUevent e0[2] = { NULL, NULL }, e1[2] = { NULL, NULL };
	char why[160] = "", nm[64];
	CUresult rc = 0;

	for (int i = 0; i < 2 && rc == 0; i++) {
		rc = cuMemAllocHost_v2(&h[i], sz);
		if (!rc)
			rc = cuMemAllocHost_v2(&r[i], sz);
		if (!rc)
			rc = cuMemAlloc_v2(&d[i], sz);
		if (!rc)
			rc = cuStreamCreate(&s[i], 0);
		if (!rc)
			rc = cuEventCreate(&e0[i], 0);
		if (!rc)
			rc = cuEventCreate(&e1[i], 0);
	}
	CHECK(v, it, "async.setup", rc == 0,
	      "rc=%d %s (2 pinned x2 of %zu KiB, 2 streams, 4 events)", rc, ename(rc), sz >> 10);
	if (rc)
		goto out;
	for (int i = 0; i < 2; i++) {
		fill(h[i], sz, 0xa5e0000000000000ull ^ ((uint64_t)iter_no << 8) ^ (uint64_t)i);
		memset(r[i], 0, sz);
	}
	CUresult q[2][4];
	for (int i = 0; i < 2; i++) {
		q[i][0] = cuEventRecord(e0[i], s[i]);
		q[i][1] = cuMemcpyHtoDAsync_v2(d[i], h[i], sz, s[i]);
		q[i][2] = cuMemcpyDtoHAsync_v2(r[i], d[i], sz, s[i]);
		q[i][3] = cuEventRecord(e1[i], s[i]);
	}
	for (int i = 0; i < 2; i++) {
		float ms = -1;
		CUresult sy = cuEventSynchronize(e1[i]);
		CUresult ss = cuStreamSynchronize(s[i]);
		CUresult et = cuEventElapsedTime(&ms, e0[i], e1[i]);
		int ok = !q[i][0] && !q[i][1] && !q[i][2] && !q[i][3] && !sy && !ss && !et &&
			 same(r[i], h[i], sz, why, sizeof(why));
		if (ok)
			it->verified++;
		snprintf(nm, sizeof(nm), "async.stream%d", i);
		CHECK(v, it, nm, ok,
		      "record/HtoD/DtoH/record rc=%d/%d/%d/%d eventsync=%d streamsync=%d elapsed rc=%d "
		      "%.3f ms %s",
		      q[i][0], q[i][1], q[i][2], q[i][3], sy, ss, et, ms, ok ? "verified" : why);
	}
out:
	rc = 0;
	for (int i = 0; i < 2; i++) {
		CUresult x = 0;
		if (e0[i])
			x |= cuEventDestroy_v2(e0[i]);
		if (e1[i])
			x |= cuEventDestroy_v2(e1[i]);
		if (s[i])
			x |= cuStreamDestroy_v2(s[i]);
		if (d[i])
			x |= cuMemFree_v2(d[i]);
		if (h[i])
			x |= cuMemFreeHost(h[i]);
		if (r[i])
			x |= cuMemFreeHost(r[i]);
		rc |= x;
	}
	CHECK(v, it, "async.teardown", rc == 0, "rc=%d", rc);
}

/* A small HtoD/DtoH round trip in the current context. */
static CUresult roundtrip(size_t sz, uint8_t *src, uint8_t *dst, char *why, size_t whylen)
{
	CUdeviceptr p = 0;
	CUresult rc = cuMemAlloc_v2(&p, sz);
	if (rc)
		return rc;
	fill(src, sz, 0x7e57000000000000ull);
	memset(dst, 0, sz);
	rc = cuMemcpyHtoD_v2(p, src, sz);
	if (!rc)
		rc = cuMemcpyDtoH_v2(dst, p, sz);
	CUresult f = cuMemFree_v2(p);
	if (!rc && !same(dst, src, sz, why, whylen))
		rc = -1;
	else if (!rc)
		n_verified++;
	return rc ? rc : f;
}

/* --fresh-check 1 (run by the parent in a new process): cuInit, a context, a round trip. */
static int fresh_check(void)
{
	uint8_t src[65536], dst[65536];
	char why[160] = "";
	CUdevice dev = 0;
	CUcontext ctx = NULL;
	CUresult rc = cuInit(0);
	if (!rc)
		rc = cuDeviceGet(&dev, 0);
	if (!rc)
		rc = cuCtxCreate_v2(&ctx, ctx_flags, dev);
	CUresult u = rc ? rc : roundtrip(sizeof(src), src, dst, why, sizeof(why));
	if (!u && (ctx_flags & 4)) {
		/* work on the compute channel and a synchronize that sleeps until it is done:
		 * a 4 KiB memset (written inline by libcuda, no SM needed) */
		CUdeviceptr p = 0;
		u = cuMemAlloc_v2(&p, 4096);
		if (!u)
			u = cuMemsetD32_v2(p, 0x5eed5eedu, 1024);
		if (!u)
			u = cuCtxSynchronize();
		if (!u)
			u = cuMemcpyDtoH_v2(dst, p, 4096);
		for (int i = 0; !u && i < 1024; i++)
			if (((uint32_t *)dst)[i] != 0x5eed5eedu) {
				snprintf(why, sizeof(why), "memset word %d is 0x%08x", i,
					 ((uint32_t *)dst)[i]);
				u = -1;
			}
		if (p)
			cuMemFree_v2(p);
	}
	if (ctx)
		cuCtxDestroy_v2(ctx);
	printf("cudacheck: fresh-process %s cuInit/context (flags %u) rc=%d round trip%s rc=%d %s\n",
	       u ? "FAIL" : "ok", ctx_flags, rc, ctx_flags & 4 ? ", memset + synchronize" : "", u,
	       u ? why : "verified");
	return u ? 1 : 0;
}

/* Run fresh_check in a new process (a sticky error poisons CUDA in this one). */
/* This program again in a new process with @args (NULL-terminated, args[0] its name): its exit
 * status, 128 + the signal that ended it, or -1 when it could not be started. */
static int run_self(char *const args[])
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execv("/proc/self/exe", args);
		_exit(127);
	}
	int st = 0;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int spawn_fresh_check_flags(unsigned int flags)
{
	char cf[16];
	snprintf(cf, sizeof(cf), "%u", flags);
	char *const args[] = { "cudacheck", "--fresh-check", "1", "--ctx-flags", cf, NULL };
	return run_self(args);
}

static int spawn_fresh_check(void)
{
	return spawn_fresh_check_flags(ctx_flags);
}

/*
 * Work libcuda gives the SMs. On sm_90 libcuda runs cuMemcpyDtoD and (beyond its small inline
 * case) cuMemset as compute kernels: a GRID_NULL QMD that schedules the copy kernel's QMD
 * (measured with cuprobe.c on this vGPU). A backend without SMs (sim) refuses those launches
 * and the context is lost with CUDA_ERROR_LAUNCH_FAILED, as after a channel error on
 * hardware. Each operation therefore runs in its own process: exit 0 verified byte for byte,
 * SM_REFUSED a clean refusal (CUDA_ERROR_LAUNCH_FAILED from the call or the synchronize, no
 * hang), 1 anything else (a wrong result, another error).
 */
enum { SM_DTOD, SM_SET8, SM_SET32, SM_OPS, SM_REFUSED = 10, CUDA_ERROR_LAUNCH_FAILED = 719 };
static const char *const sm_names[SM_OPS] = { "dtod", "memsetD8", "memsetD32" };

static int sm_op(int op, size_t sz)
{
	uint8_t *src = malloc(sz), *got = malloc(sz), *want = malloc(sz);
	CUdeviceptr a = 0, b = 0;
	CUcontext ctx = NULL;
	CUdevice dev = 0;
	char nm[48], hs[24], why[160] = "";
	CUresult rc, orc = 0, sync = 0, back = 0;

	human(sz, hs, sizeof(hs));
	snprintf(nm, sizeof(nm), "sm.%s.%s", op >= 0 && op < SM_OPS ? sm_names[op] : "?", hs);
	if (!src || !got || !want || op < 0 || op >= SM_OPS) {
		emit(nm, 0, "setup: no memory or bad op");
		return 1;
	}
	enter(nm);
	fill(src, sz, 0xd0d0000000000000ull ^ sz);
	rc = cuInit(0);
	if (!rc)
		rc = cuDeviceGet(&dev, 0);
	if (!rc)
		rc = cuCtxCreate_v2(&ctx, ctx_flags, dev);
	if (!rc)
		rc = cuMemAlloc_v2(&a, sz);
	if (!rc)
		rc = cuMemAlloc_v2(&b, sz);
	if (!rc)
		rc = cuMemcpyHtoD_v2(a, src, sz);
	if (rc) {
		emit(nm, 0, "setup rc=%d %s", rc, ename(rc));
		return 1;
	}
	switch (op) {
	case SM_DTOD:
		memcpy(want, src, sz);
		orc = cuMemcpyDtoD_v2(b, a, sz);
		break;
	case SM_SET8:
		memset(want, 0x3c, sz);
		orc = cuMemsetD8_v2(b, 0x3c, sz);
		break;
	case SM_SET32:
		for (size_t i = 0; i + 4 <= sz; i += 4)
			memcpy(want + i, &(uint32_t){ 0x9abcdef0u }, 4);
		orc = cuMemsetD32_v2(b, 0x9abcdef0u, sz / 4);
		break;
	}
	sync = orc ? orc : cuCtxSynchronize();
	if (!sync) {
		memset(got, 0, sz);
		back = cuMemcpyDtoH_v2(got, b, sz);
	}
	if (!sync && !back && same(got, want, sz, why, sizeof(why))) {
		emit(nm, 1, "verified");
		cuCtxDestroy_v2(ctx);
		return 0;
	}
	if (sync == CUDA_ERROR_LAUNCH_FAILED) {
		emit(nm, 1, "refused: %s rc=%d %s (the backend has no SMs)", orc ? "call" : "synchronize",
		     sync, ename(sync));
		return SM_REFUSED;
	}
	emit(nm, 0, "call rc=%d synchronize rc=%d read-back rc=%d %s", orc, sync, back,
	     sync || back ? ename(sync ? sync : back) : why);
	return 1;
}

/* Each SM-work operation in a new process; judged against --sm-work. */
static void sm_work(const struct opts *o)
{
	static const size_t sizes[] = { 4096, 1 << 20 };
	int refused = 0;

	kmsg("cudacheck: sm-work begins\n");
	for (int op = 0; op < SM_OPS; op++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			char opv[8], byv[24];
			snprintf(opv, sizeof(opv), "%d", op);
			snprintf(byv, sizeof(byv), "%zu", sizes[k]);
			char to[16], cf[16];
			snprintf(to, sizeof(to), "%u", stage_timeout);
			snprintf(cf, sizeof(cf), "%u", ctx_flags);
			char *const args[] = { "cudacheck", "--op", opv, "--op-bytes", byv,
					       "--stage-timeout", to, "--ctx-flags", cf, NULL };
			enter("sm-work");	/* the watchdog counts per operation */
			int code = run_self(args);
			if (code < 0) {
				report("sm-work", 0, "fork failed");
				return;
			}
			if (code == 0) {
				n_sm_verified++;
			} else if (code == SM_REFUSED && !o->sm_run) {
				n_sm_refused++;
				refused++;
			} else {
				n_failed++;
				printf("cudacheck: sm.%s.%zu FAIL process exit %d%s\n", sm_names[op],
				       sizes[k], code,
				       code == SM_REFUSED ? " (refused, but --sm-work run expects it to run)"
							  : code == 3 ? " (watchdog: no progress)" : "");
			}
		}
	if (refused) {
		int fr = spawn_fresh_check();
		report("sm-work.after", fr == 0, "%d refused operations; a new process then: %s",
		       refused, fr == 0 ? "works" : "FAILS");
	}
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (i + 1 >= argc) {
			fprintf(stderr, "cudacheck: %s needs a value\n", a);
			return -1;
		}
		if (!strcmp(a, "--sm-work")) {
			const char *w = argv[++i];
			if (strcmp(w, "run") && strcmp(w, "refused")) {
				fprintf(stderr, "cudacheck: --sm-work takes run or refused\n");
				return -1;
			}
			o->sm_run = !strcmp(w, "run");
			continue;
		}
		if (!strcmp(a, "--ctx-flags")) {
			ctx_flags = (unsigned int)strtoul(argv[++i], NULL, 0);
			continue;
		}
		if (!strcmp(a, "--op")) {
			o->op = (int)strtol(argv[++i], NULL, 0);
			continue;
		}
		long x = strtol(argv[++i], NULL, 0);
		if (x <= 0) {
			fprintf(stderr, "cudacheck: bad value for %s\n", a);
			return -1;
		}
		if (!strcmp(a, "--iters"))
			o->iters = (int)x;
		else if (!strcmp(a, "--max-mib"))
			o->max_bytes = (size_t)x << 20;
		else if (!strcmp(a, "--async-kib"))
			o->async_bytes = (size_t)x << 10;
		else if (!strcmp(a, "--stage-timeout"))
			stage_timeout = (unsigned int)x;
		else if (!strcmp(a, "--launch-timeout"))
			o->launch_timeout = (unsigned int)x;
		else if (!strcmp(a, "--launch-null"))
			o->launch_null = x != 0;
		else if (!strcmp(a, "--fresh-check"))
			o->fresh_check = x != 0;
		else if (!strcmp(a, "--op-bytes"))
			o->op_bytes = (size_t)x;
		else {
			fprintf(stderr, "cudacheck: unknown option %s\n", a);
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 10, (size_t)256 << 20, (size_t)1 << 20, 60, 0, 0, 1, -1, 0 };
	if (parse_args(argc, argv, &o))
		return 2;
	int fresh = o.fresh_check;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	enter("dlopen");

	void *h = dlopen("libcuda.so.1", RTLD_NOW);
	if (!h) {
		report("dlopen", 0, "libcuda.so.1: %s", dlerror());
		summary();
		return 2;
	}
	int missing = 0;
#define CU_LOAD(name, args)                                                                    \
	name = (CUresult(*) args)dlsym(h, #name);                                              \
	if (!name) {                                                                           \
		printf("cudacheck: dlsym %s missing\n", #name);                                \
		missing++;                                                                     \
	}
	CU_FUNCS(CU_LOAD)
	if (fresh && !missing)
		return fresh_check();
	if (o.op >= 0 && !missing)
		return sm_op(o.op, o.op_bytes ? o.op_bytes : 4096);
	report("dlsym", missing == 0, "%d symbols missing", missing);
	if (missing) {
		summary();
		return 2;
	}

	/* --- cuInit and the device ------------------------------------------------------- */
	enter("cuInit");
	double t0 = now_s();
	cuinit_rc = cuInit(0);
	report("cuInit", cuinit_rc == 0, "rc=%d (%s) %.2f s", cuinit_rc, ename(cuinit_rc),
	       now_s() - t0);
	if (cuinit_rc) {
		summary();
		return 1;
	}
	int ver = 0, count = 0;
	CUresult rc = cuDriverGetVersion(&ver);
	report("driverVersion", rc == 0, "rc=%d version=%d", rc, ver);
	rc = cuDeviceGetCount(&count);
	report("deviceCount", rc == 0 && count > 0, "rc=%d count=%d", rc, count);
	CUdevice dev = 0;
	rc = count > 0 ? cuDeviceGet(&dev, 0) : -1;
	report("deviceGet", rc == 0, "rc=%d", rc);
	if (rc) {
		summary();
		return 1;
	}
	char name[256] = "";
	rc = cuDeviceGetName(name, sizeof(name), dev);
	report("deviceName", rc == 0 && name[0], "rc=%d name=\"%s\"", rc, name);
	size_t totalmem = 0;
	rc = cuDeviceTotalMem_v2(&totalmem, dev);
	report("deviceTotalMem", rc == 0 && totalmem > 0, "rc=%d %zu MiB", rc, totalmem >> 20);
	static const struct { int id; const char *name; } attrs[] = {
		{ ATTR_CC_MAJOR, "cc_major" },
		{ ATTR_CC_MINOR, "cc_minor" },
		{ ATTR_MULTIPROCESSOR_COUNT, "sm_count" },
		{ ATTR_WARP_SIZE, "warp_size" },
		{ ATTR_MAX_THREADS_PER_BLOCK, "max_threads_per_block" },
		{ ATTR_CLOCK_RATE, "clock_khz" },
		{ ATTR_GLOBAL_MEMORY_BUS_WIDTH, "bus_width" },
		{ ATTR_L2_CACHE_SIZE, "l2_bytes" },
		{ ATTR_UNIFIED_ADDRESSING, "unified_addressing" },
		{ ATTR_PCI_BUS_ID, "pci_bus" },
		{ ATTR_PCI_DEVICE_ID, "pci_device" },
	};
	int av[sizeof(attrs) / sizeof(attrs[0])];
	char line[512];
	int n = 0, arc = 0;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		av[i] = -1;
		CUresult r = cuDeviceGetAttribute(&av[i], attrs[i].id, dev);
		if (r && !arc)
			arc = r;
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s=%d", attrs[i].name, av[i]);
	}
	/* An H100 is compute capability 9.0; SMs and warp size must be sane. */
	report("attributes", arc == 0 && av[0] == 9 && av[1] == 0 && av[2] > 0 && av[3] == 32,
	       "rc=%d%s", arc, line);

	/* --- the allocation/copy sequence, ×iters --------------------------------------- */
	uint8_t *src = malloc(o.max_bytes), *dst = malloc(o.max_bytes);
	if (!src || !dst) {
		report("hostmem", 0, "malloc of 2 x %zu MiB failed", o.max_bytes >> 20);
		summary();
		return 1;
	}
	size_t free0 = 0;
	for (int k = 1; k <= o.iters; k++) {
		struct iter it = { 0, 0, 0, 0, 0 };
		int verbose = k == 1;
		char nm[32];
		double ti = now_s();
		enter("cuCtxCreate");
		CUcontext ctx = NULL;
		rc = cuCtxCreate_v2(&ctx, ctx_flags, dev);
		snprintf(nm, sizeof(nm), "iter%d.cuCtxCreate", k);
		CHECK(verbose, &it, nm, rc == 0, "rc=%d %s", rc, ename(rc));
		if (rc) {
			n_failed += it.fails;
			report("iterations", 0, "stopped at iteration %d: no context", k);
			break;
		}
		CUresult mi = cuMemGetInfo_v2(&it.free_start, &it.total);
		snprintf(nm, sizeof(nm), "iter%d.memGetInfo", k);
		CHECK(verbose, &it, nm, mi == 0, "rc=%d free=%zu total=%zu", mi, it.free_start,
		      it.total);
		enter("copies");
		for (size_t sz = 4096; sz <= o.max_bytes; sz *= 4)
			one_size(verbose, &it, k, sz, src, dst);
		enter("async");
		async_streams(verbose, &it, o.async_bytes, k);
		cuMemGetInfo_v2(&it.free_end, &it.total);
		enter("cuCtxDestroy");
		rc = cuCtxDestroy_v2(ctx);
		snprintf(nm, sizeof(nm), "iter%d.cuCtxDestroy", k);
		CHECK(verbose, &it, nm, rc == 0, "rc=%d %s", rc, ename(rc));
		if (k == 1)
			free0 = it.free_start;
		n_verified += it.verified;
		n_failed += it.fails;
		snprintf(nm, sizeof(nm), "iter%d", k);
		emit(nm, it.fails == 0,
		     "%d checks failed, %d read-backs verified, %.1f s, free at create %zu "
		     "(iteration 1: %zu), free before destroy %zu",
		     it.fails, it.verified, now_s() - ti, it.free_start, free0, it.free_end);
		if (k == o.iters)
			report("noleak", it.free_start == free0,
			       "free memory at context creation: iteration 1 %zu, iteration %d %zu "
			       "(delta %lld)",
			       free0, k, it.free_start, (long long)it.free_start - (long long)free0);
	}

	/* --- work libcuda gives the SMs (DtoD, memsets), one process each ----------------- */
	enter("sm-work");
	sm_work(&o);

	/* --- a blocking-sync context: its waits sleep until the GPU's non-stall interrupt ---- */
	enter("blocking-sync");
	report("blocking-sync", spawn_fresh_check_flags(4) == 0,
	       "a new process with CU_CTX_SCHED_BLOCKING_SYNC: context, 64 KiB round trip, a memset "
	       "on the compute channel and a sleeping synchronize");

	/* --- module, launch, context after the launch ------------------------------------ */
	enter("module");
	CUcontext ctx = NULL;
	rc = cuCtxCreate_v2(&ctx, ctx_flags, dev);
	report("module.cuCtxCreate", rc == 0, "rc=%d %s", rc, ename(rc));
	if (rc) {
		summary();
		return 1;
	}
	CUmodule mod = NULL;
	CUfunction fn = NULL;
	int lost = 0; /* CUDA in this process is poisoned by a sticky error */
	t0 = now_s();
	rc = cuModuleLoadData(&mod, ptx_src);
	if (rc) {
		char log[2048] = "";
		int jo[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
		void *jv[2] = { log, (void *)(uintptr_t)sizeof(log) };
		CUresult rx = cuModuleLoadDataEx(&mod, ptx_src, 2, jo, jv);
		for (char *c = log; *c; c++)
			if (*c == '\n')
				*c = ' ';
		report("cuModuleLoadData", 0, "rc=%d %s (retry with JIT log rc=%d: %s)", rc,
		       ename(rc), rx, log[0] ? log : "no log");
		if (rx == 0)
			cuModuleUnload(mod);
		mod = NULL;
	} else {
		report("cuModuleLoadData", 1, "rc=0 PTX sm_90 JIT %.2f s", now_s() - t0);
		rc = cuModuleGetFunction(&fn, mod, "vgsp_write");
		report("cuModuleGetFunction", rc == 0, "rc=%d %s vgsp_write", rc, ename(rc));
	}

	if (fn) {
		enter("launch");
		CUdeviceptr out = 0;
		CUstream s = NULL;
		uint32_t got[32];
		unsigned int val = 0x1000;
		rc = cuMemAlloc_v2(&out, sizeof(got));
		if (!rc)
			rc = cuMemsetD32_v2(out, 0xdeadbeefu, 32);
		if (!rc)
			rc = cuStreamCreate(&s, 0);
		report("launch.setup", rc == 0, "rc=%d %s", rc, ename(rc));
		if (!rc) {
			/* --launch-null 1: the kernel writes through a null pointer, so real
			 * hardware takes the context-lost path (a test of this program). */
			CUdeviceptr target = o.launch_null ? 0 : out;
			void *params[2] = { &target, &val };
			kmsg("cudacheck: launch begins\n");
			CUresult lr = cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, params, NULL);
			CUresult sq = lr;
			double tl = now_s();
			if (!lr) {
				/* Poll: a stuck channel must show as a hang, not block forever. */
				while ((sq = cuStreamQuery(s)) == CUDA_ERROR_NOT_READY &&
				       now_s() - tl < o.launch_timeout)
					usleep(10000);
			}
			kmsg("cudacheck: launch ends\n");
			if ((lr || (sq && sq != CUDA_ERROR_NOT_READY)) && o.sm_run) {
				report("launch", 0, "cuLaunchKernel rc=%d stream rc=%d %s (--sm-work run "
				       "expects the kernel to run)", lr, sq, ename(lr ? lr : sq));
			} else if (lr) {
				printf("cudacheck: launch ok expected-fail: cuLaunchKernel rc=%d %s\n", lr,
				       ename(lr));
			} else if (sq == CUDA_ERROR_NOT_READY) {
				report("launch", 0, "hang: stream not complete after %u s",
				       o.launch_timeout);
			} else if (sq) {
				printf("cudacheck: launch ok expected-fail: cuLaunchKernel rc=0, stream "
				       "rc=%d %s after %.2f s\n",
				       sq, ename(sq), now_s() - tl);
			} else {
				memset(got, 0, sizeof(got));
				CUresult r = cuMemcpyDtoH_v2(got, out, sizeof(got));
				int right = r == 0;
				for (int i = 0; i < 32 && right; i++)
					right = got[i] == val + (unsigned int)i;
				if (right)
					printf("cudacheck: launch ok ran: 32 values written and verified "
					       "(real execution, not the sim backend)\n");
				else
					report("launch", 0,
					       "completed without error but out[0]=0x%08x (want 0x%08x): "
					       "a fake completion",
					       got[0], val);
			}
			fflush(stdout);
		}
		enter("after-launch");
		char why[160] = "";
		CUresult u = roundtrip(65536, src, dst, why, sizeof(why));
		if (u == 0) {
			report("after-launch.context", 1, "same context still usable (64 KiB round trip verified)");
		} else {
			/* Lost, as after a channel error on real hardware: a new context must
			 * work; where the error is sticky for the whole process (real hardware
			 * after CUDA_ERROR_ILLEGAL_ADDRESS), a new process must. */
			CUresult d = cuCtxDestroy_v2(ctx);
			ctx = NULL;
			CUresult c = cuCtxCreate_v2(&ctx, ctx_flags, dev);
			CUresult u2 = c ? c : roundtrip(65536, src, dst, why, sizeof(why));
			if (u2 == 0) {
				report("after-launch.context", 1,
				       "old context unusable (rc=%d %s), destroy rc=%d, a new context "
				       "works (round trip verified)",
				       u, u == -1 ? "mismatch" : ename(u), d);
			} else {
				lost = 1;
				if (c)
					ctx = NULL;
				int fr = spawn_fresh_check();
				report("after-launch.context", fr == 0,
				       "old context unusable (rc=%d %s), destroy rc=%d, new context in this "
				       "process rc=%d round trip rc=%d (sticky error); a new process: %s",
				       u, u == -1 ? "mismatch" : ename(u), d, c, u2,
				       fr == 0 ? "works" : "FAILS too");
			}
			s = NULL;
			out = 0;
			mod = NULL;
		}
		if (s)
			cuStreamDestroy_v2(s);
		if (out)
			cuMemFree_v2(out);
	}
	enter("teardown");
	if (mod)
		cuModuleUnload(mod);
	if (ctx) {
		rc = cuCtxDestroy_v2(ctx);
		if (lost)
			emit("cuCtxDestroy", 1, "rc=%d %s (context of a poisoned process, not judged)",
			     rc, ename(rc));
		else
			report("cuCtxDestroy", rc == 0, "rc=%d %s", rc, ename(rc));
	}
	alarm(0);
	free(src);
	free(dst);
	summary();
	return n_failed ? 1 : 0;
}
