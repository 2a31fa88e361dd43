/* SPDX-License-Identifier: MIT */
/*
 * hostd_main.c - vgsp-hostd: bring up a channel on the physical GPU through
 * the RM ioctls, verify a 16 MiB copy-engine copy and a compute launch from
 * a QMD written here, exercise the backend seam, and measure copy bandwidth
 * and launch latency/throughput.
 *
 *   vgsp-hostd run --cubin build/kern.cubin [--mode auto|tsg|simple] [--multi-ce]
 *   vgsp-hostd fwd-test --cubin build/kern.cubin
 *
 * fwd-test plays the guest against hostd_fwd.h: an anonymous buffer is
 * the guest's memory, pieces of it are mirrored at guest-like VAs, and
 * QMDs written into it run on a forwarding channel (see fwd_test()).
 *
 * --multi-ce adds a 16 MiB copy split over several async copy engines
 * (extra channel groups); it was written after the last GPU run and has
 * not run on a GPU yet.
 *
 * Output: "PASS <what>" / "FAIL <what>" lines and "METRIC hostd <name>
 * <value>" lines; exit status 0 only if every check passed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <sys/mman.h>

#include "cubin.h"
#include "hostd.h"
#include "hostd_backend.h"
#include "hostd_fwd.h"
#include "nvrm_abi.h"
#include "pb.h"
#include "qmd.h"

#define MiB (1024u * 1024u)
#define COPY_BYTES (16u * MiB)
#define QMD_SLOTS 4096u
#define QMD_STRIDE 512u             /* fits V03 (256) and V04 (384), 256-aligned */
#define CB0_SLOT (64u * 1024u)        /* see qmd.c: cb0 size claimed = 64 KiB */
#define SHARED_WINDOW 0x729400000000ull
#define LOCAL_WINDOW 0x729300000000ull
#define TIMEOUT_NS 5000000000ull
/* shader local memory: every CTA gets a per-thread stack area; 0x240 bytes
 * per thread is the floor nvcc's code assumes (as in other RM-level
 * launchers); sized for 64 warps/SM, 2 SMs/TPC and up to 72 TPCs */
#define SLM_PER_THREAD 0x240u
#define SLM_PER_TPC 0x240000ull
#define SLM_TPCS 72u
#define SHARED_RESERVED 0x400u  /* shared memory the system reserves per CTA */

static int failures;

