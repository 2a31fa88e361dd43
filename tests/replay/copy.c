// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copy-engine work from the replay client: what the stock guest sends to
 * make a copy channel (client, device, subdevice, the device's page
 * directory by SET_PAGE_DIRECTORY, a TSG and a HOPPER_CHANNEL_GPFIFO_A on
 * LCE 0, the HOPPER_DMA_COPY_A object), then pushbuffers of large
 * physical sysmem copies with a semaphore release each, rung through the
 * usermode doorbell. Two copies stay queued so the fifo worker is always
 * copying (a copy of several VGSP_CE_SLICE_BYTES runs in slices): the
 * VMM-kill case kills the client in the middle of that.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "replay.h"

/* handles of the copy client (apart from the golden init's) */
#define C_CLIENT		0xc1d0c0e0u
#define C_DEVICE		0xde1dc0e0u
#define C_SUBDEVICE		0x5d1dc0e0u
#define C_TSG			0x7590c0e0u
#define C_CHANNEL		0xc4a0c0e0u
#define C_CE			0xce00c0e0u

#define NV01_ROOT		0x0000
#define NV01_DEVICE_0		0x0080
#define NV20_SUBDEVICE_0	0x2080
#define KEPLER_CHANNEL_GROUP_A	0xa06c
#define HOPPER_CHANNEL_GPFIFO_A	0xc86f
#define HOPPER_DMA_COPY_A	0xc8b5
#define FN_SET_PAGE_DIRECTORY	54

#define ENGINE_COPY0		0x09	/* LCE 0 */
#define RUNLIST_COPY0		1	/* abi/r535/engines.c */
#define CHID			5
#define DOORBELL		0xbb0090	/* usermode NOTIFY_CHANNEL_PENDING */

/* layout of the control part (the first 2 MiB, also VA 0 .. 2 MiB) */
#define MIB2			0x200000ull
#define PD_OFF			0x0000u		/* PD4, PD3, PD2, PD1, PD0 */
#define GPFIFO_OFF		0x10000u
#define GPFIFO_ENTRIES		64u
#define PB_OFF			0x20000u
#define PB_SLOT			0x100u
#define USERD_OFF		0x30000u
#define USERD_GP_GET		0x88u
#define USERD_GP_PUT		0x8cu
#define ERRNOT_OFF		0x31000u
#define SEM_OFF			0x32000u

#define PDE_SYS			(2ull << 1)	/* aperture: system memory */
#define PTE_VALID		1ull

#define COPY_TIMEOUT_NS		(30ull * 1000000000ull)	/* a copy: < 1 s */
#define SAMPLES			64u

static void w32(uint8_t *b, uint32_t o, uint32_t v)
{
	memcpy(b + o, &v, 4);
}

static void w64(uint8_t *b, uint32_t o, uint64_t v)
{
	memcpy(b + o, &v, 8);
}

