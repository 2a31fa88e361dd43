/* rung3check.c — rung-3 test program: CUDA kernels whose every output byte is compared with
 * the same program run natively on the same GPU.
 *
 * One binary for both sides: in the stock guest (libcuda 535, the kernels reaching the physical
 * GPU through vgsp) and natively on the host GPU (libcuda 580). libcuda is loaded with dlopen
 * like cudacheck.c (no CUDA headers: the few driver-API types are declared below, CUresult is
 * int, CUdeviceptr is unsigned long long, the _v2 names where the ABI has them). The kernels are
 * hand-written PTX (ISA 7.8, sm_90: both the 535 and the 580 JIT accept it), JIT-loaded with
 * cuModuleLoadDataEx. Every input is deterministic (fixed seeds) and every result is exact
 * (integers, or floats holding small integers, so no FMA contraction or summation order of
 * either JIT compiler can change a bit), so the native run and the guest hash the same bytes.
 *
 * Tests, each in its own process (a sticky CUDA error or a crash cannot spill into the next):
 *   vectorAdd  c = a + b over 1 Mi + 37 floats (bounds check in the kernel)
 *   reduce     4 Mi + 5 int32 summed by 100 blocks: shared-memory tree with barriers, per-block
 *              partials, global atomics (add u32/u64, min/max s32, a block counter)
 *   matmul     C(384x256) = A(384x320) B(320x256), 16x16 tiles in shared memory
 *   streams    two streams, pinned async copies and kernels, a cross-stream event wait, three
 *              rounds; events synchronised and queried, cuEventElapsedTime valid (timings are
 *              printed in a note line, never hashed)
 *   memcpy     4 KiB .. --max-mib (powers of 4): pageable HtoD, DtoD, pinned async DtoH,
 *              pinned async HtoD, pageable DtoH, the DtoD copy re-read; each read-back
 *              verified and hashed
 * Each test's output is checked against a CPU reference inside the program (a wrong kernel
 * FAILs without any golden) and hashed with SHA-256 (own code below).
 *
 * Output, one line per test, then a summary:
 *   rung3check: <test> ok sha256=<hex of the test's output bytes> bytes=<n>
 *   rung3check: <test> FAIL <reason>
 *   rung3check: summary tests=N ok=K failed=F
 * Informative lines "rung3check: note ..." (driver, device, JIT time, timings) are not results.
 * Exit 0 only when every test is ok. A test that makes no progress for --timeout seconds FAILs
 * (watchdog) and the next one runs. Markers "rung3check: <test> begins/ends" go to /dev/kmsg.
 * scripts/guest/rung3-compare.sh turns a native run into golden files and judges a guest run.
 *
 * usage: rung3check [--only TEST] [--max-mib N (256)] [--timeout S (300)] [--no-fork]
 *        rung3check --list | --cpu-only [...] | --selftest | --sha256 FILE | --ptx
 * --cpu-only: no GPU, no libcuda: each test's CPU reference is hashed instead of the GPU's
 *             output (the lines a correct GPU must print).
 * --no-fork: every test in this process (for a debugger); a watchdog then ends the program.
 * --selftest: SHA-256 against known vectors (no libcuda). --sha256 FILE: the file's digest.
 * --ptx: print the PTX module (e.g. for ptxas -arch=sm_90).
 * env RUNG3CHECK_LIBCUDA: the library to dlopen instead of libcuda.so.1.
 * build: gcc -std=c11 -Wall -Wextra -Werror -O2 rung3check.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- SHA-256 (FIPS 180-4) ------------------------------------------------------------------ */

struct sha256 {
	uint32_t h[8];
	uint64_t len;	/* bytes hashed */
	uint8_t buf[64];
	size_t n;	/* bytes in buf */
};

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha_k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += k;
}

static void sha_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->n = 0;
}

static void sha_update(struct sha256 *s, const void *data, size_t n)
{
	const uint8_t *p = data;
	s->len += n;
	if (s->n) {
		size_t k = 64 - s->n < n ? 64 - s->n : n;
		memcpy(s->buf + s->n, p, k);
		s->n += k;
		p += k;
		n -= k;
		if (s->n < 64)
			return;
		sha_block(s->h, s->buf);
		s->n = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		sha_block(s->h, p);
	memcpy(s->buf, p, n);
	s->n = n;
}

static void sha_hex(struct sha256 *s, char hex[65])
{
	uint64_t bits = s->len * 8;
	uint8_t pad[72] = { 0x80 };
	size_t padlen = (s->n < 56 ? 56 : 120) - s->n;
	for (int i = 0; i < 8; i++)
		pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha_update(s, pad, padlen + 8);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", s->h[i]);
}

/* --- the CUDA driver API, as far as used --------------------------------------------------- */

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
	ATTR_CC_MAJOR = 75,
	ATTR_CC_MINOR = 76,
	ATTR_MULTIPROCESSOR_COUNT = 16,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

#define CU_FUNCS(X)                                                                            \
	X(cuInit, (unsigned int flags))                                                        \
	X(cuDriverGetVersion, (int *v))                                                        \
	X(cuGetErrorName, (CUresult rc, const char **s))                                       \
	X(cuDeviceGet, (CUdevice *d, int ordinal))                                             \
	X(cuDeviceGetName, (char *name, int len, CUdevice d))                                  \
	X(cuDeviceGetAttribute, (int *v, int attr, CUdevice d))                                \
	X(cuCtxCreate_v2, (CUcontext *c, unsigned int flags, CUdevice d))                      \
	X(cuCtxDestroy_v2, (CUcontext c))                                                      \
	X(cuCtxSynchronize, (void))                                                            \
	X(cuMemAlloc_v2, (CUdeviceptr *p, size_t bytes))                                       \
	X(cuMemFree_v2, (CUdeviceptr p))                                                       \
	X(cuMemAllocHost_v2, (void **p, size_t bytes))                                         \
	X(cuMemFreeHost, (void *p))                                                            \
	X(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t n))                       \
	X(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t n))                             \
	X(cuMemcpyDtoD_v2, (CUdeviceptr dst, CUdeviceptr src, size_t n))                       \
	X(cuMemcpyHtoDAsync_v2, (CUdeviceptr dst, const void *src, size_t n, CUstream s))      \
	X(cuMemcpyDtoHAsync_v2, (void *dst, CUdeviceptr src, size_t n, CUstream s))            \
	X(cuStreamCreate, (CUstream *s, unsigned int flags))                                   \
	X(cuStreamWaitEvent, (CUstream s, CUevent e, unsigned int flags))                      \
	X(cuStreamQuery, (CUstream s))                                                         \
	X(cuStreamSynchronize, (CUstream s))                                                   \
	X(cuStreamDestroy_v2, (CUstream s))                                                    \
	X(cuEventCreate, (CUevent *e, unsigned int flags))                                     \
	X(cuEventRecord, (CUevent e, CUstream s))                                              \
	X(cuEventQuery, (CUevent e))                                                           \
	X(cuEventSynchronize, (CUevent e))                                                     \
	X(cuEventElapsedTime, (float *ms, CUevent start, CUevent end))                         \
	X(cuEventDestroy_v2, (CUevent e))                                                      \
	X(cuModuleLoadDataEx, (CUmodule *m, const void *image, unsigned int n, int *opts,     \
			       void **vals))                                                   \
	X(cuModuleGetFunction, (CUfunction *f, CUmodule m, const char *name))                  \
	X(cuModuleUnload, (CUmodule m))                                                        \
	X(cuLaunchKernel, (CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,   \
			   unsigned int bx, unsigned int by, unsigned int bz, unsigned int shm, \
			   CUstream s, void **params, void **extra))

#define CU_DECLARE(name, args) static CUresult (*name) args;
CU_FUNCS(CU_DECLARE)

/* --- the kernels (PTX ISA 7.8, sm_90) ------------------------------------------------------ */