static void result(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void result(int ok, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%s ", ok ? "PASS" : "FAIL");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	if (!ok)
		failures++;
}

struct ctx {
	struct hd_dev d;
	struct hd_mem sem, src, dst, qmd, code, cb0, out, slm, qmd_sys;
	unsigned variant;   /* launch signalling that works (pb_compute_launch_v) */
	unsigned qmdver;    /* QMD layout that works: 3 or 4 */
	struct cubin_kernel kfill, knop;
	uint32_t seq;       /* payload of the next semaphore release */
	uint32_t qslot;
};

static volatile uint32_t *semw(struct ctx *c, unsigned i)
{
	return (volatile uint32_t *)c->sem.cpu + i;
}

static void diag(struct ctx *c, const char *what)
{
	volatile uint32_t *n = c->d.notif.cpu;
	printf("diag %s: GP_GET %u GP_PUT %u sem0 %u notifier %08x %08x %08x %08x last_rm_status 0x%x\n",
	       what, hd_gp_get(&c->d), c->d.gp_put, *semw(c, 0), n[0], n[1], n[2], n[3],
	       c->d.last_status);
}

static int submit_pb(struct ctx *c, struct pb *p)
{
	if (p->overflow)
		return -1;
	return hd_submit(&c->d, p->buf, p->len);
}

/* one-word semaphore at word 0 of the sem page, released by the host
 * after wait-for-idle */
static int fence(struct ctx *c, uint64_t timeout)
{
	uint32_t buf[8];
	struct pb p;
	pb_init(&p, buf, 8);
	uint32_t v = ++c->seq;
	pb_host_sem_release(&p, c->sem.va, v);
	if (submit_pb(c, &p))
		return -1;
	return hd_wait32(semw(c, 0), v, timeout);
}

static uint64_t pattern(uint64_t i)
{
	uint64_t x = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
	return x ^ (x >> 29);
}

static int load_kernel(struct ctx *c, const void *img, size_t n, const char *name,
		       struct cubin_kernel *k, uint32_t code_off)
{
	if (cubin_find_kernel(img, n, name, k) || k->has_relocs || code_off + k->code_bytes + 4096 > c->code.size) {
		printf("kernel %s: not loadable (missing, relocations or too large)\n", name);
		return -1;
	}
	memcpy((uint8_t *)c->code.cpu + code_off, k->code, k->code_bytes);
	printf("kernel %s: %u bytes of code, %u registers, cb0 %u bytes, params at 0x%x (%u bytes), shared %u\n",
	       name, k->code_bytes, k->regs, k->cb0_bytes, k->param_offset, k->param_bytes,
	       k->shared_bytes);
	return 0;
}

/* constant bank 0 for sm_90: driver words (shared/local windows, initial
 * stack pointer) then the parameters at the cubin's param offset */
static void fill_cb0_at(uint32_t *cb, const struct cubin_kernel *k,
			const void *params, uint32_t nparams, uint32_t grid, uint32_t block)
{
	memset(cb, 0, 0x400);
	/* ntid.xyz at 0x0, nctaid.xyz at 0xc (read by the code as c[0x0][...]) */
	cb[0] = block; cb[1] = 1; cb[2] = 1;
	cb[3] = grid; cb[4] = 1; cb[5] = 1;
	cb[6] = (uint32_t)SHARED_WINDOW;
	cb[7] = (uint32_t)(SHARED_WINDOW >> 32);
	cb[8] = (uint32_t)LOCAL_WINDOW;
	cb[9] = (uint32_t)(LOCAL_WINDOW >> 32);
	cb[10] = 0xfffdc0;
	uint32_t off = k->param_offset ? k->param_offset : 0x210;
	memcpy((uint8_t *)cb + off, params, nparams);
}

static void fill_cb0(struct ctx *c, unsigned slot, const struct cubin_kernel *k,
		     const void *params, uint32_t nparams, uint32_t grid, uint32_t block)
{
	fill_cb0_at((uint32_t *)((uint8_t *)c->cb0.cpu + (size_t)slot * CB0_SLOT), k, params,
		    nparams, grid, block);
}

static int launch(struct ctx *c, const struct cubin_kernel *k, uint32_t code_off, unsigned cb_slot,
		  uint32_t grid, uint16_t block, uint64_t release_va, uint32_t payload)
{
	struct qmd_launch q = {
		.program_va = c->code.va + code_off, .program_bytes = k->code_bytes,
		.grid = { grid, 1, 1 }, .block = { block, 1, 1 }, .regs = k->regs,
		.shared_bytes = k->shared_bytes + SHARED_RESERVED,
		.cb0_va = c->cb0.va + (uint64_t)cb_slot * CB0_SLOT,
		.cb0_bytes = CB0_SLOT, .release_va = release_va, .release_payload = payload,
		.sass_version = 0x90, .local_bytes = SLM_PER_THREAD,
	};
	uint32_t qw[QMD_V04_DWORDS];
	memset(qw, 0, sizeof(qw));
	if (c->qmdver == 4 ? qmd_v04_encode(qw, &q) : qmd_v03_encode(qw, &q))
		return -1;
	uint32_t slot = c->qslot++ % QMD_SLOTS;
	memcpy((uint8_t *)c->qmd.cpu + (size_t)slot * QMD_STRIDE, qw, QMD_V04_BYTES);
	uint32_t buf[8];
	struct pb p;
	pb_init(&p, buf, 8);
	pb_compute_launch_v(&p, c->qmd.va + (uint64_t)slot * QMD_STRIDE, c->variant);
	return submit_pb(c, &p);
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

/* ---- checks ------------------------------------------------------------- */

static int check_channel(struct ctx *c)
{
	uint32_t buf[32];
	struct pb p;
	pb_init(&p, buf, 32);
	pb_set_object(&p, PB_SUBCH_COMPUTE, HOPPER_COMPUTE_A);
	pb_set_object(&p, PB_SUBCH_COPY, HOPPER_DMA_COPY_A);
	pb_compute_windows(&p, SHARED_WINDOW, LOCAL_WINDOW);
	pb_compute_local_memory(&p, c->slm.va, SLM_PER_TPC);
	uint32_t v = ++c->seq;
	pb_host_sem_release(&p, c->sem.va, v);
	int ok = !submit_pb(c, &p) && !hd_wait32(semw(c, 0), v, TIMEOUT_NS);
	result(ok, "channel executes a pushbuffer (host semaphore release, GP_GET=%u)", hd_gp_get(&c->d));
	if (!ok)
		diag(c, "channel");
	return ok ? 0 : -1;
}

static int check_copy(struct ctx *c)
{
	uint64_t *s = c->src.cpu, *d = c->dst.cpu;
	for (uint64_t i = 0; i < COPY_BYTES / 8; i++) {
		s[i] = pattern(i);
		d[i] = 0;
	}
	uint32_t buf[32];
	struct pb p;
	pb_init(&p, buf, 32);
	uint32_t v = ++c->seq;
	uint64_t t0 = hd_now_ns();
	pb_ce_copy(&p, c->src.va, c->dst.va, COPY_BYTES, c->sem.va + 4, v);
	if (submit_pb(c, &p) || hd_wait32(semw(c, 1), v, TIMEOUT_NS)) {
		result(0, "ce-copy: semaphore not released");
		diag(c, "ce-copy");
		return -1;
	}
	uint64_t t1 = hd_now_ns();
	uint64_t bad = 0, first = ~0ull;
	for (uint64_t i = 0; i < COPY_BYTES / 8; i++)
		if (d[i] != pattern(i)) {
			if (first == ~0ull)
				first = i * 8;
			bad++;
		}
	if (bad)
		printf("ce-copy: %llu mismatching 8-byte words, first at byte %llu\n",
		       (unsigned long long)bad, (unsigned long long)first);
	result(!bad, "ce-copy %u bytes vidmem->vidmem, every byte verified (semaphore payload %u, %.1f us)",
	       COPY_BYTES, v, (t1 - t0) / 1e3);
	return bad ? -1 : 0;
}

static int check_compute(struct ctx *c)
{
	const uint32_t n = 1u << 20, mul = 3, add = 0x1234;
	static const char *names[] = { "PCAS2_B INVALIDATE_COPY_SCHEDULE", "PCAS2_B PREFETCH_SCHEDULE",
				       "PCAS_B INVALIDATE|SCHEDULE" };
	uint32_t *o = c->out.cpu;
	struct { uint64_t out; uint32_t n, mul, add; } __attribute__((packed)) prm = { c->out.va, n, mul, add };
	fill_cb0(c, 0, &c->kfill, &prm, sizeof(prm), n / 256, 256);
	/* the launch signalling is the least documented step: try each
	 * encoding the class offers until one launches, report all tried */
	for (unsigned t = 0; t < 6; t++) {
		c->qmdver = t < 3 ? 4 : 3;
		c->variant = t % 3;
		memset(o, 0xff, (size_t)n * 4);
		*semw(c, 2) = 0;
		uint32_t v = ++c->seq;
		int sub = launch(c, &c->kfill, 0, 0, n / 256, 256, c->sem.va + 8, v);
		int rel = !sub && !hd_wait32(semw(c, 2), v, 1000000000ull);
		int chan = !sub && !fence(c, 1000000000ull);
		uint64_t bad = 0;
		for (uint32_t i = 0; i < n; i++)
			if (o[i] != i * mul + add)
				bad++;
		printf("compute QMD V0%u_00 variant %u (%s): submit %s, QMD release %s, channel fence %s, %llu of %u outputs wrong (out[0]=0x%x out[%u]=0x%x)\n",
		       c->qmdver, c->variant, names[c->variant], sub ? "failed" : "ok", rel ? "written" : "missing",
		       chan ? "passed" : "stuck", (unsigned long long)bad, n, o[0], n - 1, o[n - 1]);
		if (rel && !bad) {
			result(1, "compute launch from a hostd-written QMD (vgsp_fill, %u threads, QMD V0%u_00, %s), every output verified",
			       n, c->qmdver, names[c->variant]);
			return 0;
		}
		if (!chan) {
			diag(c, "compute");
			break;
		}
	}
	c->variant = 0;
	c->qmdver = 4;
	result(0, "compute launch from a hostd-written QMD: no launch encoding produced verified output");
	return -1;
}

/* the backend seam on the real GPU: a second instance through the ops */
static unsigned be_done;
static int be_status;
static void be_complete(void *ctx, const struct vgsp_be_completion *cpl)
{
	(void)ctx;
	be_done++;
	if (cpl->status)
		be_status = cpl->status;
}

static void check_backend(struct ctx *c)
{
	const struct vgsp_backend_ops *ops = &vgsp_hostd_backend_ops;
	struct vgsp_be_config cfg = { VGSP_BACKEND_ABI, be_complete, NULL, "/dev/nvidia0", 0 };
	hostd_be_launch_variant = c->variant;
	hostd_be_qmd_version = c->qmdver;
	struct vgsp_backend *b;
	int r = ops->open(&cfg, &b);
	if (r) {
		result(0, "backend hostd open: %s", vgsp_be_strerror(r));
		return;
	}
	struct hd_mem a, bb, s, code, cb;
	if (hostd_be_alloc(b, &a, MiB, HD_MEM_VID | HD_MEM_CPU) ||
	    hostd_be_alloc(b, &bb, MiB, HD_MEM_VID | HD_MEM_CPU) ||
	    hostd_be_alloc(b, &s, 4096, HD_MEM_SYS | HD_MEM_CPU) ||
	    hostd_be_alloc(b, &code, 64 * 1024, HD_MEM_VID | HD_MEM_CPU) ||
	    hostd_be_alloc(b, &cb, CB0_SLOT, HD_MEM_VID | HD_MEM_CPU)) {
		result(0, "backend hostd: instance memory allocation");
		ops->close(b);
		return;
	}
	for (unsigned i = 0; i < MiB / 4; i++)
		((uint32_t *)a.cpu)[i] = i ^ 0xa5a5a5a5u;
	memset(s.cpu, 0, 4096);
	struct vgsp_ce_work w = { .kind = VGSP_CE_COPY };
	w.u.copy = (struct vgsp_ce_copy){ a.va, bb.va, MiB, s.va, 7, 0 };
	be_done = 0;
	be_status = 0;
	r = ops->submit_ce(b, &w, 1);
	if (!r)
		ops->poll(b, 8, TIMEOUT_NS);
	int ok = !r && be_done == 1 && !be_status && !memcmp(a.cpu, bb.cpu, MiB) &&
		 ((volatile uint32_t *)s.cpu)[0] == 7;
	result(ok, "backend hostd submit_ce: 1 MiB copy + semaphore, completion delivered once (%s)",
	       vgsp_be_strerror(r));
	/* an address outside the instance must be refused before the GPU */
	w.u.copy = (struct vgsp_ce_copy){ c->src.va, bb.va, 4096, 0, 0, 0 };
	r = ops->submit_ce(b, &w, 2);
	result(r == VGSP_BE_EFAULT, "backend hostd refuses a copy from memory outside the instance (%s)",
	       vgsp_be_strerror(r));

	memcpy(code.cpu, c->kfill.code, c->kfill.code_bytes);
	struct { uint64_t out; uint32_t n, mul, add; } __attribute__((packed)) prm = { bb.va, MiB / 4, 5, 9 };
	uint32_t *cbw = cb.cpu;
	memset(cbw, 0, 0x400);
	cbw[0] = 256; cbw[1] = 1; cbw[2] = 1; cbw[3] = MiB / 4 / 256; cbw[4] = 1; cbw[5] = 1;
	cbw[6] = (uint32_t)SHARED_WINDOW; cbw[7] = (uint32_t)(SHARED_WINDOW >> 32);
	cbw[8] = (uint32_t)LOCAL_WINDOW; cbw[9] = (uint32_t)(LOCAL_WINDOW >> 32);
	cbw[10] = 0xfffdc0;
	memcpy((uint8_t *)cbw + (c->kfill.param_offset ? c->kfill.param_offset : 0x210), &prm, sizeof(prm));
	struct vgsp_gr_launch l = {
		.program_va = code.va, .program_bytes = c->kfill.code_bytes, .regs = c->kfill.regs,
		.grid = { MiB / 4 / 256, 1, 1 }, .block = { 256, 1, 1 }, .shared_bytes = c->kfill.shared_bytes,
		.cb0_va = cb.va, .cb0_bytes = CB0_SLOT, .sem_payload = 11, .sem_va = s.va + 16,
	};
	be_done = 0;
	be_status = 0;
	r = ops->submit_gr(b, &l, 3);
	if (!r)
		ops->poll(b, 8, TIMEOUT_NS);
	uint64_t bad = 0;
	for (unsigned i = 0; i < MiB / 4; i++)
		if (((uint32_t *)bb.cpu)[i] != i * 5 + 9)
			bad++;
	result(!r && be_done == 1 && !be_status && !bad && ((volatile uint32_t *)s.cpu)[4] == 11,
	       "backend hostd submit_gr: launch descriptor -> QMD, %u outputs verified (%s, %llu wrong)",
	       MiB / 4, vgsp_be_strerror(r), (unsigned long long)bad);
	ops->close(b);
}

/* ---- measurements -------------------------------------------------------- */

/* copies on an async copy engine (its own channel group, its own client):
 * the graphics-partnered copy engine the main channel uses is a single
 * engine; the async LCEs are what a copy-heavy tenant would be given */
static void bench_async_ce(void)
{
	static struct hd_dev e;
	struct hd_mem s, a, b;
	unsigned idx;
	for (idx = 0; idx <= 9; idx++) {
		if (!hd_open_ce(&e, idx, NULL))
			break;
		hd_close(&e);
	}
	if (idx > 9) {
		printf("note: no async copy engine channel could be created (last RM status 0x%x)\n",
		       e.last_status);
		return;
	}
	if (hd_alloc(&e, &s, 4096, HD_MEM_SYS | HD_MEM_CPU) || hd_alloc(&e, &a, COPY_BYTES, HD_MEM_VID) ||
	    hd_alloc(&e, &b, COPY_BYTES, HD_MEM_VID)) {
		result(0, "async CE: allocation");
		hd_close(&e);
		return;
	}
	volatile uint32_t *sw = s.cpu;
	sw[0] = 0;
	uint32_t seq = 0, buf[32];
	struct pb p;
	pb_init(&p, buf, 32);
	pb_set_object(&p, PB_SUBCH_COPY, HOPPER_DMA_COPY_A);
	pb_ce_sem_release(&p, s.va, ++seq);
	if (hd_submit(&e, buf, p.len) || hd_wait32(sw, seq, TIMEOUT_NS)) {
		result(0, "async CE channel (COPY%u) executes", idx);
		hd_close(&e);
		return;
	}
	printf("async CE: channel on COPY%u (token 0x%x)\n", idx, e.token);
	static const uint32_t sizes[2] = { 4096, COPY_BYTES };
	static const char *tags[2] = { "4KiB", "16MiB" };
	for (unsigned k = 0; k < 2; k++) {
		unsigned iters = k ? 200 : 2000;
		uint64_t *t = calloc(iters, sizeof(*t));
		for (unsigned i = 0; i < iters + 5; i++) {
			pb_init(&p, buf, 32);
			uint32_t v = ++seq;
			uint64_t t0 = hd_now_ns();
			pb_ce_copy(&p, a.va, b.va, sizes[k], s.va, v);
			if (hd_submit(&e, buf, p.len) || hd_wait32(sw, v, TIMEOUT_NS)) {
				result(0, "async CE copy %s timed out", tags[k]);
				free(t);
				hd_close(&e);
				return;
			}
			if (i >= 5)
				t[i - 5] = hd_now_ns() - t0;
		}
		uint64_t p50 = pct(t, iters, 0.5);
		printf("METRIC hostd asyncce_copy_%s_sync_p50_us %.2f\n", tags[k], p50 / 1e3);
		printf("METRIC hostd asyncce_copy_%s_sync_GBps %.2f\n", tags[k], sizes[k] / (double)p50);
		free(t);
	}
	hd_close(&e);
}


static void bench_copy(struct ctx *c, uint32_t bytes, unsigned iters, unsigned stream, const char *tag)
{
	uint64_t *t = calloc(iters, sizeof(*t));
	uint32_t buf[32];
	struct pb p;
	for (unsigned i = 0; i < iters + 5; i++) {
		pb_init(&p, buf, 32);
		uint32_t v = ++c->seq;
		uint64_t t0 = hd_now_ns();
		pb_ce_copy(&p, c->src.va, c->dst.va, bytes, c->sem.va + 4, v);
		if (submit_pb(c, &p) || hd_wait32(semw(c, 1), v, TIMEOUT_NS)) {
			result(0, "bench copy %s timed out", tag);
			free(t);
			return;
		}
		if (i >= 5)
			t[i - 5] = hd_now_ns() - t0;
	}
	uint64_t p50 = pct(t, iters, 0.50), p95 = pct(t, iters, 0.95);
	printf("METRIC hostd copy_%s_sync_p50_us %.2f\n", tag, p50 / 1e3);
	printf("METRIC hostd copy_%s_sync_p95_us %.2f\n", tag, p95 / 1e3);
	printf("METRIC hostd copy_%s_sync_GBps %.2f\n", tag, bytes / (double)p50);
	/* stream: `stream` copies back to back, one semaphore at the end */
	uint64_t t0 = hd_now_ns();
	for (unsigned i = 0; i < stream; i++) {
		pb_init(&p, buf, 32);
		int last = i + 1 == stream;
		pb_ce_copy(&p, c->src.va, c->dst.va, bytes, last ? c->sem.va + 4 : 0, c->seq + 1);
		if (submit_pb(c, &p)) {
			result(0, "bench copy stream %s submit", tag);
			free(t);
			return;
		}
	}
	uint32_t v = ++c->seq;
	if (hd_wait32(semw(c, 1), v, TIMEOUT_NS * 4)) {
		result(0, "bench copy stream %s timed out", tag);
		free(t);
		return;
	}
	uint64_t dt = hd_now_ns() - t0;
	printf("METRIC hostd copy_%s_stream_GBps %.2f\n", tag, (double)bytes * stream / dt);
	free(t);
}

/* one copy split across k async copy engines (extra channel groups in the
 * same client and VA space), verified once, then timed for k = 1, 2, 4, 8 */
static void bench_multi_ce(struct ctx *c)
{
	static struct hd_chan ch[8];
	unsigned n = 0, idx[8];
	for (unsigned i = 0; i <= 9 && n < 8; i++)
		if (!hd_chan_open_ce(&c->d, &ch[n], i))
			idx[n++] = i;
	if (!n) {
		printf("note: no extra async copy-engine channel (last RM status 0x%x)\n", c->d.last_status);
		return;
	}
	printf("multi-CE: %u channels on COPY", n);
	for (unsigned i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", idx[i]);
	printf("\n");
	uint32_t buf[32];
	struct pb p;
	uint32_t v = ++c->seq;
	for (unsigned i = 0; i < n; i++) {
		pb_init(&p, buf, 32);
		pb_set_object(&p, PB_SUBCH_COPY, HOPPER_DMA_COPY_A);
		pb_ce_sem_release(&p, c->sem.va + 4ull * (8000 + i), v);
		if (hd_chan_submit(&c->d, &ch[i], buf, p.len) || hd_wait32(semw(c, 8000 + i), v, TIMEOUT_NS)) {
			result(0, "multi-CE: channel on COPY%u does not execute", idx[i]);
			n = i;
			break;
		}
	}
	unsigned ks[6], nk = 0;
	for (unsigned k = 1; k <= n; k *= 2)
		ks[nk++] = k;
	if (ks[nk - 1] != n)
		ks[nk++] = n;
	for (unsigned ki = 0; ki < nk; ki++) {
		unsigned k = ks[ki];
		uint32_t chunk = (COPY_BYTES / k) & ~4095u;
		unsigned iters = 50;
		uint64_t *t = calloc(iters + 1, sizeof(*t));
		for (unsigned it = 0; it <= iters; it++) {
			if (it == 0 && k == n && n > 1)
				memset(c->dst.cpu, 0, COPY_BYTES);
			v = ++c->seq;
			uint64_t t0 = hd_now_ns();
			for (unsigned i = 0; i < k; i++) {
				uint32_t len = i + 1 < k ? chunk : COPY_BYTES - (k - 1) * chunk;
				pb_init(&p, buf, 32);
				pb_ce_copy(&p, c->src.va + (uint64_t)i * chunk, c->dst.va + (uint64_t)i * chunk,
					   len, c->sem.va + 4ull * (8000 + i), v);
				hd_chan_submit(&c->d, &ch[i], buf, p.len);
			}
			for (unsigned i = 0; i < k; i++)
				if (hd_wait32(semw(c, 8000 + i), v, TIMEOUT_NS)) {
					result(0, "multi-CE: split copy over %u engines timed out", k);
					free(t);
					goto out;
				}
			t[it] = hd_now_ns() - t0;
			if (it == 0 && k == n && n > 1) {
				const uint64_t *d = c->dst.cpu;
				uint64_t bad = 0;
				for (uint64_t w = 0; w < COPY_BYTES / 8; w++)
					bad += d[w] != pattern(w);
				result(!bad, "16 MiB copy split over %u async copy engines, every byte verified", k);
			}
		}
		uint64_t p50 = pct(t + 1, iters, 0.5);
		printf("METRIC hostd multice%u_copy_16MiB_sync_GBps %.2f\n", k, COPY_BYTES / (double)p50);
		free(t);
	}
out:
	for (unsigned i = 0; i < 8; i++)
		if (ch[i].tsg)
			hd_chan_close(&c->d, &ch[i]);
}

static void bench_launch(struct ctx *c, unsigned iters, unsigned burst)
{
	uint64_t *t = calloc(iters, sizeof(*t));
	uint64_t *ts = calloc(iters, sizeof(*ts));
	fill_cb0(c, 1, &c->knop, NULL, 0, 1, 32);
	uint32_t nop_off = 32 * 1024;
	for (unsigned i = 0; i < iters + 10; i++) {
		uint32_t v = ++c->seq;
		uint64_t t0 = hd_now_ns();
		int sr = launch(c, &c->knop, nop_off, 1, 1, 32, c->sem.va + 8, v);
		uint64_t t1 = hd_now_ns();
		if (sr || hd_wait32(semw(c, 2), v, TIMEOUT_NS)) {
			result(0, "bench launch latency timed out");
			diag(c, "launch");
			free(t);
			return;
		}
		if (i >= 10) {
			t[i - 10] = hd_now_ns() - t0;
			ts[i - 10] = t1 - t0;
		}
	}
	/* CPU side of a launch: QMD encode + BAR1 write, pushbuffer, GPFIFO,
	 * GP_PUT, doorbell (the part a forwarder adds per item) */
	printf("METRIC hostd launch_submit_cpu_p50_us %.2f\n", pct(ts, iters, 0.50) / 1e3);
	free(ts);
	printf("METRIC hostd launch_lat_p50_us %.2f\n", pct(t, iters, 0.50) / 1e3);
	printf("METRIC hostd launch_lat_p95_us %.2f\n", pct(t, iters, 0.95) / 1e3);
	/* where the launch latency goes: (a) completion by a host semaphore
	 * (wait-for-idle) instead of the QMD release; (b) QMD in coherent
	 * system memory instead of FB behind BAR1 */
	for (unsigned vnt = 0; vnt < 2; vnt++) {
		struct hd_mem saved = c->qmd;
		if (vnt == 1) {
			if (!c->qmd_sys.h)
				break;
			c->qmd = c->qmd_sys;
		}
		for (unsigned i = 0; i < iters; i++) {
			uint32_t v = ++c->seq;
			uint64_t t0 = hd_now_ns();
			int r;
			if (vnt == 0) {
				uint32_t buf[8];
				struct pb p;
				r = launch(c, &c->knop, nop_off, 1, 1, 32, 0, 0);
				pb_init(&p, buf, 8);
				pb_host_sem_release(&p, c->sem.va + 8, v);
				r |= submit_pb(c, &p);
			} else {
				r = launch(c, &c->knop, nop_off, 1, 1, 32, c->sem.va + 8, v);
			}
			if (r || hd_wait32(semw(c, 2), v, TIMEOUT_NS)) {
				result(0, "bench launch variant %u timed out", vnt);
				c->qmd = saved;
				free(t);
				return;
			}
			t[i] = hd_now_ns() - t0;
		}
		c->qmd = saved;
		printf("METRIC hostd launch_lat_%s_p50_us %.2f\n", vnt ? "sysmemqmd" : "hostsem",
		       pct(t, iters, 0.50) / 1e3);
	}
	/* throughput: `burst` launches in flight, each with its own QMD and
	 * its own semaphore word (grids may finish out of order) */
	volatile uint32_t *arr = semw(c, 1024);
	for (unsigned i = 0; i < burst; i++)
		arr[i] = 0;
	uint64_t t0 = hd_now_ns();
	for (unsigned i = 0; i < burst; i++)
		if (launch(c, &c->knop, nop_off, 1, 1, 32, c->sem.va + 4096 + 4ull * i, 1)) {
			result(0, "bench launch burst submit");
			free(t);
			return;
		}
	for (unsigned i = 0; i < burst; i++)
		if (hd_wait32(&arr[i], 1, TIMEOUT_NS)) {
			result(0, "bench launch burst: launch %u not complete", i);
			free(t);
			return;
		}
	uint64_t dt = hd_now_ns() - t0;
	printf("METRIC hostd launches_per_s %.0f\n", burst / (dt / 1e9));
	free(t);
}

static void *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *b = sz > 0 ? malloc((size_t)sz) : NULL;
	if (b && fread(b, 1, (size_t)sz, f) != (size_t)sz) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = (size_t)sz;
	return b;
}

static int fwd_test(const char *cubin);
int hostd_attach_main(int argc, char **argv); /* hostd_attach.c */

/*
 * vgsp-hostd ce-info: the physical copy engines RM puts behind each copy
 * engine COPY0..COPY9 (CE_GET_CE_PCE_MASK), one line each; an engine RM
 * does not answer for prints its status. 0 when RM answered for any.
 */
static int ce_info(void)
{
	static struct hd_dev d;
	unsigned int e, answered = 0;

	if (hd_open_base(&d, NULL)) {
		printf("ce-info: the GPU cannot be used: stage '%s', RM status 0x%x\n",
		       d.stage ? d.stage : "open", d.last_status);
		return 1;
	}
	for (e = 0; e <= 9; e++) {
		uint32_t mask = 0;

		if (hd_ce_pce_mask(&d, e, &mask)) {
			printf("COPY%u pce_mask unknown (RM status 0x%x)\n", e, d.last_status);
			continue;
		}
		answered++;
		printf("COPY%u pce_mask 0x%x (%d PCEs)\n", e, mask, __builtin_popcount(mask));
	}
	hd_close(&d);
	return answered ? 0 : 1;
}

/* ---- vgsp-hostd ce-bench ------------------------------------------------ */

#define BENCH_BYTES (16ull << 20)
#define BENCH_REPS 15
#define BENCH_TIMEOUT_NS 2000000000ull

/*
 * GB/s of the median of BENCH_REPS copies of @bytes from @src to @dst:
 * split evenly over the @n channels (submitted together, then waited),
 * each channel's part as @chunks copies back to back (PIPELINED if
 * @pipe), each copy @lines lines; 0 when one failed.
 */
static double fwd_bench_copy(struct hd_dev *d, struct hd_fwd_chan **c, unsigned int n,
			     uint64_t src, uint64_t dst, uint64_t bytes, unsigned int chunks,
			     bool pipe, uint32_t lines)
{
	uint64_t t[BENCH_REPS];
	for (int r = 0; r < BENCH_REPS; r++) {
		uint32_t pay[10];
		uint64_t part = bytes / n, piece = part / chunks, t0 = hd_now_ns();
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int k = 0; k < chunks; k++) {
				uint64_t o = i * part + k * piece;
				struct hd_copy cp = {
					.src = src + o, .dst = dst + o, .line_bytes = piece / lines,
					.pitch_in = piece / lines, .pitch_out = piece / lines,
					.lines = lines, .pipelined = pipe && k > 0,
				};
				if (hd_fwd_copy_submit(d, c[i], &cp, &pay[i]))
					return 0;
			}
		for (unsigned int i = 0; i < n; i++)
			if (hd_fwd_wait(c[i], pay[i], BENCH_TIMEOUT_NS, NULL))
				return 0;
		t[r] = hd_now_ns() - t0;
	}
	qsort(t, BENCH_REPS, sizeof(t[0]), cmp_u64);
	return (double)bytes / (double)t[BENCH_REPS / 2];
}

static void bench_line(struct hd_dev *d, struct hd_fwd_chan **c, unsigned int n, const char *name,
		       const struct hd_mem *sys, const struct hd_mem *vid, const struct hd_mem *vid2,
		       unsigned int chunks, bool pipe, uint32_t lines)
{
	printf("%s chunks %u%s lines %u: htod %.1f dtoh %.1f dtod %.1f GB/s\n", name, chunks,
	       pipe ? " pipelined" : "", lines,
	       fwd_bench_copy(d, c, n, sys->va, vid->va, BENCH_BYTES, chunks, pipe, lines),
	       fwd_bench_copy(d, c, n, vid->va, sys->va, BENCH_BYTES, chunks, pipe, lines),
	       fwd_bench_copy(d, c, n, vid->va, vid2->va, BENCH_BYTES, chunks, pipe, lines));
}

/*
 * vgsp-hostd ce-bench: which copy engines a forwarded copy channel opens
 * on (DENY_PHYSICAL_MODE_CE | DENY_AUTH_LEVEL_PRIV, as the mirror's; and,
 * to learn why not, with its group on GR and/or without those flags), and
 * what 16 MiB host -> GPU, GPU -> host and GPU -> GPU move through hostd's
 * own submit/fence path: one copy, multi-line, in chunks (pipelined or
 * not), and split over two engines with disjoint PCEs (issue #11).
 */
static int ce_bench(void)
{
	static struct hd_dev d;
	static struct hd_fwd_chan ch[10], alt;
	struct hd_vas v;
	struct hd_mem sys, vid, vid2;
	uint32_t mask[10] = { 0 };
	int ok[10] = { 0 }, any = 0;
	char name[64];

	if (hd_open_base(&d, NULL) || hd_vas_create(&d, &v)) {
		printf("ce-bench: the GPU cannot be used: stage '%s', RM status 0x%x\n",
		       d.stage ? d.stage : "open", d.last_status);
		return 1;
	}
	if (hd_vas_alloc(&d, &v, &sys, BENCH_BYTES, HD_MEM_SYS | HD_MEM_CPU) ||
	    hd_vas_alloc(&d, &v, &vid, BENCH_BYTES, HD_MEM_VID) ||
	    hd_vas_alloc(&d, &v, &vid2, BENCH_BYTES, HD_MEM_VID)) {
		printf("ce-bench: no buffers: stage '%s', RM status 0x%x\n",
		       d.stage ? d.stage : "-", d.last_status);
		return 1;
	}
	/* COPY0 before and after the clock a CUDA context asks for (what
	 * vgsp-vfu asks at its first host channel) */
	if (!hd_fwd_ce_open(&d, &v, &ch[0], 0)) {
		struct hd_fwd_chan *one[1] = { &ch[0] };
		bench_line(&d, one, 1, "COPY0 before the perf boost", &sys, &vid, &vid2, 1, false, 1);
		hd_fwd_chan_close(&d, &ch[0]);
	}
	printf("perf boost: %s (RM status 0x%x)\n", hd_perf_boost(&d) ? "refused" : "asked",
	       d.last_status);
	for (unsigned int e = 0; e < 10; e++) {
		if (hd_ce_pce_mask(&d, e, &mask[e]))
			mask[e] = 0;
		d.last_status = 0;
		d.stage = NULL;
		ok[e] = !hd_fwd_ce_open(&d, &v, &ch[e], e);
		if (!ok[e]) {
			printf("COPY%u pce_mask 0x%x: no channel (stage '%s', RM status 0x%x)\n", e,
			       mask[e], d.stage ? d.stage : "-", d.last_status);
			if (!mask[e])
				continue;
			/* why not: the same with the group on GR, without the
			 * DENY flags, and both */
			for (int how = 1; how <= 3; how++) {
				d.last_status = 0;
				int r = hd_fwd_ce_open_how(&d, &v, &alt, e, how & 1, how & 2);
				printf("  COPY%u group on %s, %s: %s (RM status 0x%x)\n", e,
				       how & 1 ? "GR" : "the CE", how & 2 ? "no DENY flags" : "DENY flags",
				       r ? "no channel" : "opens", d.last_status);
				if (!r) {
					struct hd_fwd_chan *one[1] = { &alt };
					snprintf(name, sizeof(name), "  COPY%u (that way)", e);
					bench_line(&d, one, 1, name, &sys, &vid, &vid2, 1, false, 1);
					bench_line(&d, one, 1, name, &sys, &vid, &vid2, 8, true, 1);
					hd_fwd_chan_close(&d, &alt);
				}
			}
			continue;
		}
		any = 1;
		struct hd_fwd_chan *one[1] = { &ch[e] };
		snprintf(name, sizeof(name), "COPY%u pce_mask 0x%x", e, mask[e]);
		bench_line(&d, one, 1, name, &sys, &vid, &vid2, 1, false, 1);
		bench_line(&d, one, 1, name, &sys, &vid, &vid2, 1, false, 4096);
		bench_line(&d, one, 1, name, &sys, &vid, &vid2, 8, false, 1);
		bench_line(&d, one, 1, name, &sys, &vid, &vid2, 8, true, 1);
		bench_line(&d, one, 1, name, &sys, &vid, &vid2, 64, true, 1);
	}
	/* two engines at once, each half the copy: every pair with PCEs apart */
	for (unsigned int a = 0; a < 10; a++)
		for (unsigned int b = a + 1; b < 10; b++) {
			if (!ok[a] || !ok[b] || !mask[a] || (mask[a] & mask[b]))
				continue;
			struct hd_fwd_chan *two[2] = { &ch[a], &ch[b] };
			snprintf(name, sizeof(name), "COPY%u+COPY%u split", a, b);
			bench_line(&d, two, 2, name, &sys, &vid, &vid2, 1, false, 1);
			bench_line(&d, two, 2, name, &sys, &vid, &vid2, 4, true, 1);
		}
	for (unsigned int e = 0; e < 10; e++)
		if (ok[e])
			hd_fwd_chan_close(&d, &ch[e]);
	hd_free(&d, &sys);
	hd_free(&d, &vid);
	hd_free(&d, &vid2);
	hd_vas_destroy(&d, &v);
	hd_close(&d);
	return any ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *cubin = "build/kern.cubin", *mode = "auto";
	int multi_ce = 0;
	if (argc > 1 && !strcmp(argv[1], "attach"))
		return hostd_attach_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "ce-info"))
		return ce_info();
	if (argc > 1 && !strcmp(argv[1], "ce-bench"))
		return ce_bench();
	if (argc > 1 && !strcmp(argv[1], "fwd-test")) {
		for (int i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "--cubin") && i + 1 < argc) {
				cubin = argv[++i];
			} else {
				fprintf(stderr, "usage: vgsp-hostd fwd-test [--cubin PATH]\n");
				return 2;
			}
		}
		return fwd_test(cubin);
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cubin") && i + 1 < argc)
			cubin = argv[++i];
		else if (!strcmp(argv[i], "--mode") && i + 1 < argc)
			mode = argv[++i];
		else if (!strcmp(argv[i], "--multi-ce"))
			multi_ce = 1;
		else if (strcmp(argv[i], "run")) {
			fprintf(stderr, "usage: vgsp-hostd run [--cubin PATH] [--mode auto|tsg|simple] [--multi-ce]\n");
			return 2;
		}
	}
	static struct ctx c;
	int r = -1;
	if (strcmp(mode, "simple"))
		r = hd_open(&c.d, HD_MODE_TSG, stdout);
	if (r && strcmp(mode, "tsg")) {
		if (!strcmp(mode, "auto"))
			printf("note: tsg bring-up stopped at '%s'; trying simple mode\n", c.d.stage);
		hd_close(&c.d);
		r = hd_open(&c.d, HD_MODE_SIMPLE, stdout);
	}
	if (r) {
		result(0, "channel bring-up: stopped at stage '%s', last RM status 0x%x", c.d.stage,
		       c.d.last_status);
		return 1;
	}
	result(1, "channel bring-up (%s mode, work-submit token 0x%x)",
	       c.d.mode == HD_MODE_TSG ? "tsg" : "simple", c.d.token);

	if (hd_alloc(&c.d, &c.sem, 64 * 1024, HD_MEM_SYS | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.src, COPY_BYTES, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.dst, COPY_BYTES, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.qmd, QMD_SLOTS * QMD_STRIDE, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.code, 64 * 1024, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.cb0, 2 * CB0_SLOT, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.out, 4 * MiB, HD_MEM_VID | HD_MEM_CPU) ||
	    hd_alloc(&c.d, &c.slm, SLM_PER_TPC * SLM_TPCS, HD_MEM_VID)) {
		result(0, "memory allocation (last RM status 0x%x)", c.d.last_status);
		hd_close(&c.d);
		return 1;
	}
	memset(c.sem.cpu, 0, 64 * 1024);

	if (check_channel(&c)) {
		hd_close(&c.d);
		return 1;
	}
	int copy_ok = !check_copy(&c);

	size_t n = 0;
	void *img = read_file(cubin, &n);
	int gr_ok = 0;
	if (!img || load_kernel(&c, img, n, "vgsp_fill", &c.kfill, 0) ||
	    load_kernel(&c, img, n, "vgsp_nop", &c.knop, 32 * 1024))
		result(0, "load kernels from %s", cubin);
	else
		gr_ok = !check_compute(&c);

	if (copy_ok && gr_ok)
		check_backend(&c);

	if (copy_ok) {
		bench_copy(&c, 4096, 2000, 2000, "4KiB");
		bench_copy(&c, COPY_BYTES, 200, 64, "16MiB");
	}
	if (gr_ok) {
		if (hd_alloc(&c.d, &c.qmd_sys, QMD_SLOTS * QMD_STRIDE, HD_MEM_SYS | HD_MEM_CPU))
			memset(&c.qmd_sys, 0, sizeof(c.qmd_sys));
		bench_launch(&c, 2000, 4000);
	}
	if (copy_ok) {
		bench_async_ce();
		/* opt-in: written after the last GPU run, not yet run there */
		if (multi_ce && c.d.mode == HD_MODE_TSG)
			bench_multi_ce(&c);
	}
	if (fence(&c, TIMEOUT_NS))
		result(0, "final fence");
	hd_close(&c.d);
	free(img);
	printf("hostd: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}

/* ---- fwd-test: hostd_fwd.h with this process as the guest ----------------
 *
 * "Guest memory" is an anonymous 256 MiB buffer registered as one backing;
 * the guest's VA space maps pieces of it:
 *
 *   guest VA          buffer offset        what
 *   0x0_C000_0000     12 MiB + 64 KiB      QMDs (low reservation)
 *   0x1_0800_0000     0                    a run in the host RM's hole: skipped
 *   0x2_0000_0000     0 (case 1), 4 MiB    output (case 2 remaps the same VA)
 *   0x2_4000_0000     12 MiB               kernel code (read-only)
 *   0x2_6000_0000     12 MiB + 128 KiB     constant bank 0 slots (read-only)
 *   0x2_8000_0000     8 MiB                case 2: a new piece
 *   0x2_C000_0000     -                    never mapped: the fault case
 *   0x3_0000_0000     64 MiB               shader local memory (162 MiB)
 *
 * The shader local memory is the guest's, as a guest driver's would be:
 * SET_SHADER_LOCAL_MEMORY_A holds 17 address bits above 32 on the Ampere
 * class (49-bit VAs), so hostd's window above 2^56 is no place for it. The
 * compute state sent before every launch is what `run` sends on its
 * channel (pb_compute_windows + pb_compute_local_memory).
 */
#define G_BYTES (256ull * MiB)
#define G_SLM (64ull * MiB)
#define VA_SLM 0x300000000ull
#define G_OUT_A 0ull
#define G_OUT_B (4ull * MiB)
#define G_EXTRA (8ull * MiB)
#define G_CODE (12ull * MiB)
#define G_QMD (12ull * MiB + 64 * 1024)
#define G_CB0 (12ull * MiB + 128 * 1024)
#define G_OUT_WORDS (1u << 20)
#define VA_QMD 0xC0000000ull
#define VA_SKIP 0x108000000ull
#define VA_DATA 0x200000000ull
#define VA_CODE 0x240000000ull
#define VA_CB0 0x260000000ull
#define VA_EXTRA 0x280000000ull
#define VA_HOLE 0x2C0000000ull
#define FWD_TIMEOUT_NS 5000000000ull

struct fwd {
	struct hd_dev d;
	struct hd_backing b;
	struct hd_vas v;
	struct hd_fwd_chan c;
	uint8_t *g;
	struct cubin_kernel k;
	struct hd_mthd st[32];
	size_t nst;
};

static double us_since(uint64_t t0)
{
	return (hd_now_ns() - t0) / 1e3;
}

static void fwd_fail(struct fwd *f, const char *step)
{
	result(0, "fwd-test %s: rm status 0x%x (stage '%s')", step, f->d.last_status,
	       f->d.stage ? f->d.stage : "-");
}

static int collect_mthd(void *ctx, const struct pb_method *m)
{
	struct fwd *f = ctx;
	if (f->nst >= sizeof(f->st) / sizeof(f->st[0]))
		return -1;
	f->st[f->nst].mthd = m->mthd;
	f->st[f->nst].data = m->data;
	f->nst++;
	return 0;
}

static void fill_words(uint8_t *p, uint32_t v)
{
	uint32_t *w = (uint32_t *)p;
	for (uint32_t i = 0; i < G_OUT_WORDS; i++)
		w[i] = v;
}

/* words of the piece at @off that are not i*mul+add (mul 0: not v=add) */
static uint32_t bad_words(const uint8_t *p, uint32_t n, uint32_t mul, uint32_t add)
{
	const volatile uint32_t *w = (const volatile uint32_t *)p;
	uint32_t bad = 0;
	for (uint32_t i = 0; i < n; i++)
		bad += w[i] != i * mul + add;
	return bad;
}

/* write cb0 slot + QMD slot @slot for vgsp_fill(out, n, mul, add), launch */
static int fwd_launch_fill(struct fwd *f, unsigned slot, uint64_t out_va, uint32_t n, uint32_t mul,
			   uint32_t add, double *us, uint32_t *rc)
{
	struct { uint64_t out; uint32_t n, mul, add; } __attribute__((packed)) prm = { out_va, n, mul, add };
	uint32_t grid = (n + 255) / 256;
	fill_cb0_at((uint32_t *)(f->g + G_CB0 + slot * CB0_SLOT), &f->k, &prm, sizeof(prm), grid, 256);
	struct qmd_launch q = {
		.program_va = VA_CODE, .program_bytes = f->k.code_bytes,
		.grid = { grid, 1, 1 }, .block = { 256, 1, 1 }, .regs = f->k.regs,
		.shared_bytes = f->k.shared_bytes + SHARED_RESERVED,
		.cb0_va = VA_CB0 + (uint64_t)slot * CB0_SLOT, .cb0_bytes = CB0_SLOT,
		.release_va = 0, .sass_version = 0x90, .local_bytes = SLM_PER_THREAD,
	};
	uint32_t qw[QMD_V04_DWORDS];
	if (qmd_v04_encode(qw, &q))
		return -EINVAL;
	memcpy(f->g + G_QMD + slot * 512u, qw, QMD_V04_BYTES);
	uint64_t t0 = hd_now_ns();
	int r = hd_fwd_launch(&f->d, &f->c, f->st, f->nst, VA_QMD + slot * 512u, FWD_TIMEOUT_NS, rc);
	if (us)
		*us = us_since(t0);
	return r;
}

static int fwd_sync(struct fwd *f, const char *what, const struct hd_run *runs, size_t n,
		    uint64_t want_maps, uint64_t want_unmaps, uint64_t want_skipped)
{
	uint64_t m0 = f->v.maps, u0 = f->v.unmaps, s0 = f->v.skipped, i0 = f->v.tlb_invalidates;
	uint64_t t0 = hd_now_ns();
	int r = hd_vas_sync(&f->d, &f->v, runs, n);
	double us = us_since(t0);
	uint64_t dm = f->v.maps - m0, du = f->v.unmaps - u0, ds = f->v.skipped - s0;
	int ok = !r && dm == want_maps && du == want_unmaps && ds == want_skipped;
	if (!ok && r) {
		fwd_fail(f, what);
		return -1;
	}
	result(ok, "fwd-test %s: %zu runs -> %llu maps, %llu unmaps, %llu skipped, %llu TLB invalidate(s), "
	       "%zu mapped (want %llu/%llu/%llu), %.1f us",
	       what, n, (unsigned long long)dm, (unsigned long long)du, (unsigned long long)ds,
	       (unsigned long long)(f->v.tlb_invalidates - i0), f->v.nruns,
	       (unsigned long long)want_maps, (unsigned long long)want_unmaps,
	       (unsigned long long)want_skipped, us);
	printf("METRIC fwd %s_us %.1f\n", what, us);
	return ok ? 0 : -1;
}

static void fwd_launch_check(struct fwd *f, const char *what, unsigned slot, uint64_t out_va,
			     uint64_t out_off, uint32_t mul, uint32_t add, const uint64_t *clean_off,
			     const uint32_t *clean_val, unsigned nclean)
{
	uint32_t rc = 0;
	double us = 0;
	int r = fwd_launch_fill(f, slot, out_va, G_OUT_WORDS, mul, add, &us, &rc);
	if (r) {
		result(0, "fwd-test %s: launch returned %d (%s), notifier info32 %u, rm status 0x%x", what,
		       r, strerror(-r), rc, f->d.last_status);
		return;
	}
	uint32_t bad = bad_words(f->g + out_off, G_OUT_WORDS, mul, add), stray = 0;
	for (unsigned i = 0; i < nclean; i++)
		stray += bad_words(f->g + clean_off[i], G_OUT_WORDS, 0, clean_val[i]);
	result(!bad && !stray, "fwd-test %s: vgsp_fill over %u words at guest VA 0x%llx -> buffer +0x%llx, "
	       "%u wrong, %u stray writes elsewhere, launch %.1f us", what, G_OUT_WORDS,
	       (unsigned long long)out_va, (unsigned long long)out_off, bad, stray, us);
	printf("METRIC fwd %s_launch_us %.1f\n", what, us);
}

static int fwd_test(const char *cubin)
{
	static struct fwd f;
	/* teardown may run before these exist: hd_free() closes map_fd >= 0 */
	f.c.ring.map_fd = f.c.pbm.map_fd = f.c.fence.map_fd = f.c.notif.map_fd = -1;
	uint64_t t0 = hd_now_ns();
	if (hd_open_base(&f.d, stdout)) {
		fwd_fail(&f, "open-base");
		hd_close(&f.d);
		return 1;
	}
	result(1, "fwd-test open-base: driver %s, classes C86F/CBC0/C661 present, %.0f us",
	       hd_driver_version(&f.d), us_since(t0));

	size_t n = 0;
	void *img = read_file(cubin, &n);
	if (!img || cubin_find_kernel(img, n, "vgsp_fill", &f.k) || f.k.has_relocs ||
	    f.k.code_bytes > 64 * 1024) {
		result(0, "fwd-test cubin: vgsp_fill not loadable from %s", cubin);
		hd_close(&f.d);
		free(img);
		return 1;
	}
	f.g = mmap(NULL, G_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		   -1, 0);
	if (f.g == MAP_FAILED) {
		result(0, "fwd-test guest buffer: mmap failed");
		hd_close(&f.d);
		free(img);
		return 1;
	}
	memset(f.g, 0, G_BYTES);
	memcpy(f.g + G_CODE, f.k.code, f.k.code_bytes);

	t0 = hd_now_ns();
	if (hd_backing_register(&f.d, f.g, G_BYTES, &f.b)) {
		fwd_fail(&f, "backing-register");
		goto out;
	}
	double reg_us = us_since(t0);
	result(1, "fwd-test backing-register: %llu MiB anonymous memory as OS descriptor 0x%x, %.1f us",
	       G_BYTES / MiB, f.b.h, reg_us);
	printf("METRIC fwd backing_register_256MiB_us %.1f\n", reg_us);

	t0 = hd_now_ns();
	if (hd_vas_create(&f.d, &f.v)) {
		fwd_fail(&f, "vas-create");
		goto out;
	}
	double vas_us = us_since(t0);
	result(1, "fwd-test vas-create: VA space 0x%x, reservations 0x%x/0x%x, range 0x%x, %.1f us",
	       f.v.hvas, f.v.rsv_lo, f.v.rsv_hi, f.v.hvirt, vas_us);
	printf("METRIC fwd vas_create_us %.1f\n", vas_us);

	{
		uint32_t buf[32];
		struct pb p;
		pb_init(&p, buf, 32);
		pb_compute_windows(&p, SHARED_WINDOW, LOCAL_WINDOW);
		pb_compute_local_memory(&p, VA_SLM, SLM_PER_TPC);
		if (p.overflow || pb_decode(buf, p.len, collect_mthd, &f)) {
			result(0, "fwd-test compute state methods");
			goto out;
		}
		printf("fwd-test: shader local memory at guest VA 0x%llx, %zu state methods per launch\n",
		       VA_SLM, f.nst);
	}

	/* ---- case 1: map, launch, verify ---- */
	fill_words(f.g + G_OUT_A, 0xAAAAAAAAu);
	fill_words(f.g + G_OUT_B, 0xBBBBBBBBu);
	fill_words(f.g + G_EXTRA, 0xCCCCCCCCu);
	const uint32_t hb = f.b.h;
	const struct hd_run runs1[6] = {
		{ VA_QMD, 4096, hb, G_QMD, false, false },
		{ VA_SKIP, 64 * 1024, hb, G_OUT_A, false, false },
		{ VA_DATA, 4 * MiB, hb, G_OUT_A, false, false },
		{ VA_CODE, 64 * 1024, hb, G_CODE, true, false },
		{ VA_CB0, 2 * CB0_SLOT, hb, G_CB0, true, false },
		{ VA_SLM, SLM_PER_TPC * SLM_TPCS, hb, G_SLM, false, false },
	};
	if (fwd_sync(&f, "sync1", runs1, 6, 5, 0, 1) ||
	    fwd_sync(&f, "sync1-again", runs1, 6, 0, 0, 1))
		goto out;

	t0 = hd_now_ns();
	if (hd_fwd_chan_open(&f.d, &f.v, &f.c)) {
		fwd_fail(&f, "chan-open");
		goto out;
	}
	double open_us = us_since(t0);
	result(1, "fwd-test chan-open: TSG+ctxshare+C86F (deny phys-CE, deny priv)+CBC0, token 0x%x, ring in %s, "
	       "first segment done, %.1f us", f.c.token, f.c.vid_ring ? "vidmem" : "sysmem", open_us);
	printf("METRIC fwd chan_open_us %.1f\n", open_us);

	{
		const uint64_t off[2] = { G_OUT_B, G_EXTRA };
		const uint32_t val[2] = { 0xBBBBBBBBu, 0xCCCCCCCCu };
		fwd_launch_check(&f, "case1", 0, VA_DATA, G_OUT_A, 3, 0x1234, off, val, 2);
	}

	/* ---- case 2: the same output VA now backed elsewhere, plus a new piece ---- */
	fill_words(f.g + G_OUT_A, 0xAAAAAAAAu);
	const struct hd_run runs2[6] = {
		{ VA_QMD, 4096, hb, G_QMD, false, false },
		{ VA_DATA, 4 * MiB, hb, G_OUT_B, false, false },
		{ VA_CODE, 64 * 1024, hb, G_CODE, true, false },
		{ VA_CB0, 2 * CB0_SLOT, hb, G_CB0, true, false },
		{ VA_EXTRA, 4 * MiB, hb, G_EXTRA, false, false },
		{ VA_SLM, SLM_PER_TPC * SLM_TPCS, hb, G_SLM, false, false },
	};
	if (!fwd_sync(&f, "sync2", runs2, 6, 2, 1, 0)) {
		const uint64_t off_a[2] = { G_OUT_A, G_EXTRA };
		const uint32_t val_a[2] = { 0xAAAAAAAAu, 0xCCCCCCCCu };
		fwd_launch_check(&f, "case2-remapped-va", 0, VA_DATA, G_OUT_B, 5, 7, off_a, val_a, 2);
		const uint64_t off_b[1] = { G_OUT_A };
		const uint32_t val_b[1] = { 0xAAAAAAAAu };
		fwd_launch_check(&f, "case2-new-piece", 0, VA_EXTRA, G_EXTRA, 7, 9, off_b, val_b, 1);
	}

	/* ---- launch round trip: 1 CTA, 500 times ---- */
	if (!f.c.dead) {
		enum { ITERS = 500 };
		static uint64_t t[ITERS];
		int r = 0;
		uint32_t rc;
		for (unsigned i = 0; i < ITERS && !r; i++) {
			double us;
			r = fwd_launch_fill(&f, 0, VA_EXTRA, 256, 1, i, &us, &rc);
			t[i] = (uint64_t)(us * 1000);
		}
		if (r) {
			result(0, "fwd-test launch-latency: launch returned %d", r);
		} else {
			printf("METRIC fwd launch_1cta_p50_us %.1f\n", pct(t, ITERS, 0.5) / 1e3);
			printf("METRIC fwd launch_1cta_p95_us %.1f\n", pct(t, ITERS, 0.95) / 1e3);
			result(!bad_words(f.g + G_EXTRA, 256, 1, ITERS - 1),
			       "fwd-test launch-latency: %u one-CTA launches (state + QMD + fence), p50 %.1f us",
			       ITERS, pct(t, ITERS, 0.5) / 1e3);
		}
	}

	/* ---- case 3: the kernel writes to an unmapped guest VA ---- */
	if (!f.c.dead) {
		uint32_t rc = 0;
		double us = 0;
		int r = fwd_launch_fill(&f, 1, VA_HOLE, G_OUT_WORDS, 1, 1, &us, &rc);
		printf("fwd-test fault: launch returned %d (%s), notifier info32 %u, dead %d, %.1f us\n",
		       r, r ? strerror(-r) : "ok", rc, f.c.dead, us);
		result(r == -EFAULT && f.c.dead,
		       "fwd-test fault: output at unmapped 0x%llx -> -EFAULT, notifier info32 %u%s, detected in %.1f us",
		       (unsigned long long)VA_HOLE, rc, rc == 31 ? " (MMU fault)" : "", us);
		printf("METRIC fwd fault_detect_us %.1f\n", us);
	}

	/* ---- case 4: a new channel in the same VA space works ---- */
	hd_fwd_chan_close(&f.d, &f.c);
	t0 = hd_now_ns();
	if (hd_fwd_chan_open(&f.d, &f.v, &f.c)) {
		fwd_fail(&f, "chan-reopen");
	} else {
		printf("METRIC fwd chan_reopen_us %.1f\n", us_since(t0));
		const uint64_t off[1] = { G_OUT_A };
		const uint32_t val[1] = { 0xAAAAAAAAu };
		fwd_launch_check(&f, "reopen", 0, VA_DATA, G_OUT_B, 11, 13, off, val, 1);
	}

out:
	hd_fwd_chan_close(&f.d, &f.c);
	if (f.v.hvas) {
		t0 = hd_now_ns();
		hd_vas_destroy(&f.d, &f.v);
		printf("METRIC fwd vas_destroy_us %.1f\n", us_since(t0));
	}
	if (f.b.h) {
		t0 = hd_now_ns();
		hd_backing_unregister(&f.d, &f.b);
		printf("METRIC fwd backing_unregister_256MiB_us %.1f\n", us_since(t0));
	}
	hd_close(&f.d);
	munmap(f.g, G_BYTES);
	free(img);
	printf("fwd-test: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
