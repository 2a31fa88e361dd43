/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared pieces of the libFuzzer targets that drive the core in-process:
 * a synchronous OS seam (workers run when the target says so, never on
 * their own, so every finding reproduces from its input alone), a
 * frontend whose guest memory is one arena at a fixed IOVA, and a byte
 * reader for the input. Header-only: each target is one file plus this.
 */
#ifndef VGSP_FUZZ_HARNESS_H
#define VGSP_FUZZ_HARNESS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "device.h"
#include "view.h"
#include "gsp/gsp.h"
#include "fifo/fifo.h"
#include "rm/rm.h"

#define FZ_ARENA_IOVA	0x40000000ULL
#define FZ_MAX_WORKERS	4

struct vgsp_lock {
	pthread_mutex_t m;
};

struct vgsp_worker {
	vgsp_worker_fn fn;
	void *arg;
	bool pending;
};

static struct vgsp_worker *fz_workers[FZ_MAX_WORKERS];

static inline void *fz_zalloc(size_t n) { return calloc(1, n); }
static inline void fz_free(void *p) { free(p); }
static inline struct vgsp_lock *fz_lock_new(void)
{
	struct vgsp_lock *l = calloc(1, sizeof(*l));

	if (l)
		pthread_mutex_init(&l->m, NULL);
	return l;
}
static inline void fz_lock_free(struct vgsp_lock *l) { free(l); }
static inline void fz_lock(struct vgsp_lock *l) { pthread_mutex_lock(&l->m); }
static inline void fz_unlock(struct vgsp_lock *l) { pthread_mutex_unlock(&l->m); }
static inline u64 fz_now(void) { static u64 t; return t += 1000; }
static inline void fz_log(enum vgsp_log_level level, const char *fmt, ...) { }
static inline struct vgsp_worker *fz_wstart(const char *n, vgsp_worker_fn fn,
				     void *a)
{
	struct vgsp_worker *w = calloc(1, sizeof(*w));
	unsigned int i;

	if (!w)
		return NULL;
	w->fn = fn;
	w->arg = a;
	for (i = 0; i < FZ_MAX_WORKERS; i++)
		if (!fz_workers[i]) {
			fz_workers[i] = w;
			return w;
		}
	free(w);
	return NULL;
}
static inline void fz_wake(struct vgsp_worker *w) { w->pending = true; }
static inline void fz_wake_after(struct vgsp_worker *w, u64 ns) { w->pending = true; }
static inline void fz_wstop(struct vgsp_worker *w)
{
	unsigned int i;

	for (i = 0; i < FZ_MAX_WORKERS; i++)
		if (fz_workers[i] == w)
			fz_workers[i] = NULL;
	free(w);
}

static const struct vgsp_os_ops fz_os = {
	.zalloc = fz_zalloc, .free = fz_free, .lock_new = fz_lock_new,
	.lock_free = fz_lock_free, .lock = fz_lock, .unlock = fz_unlock,
	.now_ns = fz_now, .log = fz_log, .worker_start = fz_wstart,
	.worker_wake = fz_wake, .worker_stop = fz_wstop,
	.worker_wake_after = fz_wake_after,
};

/* Run pending workers (lock not held), at most @passes rounds. */
static inline void fz_run_workers(unsigned int passes)
{
	unsigned int p, i;
	bool any = true;

	for (p = 0; p < passes && any; p++) {
		any = false;
		for (i = 0; i < FZ_MAX_WORKERS; i++) {
			struct vgsp_worker *w = fz_workers[i];

			if (w && w->pending) {
				w->pending = false;
				w->fn(w->arg);
				any = true;
			}
		}
	}
	/* Whatever is still pending is dropped: the next input resets. */
	for (i = 0; i < FZ_MAX_WORKERS; i++)
		if (fz_workers[i])
			fz_workers[i]->pending = false;
}

/* Guest system memory: one arena at FZ_ARENA_IOVA. */
static u8 *fz_mem;
static size_t fz_mem_size;