static const char ptx_src[] =
	".version 7.8\n"
	".target sm_90\n"
	".address_size 64\n"
	"\n"
	/* c[i] = a[i] + b[i] for i < n (f32) */
	".visible .entry r3_vadd(\n"
	"\t.param .u64 r3_vadd_a,\n"
	"\t.param .u64 r3_vadd_b,\n"
	"\t.param .u64 r3_vadd_c,\n"
	"\t.param .u32 r3_vadd_n\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<6>;\n"
	"\t.reg .f32 %f<4>;\n"
	"\t.reg .b64 %rd<11>;\n"
	"\tld.param.u64 %rd1, [r3_vadd_a];\n"
	"\tld.param.u64 %rd2, [r3_vadd_b];\n"
	"\tld.param.u64 %rd3, [r3_vadd_c];\n"
	"\tld.param.u32 %r1, [r3_vadd_n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r5, %r1;\n"
	"\t@%p1 bra $R3_vadd_done;\n"
	"\tcvta.to.global.u64 %rd4, %rd1;\n"
	"\tcvta.to.global.u64 %rd5, %rd2;\n"
	"\tcvta.to.global.u64 %rd6, %rd3;\n"
	"\tmul.wide.u32 %rd7, %r5, 4;\n"
	"\tadd.s64 %rd8, %rd4, %rd7;\n"
	"\tadd.s64 %rd9, %rd5, %rd7;\n"
	"\tadd.s64 %rd10, %rd6, %rd7;\n"
	"\tld.global.f32 %f1, [%rd8];\n"
	"\tld.global.f32 %f2, [%rd9];\n"
	"\tadd.rn.f32 %f3, %f1, %f2;\n"
	"\tst.global.f32 [%rd10], %f3;\n"
	"$R3_vadd_done:\n"
	"\tret;\n"
	"}\n"
	"\n"
	/* Grid-stride sum/min/max of in[0..n); blockDim.x a power of two <= 256. Per block: the
	 * sum by a shared-memory tree (bar.sync per level) into part[blockIdx.x]; acc (u32
	 * words): [0] += sum (atom), [1] min= thread minima, [2] max= thread maxima, [3] += 1 per
	 * block (red), [4..5] (u64) += sign-extended block sum (atom). */
	".visible .entry r3_reduce(\n"
	"\t.param .u64 r3_reduce_in,\n"
	"\t.param .u32 r3_reduce_n,\n"
	"\t.param .u64 r3_reduce_part,\n"
	"\t.param .u64 r3_reduce_acc\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<4>;\n"
	"\t.reg .b32 %r<24>;\n"
	"\t.reg .b64 %rd<13>;\n"
	"\t.shared .align 4 .b32 r3_reduce_s[256];\n"
	"\tld.param.u64 %rd1, [r3_reduce_in];\n"
	"\tld.param.u32 %r1, [r3_reduce_n];\n"
	"\tld.param.u64 %rd2, [r3_reduce_part];\n"
	"\tld.param.u64 %rd3, [r3_reduce_acc];\n"
	"\tcvta.to.global.u64 %rd4, %rd1;\n"
	"\tcvta.to.global.u64 %rd5, %rd2;\n"
	"\tcvta.to.global.u64 %rd6, %rd3;\n"
	"\tmov.u32 %r2, %tid.x;\n"
	"\tmov.u32 %r3, %ctaid.x;\n"
	"\tmov.u32 %r4, %ntid.x;\n"
	"\tmov.u32 %r5, %nctaid.x;\n"
	"\tmad.lo.s32 %r6, %r3, %r4, %r2;\n"
	"\tmul.lo.s32 %r7, %r5, %r4;\n"
	"\tmov.u32 %r8, 0;\n"
	"\tmov.u32 %r9, 2147483647;\n"
	"\tmov.u32 %r10, -2147483648;\n"
	"\tsetp.ge.u32 %p1, %r6, %r1;\n"
	"\t@%p1 bra $R3_red_local;\n"
	"$R3_red_loop:\n"
	"\tmul.wide.u32 %rd7, %r6, 4;\n"
	"\tadd.s64 %rd8, %rd4, %rd7;\n"
	"\tld.global.u32 %r11, [%rd8];\n"
	"\tadd.s32 %r8, %r8, %r11;\n"
	"\tmin.s32 %r9, %r9, %r11;\n"
	"\tmax.s32 %r10, %r10, %r11;\n"
	"\tadd.s32 %r6, %r6, %r7;\n"
	"\tsetp.lt.u32 %p2, %r6, %r1;\n"
	"\t@%p2 bra $R3_red_loop;\n"
	"$R3_red_local:\n"
	"\tred.global.min.s32 [%rd6+4], %r9;\n"
	"\tred.global.max.s32 [%rd6+8], %r10;\n"
	"\tmov.u32 %r14, r3_reduce_s;\n"
	"\tshl.b32 %r15, %r2, 2;\n"
	"\tadd.s32 %r16, %r14, %r15;\n"
	"\tst.shared.u32 [%r16], %r8;\n"
	"\tbar.sync 0;\n"
	"\tshr.u32 %r17, %r4, 1;\n"
	"$R3_red_tree:\n"
	"\tsetp.ge.u32 %p3, %r2, %r17;\n"
	"\t@%p3 bra $R3_red_skip;\n"
	"\tshl.b32 %r18, %r17, 2;\n"
	"\tadd.s32 %r19, %r16, %r18;\n"
	"\tld.shared.u32 %r20, [%r16];\n"
	"\tld.shared.u32 %r21, [%r19];\n"
	"\tadd.s32 %r20, %r20, %r21;\n"
	"\tst.shared.u32 [%r16], %r20;\n"
	"$R3_red_skip:\n"
	"\tbar.sync 0;\n"
	"\tshr.u32 %r17, %r17, 1;\n"
	"\tsetp.ne.u32 %p3, %r17, 0;\n"
	"\t@%p3 bra $R3_red_tree;\n"
	"\tsetp.ne.u32 %p3, %r2, 0;\n"
	"\t@%p3 bra $R3_red_done;\n"
	"\tld.shared.u32 %r20, [r3_reduce_s];\n"
	"\tmul.wide.u32 %rd9, %r3, 4;\n"
	"\tadd.s64 %rd10, %rd5, %rd9;\n"
	"\tst.global.u32 [%rd10], %r20;\n"
	"\tatom.global.add.u32 %r21, [%rd6], %r20;\n"
	"\tcvt.s64.s32 %rd11, %r20;\n"
	"\tatom.global.add.u64 %rd12, [%rd6+16], %rd11;\n"
	"\tred.global.add.u32 [%rd6+12], 1;\n"
	"$R3_red_done:\n"
	"\tret;\n"
	"}\n"
	"\n"
	/* C[M x N] = A[M x K] B[K x N] (f32, row-major); block 16x16, grid (N/16, M/16); K, N
	 * multiples of 16. Tiles of A and B in shared memory, two barriers per tile. */
	".visible .entry r3_matmul(\n"
	"\t.param .u64 r3_mm_a,\n"
	"\t.param .u64 r3_mm_b,\n"
	"\t.param .u64 r3_mm_c,\n"
	"\t.param .u32 r3_mm_k,\n"
	"\t.param .u32 r3_mm_n\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<3>;\n"
	"\t.reg .b32 %r<24>;\n"
	"\t.reg .f32 %f<4>;\n"
	"\t.reg .b64 %rd<13>;\n"
	"\t.shared .align 4 .f32 r3_mm_as[256];\n"
	"\t.shared .align 4 .f32 r3_mm_bs[256];\n"
	"\tld.param.u64 %rd1, [r3_mm_a];\n"
	"\tld.param.u64 %rd2, [r3_mm_b];\n"
	"\tld.param.u64 %rd3, [r3_mm_c];\n"
	"\tld.param.u32 %r1, [r3_mm_k];\n"
	"\tld.param.u32 %r2, [r3_mm_n];\n"
	"\tcvta.to.global.u64 %rd4, %rd1;\n"
	"\tcvta.to.global.u64 %rd5, %rd2;\n"
	"\tcvta.to.global.u64 %rd6, %rd3;\n"
	"\tmov.u32 %r3, %tid.x;\n"
	"\tmov.u32 %r4, %tid.y;\n"
	"\tmov.u32 %r5, %ctaid.x;\n"
	"\tmov.u32 %r6, %ctaid.y;\n"
	"\tshl.b32 %r7, %r5, 4;\n"
	"\tadd.s32 %r7, %r7, %r3;\n"	/* col */
	"\tshl.b32 %r8, %r6, 4;\n"
	"\tadd.s32 %r8, %r8, %r4;\n"	/* row */
	"\tshl.b32 %r9, %r4, 4;\n"
	"\tadd.s32 %r9, %r9, %r3;\n"
	"\tshl.b32 %r9, %r9, 2;\n"	/* (ty * 16 + tx) * 4 */
	"\tmov.u32 %r10, r3_mm_as;\n"
	"\tmov.u32 %r11, r3_mm_bs;\n"
	"\tadd.s32 %r12, %r10, %r9;\n"	/* &As[ty][tx] */
	"\tadd.s32 %r13, %r11, %r9;\n"	/* &Bs[ty][tx] */
	"\tshl.b32 %r14, %r4, 6;\n"
	"\tadd.s32 %r14, %r10, %r14;\n"	/* &As[ty][0] */
	"\tshl.b32 %r15, %r3, 2;\n"
	"\tadd.s32 %r15, %r11, %r15;\n"	/* &Bs[0][tx] */
	"\tmov.f32 %f1, 0f00000000;\n"
	"\tmov.u32 %r16, 0;\n"		/* t */
	"\tmul.lo.s32 %r17, %r8, %r1;\n"	/* row * K */
	"$R3_mm_tile:\n"
	"\tadd.s32 %r18, %r17, %r16;\n"
	"\tadd.s32 %r18, %r18, %r3;\n"
	"\tmul.wide.u32 %rd7, %r18, 4;\n"
	"\tadd.s64 %rd8, %rd4, %rd7;\n"
	"\tld.global.f32 %f2, [%rd8];\n"
	"\tst.shared.f32 [%r12], %f2;\n"
	"\tadd.s32 %r19, %r16, %r4;\n"
	"\tmad.lo.s32 %r19, %r19, %r2, %r7;\n"
	"\tmul.wide.u32 %rd9, %r19, 4;\n"
	"\tadd.s64 %rd10, %rd5, %rd9;\n"
	"\tld.global.f32 %f3, [%rd10];\n"
	"\tst.shared.f32 [%r13], %f3;\n"
	"\tbar.sync 0;\n"
	"\tmov.u32 %r20, 0;\n"
	"\tmov.u32 %r21, %r14;\n"
	"\tmov.u32 %r22, %r15;\n"
	"$R3_mm_k:\n"
	"\tld.shared.f32 %f2, [%r21];\n"
	"\tld.shared.f32 %f3, [%r22];\n"
	"\tfma.rn.f32 %f1, %f2, %f3, %f1;\n"
	"\tadd.s32 %r21, %r21, 4;\n"
	"\tadd.s32 %r22, %r22, 64;\n"
	"\tadd.s32 %r20, %r20, 1;\n"
	"\tsetp.lt.u32 %p1, %r20, 16;\n"
	"\t@%p1 bra $R3_mm_k;\n"
	"\tbar.sync 0;\n"
	"\tadd.s32 %r16, %r16, 16;\n"
	"\tsetp.lt.u32 %p2, %r16, %r1;\n"
	"\t@%p2 bra $R3_mm_tile;\n"
	"\tmad.lo.s32 %r23, %r8, %r2, %r7;\n"
	"\tmul.wide.u32 %rd11, %r23, 4;\n"
	"\tadd.s64 %rd12, %rd6, %rd11;\n"
	"\tst.global.f32 [%rd12], %f1;\n"
	"\tret;\n"
	"}\n"
	"\n"
	/* y[i] = x[i] * m + a for i < n (s32, wrapping) */
	".visible .entry r3_affine(\n"
	"\t.param .u64 r3_aff_x,\n"
	"\t.param .u64 r3_aff_y,\n"
	"\t.param .u32 r3_aff_n,\n"
	"\t.param .u32 r3_aff_m,\n"
	"\t.param .u32 r3_aff_a\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<10>;\n"
	"\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [r3_aff_x];\n"
	"\tld.param.u64 %rd2, [r3_aff_y];\n"
	"\tld.param.u32 %r1, [r3_aff_n];\n"
	"\tld.param.u32 %r2, [r3_aff_m];\n"
	"\tld.param.u32 %r3, [r3_aff_a];\n"
	"\tmov.u32 %r4, %ctaid.x;\n"
	"\tmov.u32 %r5, %ntid.x;\n"
	"\tmov.u32 %r6, %tid.x;\n"
	"\tmad.lo.s32 %r7, %r4, %r5, %r6;\n"
	"\tsetp.ge.u32 %p1, %r7, %r1;\n"
	"\t@%p1 bra $R3_aff_done;\n"
	"\tcvta.to.global.u64 %rd3, %rd1;\n"
	"\tcvta.to.global.u64 %rd4, %rd2;\n"
	"\tmul.wide.u32 %rd5, %r7, 4;\n"
	"\tadd.s64 %rd6, %rd3, %rd5;\n"
	"\tadd.s64 %rd7, %rd4, %rd5;\n"
	"\tld.global.u32 %r8, [%rd6];\n"
	"\tmad.lo.s32 %r9, %r8, %r2, %r3;\n"
	"\tst.global.u32 [%rd7], %r9;\n"
	"$R3_aff_done:\n"
	"\tret;\n"
	"}\n"
	"\n"
	/* z[i] = (2 * y1[i] - y2[i]) ^ i for i < n (s32, wrapping) */
	".visible .entry r3_combine(\n"
	"\t.param .u64 r3_cmb_y1,\n"
	"\t.param .u64 r3_cmb_y2,\n"
	"\t.param .u64 r3_cmb_z,\n"
	"\t.param .u32 r3_cmb_n\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<11>;\n"
	"\t.reg .b64 %rd<11>;\n"
	"\tld.param.u64 %rd1, [r3_cmb_y1];\n"
	"\tld.param.u64 %rd2, [r3_cmb_y2];\n"
	"\tld.param.u64 %rd3, [r3_cmb_z];\n"
	"\tld.param.u32 %r1, [r3_cmb_n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r5, %r1;\n"
	"\t@%p1 bra $R3_cmb_done;\n"
	"\tcvta.to.global.u64 %rd4, %rd1;\n"
	"\tcvta.to.global.u64 %rd5, %rd2;\n"
	"\tcvta.to.global.u64 %rd6, %rd3;\n"
	"\tmul.wide.u32 %rd7, %r5, 4;\n"
	"\tadd.s64 %rd8, %rd4, %rd7;\n"
	"\tadd.s64 %rd9, %rd5, %rd7;\n"
	"\tadd.s64 %rd10, %rd6, %rd7;\n"
	"\tld.global.u32 %r6, [%rd8];\n"
	"\tld.global.u32 %r7, [%rd9];\n"
	"\tshl.b32 %r8, %r6, 1;\n"
	"\tsub.s32 %r9, %r8, %r7;\n"
	"\txor.b32 %r10, %r9, %r5;\n"
	"\tst.global.u32 [%rd10], %r10;\n"
	"$R3_cmb_done:\n"
	"\tret;\n"
	"}\n"
	"\n"
	/* FMA throughput: 8 independent chains of iters fma.rn(a, one, one) per thread (one = 1.0
	 * from a parameter, so no compiler folds it); a_k starts at k, ends at k + iters (exact
	 * below 2^24); out[tid] = the sum of the 8. Registers only: what a GPU's SMs can do. */
	".visible .entry r3_fma(\n"
	"\t.param .u64 r3_fma_out,\n"
	"\t.param .f32 r3_fma_one,\n"
	"\t.param .u32 r3_fma_iters\n"
	")\n"
	"{\n"
	"\t.reg .pred %p<2>;\n"
	"\t.reg .b32 %r<8>;\n"
	"\t.reg .f32 %f<12>;\n"
	"\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [r3_fma_out];\n"
	"\tld.param.f32 %f9, [r3_fma_one];\n"
	"\tld.param.u32 %r1, [r3_fma_iters];\n"
	"\tmov.f32 %f1, 0f00000000;\n"
	"\tmov.f32 %f2, 0f3F800000;\n"
	"\tmov.f32 %f3, 0f40000000;\n"
	"\tmov.f32 %f4, 0f40400000;\n"
	"\tmov.f32 %f5, 0f40800000;\n"
	"\tmov.f32 %f6, 0f40A00000;\n"
	"\tmov.f32 %f7, 0f40C00000;\n"
	"\tmov.f32 %f8, 0f40E00000;\n"
	"\tmov.u32 %r2, 0;\n"
	"$R3_fma_loop:\n"
	"\tfma.rn.f32 %f1, %f1, %f9, %f9;\n"
	"\tfma.rn.f32 %f2, %f2, %f9, %f9;\n"
	"\tfma.rn.f32 %f3, %f3, %f9, %f9;\n"
	"\tfma.rn.f32 %f4, %f4, %f9, %f9;\n"
	"\tfma.rn.f32 %f5, %f5, %f9, %f9;\n"
	"\tfma.rn.f32 %f6, %f6, %f9, %f9;\n"
	"\tfma.rn.f32 %f7, %f7, %f9, %f9;\n"
	"\tfma.rn.f32 %f8, %f8, %f9, %f9;\n"
	"\tadd.u32 %r2, %r2, 1;\n"
	"\tsetp.lt.u32 %p1, %r2, %r1;\n"
	"\t@%p1 bra $R3_fma_loop;\n"
	"\tadd.rn.f32 %f10, %f1, %f2;\n"
	"\tadd.rn.f32 %f10, %f10, %f3;\n"
	"\tadd.rn.f32 %f10, %f10, %f4;\n"
	"\tadd.rn.f32 %f10, %f10, %f5;\n"
	"\tadd.rn.f32 %f10, %f10, %f6;\n"
	"\tadd.rn.f32 %f10, %f10, %f7;\n"
	"\tadd.rn.f32 %f10, %f10, %f8;\n"
	"\tmov.u32 %r3, %ctaid.x;\n"
	"\tmov.u32 %r4, %ntid.x;\n"
	"\tmov.u32 %r5, %tid.x;\n"
	"\tmad.lo.s32 %r6, %r3, %r4, %r5;\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmul.wide.u32 %rd3, %r6, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tst.global.f32 [%rd4], %f10;\n"
	"\tret;\n"
	"}\n"
	"\n"
	/* A store to an address the context never mapped: the GPU must fault this context. */
	".visible .entry r3_fault(\n"
	"\t.param .u64 r3_fault_addr\n"
	")\n"
	"{\n"
	"\t.reg .b32 %r<2>;\n"
	"\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [r3_fault_addr];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, 0x0bad;\n"
	"\tst.global.u32 [%rd2], %r1;\n"
	"\tret;\n"
	"}\n";

