// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target over the emulated GSP's queue and RPC decoders.
 *
 * Each input runs on a freshly reset instance: the replay client boots it
 * the way OpenRM does (so the fuzzer starts past the FSP handshake with
 * linked queues), then the input is a program of operations:
 *   0 RAW   len16 bytes   raw element(s) into the command queue
 *   1 RPC   fn32 len16 bytes   well-formed element (checksum, seq) with a
 *                              fuzzed RPC payload
 *   2 HDR   off8 val32    overwrite a command-queue header field
 *   3 BELL  n8            ring the doorbell n times
 *   4 REG   idx8 val32    write a GSP/FSP/interrupt register
 *   5 DRAIN               the guest consumes all status messages
 * The worker runs synchronously after every operation (a custom OS seam),
 * so a crash reproduces from the input alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include "device.h"
#include "gsp/gsp_priv.h"
#include "../replay/replay.c"

#define ARENA_IOVA	0x40000000ULL

struct vgsp_lock {
	pthread_mutex_t m;
};

struct vgsp_worker {
	vgsp_worker_fn fn;
	void *arg;
	bool pending;
};

static struct vgsp_worker *the_worker;

static void *f_zalloc(size_t n) { return calloc(1, n); }
static void f_free(void *p) { free(p); }
static struct vgsp_lock *f_lock_new(void)
{
	struct vgsp_lock *l = calloc(1, sizeof(*l));

	if (l)
		pthread_mutex_init(&l->m, NULL);
	return l;
}
static void f_lock_free(struct vgsp_lock *l) { free(l); }
static void f_lock(struct vgsp_lock *l) { pthread_mutex_lock(&l->m); }
static void f_unlock(struct vgsp_lock *l) { pthread_mutex_unlock(&l->m); }
static u64 f_now(void) { static u64 t; return t += 1000; }
static void f_log(enum vgsp_log_level level, const char *fmt, ...) { }
static struct vgsp_worker *f_wstart(const char *n, vgsp_worker_fn fn, void *a)
{
	struct vgsp_worker *w = calloc(1, sizeof(*w));

	if (w) {
		w->fn = fn;
		w->arg = a;
		the_worker = w;
	}
	return w;
}
static void f_wake(struct vgsp_worker *w) { w->pending = true; }
static void f_wstop(struct vgsp_worker *w) { free(w); }

static const struct vgsp_os_ops fuzz_os = {
	.zalloc = f_zalloc, .free = f_free, .lock_new = f_lock_new,
	.lock_free = f_lock_free, .lock = f_lock, .unlock = f_unlock,
	.now_ns = f_now, .log = f_log, .worker_start = f_wstart,
	.worker_wake = f_wake, .worker_stop = f_wstop,
};

/* Run the dispatch worker until it has nothing left (bounded). */
static void run_worker(void)
{
	int i;

	for (i = 0; i < 64 && the_worker && the_worker->pending; i++) {
		the_worker->pending = false;
		the_worker->fn(the_worker->arg);
	}
}

static struct {
	struct vgsp_dev *dev;
	u8 *mem;
	size_t size;
	struct rp_transport t;
} F;

static int f_dma(u64 iova, void *buf, size_t len, bool write)
{
	if (iova < ARENA_IOVA || iova - ARENA_IOVA > F.size ||
	    len > F.size - (iova - ARENA_IOVA))
		return -EFAULT;
	if (write)
		memcpy(F.mem + (iova - ARENA_IOVA), buf, len);
	else
		memcpy(buf, F.mem + (iova - ARENA_IOVA), len);
	return 0;
}
static int f_dma_read(void *fe, u64 iova, void *buf, size_t len)
{
	return f_dma(iova, buf, len, false);
}
static int f_dma_write(void *fe, u64 iova, const void *buf, size_t len)
{
	return f_dma(iova, (void *)buf, len, true);
}
static bool f_irq(void *fe, unsigned int v) { return true; }

static const struct vgsp_fe_ops fuzz_fe = {
	.dma_read = f_dma_read, .dma_write = f_dma_write, .irq_signal = f_irq,
};