static uint32_t vol32(const uint8_t *b, uint32_t o)
{
	return __atomic_load_n((const uint32_t *)(const void *)(b + o),
			       __ATOMIC_ACQUIRE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

size_t rp_copy_mem_size(uint64_t bytes)
{
	return (size_t)(MIB2 + ((3 * bytes + MIB2 - 1) & ~(MIB2 - 1)));
}

static uint32_t pattern(uint64_t k)
{
	return (uint32_t)(k * 2654435761u) ^ 0x5a5aa5a5u;
}

static uint64_t sample(unsigned int copy, unsigned int s, uint64_t words)
{
	return ((uint64_t)copy * 40503u + (uint64_t)s * 2246822519u) % words;
}

/* PD4 → PD3 → PD2 → PD1 → PD0; 2 MiB PTEs: VA x → iova + x. */
static void build_vm(const struct rp_copy *cp)
{
	unsigned int i, n = (unsigned int)(cp->size / MIB2);

	for (i = 0; i < 4; i++)
		w64(cp->mem, PD_OFF + 0x1000 * i,
		    (cp->iova + PD_OFF + 0x1000 * (i + 1)) | PDE_SYS);
	for (i = 0; i < n && i < 256; i++)
		w64(cp->mem, PD_OFF + 0x4000 + 16 * i,
		    (cp->iova + MIB2 * i) | PDE_SYS | PTE_VALID);
}

static int make_channel(struct rp_client *c, const struct rp_copy *cp)
{
	uint8_t p[0x168];
	uint32_t st;

	memset(p, 0, sizeof(p));
	if ((st = rp_alloc(c, C_CLIENT, 0, 0, NV01_ROOT, p, 0x6c)) ||
	    (st = rp_alloc(c, C_CLIENT, C_CLIENT, C_DEVICE, NV01_DEVICE_0, p,
			   0x38)) ||
	    (st = rp_alloc(c, C_CLIENT, C_DEVICE, C_SUBDEVICE,
			   NV20_SUBDEVICE_0, p, 4)))
		goto bad;
	/* rpc_set_page_directory_v1E_05: the device's default VA space */
	w32(p, 0x00, C_CLIENT);
	w32(p, 0x04, C_DEVICE);
	w64(p, 0x10, cp->iova + PD_OFF);
	w32(p, 0x1c, 1);			/* aperture: sysmem */
	if ((st = rp_call(c, FN_SET_PAGE_DIRECTORY, p, 0x30)))
		goto bad;
	/* NV_CHANNEL_GROUP_ALLOCATION_PARAMETERS: hVASpace 0, LCE 0 */
	memset(p, 0, sizeof(p));
	w32(p, 0x0c, ENGINE_COPY0);
	if ((st = rp_alloc(c, C_CLIENT, C_DEVICE, C_TSG,
			   KEPLER_CHANNEL_GROUP_A, p, 0x14)))
		goto bad;
	/* NV_CHANNEL_ALLOC_PARAMS (535.261.03, x86-64 offsets) */
	memset(p, 0, sizeof(p));
	w64(p, 0x008, GPFIFO_OFF);			/* gpFifoOffset (VA) */
	w32(p, 0x010, GPFIFO_ENTRIES);
	w32(p, 0x014, (CHID / 8) << 12 | (CHID % 8) << 8);	/* USERD idx */
	w32(p, 0x080, ENGINE_COPY0);
	w64(p, 0x0a8, cp->iova + USERD_OFF);		/* userdMem */
	w64(p, 0x0b0, 0x200);
	w32(p, 0x0b8, 1);				/* sysmem */
	w64(p, 0x0f8, cp->iova + ERRNOT_OFF);		/* errorNotifierMem */
	w64(p, 0x100, 0x1000);
	w32(p, 0x108, 1);
	if ((st = rp_alloc(c, C_CLIENT, C_TSG, C_CHANNEL,
			   HOPPER_CHANNEL_GPFIFO_A, p, sizeof(p))))
		goto bad;
	memset(p, 0, sizeof(p));
	w32(p, 0x04, ENGINE_COPY0);			/* NVB0B5 engineType */
	if ((st = rp_alloc(c, C_CLIENT, C_CHANNEL, C_CE, HOPPER_DMA_COPY_A, p,
			   8)))
		goto bad;
	return 0;
bad:
	printf("FAIL gsp_replay.copy.channel: an allocation answered 0x%x\n",
	       st);
	return -EIO;
}

#define INC(n, m)		(0x20000000u | (n) << 16 | ((m) >> 2))

/* Queue copy @i (source → destination i % 2) and ring the doorbell. */
static void submit(const struct rp_copy *cp, unsigned int i)
{
	uint32_t slot = i % GPFIFO_ENTRIES, pb_off = PB_OFF + slot * PB_SLOT;
	uint64_t src = cp->iova + MIB2, dst = src + cp->bytes * (1 + i % 2);
	const uint32_t pb[] = {
		INC(1, 0x000), HOPPER_DMA_COPY_A,	/* SET_OBJECT */
		INC(2, 0x260), 1, 1,			/* SRC/DST_PHYS: sysmem */
		INC(3, 0x240), 0, SEM_OFF, i + 1,	/* SEMAPHORE_A/B/PAYLOAD */
		INC(4, 0x400), (uint32_t)(src >> 32), (uint32_t)src,
		(uint32_t)(dst >> 32), (uint32_t)dst,	/* OFFSET_IN/OUT */
		INC(1, 0x418), (uint32_t)cp->bytes,	/* LINE_LENGTH_IN */
		/*
		 * LAUNCH_DMA: non-pipelined, flush, one-word semaphore, pitch
		 * both sides, physical source and destination
		 */
		INC(1, 0x300), 0x2 | 0x4 | 1 << 3 | 1 << 7 | 1 << 8 |
			       1 << 12 | 1 << 13,
	};
	uint32_t n = sizeof(pb) / sizeof(pb[0]);

	memcpy(cp->mem + pb_off, pb, sizeof(pb));
	w32(cp->mem, GPFIFO_OFF + 8 * slot, pb_off);
	w32(cp->mem, GPFIFO_OFF + 8 * slot + 4, n << 10);
	__atomic_store_n((uint32_t *)(void *)(cp->mem + USERD_OFF +
					      USERD_GP_PUT),
			 (slot + 1) % GPFIFO_ENTRIES, __ATOMIC_RELEASE);
	cp->t->wr32(cp->t->ctx, DOORBELL, RUNLIST_COPY0 << 16 | CHID);
}

/* Wait until copy @i has released its semaphore; 0 or -errno. */
static int wait_copy(const struct rp_copy *cp, unsigned int i)
{
	uint64_t end = now_ns() + COPY_TIMEOUT_NS;
	struct timespec ts = { 0, 200000 };

	while ((int32_t)(vol32(cp->mem, SEM_OFF) - (i + 1)) < 0) {
		if (vol32(cp->mem, ERRNOT_OFF + 12) >> 16) {
			printf("FAIL gsp_replay.copy.x%u: the channel stopped (error notifier 0x%x, GP_GET %u)\n",
			       i, vol32(cp->mem, ERRNOT_OFF + 12),
			       vol32(cp->mem, USERD_OFF + USERD_GP_GET));
			return -EIO;
		}
		if (now_ns() > end) {
			printf("FAIL gsp_replay.copy.x%u: no semaphore release in %llu s (semaphore %u, GP_GET %u, GP_PUT %u)\n",
			       i, COPY_TIMEOUT_NS / 1000000000ull,
			       vol32(cp->mem, SEM_OFF),
			       vol32(cp->mem, USERD_OFF + USERD_GP_GET),
			       vol32(cp->mem, USERD_OFF + USERD_GP_PUT));
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

static const uint32_t *words(const struct rp_copy *cp, unsigned int which)
{
	return (const uint32_t *)(const void *)(cp->mem + MIB2 +
						cp->bytes * which);
}

/* Before copy @i: its destination's samples hold anything but the source. */
static void scribble(const struct rp_copy *cp, unsigned int i)
{
	uint32_t *d = (uint32_t *)(void *)(cp->mem + MIB2 +
					   cp->bytes * (1 + i % 2));
	uint64_t n = cp->bytes / 4;
	unsigned int s;

	for (s = 0; s < SAMPLES; s++)
		d[sample(i, s, n)] = ~pattern(sample(i, s, n));
}

static int verify(const struct rp_copy *cp, unsigned int i)
{
	const uint32_t *src = words(cp, 0), *dst = words(cp, 1 + i % 2);
	uint64_t n = cp->bytes / 4, k;
	unsigned int s;

	if (!i) {
		for (k = 0; k < n; k++)
			if (dst[k] != src[k])
				goto bad;
		printf("PASS gsp_replay.copy.first: %llu MiB copied, every byte compared\n",
		       (unsigned long long)(cp->bytes >> 20));
		return 0;
	}
	for (s = 0; s < SAMPLES; s++) {
		k = sample(i, s, n);
		if (dst[k] != src[k])
			goto bad;
	}
	return 0;
bad:
	printf("FAIL gsp_replay.copy.x%u: word %llu is 0x%08x, the source has 0x%08x\n",
	       i, (unsigned long long)k, dst[k], src[k]);
	return -EIO;
}

int rp_run_copy(struct rp_client *c, const struct rp_copy *cp)
{
	uint32_t *src = (uint32_t *)(void *)(cp->mem + MIB2);
	uint64_t k, t0;
	unsigned int i;

	if (!cp->bytes || cp->bytes % 0x1000 || cp->bytes > (1ull << 30) ||
	    cp->iova % MIB2 || cp->size < rp_copy_mem_size(cp->bytes) ||
	    cp->size / MIB2 > 256) {
		printf("FAIL gsp_replay.copy.args: bad copy size or memory\n");
		return -EINVAL;
	}
	for (k = 0; k < cp->bytes / 4; k++)
		src[k] = pattern(k);
	build_vm(cp);
	if (make_channel(c, cp))
		return -EIO;
	printf("PASS gsp_replay.copy.channel: chid %u on LCE 0, %u GPFIFO entries\n",
	       CHID, GPFIFO_ENTRIES);
	t0 = now_ns();
	for (i = 0; !cp->n || i < cp->n + 2; i++) {
		/* two in flight: copy i - 2 is done before its buffer is reused */
		if (i >= 2) {
			if (wait_copy(cp, i - 2) || verify(cp, i - 2))
				return -EIO;
			if (i - 2 == 0)
				printf("COPYING\n");
		}
		if (cp->n && i >= cp->n)
			continue;
		if (i)
			scribble(cp, i);
		submit(cp, i);
	}
	printf("PASS gsp_replay.copy.x%u: %llu MiB each, the first compared in full, %u words of each other one, %.1f MiB/s\n",
	       cp->n, (unsigned long long)(cp->bytes >> 20), SAMPLES,
	       (double)(cp->bytes >> 20) * cp->n * 1e9 /
	       (double)(now_ns() - t0 + 1));
	if (rp_free_obj(c, C_CLIENT, C_CLIENT)) {
		printf("FAIL gsp_replay.copy.free: FREE of the client failed\n");
		return -EIO;
	}
	return 0;
}