/* --- the test machinery -------------------------------------------------------------------- */

struct opts {
	const char *only;
	size_t max_bytes;
	unsigned int timeout;
	int cpu_only, no_fork;
};

static struct opts opt = { NULL, (size_t)256 << 20, 300, 0, 0 };

/* One test's state in the process that runs it. */
struct run {
	const char *name;
	struct sha256 sha;
	uint64_t bytes;
	char why[512];	/* the first failure */
	CUmodule mod;
	int sticky;	/* the context is dead by design: teardown errors are expected */
};

static const char *volatile cur_test = "-";
static const char *volatile cur_stage = "start";
static int n_tests, n_ok, n_failed, n_left;

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

static void kmsg(const char *test, const char *what)
{
	char line[128];
	int fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		return;
	int n = snprintf(line, sizeof(line), "rung3check: %s %s\n", test, what);
	if (n > 0 && write(fd, line, (size_t)n) < 0) {
		/* the marker is a convenience only */
	}
	close(fd);
}

static void summary(void)
{
	printf("rung3check: summary tests=%d ok=%d failed=%d\n", n_tests, n_ok, n_failed);
	fflush(stdout);
}

/* The watchdog: the current test FAILs. In a test's own process that ends the process (the
 * parent goes on with the next test); with --no-fork it ends the program, the tests not run
 * counted as failed. */
