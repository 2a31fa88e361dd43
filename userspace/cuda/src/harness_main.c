/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * perf-harness: one measurement run of the open-iov-perf/1 metrics on the
 * CUDA driver API. perf.sh runs it `runs` times and aggregates.
 *
 * Output (stdout), one fact a line:
 *   device NAME / cc MAJ.MIN / sms N / driver_api_version N
 *   metric NAME VALUE            (ms, GB/s, GFLOP/s, kernels/s or cycles)
 *   check WHAT checks=N bad=M    (every kernel output / copied byte)
 *   skipped NAME REASON          (a metric not measured: --skip-kernels)
 *   info WHAT k=v ...            (context: k_fma's grid, its launch gaps)
 *   verify checks=N bad=M        (totals)
 *   status OK|FAIL
 * --mark-file PATH gets "vgsp-perf-mark phase NAME begin|end" around each
 * measurement (harness_mark). --fma-gap-ms N idles the GPU N ms before each
 * timed k_fma launch (the kernel alone is still what the events time).
 * Exit: 0 all verified, 1 some result wrong, 2 usage, 3 CUDA/host failure.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "kernels_ptx.h"
#include "stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void sleep_ms(unsigned int ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void harness_mark(const struct harness *h, const char *phase, const char *what)
{
	char line[128];
	int n;

	if (h->cfg.mark_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "vgsp-perf-mark phase %s %s\n", phase, what);
	/* A lost mark only loses a phase cut, never a result: warn, go on. */
	if (n > 0 && write(h->cfg.mark_fd, line, (size_t)n) != n)
		fprintf(stderr, "warning: a phase mark was not written: %s\n",
			strerror(errno));
}

/*
 * The earliest moment user code can stamp: constructors run after the
 * dynamic loader but before main. init_ms counts from here, so it covers
 * loading libcuda and cuInit, which is what a CUDA program pays at start.
 */
static double process_start_ms;
__attribute__((constructor(101))) static void stamp_process_start(void)
{
	process_start_ms = now_ms();
}

void harness_cuda_fail(struct harness *h, const char *call, CUresult r,
		       const char *file, int line)
{
	fprintf(stderr, "error: cu%s failed: %s (%d) at %s:%d\n", call,
		cu_api_errname(&h->cu, r), r, file, line);
	printf("status FAIL\n");
	fflush(stdout);
	exit(3);
}

void *harness_xmalloc(size_t bytes)
{
	void *p = malloc(bytes);

	if (!p) {
		fprintf(stderr, "error: out of host memory (%zu bytes)\n", bytes);
		exit(3);
	}
	return p;
}

void emit_metric(const char *name, double value)
{
	printf("metric %s %.6f\n", name, value);
}

void emit_skipped(const char *name, const char *reason)
{
	printf("skipped %s %s\n", name, reason);
}

void emit_check(struct harness *h, const char *what,
		unsigned long long checks, unsigned long long bad)
{
	h->checks += checks;
	h->bad += bad;
	printf("check %s checks=%llu bad=%llu\n", what, checks, bad);
	if (bad)
		fprintf(stderr, "error: %s: %llu of %llu results wrong\n", what,
			bad, checks);
}

void emit_p50_p95(const char *base, const double *v, unsigned int n)
{
	struct stats s;
	char name[96];

	if (stats_compute(v, n, &s) != 0) {
		fprintf(stderr, "error: no valid samples for %s\n", base);
		exit(3);
	}
	snprintf(name, sizeof(name), "%s_p50", base);
	emit_metric(name, s.p50);
	snprintf(name, sizeof(name), "%s_p95", base);
	emit_metric(name, s.p95);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: perf-harness [--n-warm N] [--n-malloc N] [--n-thru N]\n"
		"                    [--sizes B,B,...] [--device ORDINAL]\n"
		"                    [--fma-trips N] [--fma-reps N]\n"
		"                    [--clock-iters N] [--clock-reps N]\n"
		"                    [--fma-blocks N] [--fma-gap-ms N]\n"
		"                    [--mark-file PATH] [--skip-kernels]\n");
	exit(2);
}

static unsigned long parse_ulong(const char *opt, const char *s,
				 unsigned long min, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "error: %s wants an integer in [%lu, %lu], got '%s'\n",
			opt, min, max, s);
		exit(2);
	}
	return v;
}