static inline int fz_dma(u64 iova, void *buf, size_t len, bool write)
{
	if (iova < FZ_ARENA_IOVA || iova - FZ_ARENA_IOVA > fz_mem_size ||
	    len > fz_mem_size - (iova - FZ_ARENA_IOVA))
		return -EFAULT;
	if (write)
		memcpy(fz_mem + (iova - FZ_ARENA_IOVA), buf, len);
	else
		memcpy(buf, fz_mem + (iova - FZ_ARENA_IOVA), len);
	return 0;
}
static inline int fz_dma_read(void *fe, u64 iova, void *buf, size_t len)
{
	return fz_dma(iova, buf, len, false);
}
static inline int fz_dma_write(void *fe, u64 iova, const void *buf, size_t len)
{
	return fz_dma(iova, (void *)buf, len, true);
}
static inline bool fz_irq(void *fe, unsigned int v) { return true; }

static const struct vgsp_fe_ops fz_fe = {
	.dma_read = fz_dma_read, .dma_write = fz_dma_write,
	.irq_signal = fz_irq,
};

/*
 * h100-10g with a 256 MiB frame buffer: a reset frees the FB store chunk
 * by chunk, and 10 GiB of chunk slots made that most of each execution.
 * Every check on FB addresses is relative to the profile's size.
 */
static inline const struct vgsp_profile *fz_profile(void)
{
	static struct vgsp_profile p;

	if (!p.id) {
		p = *vgsp_profile_find("h100-10g");
		p.fb_size = 256 * VGSP_MIB;
	}
	return &p;
}

/* Install the seam and create one instance (abort on failure). */
static inline struct vgsp_dev *fz_dev_create(size_t arena_bytes)
{
	static const u8 uuid[16] = { 0xf0, 0x22, 0x33 };
	struct vgsp_dev *dev;

	vgsp_os_set(&fz_os);
	fz_mem = calloc(1, arena_bytes);
	fz_mem_size = arena_bytes;
	dev = vgsp_dev_create(fz_profile(), uuid, 8, &fz_fe, NULL);
	if (!fz_mem || !dev)
		abort();
	return dev;
}

/* Memory decode and Bus Master Enable, as pci_set_master(). */
static inline void fz_bus_master(struct vgsp_dev *dev)
{
	static const u8 cmd[2] = { 0x06, 0 };

	if (vgsp_dev_cfg_write(dev, 4, cmd, 2))
		abort();
}

/* ---- input reader ---- */

struct fz_in {
	const u8 *p;
	size_t n;
};

static inline bool fz_more(const struct fz_in *in) { return in->n != 0; }

static inline const u8 *fz_take(struct fz_in *in, size_t want)
{
	const u8 *r = in->p;

	if (in->n < want)
		return NULL;
	in->p += want;
	in->n -= want;
	return r;
}

/* Little-endian integers; missing bytes read as zero. */
static inline u64 fz_uint(struct fz_in *in, unsigned int bytes)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < bytes && in->n; i++) {
		v |= (u64)in->p[0] << (8 * i);
		in->p++;
		in->n--;
	}
	return v;
}
static inline u8 fz_u8(struct fz_in *in) { return (u8)fz_uint(in, 1); }
static inline u16 fz_u16(struct fz_in *in) { return (u16)fz_uint(in, 2); }
static inline u32 fz_u32(struct fz_in *in) { return (u32)fz_uint(in, 4); }
static inline u64 fz_u64(struct fz_in *in) { return fz_uint(in, 8); }

/* Copy up to @len input bytes into @dst, zero-fill the rest. */
static inline void fz_bytes(struct fz_in *in, void *dst, size_t len)
{
	size_t n = len < in->n ? len : in->n;

	memcpy(dst, in->p, n);
	memset((u8 *)dst + n, 0, len - n);
	in->p += n;
	in->n -= n;
}

/* Access sizes a VMM can issue, and some it cannot. */
static inline u32 fz_len(struct fz_in *in)
{
	static const u32 lens[] = { 4, 1, 2, 8, 4, 3, 0, 16, 5, 64, 4096,
				    4, 2, 1, 7, 12 };

	return lens[fz_u8(in) & 15];
}

/* Print every view of the core into nothing (they must not crash). */
static inline void fz_discard(struct vgsp_printer *p, const char *fmt, ...) { }

static inline void fz_show_all(struct vgsp_dev *dev)
{
	struct vgsp_printer pr = { .print = fz_discard };
	unsigned int i;

	for (i = 0; i < vgsp_core_nviews; i++)
		vgsp_core_views[i].show(dev, &pr);
	for (i = 0; i < vgsp_gsp_nviews; i++)
		vgsp_gsp_views[i].show(dev, &pr);
}

#endif /* VGSP_FUZZ_HARNESS_H */