static void on_alarm(int sig)
{
	char buf[512];
	int n;
	(void)sig;
	n = snprintf(buf, sizeof(buf), "rung3check: %s FAIL watchdog: no completion in %u s (stage %s)\n",
		     cur_test, opt.timeout, cur_stage);
	if (opt.no_fork && n > 0 && n < (int)sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "rung3check: summary tests=%d ok=%d failed=%d\n", n_tests + n_left,
			      n_ok, n_failed + 1 + n_left);
	if (n > 0 && write(STDOUT_FILENO, buf, strlen(buf)) < 0)
		_exit(4);
	_exit(opt.no_fork ? 3 : 1);
}

static void stage(const char *s)
{
	cur_stage = s;
}

/* Record the first failure; returns 1 (failed) for `return fail(...)`. */
static int fail(struct run *r, const char *fmt, ...)
{
	if (!r->why[0]) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->why, sizeof(r->why), fmt, ap);
		va_end(ap);
	}
	return 1;
}

/* A driver call's result: 1 when it succeeded, else the failure is recorded. */
static int cu(struct run *r, CUresult rc, const char *what)
{
	if (rc == CUDA_SUCCESS)
		return 1;
	fail(r, "%s rc=%d %s (stage %s)", what, rc, ename(rc), cur_stage);
	return 0;
}

static void hash_out(struct run *r, const void *p, size_t n)
{
	sha_update(&r->sha, p, n);
	r->bytes += n;
}

/* got == want, element-wise (elem bytes each); else the first difference is recorded. */
static int same(struct run *r, const char *what, const void *got, const void *want, size_t n,
		size_t elem)
{
	if (memcmp(got, want, n) == 0)
		return 1;
	const uint8_t *g = got, *w = want;
	size_t i = 0, bad = 0;
	while (memcmp(g + i * elem, w + i * elem, elem) == 0)
		i++;
	for (size_t j = i; j < n / elem; j++)
		bad += memcmp(g + j * elem, w + j * elem, elem) != 0;
	uint32_t gv = 0, wv = 0;
	memcpy(&gv, g + i * elem, elem < 4 ? elem : 4);
	memcpy(&wv, w + i * elem, elem < 4 ? elem : 4);
	fail(r, "%s: mismatch at element %zu (byte %zu): got 0x%08x want 0x%08x, %zu of %zu elements differ",
	     what, i, i * elem, gv, wv, bad, n / elem);
	return 0;
}

/* Deterministic inputs: splitmix64. */
static uint64_t rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static int32_t rng_range(uint64_t *s, int32_t lo, int32_t hi)
{
	return lo + (int32_t)(rng(s) % (uint64_t)((int64_t)hi - lo + 1));
}

/* Pattern unique per 8-byte word and seed (n a multiple of 8). */
static void fill(void *p, size_t n, uint64_t seed)
{
	uint64_t *w = p;
	for (size_t i = 0; i < n / 8; i++)
		w[i] = ((i + 1) * 0x9E3779B97F4A7C15ull) ^ seed;
}

static CUfunction func(struct run *r, const char *name)
{
	CUfunction f = NULL;
	if (cu(r, cuModuleGetFunction(&f, r->mod, name), "cuModuleGetFunction") && !f)
		fail(r, "cuModuleGetFunction %s: rc=0 but no function", name);
	return f;
}

/* A 1-D launch of n threads in blocks of bs, then a synchronize (errors are the launch's). */
static int launch1(struct run *r, CUfunction f, unsigned int n, unsigned int bs, CUstream s,
		   void **params, int sync)
{
	if (!f)
		return 0;
	if (!cu(r, cuLaunchKernel(f, (n + bs - 1) / bs, 1, 1, bs, 1, 1, 0, s, params, NULL),
		"cuLaunchKernel"))
		return 0;
	return !sync || cu(r, cuCtxSynchronize(), "cuCtxSynchronize after launch");
}

/* Device buffers of a test, freed at its end. */
#define MAXBUF 16
struct bufs {
	CUdeviceptr d[MAXBUF];
	int n;
};

static CUdeviceptr dalloc(struct run *r, struct bufs *b, size_t bytes)
{
	CUdeviceptr p = 0;
	if (b->n >= MAXBUF)
		fail(r, "more than %d device buffers", MAXBUF);
	else if (cu(r, cuMemAlloc_v2(&p, bytes), "cuMemAlloc") && !p)
		fail(r, "cuMemAlloc of %zu bytes: rc=0 but a null pointer", bytes);
	else if (p)
		b->d[b->n++] = p;
	return p;
}

static int dfree(struct run *r, struct bufs *b)
{
	int ok = 1;
	while (b->n > 0)
		ok &= cu(r, cuMemFree_v2(b->d[--b->n]), "cuMemFree");
	return ok;
}

/* The result: @sz bytes of @dev into @got (pre-poisoned), checked against @want, hashed. */
static int fetch_check(struct run *r, const char *what, void *got, CUdeviceptr dev,
		       const void *want, size_t sz, size_t elem)
{
	stage("copy out");
	memset(got, 0xa5, sz);
	if (!cu(r, cuMemcpyDtoH_v2(got, dev, sz), "cuMemcpyDtoH result") ||
	    !same(r, what, got, want, sz, elem))
		return 0;
	hash_out(r, got, sz);
	return 1;
}

/* --- vectorAdd ------------------------------------------------------------------------------ */

static int t_vectoradd(struct run *r)
{
	const unsigned int n = (1u << 20) + 37;
	const size_t sz = (size_t)n * 4;
	float *a = malloc(sz), *b = malloc(sz), *want = malloc(sz), *got = malloc(sz);
	struct bufs bu = { { 0 }, 0 };
	int ok = 0;
	uint64_t seed = 0x7631;
	if (!a || !b || !want || !got) {
		fail(r, "host malloc of %zu bytes failed", 4 * sz);
		goto out;
	}
	/* Small integers: every sum is exact, whatever the compiler. */
	for (unsigned int i = 0; i < n; i++) {
		a[i] = (float)rng_range(&seed, -1000000, 1000000);
		b[i] = (float)rng_range(&seed, -1000000, 1000000);
		want[i] = a[i] + b[i];
	}
	if (opt.cpu_only) {
		hash_out(r, want, sz);
		ok = 1;
		goto out;
	}
	stage("alloc+copy in");
	CUdeviceptr da = dalloc(r, &bu, sz), db = dalloc(r, &bu, sz), dc = dalloc(r, &bu, sz);
	if (!da || !db || !dc || !cu(r, cuMemcpyHtoD_v2(da, a, sz), "cuMemcpyHtoD a") ||
	    !cu(r, cuMemcpyHtoD_v2(db, b, sz), "cuMemcpyHtoD b"))
		goto out;
	stage("launch r3_vadd");
	unsigned int nn = n;
	void *p[] = { &da, &db, &dc, &nn };
	if (!launch1(r, func(r, "r3_vadd"), n, 256, NULL, p, 1))
		goto out;
	if (!fetch_check(r, "c = a + b", got, dc, want, sz, 4))
		goto out;
	ok = 1;
out:
	if (!opt.cpu_only)
		ok &= dfree(r, &bu);
	free(a);
	free(b);
	free(want);
	free(got);
	return !ok;
}