static void parse_sizes(struct harness_cfg *c, const char *s)
{
	char buf[512], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf)) {
		fprintf(stderr, "error: --sizes too long\n");
		exit(2);
	}
	strcpy(buf, s);
	c->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (c->nsizes == HARNESS_MAX_SIZES) {
			fprintf(stderr, "error: at most %d sizes\n", HARNESS_MAX_SIZES);
			exit(2);
		}
		/* 1 GiB cap: two pinned buffers of each size are allocated. */
		c->sizes[c->nsizes++] = parse_ulong("--sizes", tok, 1, 1UL << 30);
	}
	if (!c->nsizes)
		usage();
}

/* Appends, so several runs share one file; a device (the console) too. */
static void open_marks(struct harness_cfg *c, const char *path)
{
	if (c->mark_fd >= 0)
		close(c->mark_fd);
	c->mark_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (c->mark_fd < 0) {
		fprintf(stderr, "error: --mark-file %s: %s\n", path, strerror(errno));
		exit(2);
	}
}

static void parse_args(struct harness_cfg *c, int argc, char **argv)
{
	int i;

	/* Defaults are the run_cfg of the results template. */
	c->n_warm = 100;
	c->n_malloc = 50;
	c->n_thru = 100;
	parse_sizes(c, "4096,262144,4194304,16777216");
	c->ordinal = 0;
	c->fma_trips = 8192;
	c->fma_reps = 5;
	c->clock_iters = 4096;
	c->clock_reps = 11;
	c->fma_blocks = 0;
	c->fma_gap_ms = 0;
	c->mark_fd = -1;
	c->skip_kernels = 0;
	for (i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--skip-kernels")) {
			c->skip_kernels = 1;
			continue;
		}
		if (!v)
			usage();
		if (!strcmp(o, "--n-warm"))
			c->n_warm = parse_ulong(o, v, 1, 1000000);
		else if (!strcmp(o, "--n-malloc"))
			c->n_malloc = parse_ulong(o, v, 1, 100000);
		else if (!strcmp(o, "--n-thru"))
			c->n_thru = parse_ulong(o, v, 1, 10000000);
		else if (!strcmp(o, "--sizes"))
			parse_sizes(c, v);
		else if (!strcmp(o, "--device"))
			c->ordinal = (int)parse_ulong(o, v, 0, 1023);
		else if (!strcmp(o, "--fma-trips"))
			c->fma_trips = parse_ulong(o, v, 1, 65536); /* keeps sums < 2^24 */
		else if (!strcmp(o, "--fma-reps"))
			c->fma_reps = parse_ulong(o, v, 1, 1000);
		else if (!strcmp(o, "--clock-iters"))
			c->clock_iters = parse_ulong(o, v, 1, 100000000);
		else if (!strcmp(o, "--clock-reps"))
			c->clock_reps = parse_ulong(o, v, 1, 1000);
		else if (!strcmp(o, "--fma-blocks"))
			c->fma_blocks = parse_ulong(o, v, 1, 65535);
		else if (!strcmp(o, "--fma-gap-ms"))
			c->fma_gap_ms = parse_ulong(o, v, 0, 10000);
		else if (!strcmp(o, "--mark-file"))
			open_marks(c, v);
		else
			usage();
		i++;
	}
}

static void load_module(struct harness *h)
{
	char log[4096] = "";
	CUjit_option opts[2] = { CU_JIT_ERROR_LOG_BUFFER,
				 CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[2] = { log, (void *)(size_t)sizeof(log) };
	CUresult r = h->cu.ModuleLoadDataEx(&h->mod, perf_kernels_ptx, 2, opts, vals);

	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "error: JIT log: %s\n", log);
		harness_cuda_fail(h, "ModuleLoadDataEx", r, __FILE__, __LINE__);
	}
	CK(h, ModuleGetFunction(&h->k_empty, h->mod, "k_empty"));
	CK(h, ModuleGetFunction(&h->k_tick, h->mod, "k_tick"));
	CK(h, ModuleGetFunction(&h->k_fma, h->mod, "k_fma"));
	CK(h, ModuleGetFunction(&h->k_clock, h->mod, "k_clock"));
}

