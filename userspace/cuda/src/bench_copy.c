/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Pinned host <-> device and device -> device copy bandwidth at each run_cfg
 * size, every byte verified. GB/s are decimal (1e9 bytes/s) over GPU event
 * time; a device -> device byte counts once (not read + write).
 */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Repeat each copy until about 256 MiB moved, within [10, 1000] copies. */
static unsigned int copy_reps(size_t bytes)
{
	size_t r = ((size_t)256 << 20) / bytes;

	return r < 10 ? 10 : r > 1000 ? 1000 : (unsigned int)r;
}

/* Pseudo-random bytes that differ per size, so stale data cannot match. */
static void fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
	uint32_t x = seed ? seed : 1u;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

enum copy_dir { COPY_HTOD, COPY_DTOH, COPY_DTOD };

/* dev is the destination of HTOD and DTOD, the source of DTOH; src2 is
 * DTOD's source. */
static double timed_copies(struct harness *h, enum copy_dir dir, CUdeviceptr dev,
			   void *host, CUdeviceptr src2, size_t bytes,
			   unsigned int reps)
{
	CUevent e0, e1;
	float ms = 0.0f;
	unsigned int i;

	CK(h, EventCreate(&e0, CU_EVENT_DEFAULT));
	CK(h, EventCreate(&e1, CU_EVENT_DEFAULT));
	CK(h, EventRecord(e0, h->stream));
	for (i = 0; i < reps; i++) {
		if (dir == COPY_HTOD)
			CK(h, MemcpyHtoDAsync(dev, host, bytes, h->stream));
		else if (dir == COPY_DTOH)
			CK(h, MemcpyDtoHAsync(host, dev, bytes, h->stream));
		else
			CK(h, MemcpyDtoDAsync(dev, src2, bytes, h->stream));
	}
	CK(h, EventRecord(e1, h->stream));
	CK(h, EventSynchronize(e1));
	CK(h, EventElapsedTime(&ms, e0, e1));
	CK(h, EventDestroy(e0));
	CK(h, EventDestroy(e1));
	return (double)bytes * reps / ((double)ms * 1e6);
}

static unsigned long long count_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	unsigned long long bad = 0;
	size_t i;

	for (i = 0; i < n; i++)
		bad += a[i] != b[i];
	return bad;
}

/*
 * dev holds src's bytes: copy them to a second device buffer, timed, and
 * read that one back. libcuda 535 runs cuMemcpyDtoD as an sm_90 kernel, so
 * with --skip-kernels (a backend without SMs) it is skipped, with the reason.
 */
static void copy_dtod(struct harness *h, CUdeviceptr dev, const uint8_t *src,
		      uint8_t *dst, size_t bytes, unsigned int reps)
{
	CUdeviceptr dev2;
	char name[64];

	snprintf(name, sizeof(name), "copy_dtod_%zu_gbps", bytes);
	if (h->cfg.skip_kernels) {
		emit_skipped(name, "--skip-kernels: libcuda 535 runs cuMemcpyDtoD "
			     "as an sm_90 kernel, which a backend without SMs refuses");
		return;
	}
	CK(h, MemAlloc(&dev2, bytes));
	/* Poisoned, so a copy that did nothing fails. */
	CK(h, MemsetD8(dev2, 0x3C, bytes));
	CK(h, CtxSynchronize());
	CK(h, MemcpyDtoDAsync(dev2, dev, bytes, h->stream)); /* untimed warm-up */
	CK(h, StreamSynchronize(h->stream));
	CK(h, MemsetD8(dev2, 0x3C, bytes));
	CK(h, CtxSynchronize());
	emit_metric(name, timed_copies(h, COPY_DTOD, dev2, NULL, dev, bytes, reps));
	memset(dst, 0xC3, bytes);
	CK(h, MemcpyDtoH(dst, dev2, bytes));
	snprintf(name, sizeof(name), "copy_dtod_%zu_bytes", bytes);
	emit_check(h, name, bytes, count_diff(src, dst, bytes));
	CK(h, MemFree(dev2));
}

void bench_copy(struct harness *h)
{
	unsigned int k;

	for (k = 0; k < h->cfg.nsizes; k++) {
		size_t bytes = h->cfg.sizes[k];
		unsigned int reps = copy_reps(bytes);
		uint8_t *src = NULL, *dst = NULL;
		CUdeviceptr dev;
		double gbps;
		char name[64];

		CK(h, MemAllocHost((void **)&src, bytes));
		CK(h, MemAllocHost((void **)&dst, bytes));
		CK(h, MemAlloc(&dev, bytes));
		fill_pattern(src, bytes, (uint32_t)bytes * 2654435761u);
		/* Poison the device side so a copy that did nothing fails. */
		if (h->cfg.skip_kernels) {
			/* a memset beyond 4 KiB is a kernel on libcuda 535 */
			memset(dst, 0x5A, bytes);
			CK(h, MemcpyHtoD(dev, dst, bytes));
		} else {
			CK(h, MemsetD8(dev, 0x5A, bytes));
		}
		CK(h, CtxSynchronize());
		/* Untimed warm-up of each direction. */
		CK(h, MemcpyHtoD(dev, src, bytes));
		CK(h, MemcpyDtoH(dst, dev, bytes));

		gbps = timed_copies(h, COPY_HTOD, dev, src, 0, bytes, reps);
		snprintf(name, sizeof(name), "copy_htod_%zu_gbps", bytes);
		emit_metric(name, gbps);

		memset(dst, 0xA5, bytes);
		gbps = timed_copies(h, COPY_DTOH, dev, dst, 0, bytes, reps);
		snprintf(name, sizeof(name), "copy_dtoh_%zu_gbps", bytes);
		emit_metric(name, gbps);

		/* src -> device -> dst round trip must be byte-exact. */
		snprintf(name, sizeof(name), "copy_%zu_bytes", bytes);
		emit_check(h, name, bytes, count_diff(src, dst, bytes));
		copy_dtod(h, dev, src, dst, bytes, reps);
		CK(h, MemFree(dev));
		CK(h, MemFreeHost(dst));
		CK(h, MemFreeHost(src));
	}
}