/* --- reduce --------------------------------------------------------------------------------- */

#define RED_BLOCKS 100
#define RED_THREADS 256

static int t_reduce(struct run *r)
{
	const unsigned int n = (1u << 22) + 5;
	const size_t sz = (size_t)n * 4;
	int32_t *in = malloc(sz);
	uint32_t want_part[RED_BLOCKS] = { 0 }, got_part[RED_BLOCKS];
	uint32_t want_acc[6], got_acc[6], init_acc[6] = { 0, 0x7fffffff, 0x80000000, 0, 0, 0 };
	struct bufs bu = { { 0 }, 0 };
	int ok = 0;
	uint64_t seed = 0x7265;
	if (!in) {
		fail(r, "host malloc of %zu bytes failed", sz);
		goto out;
	}
	int32_t mn = INT32_MAX, mx = INT32_MIN;
	int64_t sum64 = 0;
	for (unsigned int i = 0; i < n; i++) {
		in[i] = rng_range(&seed, -100000, 100000);
		/* the block that reads element i in the grid-stride loop */
		want_part[(i / RED_THREADS) % RED_BLOCKS] += (uint32_t)in[i];
		mn = in[i] < mn ? in[i] : mn;
		mx = in[i] > mx ? in[i] : mx;
		sum64 += in[i];
	}
	uint32_t sum32 = 0;
	int64_t sum64b = 0;
	for (int k = 0; k < RED_BLOCKS; k++) {
		sum32 += want_part[k];
		sum64b += (int32_t)want_part[k];
	}
	/* The partials do not wrap (|sum| < 2^31 per block): the 64-bit sum of the sign-extended
	 * block sums is the exact sum. */
	if (sum64b != sum64) {
		fail(r, "CPU reference: block sums wrap (%lld != %lld)", (long long)sum64b,
		     (long long)sum64);
		goto out;
	}
	want_acc[0] = sum32;
	want_acc[1] = (uint32_t)mn;
	want_acc[2] = (uint32_t)mx;
	want_acc[3] = RED_BLOCKS;
	memcpy(&want_acc[4], &sum64, 8);
	if (opt.cpu_only) {
		hash_out(r, want_part, sizeof(want_part));
		hash_out(r, want_acc, sizeof(want_acc));
		ok = 1;
		goto out;
	}
	stage("alloc+copy in");
	CUdeviceptr din = dalloc(r, &bu, sz), dpart = dalloc(r, &bu, sizeof(want_part)),
		    dacc = dalloc(r, &bu, sizeof(want_acc));
	memset(got_part, 0xa5, sizeof(got_part));
	if (!din || !dpart || !dacc || !cu(r, cuMemcpyHtoD_v2(din, in, sz), "cuMemcpyHtoD in") ||
	    !cu(r, cuMemcpyHtoD_v2(dpart, got_part, sizeof(got_part)), "cuMemcpyHtoD partials") ||
	    !cu(r, cuMemcpyHtoD_v2(dacc, init_acc, sizeof(init_acc)), "cuMemcpyHtoD acc"))
		goto out;
	stage("launch r3_reduce");
	unsigned int nn = n;
	void *p[] = { &din, &nn, &dpart, &dacc };
	if (!launch1(r, func(r, "r3_reduce"), RED_BLOCKS * RED_THREADS, RED_THREADS, NULL, p, 1))
		goto out;
	stage("copy out");
	memset(got_part, 0xa5, sizeof(got_part));
	memset(got_acc, 0xa5, sizeof(got_acc));
	if (!cu(r, cuMemcpyDtoH_v2(got_part, dpart, sizeof(got_part)), "cuMemcpyDtoH partials") ||
	    !cu(r, cuMemcpyDtoH_v2(got_acc, dacc, sizeof(got_acc)), "cuMemcpyDtoH acc") ||
	    !same(r, "block sums (shared-memory tree)", got_part, want_part, sizeof(got_part), 4) ||
	    !same(r, "atomics [sum32 min max blocks sum64lo sum64hi]", got_acc, want_acc,
		  sizeof(got_acc), 4))
		goto out;
	hash_out(r, got_part, sizeof(got_part));
	hash_out(r, got_acc, sizeof(got_acc));
	ok = 1;
out:
	if (!opt.cpu_only)
		ok &= dfree(r, &bu);
	free(in);
	return !ok;
}

/* --- matmul --------------------------------------------------------------------------------- */

static int t_matmul(struct run *r)
{
	enum { M = 384, N = 256, K = 320 };
	float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
	float *want = malloc(sizeof(float) * M * N), *got = malloc(sizeof(float) * M * N);
	int32_t *ia = malloc(sizeof(int32_t) * M * K), *ib = malloc(sizeof(int32_t) * K * N);
	const size_t sa = sizeof(float) * M * K, sb = sizeof(float) * K * N, sc = sizeof(float) * M * N;
	struct bufs bu = { { 0 }, 0 };
	int ok = 0;
	uint64_t seed = 0x6d6d;
	if (!a || !b || !want || !got || !ia || !ib) {
		fail(r, "host malloc failed");
		goto out;
	}
	/* Entries in [-3, 3]: every partial sum is an integer below 2^24 (exact in f32). */
	for (int i = 0; i < M * K; i++)
		a[i] = (float)(ia[i] = rng_range(&seed, -3, 3));
	for (int i = 0; i < K * N; i++)
		b[i] = (float)(ib[i] = rng_range(&seed, -3, 3));
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;
			for (int k = 0; k < K; k++)
				s += ia[i * K + k] * ib[k * N + j];
			want[i * N + j] = (float)s;
		}
	if (opt.cpu_only) {
		hash_out(r, want, sc);
		ok = 1;
		goto out;
	}
	stage("alloc+copy in");
	CUdeviceptr da = dalloc(r, &bu, sa), db = dalloc(r, &bu, sb), dc = dalloc(r, &bu, sc);
	if (!da || !db || !dc || !cu(r, cuMemcpyHtoD_v2(da, a, sa), "cuMemcpyHtoD A") ||
	    !cu(r, cuMemcpyHtoD_v2(db, b, sb), "cuMemcpyHtoD B"))
		goto out;
	stage("launch r3_matmul");
	unsigned int kk = K, nn = N;
	void *p[] = { &da, &db, &dc, &kk, &nn };
	CUfunction f = func(r, "r3_matmul");
	if (!f || !cu(r, cuLaunchKernel(f, N / 16, M / 16, 1, 16, 16, 1, 0, NULL, p, NULL),
		      "cuLaunchKernel") ||
	    !cu(r, cuCtxSynchronize(), "cuCtxSynchronize after launch"))
		goto out;
	if (!fetch_check(r, "C = A B", got, dc, want, sc, 4))
		goto out;
	ok = 1;
out:
	if (!opt.cpu_only)
		ok &= dfree(r, &bu);
	free(a);
	free(b);
	free(want);
	free(got);
	free(ia);
	free(ib);
	return !ok;
}

/* --- streams -------------------------------------------------------------------------------- */

/*
 * Per round, inputs x1, x2 (pinned):
 *   stream 1: record s1; HtoD x1; y1 = x1 * 3 + 7; record mid; DtoH y1; record e1
 *   stream 2: record s2; HtoD x2; y2 = x2 * -5 + 11; wait(mid); z = (2 y1 - y2) ^ i;
 *             DtoH z; DtoH y2; record e2
 * Output per round: y1, y2, z. The wait makes z read this round's y1 (a lost dependency reads
 * the previous round's).
 */