static void print_cfg(const struct harness_cfg *c)
{
	unsigned int i;

	printf("run_cfg n_warm=%u n_malloc=%u n_thru=%u sizes=", c->n_warm,
	       c->n_malloc, c->n_thru);
	for (i = 0; i < c->nsizes; i++)
		printf("%s%zu", i ? "," : "", c->sizes[i]);
	printf("\n");
}

/* One measurement between its phase marks. */
#define PHASE(h, name, call)                      \
	do {                                      \
		harness_mark((h), (name), "begin"); \
		call;                             \
		harness_mark((h), (name), "end");   \
	} while (0)

int main(int argc, char **argv)
{
	static struct harness h;
	char name[256];
	int ndev = 0, ver = 0, ccmaj = 0, ccmin = 0;
	double t0, t1;
	CUdeviceptr first_alloc;

	parse_args(&h.cfg, argc, argv);
	printf("open-iov-perf-run 1\n");
	print_cfg(&h.cfg);
	if (cu_api_load(&h.cu) != 0) {
		printf("status FAIL\n");
		return 3;
	}
	t0 = now_ms();
	CK(&h, Init(0));
	t1 = now_ms();
	emit_metric("init_ms", t1 - process_start_ms);
	emit_metric("init_cuinit_ms", t1 - t0);

	CK(&h, DriverGetVersion(&ver));
	CK(&h, DeviceGetCount(&ndev));
	if (h.cfg.ordinal >= ndev) {
		fprintf(stderr, "error: device %d requested, %d present\n",
			h.cfg.ordinal, ndev);
		printf("status FAIL\n");
		return 3;
	}
	CK(&h, DeviceGet(&h.dev, h.cfg.ordinal));
	CK(&h, DeviceGetName(name, (int)sizeof(name), h.dev));
	CK(&h, DeviceGetAttribute(&h.sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, h.dev));
	CK(&h, DeviceGetAttribute(&h.threads_per_sm,
				  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, h.dev));
	CK(&h, DeviceGetAttribute(&ccmaj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, h.dev));
	CK(&h, DeviceGetAttribute(&ccmin, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, h.dev));
	printf("device %s\ncc %d.%d\nsms %d\nthreads_per_sm %d\ndriver_api_version %d\n",
	       name, ccmaj, ccmin, h.sms, h.threads_per_sm, ver);

	/* The primary context is what CUDA runtime programs get. */
	t0 = now_ms();
	CK(&h, DevicePrimaryCtxRetain(&h.ctx, h.dev));
	CK(&h, CtxSetCurrent(h.ctx));
	emit_metric("ctx_create_ms", now_ms() - t0);
	CK(&h, StreamCreate(&h.stream, CU_STREAM_NON_BLOCKING));

	bench_malloc_first(&h, &first_alloc);

	t0 = now_ms();
	load_module(&h);
	emit_metric("module_load_ms", now_ms() - t0);

	if (h.cfg.skip_kernels) {
		/* Same order as below with the kernel phases left out. */
		static const char *const k[] = {
			"launch_first_ms", "launch_warm_p50", "launch_warm_p95",
			"launch_warm_event_p50", "launch_warm_event_p95",
			"throughput_kps", "kernel_fma_ms", "kernel_fma_gflops",
			"clock64_median",
		};
		unsigned int i;

		for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			emit_skipped(k[i], "--skip-kernels");
		PHASE(&h, "malloc", bench_malloc(&h));
		PHASE(&h, "copy", bench_copy(&h));
	} else {
		PHASE(&h, "launch", bench_launch(&h));
		PHASE(&h, "malloc", bench_malloc(&h));
		PHASE(&h, "throughput", bench_throughput(&h));
		PHASE(&h, "kernel_fma", bench_fma(&h));
		PHASE(&h, "copy", bench_copy(&h));
		PHASE(&h, "clock64", bench_clock64(&h));
	}

	CK(&h, MemFree(first_alloc));
	CK(&h, ModuleUnload(h.mod));
	CK(&h, StreamDestroy(h.stream));
	CK(&h, DevicePrimaryCtxRelease(h.dev));

	printf("verify checks=%llu bad=%llu\n", h.checks, h.bad);
	printf("status %s\n", h.bad ? "FAIL" : "OK");
	return h.bad ? 1 : 0;
}