static uint32_t t_rd32(void *ctx, uint32_t off)
{
	u32 v = 0;

	vgsp_dev_bar_read(F.dev, VGSP_BAR0, off, &v, 4);
	return v;
}
static void t_wr32(void *ctx, uint32_t off, uint32_t v)
{
	vgsp_dev_bar_write(F.dev, VGSP_BAR0, off, &v, 4);
	run_worker();
}
static int t_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	if (!F.mem) {
		F.mem = calloc(1, size);
		F.size = size;
	}
	*va = F.mem;
	*iova = ARENA_IOVA;
	return F.mem ? 0 : -ENOMEM;
}
/* Synchronous device: an armed interrupt has always fired already. */
static int t_wait(void *ctx, unsigned int ms) { return ms ? 0 : -ETIMEDOUT; }
static uint64_t t_now(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
static int t_reset(void *ctx) { vgsp_dev_reset(F.dev); return 0; }
static int t_bus_master(void *ctx)
{
	static const u8 cmd[2] = { 0x06, 0 };	/* memory + bus master */

	return vgsp_dev_cfg_write(F.dev, 4, cmd, 2);
}

static const u32 fuzz_regs[] = {
	0x110000, 0x110004, 0x110010, 0x110014, 0x110040, 0x110100,
	0x1103c0, 0x1103e8, 0x110c00, 0x8f2ac0, 0x8f2ac4, 0x8f2c00,
	0x8f2c04, 0x8f2c80, 0x8f2c84, 0xb81000, 0xb81010, 0xb81200,
	0xb81210, 0xb81400, 0xb81608, 0xb81610, 0xb81640,
};

static struct rp_client *client;

static void discard_print(struct vgsp_printer *p, const char *fmt, ...) { }
static struct vgsp_printer discard = { .print = discard_print };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const u8 uuid[16] = { 0xf0, 0x22 };

	vgsp_os_set(&fuzz_os);
	F.dev = vgsp_dev_create(vgsp_profile_find("h100-10g"), uuid, 8,
				&fuzz_fe, NULL);
	if (!F.dev)
		abort();
	F.t = (struct rp_transport){
		.rd32 = t_rd32, .wr32 = t_wr32, .mem_alloc = t_alloc,
		.wait_irq = t_wait, .now_ns = t_now, .reset = t_reset,
		.bus_master = t_bus_master,
	};
	memcpy(F.t.uuid, uuid, 16);
	client = rp_new(&F.t);
	if (!client)
		abort();
	return 0;
}

static const u8 *take(const u8 **p, size_t *n, size_t want)
{
	const u8 *r = *p;

	if (*n < want)
		return NULL;
	*p += want;
	*n -= want;
	return r;
}

static void raw_element(const u8 *b, u32 len)
{
	struct rp_client *c = client;
	u32 slots = (len + PAGE - 1) / PAGE, k;

	if (!slots)
		return;
	memset(c->msg, 0, (size_t)slots * PAGE);
	memcpy(c->msg, b, len);
	for (k = 0; k < slots; k++)
		shm_write(c, CMDQ_OFF + PAGE + ((c->cmd_wptr + k) % MSG_COUNT) *
			  PAGE, c->msg + k * PAGE, PAGE);
	c->cmd_wptr = (c->cmd_wptr + slots) % MSG_COUNT;
	shm_w32(c, CMDQ_OFF + 0x10, c->cmd_wptr);
	t_wr32(NULL, GSP_QUEUE_HEAD0, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_client *c = client;
	const u8 *op;
	unsigned int steps = 0;
	u32 len;

	vgsp_dev_reset(F.dev);
	c->tr.len = 0;
	if (rp_boot(c))
		abort();	/* a clean boot must always work */

	while ((op = take(&data, &size, 1)) && steps++ < 64) {
		const u8 *a, *b;

		switch (*op % 6) {
		case 0:
			a = take(&data, &size, 2);
			if (!a)
				break;
			len = (a[0] | a[1] << 8) % (MSG_MAX + 1);
			if (len > size)
				len = (u32)size;
			b = take(&data, &size, len);
			raw_element(b, len);
			break;
		case 1:
			a = take(&data, &size, 6);
			if (!a)
				break;
			len = (a[4] | a[5] << 8) % (MSG_MAX - ELEM_HDR - RPC_HDR);
			if (len > size)
				len = (u32)size;
			b = take(&data, &size, len);
			send_rpc(c, get32(a, 0) % 256, b, len, 0, &no_tamper);
			run_worker();
			break;
		case 2:
			a = take(&data, &size, 5);
			if (a)
				shm_w32(c, CMDQ_OFF + (a[0] % 0x24 & ~3u),
					get32(a, 1));
			break;
		case 3:
			a = take(&data, &size, 1);
			for (len = 0; a && len < a[0]; len++)
				t_wr32(NULL, GSP_QUEUE_HEAD0, 0);
			break;
		case 4:
			a = take(&data, &size, 5);
			if (a)
				t_wr32(NULL, fuzz_regs[a[0] %
					VGSP_ARRAY_SIZE(fuzz_regs)],
				       get32(a, 1));
			break;
		case 5:
			c->stat_rptr = shm32(c, STATQ_OFF + 0x10) % MSG_COUNT;
			shm_w32(c, CMDQ_OFF + 0x20, c->stat_rptr);
			break;
		}
		run_worker();
	}
	/* Whatever happened, every view still prints. */
	for (len = 0; len < vgsp_gsp_nviews; len++)
		vgsp_gsp_views[len].show(F.dev, &discard);
	return 0;
}