static int t_streams(struct run *r)
{
	enum { N = 1 << 18, ROUNDS = 3 };
	const size_t sz = (size_t)N * 4;
	static const int32_t m1 = 3, a1 = 7, m2 = -5, a2 = 11;
	uint32_t *x[2] = { NULL, NULL }, *y[2] = { NULL, NULL }, *z = NULL, *want = NULL;
	CUstream s[2] = { NULL, NULL };
	CUevent es[2] = { NULL, NULL }, ee[2] = { NULL, NULL }, emid = NULL;
	struct bufs bu = { { 0 }, 0 };
	int ok = 0;
	uint64_t seed = 0x7374;
	CUdeviceptr dx[2] = { 0, 0 }, dy[2] = { 0, 0 }, dz = 0;
	char times[256] = "";
	int tn = 0;

	want = malloc(3 * sz);
	if (!want)
		return fail(r, "host malloc failed");
	if (opt.cpu_only) {
		x[0] = malloc(sz);
		x[1] = malloc(sz);
		if (!x[0] || !x[1]) {
			fail(r, "host malloc failed");
			goto out;
		}
	} else {
		stage("setup");
		for (int i = 0; i < 2; i++)
			if (!cu(r, cuMemAllocHost_v2((void **)&x[i], sz), "cuMemAllocHost") ||
			    !cu(r, cuMemAllocHost_v2((void **)&y[i], sz), "cuMemAllocHost") ||
			    !(dx[i] = dalloc(r, &bu, sz)) || !(dy[i] = dalloc(r, &bu, sz)) ||
			    !cu(r, cuStreamCreate(&s[i], 0), "cuStreamCreate") ||
			    !cu(r, cuEventCreate(&es[i], 0), "cuEventCreate") ||
			    !cu(r, cuEventCreate(&ee[i], 0), "cuEventCreate"))
				goto out;
		if (!cu(r, cuMemAllocHost_v2((void **)&z, sz), "cuMemAllocHost") ||
		    !(dz = dalloc(r, &bu, sz)) || !cu(r, cuEventCreate(&emid, 0), "cuEventCreate"))
			goto out;
	}
	CUfunction faff = opt.cpu_only ? NULL : func(r, "r3_affine");
	CUfunction fcmb = opt.cpu_only ? NULL : func(r, "r3_combine");
	if (!opt.cpu_only && (!faff || !fcmb))
		goto out;
	for (int round = 0; round < ROUNDS; round++) {
		uint32_t *w1 = want, *w2 = want + N, *wz = want + 2 * N;
		for (int i = 0; i < N; i++) {
			x[0][i] = (uint32_t)rng(&seed);
			x[1][i] = (uint32_t)rng(&seed);
			w1[i] = x[0][i] * (uint32_t)m1 + (uint32_t)a1;
			w2[i] = x[1][i] * (uint32_t)m2 + (uint32_t)a2;
			wz[i] = (2 * w1[i] - w2[i]) ^ (uint32_t)i;
		}
		if (opt.cpu_only) {
			hash_out(r, want, 3 * sz);
			continue;
		}
		stage("enqueue");
		for (int i = 0; i < 2; i++) {
			memset(y[i], 0xa5, sz);
		}
		memset(z, 0xa5, sz);
		unsigned int nn = N, um1 = (uint32_t)m1, ua1 = (uint32_t)a1, um2 = (uint32_t)m2,
			     ua2 = (uint32_t)a2;
		void *p1[] = { &dx[0], &dy[0], &nn, &um1, &ua1 };
		void *p2[] = { &dx[1], &dy[1], &nn, &um2, &ua2 };
		void *pc[] = { &dy[0], &dy[1], &dz, &nn };
		if (!cu(r, cuEventRecord(es[0], s[0]), "cuEventRecord start1") ||
		    !cu(r, cuEventRecord(es[1], s[1]), "cuEventRecord start2") ||
		    !cu(r, cuMemcpyHtoDAsync_v2(dx[0], x[0], sz, s[0]), "cuMemcpyHtoDAsync x1") ||
		    !cu(r, cuMemcpyHtoDAsync_v2(dx[1], x[1], sz, s[1]), "cuMemcpyHtoDAsync x2") ||
		    !launch1(r, faff, N, 256, s[0], p1, 0) ||
		    !cu(r, cuEventRecord(emid, s[0]), "cuEventRecord mid") ||
		    !launch1(r, faff, N, 256, s[1], p2, 0) ||
		    !cu(r, cuMemcpyDtoHAsync_v2(y[0], dy[0], sz, s[0]), "cuMemcpyDtoHAsync y1") ||
		    !cu(r, cuEventRecord(ee[0], s[0]), "cuEventRecord end1") ||
		    !cu(r, cuStreamWaitEvent(s[1], emid, 0), "cuStreamWaitEvent") ||
		    !launch1(r, fcmb, N, 256, s[1], pc, 0) ||
		    !cu(r, cuMemcpyDtoHAsync_v2(z, dz, sz, s[1]), "cuMemcpyDtoHAsync z") ||
		    !cu(r, cuMemcpyDtoHAsync_v2(y[1], dy[1], sz, s[1]), "cuMemcpyDtoHAsync y2") ||
		    !cu(r, cuEventRecord(ee[1], s[1]), "cuEventRecord end2"))
			goto out;
		stage("synchronize");
		for (int i = 0; i < 2; i++) {
			float ms = -1;
			if (!cu(r, cuEventSynchronize(ee[i]), "cuEventSynchronize") ||
			    !cu(r, cuStreamSynchronize(s[i]), "cuStreamSynchronize") ||
			    !cu(r, cuEventQuery(ee[i]), "cuEventQuery after synchronize") ||
			    !cu(r, cuStreamQuery(s[i]), "cuStreamQuery after synchronize") ||
			    !cu(r, cuEventElapsedTime(&ms, es[i], ee[i]), "cuEventElapsedTime"))
				goto out;
			if (!isfinite(ms) || ms < 0 || ms > 1e7) {
				fail(r, "cuEventElapsedTime stream %d round %d: %g ms", i + 1, round, ms);
				goto out;
			}
			if (tn < (int)sizeof(times))
				tn += snprintf(times + tn, sizeof(times) - (size_t)tn, " r%d.s%d=%.3fms",
					       round, i + 1, ms);
		}
		if (!same(r, "stream 1: y1 = 3 x1 + 7", y[0], w1, sz, 4) ||
		    !same(r, "stream 2: y2 = -5 x2 + 11", y[1], w2, sz, 4) ||
		    !same(r, "stream 2 after waiting on stream 1: z = (2 y1 - y2) ^ i", z, wz, sz, 4))
			goto out;
		hash_out(r, y[0], sz);
		hash_out(r, y[1], sz);
		hash_out(r, z, sz);
	}
	if (!opt.cpu_only)
		printf("rung3check: note streams elapsed (events, not hashed):%s\n", times);
	ok = 1;
out:
	if (opt.cpu_only) {
		free(x[0]);
		free(x[1]);
	} else {
		for (int i = 0; i < 2; i++) {
			if (ee[i])
				ok &= cu(r, cuEventDestroy_v2(ee[i]), "cuEventDestroy");
			if (es[i])
				ok &= cu(r, cuEventDestroy_v2(es[i]), "cuEventDestroy");
			if (s[i])
				ok &= cu(r, cuStreamDestroy_v2(s[i]), "cuStreamDestroy");
			if (x[i])
				ok &= cu(r, cuMemFreeHost(x[i]), "cuMemFreeHost");
			if (y[i])
				ok &= cu(r, cuMemFreeHost(y[i]), "cuMemFreeHost");
		}
		if (emid)
			ok &= cu(r, cuEventDestroy_v2(emid), "cuEventDestroy");
		if (z)
			ok &= cu(r, cuMemFreeHost(z), "cuMemFreeHost");
		ok &= dfree(r, &bu);
	}
	free(want);
	return !ok;
}

/* --- memcpy --------------------------------------------------------------------------------- */

/*
 * Per size S (4 KiB, 16 KiB, ... --max-mib), d0 and d1 device buffers:
 *   A -> pageable host P -> HtoD d0 -> DtoD d1 -> async DtoH to pinned H: H == A   (hashed)
 *   B -> pinned H -> async HtoD d0 -> DtoH to pageable P: P == B                   (hashed)
 *   d1 -> DtoH to pageable P: P == A (the DtoD copy is intact after d0 was rewritten) (hashed)
 */
static int t_memcpy(struct run *r)
{
	uint8_t *P = malloc(opt.max_bytes), *H = NULL, *A = malloc(opt.max_bytes);
	CUstream st = NULL;
	int ok = 0;
	if (!P || !A) {
		fail(r, "host malloc of 2 x %zu MiB failed", opt.max_bytes >> 20);
		goto out;
	}
	if (opt.cpu_only) {
		H = malloc(opt.max_bytes);
		if (!H) {
			fail(r, "host malloc failed");
			goto out;
		}
	} else {
		stage("setup");
		if (!cu(r, cuMemAllocHost_v2((void **)&H, opt.max_bytes), "cuMemAllocHost") ||
		    !cu(r, cuStreamCreate(&st, 0), "cuStreamCreate"))
			goto out;
	}
	for (size_t sz = 4096; sz <= opt.max_bytes; sz *= 4) {
		uint64_t sa = (0x6d656d41ull << 32) ^ sz, sb = (0x6d656d42ull << 32) ^ sz;
		char what[96];
		if (opt.cpu_only) {
			fill(A, sz, sa);
			hash_out(r, A, sz);
			fill(A, sz, sb);
			hash_out(r, A, sz);
			fill(A, sz, sa);
			hash_out(r, A, sz);
			continue;
		}
		struct bufs bu = { { 0 }, 0 };
		int step = 0;
		snprintf(what, sizeof(what), "memcpy %zu bytes", sz);
		stage(what);
		CUdeviceptr d0 = dalloc(r, &bu, sz), d1 = dalloc(r, &bu, sz);
		fill(A, sz, sa);
		memcpy(P, A, sz);
		memset(H, 0xa5, sz);
		step = d0 && d1 && cu(r, cuMemcpyHtoD_v2(d0, P, sz), "cuMemcpyHtoD pageable") &&
		       cu(r, cuMemcpyDtoD_v2(d1, d0, sz), "cuMemcpyDtoD") &&
		       cu(r, cuMemcpyDtoHAsync_v2(H, d1, sz, st), "cuMemcpyDtoHAsync pinned") &&
		       cu(r, cuStreamSynchronize(st), "cuStreamSynchronize");
		snprintf(what, sizeof(what), "%zu bytes: pageable HtoD, DtoD, pinned DtoH", sz);
		if (step && same(r, what, H, A, sz, 8)) {
			hash_out(r, H, sz);
			fill(H, sz, sb);
			memset(P, 0xa5, sz);
			step = cu(r, cuMemcpyHtoDAsync_v2(d0, H, sz, st), "cuMemcpyHtoDAsync pinned") &&
			       cu(r, cuStreamSynchronize(st), "cuStreamSynchronize") &&
			       cu(r, cuMemcpyDtoH_v2(P, d0, sz), "cuMemcpyDtoH pageable");
			snprintf(what, sizeof(what), "%zu bytes: pinned HtoD, pageable DtoH", sz);
			if (step && same(r, what, P, H, sz, 8)) {
				hash_out(r, P, sz);
				memset(P, 0xa5, sz);
				step = cu(r, cuMemcpyDtoH_v2(P, d1, sz), "cuMemcpyDtoH pageable");
				snprintf(what, sizeof(what), "%zu bytes: DtoD copy re-read", sz);
				if (step && same(r, what, P, A, sz, 8))
					hash_out(r, P, sz);
			}
		}
		int freed = dfree(r, &bu);
		if (r->why[0] || !freed)
			goto out;
	}
	ok = 1;
out:
	if (opt.cpu_only) {
		free(H);
	} else {
		if (st)
			ok &= cu(r, cuStreamDestroy_v2(st), "cuStreamDestroy");
		if (H)
			ok &= cu(r, cuMemFreeHost(H), "cuMemFreeHost");
	}
	free(P);
	free(A);
	return !ok;
}

/* --- the runner ----------------------------------------------------------------------------- */

/* --- fma: what the SMs compute, and how fast (the rate is a note, not hashed) ------------ */

#define FMA_BLOCKS 1056		/* 8 per SM of a 132-SM part: a whole wave on H100/H200 */
#define FMA_THREADS 256
#define FMA_ITERS 4096
#define FMA_REPS 10

static int t_fma(struct run *r)
{
	const unsigned int n = FMA_BLOCKS * FMA_THREADS;
	const size_t sz = (size_t)n * 4;
	float *want = malloc(sz), *got = malloc(sz);
	struct bufs bu = { { 0 }, 0 };
	CUevent e0 = NULL, e1 = NULL;
	int ok = 0;
	if (!want || !got) {
		fail(r, "host malloc of %zu bytes failed", 2 * sz);
		goto out;
	}
	for (unsigned int i = 0; i < n; i++)
		want[i] = 28.0f + 8.0f * FMA_ITERS;	/* sum of k + iters, k = 0..7 */
	if (opt.cpu_only) {
		hash_out(r, want, sz);
		ok = 1;
		goto out;
	}
	stage("alloc");
	CUdeviceptr dout = dalloc(r, &bu, sz);
	CUfunction f = func(r, "r3_fma");
	float one = 1.0f;
	unsigned int iters = FMA_ITERS;
	void *p[] = { &dout, &one, &iters };
	if (!dout || !f)
		goto out;
	stage("warm-up launch");
	if (!launch1(r, f, n, FMA_THREADS, NULL, p, 1))
		goto out;
	stage("timed launches");
	if (!cu(r, cuEventCreate(&e0, 0), "cuEventCreate") ||
	    !cu(r, cuEventCreate(&e1, 0), "cuEventCreate") ||
	    !cu(r, cuEventRecord(e0, NULL), "cuEventRecord"))
		goto out;
	for (int k = 0; k < FMA_REPS; k++)
		if (!launch1(r, f, n, FMA_THREADS, NULL, p, 0))
			goto out;
	float ms = 0;
	if (!cu(r, cuEventRecord(e1, NULL), "cuEventRecord") ||
	    !cu(r, cuEventSynchronize(e1), "cuEventSynchronize") ||
	    !cu(r, cuEventElapsedTime(&ms, e0, e1), "cuEventElapsedTime"))
		goto out;
	if (!(ms > 0)) {
		fail(r, "cuEventElapsedTime: %.3f ms for %d launches", ms, FMA_REPS);
		goto out;
	}
	printf("rung3check: note fma %u threads x %u fma x %d launches: %.3f ms, %.1f GFLOP/s "
		       "(events, not hashed)\n", n, 8 * FMA_ITERS, FMA_REPS, ms,
		       2.0 * 8 * FMA_ITERS * (double)n * FMA_REPS / (ms * 1e6));
	if (!fetch_check(r, "fma chains", got, dout, want, sz, 4))
		goto out;
	ok = 1;
out:
	if (e0)
		cuEventDestroy_v2(e0);
	if (e1)
		cuEventDestroy_v2(e1);
	if (!opt.cpu_only)
		ok &= dfree(r, &bu);
	free(want);
	free(got);
	return !ok;
}

/*
 * --- fault (opt-in: --only fault): a kernel writes where its context mapped nothing. The
 * launch must fail in this context (any error), and only here: the process that runs the
 * next test gets a working GPU. What is hashed is the fact, not the error code.
 */
#define FAULT_VA 0x7ead00000000ULL

static int t_fault(struct run *r)
{
	static const char fact[] = "faulted in its own context";
	if (opt.cpu_only) {
		hash_out(r, fact, sizeof(fact) - 1);
		return 0;
	}
	CUfunction f = func(r, "r3_fault");
	unsigned long long va = FAULT_VA;
	void *p[] = { &va };
	if (!f)
		return 1;
	stage("launch r3_fault");
	CUresult rc = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, p, NULL);
	if (rc == CUDA_SUCCESS)
		rc = cuCtxSynchronize();
	if (rc == CUDA_SUCCESS) {
		fail(r, "a store to unmapped VA 0x%llx completed without an error", va);
		return 1;
	}
	printf("rung3check: note fault the launch failed as it must: rc=%d %s\n", (int)rc,
	       ename(rc));
	r->sticky = 1;
	hash_out(r, fact, sizeof(fact) - 1);
	return 0;
}

static const struct test {
	const char *name;
	int (*fn)(struct run *r);
	int opt_in;	/* only with --only NAME */
} tests[] = {
	{ "vectorAdd", t_vectoradd, 0 },
	{ "reduce", t_reduce, 0 },
	{ "matmul", t_matmul, 0 },
	{ "streams", t_streams, 0 },
	{ "memcpy", t_memcpy, 0 },
	{ "fma", t_fma, 0 },
	{ "fault", t_fault, 1 },
};
#define NTESTS ((int)(sizeof(tests) / sizeof(tests[0])))

static void *libcuda;

/* dlopen/dlsym (once per process), cuInit, device 0, a context, the PTX module. */
static int gpu_open(struct run *r, CUcontext *ctx, int note)
{
	stage("dlopen");
	if (!libcuda) {
		const char *lib = getenv("RUNG3CHECK_LIBCUDA");
		void *h = dlopen(lib && *lib ? lib : "libcuda.so.1", RTLD_NOW);
		if (!h)
			return fail(r, "dlopen: %s", dlerror());
		int missing = 0;
#define CU_LOAD(name, args)                                                                    \
	name = (CUresult(*) args)dlsym(h, #name);                                              \
	if (!name && !missing++)                                                               \
		fail(r, "dlsym %s missing", #name);
		CU_FUNCS(CU_LOAD)
		if (missing)
			return 1;
		libcuda = h;
	}
	CUdevice dev = 0;
	stage("cuInit");
	if (!cu(r, cuInit(0), "cuInit") || !cu(r, cuDeviceGet(&dev, 0), "cuDeviceGet"))
		return 1;
	if (note) {
		int ver = 0, ccmaj = -1, ccmin = -1, sms = -1;
		char name[128] = "";
		cuDriverGetVersion(&ver);
		cuDeviceGetName(name, sizeof(name), dev);
		cuDeviceGetAttribute(&ccmaj, ATTR_CC_MAJOR, dev);
		cuDeviceGetAttribute(&ccmin, ATTR_CC_MINOR, dev);
		cuDeviceGetAttribute(&sms, ATTR_MULTIPROCESSOR_COUNT, dev);
		printf("rung3check: note driver API %d, device 0 \"%s\" compute capability %d.%d, "
		       "%d SMs\n", ver, name, ccmaj, ccmin, sms);
	}
	stage("cuCtxCreate");
	if (!cu(r, cuCtxCreate_v2(ctx, 0, dev), "cuCtxCreate"))
		return 1;
	stage("cuModuleLoadDataEx (PTX JIT)");
	char log[2048] = "";
	int jo[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *jv[2] = { log, (void *)(uintptr_t)sizeof(log) };
	double t0 = now_s();
	CUresult rc = cuModuleLoadDataEx(&r->mod, ptx_src, 2, jo, jv);
	if (rc) {
		for (char *c = log; *c; c++)
			if (*c == '\n')
				*c = ' ';
		r->mod = NULL;
		return fail(r, "cuModuleLoadDataEx (PTX JIT) rc=%d %s: %s", rc, ename(rc),
			    log[0] ? log : "no JIT log");
	}
	printf("rung3check: note %s PTX module JIT-loaded in %.2f s\n", r->name, now_s() - t0);
	return 0;
}

static int gpu_close(struct run *r, CUcontext ctx)
{
	int ok = 1;
	stage("teardown");
	if (r->mod)
		ok &= cu(r, cuModuleUnload(r->mod), "cuModuleUnload");
	if (ctx)
		ok &= cu(r, cuCtxDestroy_v2(ctx), "cuCtxDestroy");
	return !ok;
}

/* Run one test in this process and print its line; returns 0 when ok. */
static int run_test(const struct test *t, int note)
{
	struct run r;
	CUcontext ctx = NULL;
	char hex[65];
	memset(&r, 0, sizeof(r));
	r.name = t->name;
	sha_init(&r.sha);
	cur_test = t->name;
	stage("start");
	alarm(opt.timeout);
	int bad = 0;
	if (!opt.cpu_only)
		bad = gpu_open(&r, &ctx, note);
	if (!bad) {
		kmsg(t->name, "begins");
		bad = t->fn(&r);
		kmsg(t->name, "ends");
	}
	if (!opt.cpu_only && !r.sticky)
		bad |= gpu_close(&r, ctx);
	alarm(0);
	if (bad || r.why[0]) {
		printf("rung3check: %s FAIL %s\n", t->name, r.why[0] ? r.why : "(no reason recorded)");
		fflush(stdout);
		return 1;
	}
	sha_hex(&r.sha, hex);
	printf("rung3check: %s ok sha256=%s bytes=%llu\n", t->name, hex,
	       (unsigned long long)r.bytes);
	fflush(stdout);
	return 0;
}

/* Run one test in a child process; a child that ends without its line gets one here. */
static int run_forked(const struct test *t, int note)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		printf("rung3check: %s FAIL fork failed\n", t->name);
		return 1;
	}
	if (pid == 0)
		_exit(run_test(t, note));
	/* Backstop beyond the child's own watchdog: a child stuck where SIGALRM cannot act. */
	double deadline = now_s() + opt.timeout + 30;
	int st = 0, killed = 0;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0) {
			printf("rung3check: %s FAIL waitpid failed\n", t->name);
			return 1;
		}
		if (now_s() > deadline) {
			if (killed) {
				printf("rung3check: %s FAIL process %d does not end after SIGKILL\n",
				       t->name, (int)pid);
				return 1;
			}
			kill(pid, SIGKILL);
			killed = 1;
			deadline = now_s() + 10;
		}
		usleep(20000);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
		return 1;	/* its FAIL line is printed */
	if (killed)
		printf("rung3check: %s FAIL watchdog: process killed after %u s\n", t->name,
		       opt.timeout + 30);
	else if (WIFSIGNALED(st))
		printf("rung3check: %s FAIL process killed by signal %d\n", t->name, WTERMSIG(st));
	else
		printf("rung3check: %s FAIL process exit %d\n", t->name, WEXITSTATUS(st));
	return 1;
}

/* --- selftest and options -------------------------------------------------------------------- */

static void sha_of(const void *p, size_t n, size_t chunk, char hex[65])
{
	struct sha256 s;
	const uint8_t *b = p;
	sha_init(&s);
	while (n) {
		size_t k = n < chunk ? n : chunk;
		sha_update(&s, b, k);
		b += k;
		n -= k;
	}
	sha_hex(&s, hex);
}

static int selftest(void)
{
	static const struct {
		const char *msg;
		const char *hex;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
		  "klmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	static const size_t chunks[] = { 1, 3, 63, 64, 65, 1 << 20 };
	char hex[65];
	int bad = 0;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			sha_of(v[i].msg, strlen(v[i].msg), chunks[c], hex);
			if (strcmp(hex, v[i].hex)) {
				printf("rung3check: selftest FAIL sha256 vector %zu chunk %zu: %s\n", i,
				       chunks[c], hex);
				bad++;
			}
		}
	char *m = malloc(1000000);
	if (!m)
		return 1;
	memset(m, 'a', 1000000);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		sha_of(m, 1000000, chunks[c], hex);
		if (strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")) {
			printf("rung3check: selftest FAIL sha256 of a million 'a' chunk %zu: %s\n",
			       chunks[c], hex);
			bad++;
		}
	}
	free(m);
	printf("rung3check: selftest %s (sha256: %zu vectors, %zu chunkings)\n", bad ? "FAIL" : "ok",
	       sizeof(v) / sizeof(v[0]) + 1, sizeof(chunks) / sizeof(chunks[0]));
	return bad ? 1 : 0;
}

static int sha_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t buf[65536];
	struct sha256 s;
	char hex[65];
	size_t n;
	if (!f) {
		perror(path);
		return 1;
	}
	sha_init(&s);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha_update(&s, buf, n);
	int err = ferror(f);
	fclose(f);
	if (err)
		return 1;
	sha_hex(&s, hex);
	printf("%s  %s\n", hex, path);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rung3check [--only TEST] [--max-mib N (256)] [--timeout S (300)] [--no-fork]\n"
		"       rung3check --list | --cpu-only [...] | --selftest | --sha256 FILE | --ptx\n");
}

int main(int argc, char **argv)
{
	int list = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--list")) {
			list = 1;
		} else if (!strcmp(a, "--selftest")) {
			return selftest();
		} else if (!strcmp(a, "--ptx")) {
			fputs(ptx_src, stdout);
			return 0;
		} else if (!strcmp(a, "--cpu-only")) {
			opt.cpu_only = 1;
		} else if (!strcmp(a, "--no-fork")) {
			opt.no_fork = 1;
		} else if (!strcmp(a, "--sha256") && val) {
			return sha_file(val);
		} else if (!strcmp(a, "--only") && val) {
			opt.only = val;
			i++;
		} else if ((!strcmp(a, "--max-mib") || !strcmp(a, "--timeout")) && val) {
			char *end;
			long x = strtol(val, &end, 0);
			if (*end || x <= 0 || x > 65536) {
				fprintf(stderr, "rung3check: bad value for %s: %s\n", a, val);
				return 2;
			}
			if (!strcmp(a, "--max-mib"))
				opt.max_bytes = (size_t)x << 20;
			else
				opt.timeout = (unsigned int)x;
			i++;
		} else {
			usage();
			return 2;
		}
	}
	if (list) {
		for (int i = 0; i < NTESTS; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	int sel = -1;
	if (opt.only) {
		for (int i = 0; i < NTESTS; i++)
			if (!strcmp(opt.only, tests[i].name))
				sel = i;
		if (sel < 0) {
			fprintf(stderr, "rung3check: no test %s (--list)\n", opt.only);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	n_left = 1;
	if (sel < 0)
		for (int i = n_left = 0; i < NTESTS; i++)
			n_left += !tests[i].opt_in;
	if (!opt.cpu_only)
		printf("rung3check: note options: max-mib %zu, timeout %u s%s\n", opt.max_bytes >> 20,
		       opt.timeout, opt.no_fork ? ", no-fork" : "");
	for (int i = 0; i < NTESTS; i++) {
		if ((sel >= 0 && i != sel) || (sel < 0 && tests[i].opt_in))
			continue;
		n_tests++;
		n_left--;
		int bad = opt.cpu_only || opt.no_fork ? run_test(&tests[i], n_tests == 1)
						      : run_forked(&tests[i], n_tests == 1);
		if (bad)
			n_failed++;
		else
			n_ok++;
	}
	summary();
	return n_failed || !n_tests ? 1 : 0;
}
