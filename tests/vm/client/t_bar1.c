/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BAR1 mapped by the user (vgsp.ko bar1_mmap=1; kernel/core/mm/bar1_map.h):
 * REGION_INFO's MMAP flag and tagged offset, what mmap refuses, that bytes
 * written through the mapping are the ones trapped BAR1 accesses see and
 * the other way round, that a page the store cannot back reads the dummy
 * pattern and is counted instead of killing the process, that a reset
 * zeroes (and re-faults) the mapping and gives the pinned memory back.
 * Then, with the GSP booted by the replay client (static info: BAR1
 * translates through GSP-RM's root), page tables written through PRAMIN:
 * an FB page seen both ways, a PTE change + MMU invalidate moving the
 * mapping, and the doorbell page (PTE kind SMSKED_MESSAGE): a write through
 * the mapping is a doorbell the core counts, re-armed so a second write
 * faults again. (Unit level: tests/unit/test_bar1_map.c.)
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "rig.h"
#include "../../replay/replay.h"

#define CHUNK		(64 * 1024)
#define FLAT_CAP	(64ULL << 20)	/* the flat BAR1 aperture's backing cap */
#define DUMMY_WORD	0xbad1bad1U
#define DMA_IOVA	0x80000000ULL
#define DMA_SIZE	(1 << 20)	/* the replay client's arena and queues */
#define PRAMIN		0x700000	/* BAR0: 1 MiB of FB at the window */
#define PRAMIN_WINDOW	0x10fd40	/* NV_XAL_EP_BAR0_WINDOW, FB >> 16 */
#define INVALIDATE	0xb830b0	/* VF MMU_INVALIDATE, bit 31 triggers */
#define FB_A		0x1000000ULL
#define FB_B		0x1100000ULL
#define PTE_SYS		(2ULL << 1)
#define PTE_MSG		(0xfULL << 8)

static uint32_t mem32(const volatile uint8_t *m, uint64_t off)
{
	return *(const volatile uint32_t *)(m + off);
}

/* A "key value" line of the instance's debugfs mm view; -1 if absent. */
static long long mm_key(const char *uuid, const char *key)
{
	char path[128], line[128];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgsp/%s/mm", uuid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ')
			v = strtoll(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

static void *map(struct vdev *d, uint64_t pos, size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, d->fd, (off_t)pos);
}

void t_bar1_translated(struct vdev *d);

static void refusals(struct vdev *d, uint64_t size)
{
	uint64_t base = d->reg[1].offset;
	void *p;

	p = map(d, base, 4096, MAP_PRIVATE);
	check(p == MAP_FAILED && errno == EINVAL, "bar1map.refuse_private", "mmap %s",
	      p == MAP_FAILED ? "failed" : "succeeded");
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = map(d, base + size - 4096, 8192, MAP_SHARED);
	check(p == MAP_FAILED && errno == EINVAL, "bar1map.refuse_past_end", "mmap %s",
	      p == MAP_FAILED ? "failed" : "succeeded");
	if (p != MAP_FAILED)
		munmap(p, 8192);
	/* the untagged offset is not this instance's BAR1 */
	p = map(d, 1ULL << 40, 4096, MAP_SHARED);
	check(p == MAP_FAILED && errno == EINVAL, "bar1map.refuse_untagged", "mmap %s",
	      p == MAP_FAILED ? "failed" : "succeeded");
	if (p != MAP_FAILED)
		munmap(p, 4096);
}

void t_bar1(struct vdev *d)
{
	uint64_t size = d->reg[1].size, off;
	volatile uint8_t *m;
	long long f0, n0, mem0;
	uint32_t v;
	int r;

	check((d->reg[1].flags & VFIO_REGION_INFO_FLAG_MMAP) && size >= 2 * FLAT_CAP &&
	      d->reg[1].offset != 1ULL << 40 && (d->reg[1].offset >> 40 & 0xf) == 1,
	      "bar1map.info", "flags 0x%x size 0x%llx offset 0x%llx", d->reg[1].flags,
	      (unsigned long long)size, (unsigned long long)d->reg[1].offset);
	refusals(d, size);
	m = map(d, d->reg[1].offset, size, MAP_SHARED);
	if (!check(m != MAP_FAILED, "bar1map.map", "errno %d", errno))
		return;
	f0 = mm_key(d->uuid, "bar1_map_faults");
	mem0 = mm_key(d->uuid, "bar1_map_mem");
	/* flat BAR1 (no GSP): the mapping is what the trapped path sees */
	*(volatile uint32_t *)(m + 0x1000) = 0x5eedf00d;
	v = bar_rd32(d, 1, 0x1000);
	check(v == 0x5eedf00d, "bar1map.write_map_read_trap", "trap 0x%08x", v);
	r = bar_wr32(d, 1, 0x2004, 0xa5a55a5a);
	check(!r && mem32(m, 0x2004) == 0xa5a55a5a, "bar1map.write_trap_read_map",
	      "r=%d map 0x%08x", r, mem32(m, 0x2004));
	/* a page faulted for a read, then written through the mapping */
	v = mem32(m, 0x3000);
	*(volatile uint32_t *)(m + 0x3000) = 0x0ddba11;
	check(v == 0 && bar_rd32(d, 1, 0x3000) == 0x0ddba11, "bar1map.read_then_write",
	      "before 0x%08x trap 0x%08x", v, bar_rd32(d, 1, 0x3000));
	check(mm_key(d->uuid, "bar1_map_faults") > f0 &&
	      mm_key(d->uuid, "bar1_map_mem") > mem0, "bar1map.faults_counted",
	      "faults %lld -> %lld mem %lld -> %lld", f0, mm_key(d->uuid, "bar1_map_faults"),
	      mem0, mm_key(d->uuid, "bar1_map_mem"));
	/* past the flat aperture's backing cap: the dummy page, counted */
	n0 = mm_key(d->uuid, "bar1_map_nomem");
	for (off = 0; off < FLAT_CAP; off += CHUNK)
		(void)mem32(m, off + 0x800);
	v = mem32(m, FLAT_CAP + 0x10);
	check(v == DUMMY_WORD && mm_key(d->uuid, "bar1_map_nomem") > n0,
	      "bar1map.dummy_past_cap", "read 0x%08x nomem %lld -> %lld", v, n0,
	      mm_key(d->uuid, "bar1_map_nomem"));
	*(volatile uint32_t *)(m + FLAT_CAP + 0x10) = 1;	/* dropped, no SIGBUS */
	check(mem32(m, 0x1000) == 0x5eedf00d, "bar1map.data_kept", "0x%08x",
	      mem32(m, 0x1000));
	/* a reset zaps and zeroes; the next access faults again */
	f0 = mm_key(d->uuid, "bar1_map_faults");
	r = ioctl(d->fd, VFIO_DEVICE_RESET) ? -errno : 0;
	check(!r && mm_key(d->uuid, "bar1_map_zaps") > 0, "bar1map.reset_zaps", "r=%d zaps %lld",
	      r, mm_key(d->uuid, "bar1_map_zaps"));
	check(mem32(m, 0x1000) == 0 && mem32(m, 0x2004) == 0 && bar_rd32(d, 1, 0x1000) == 0,
	      "bar1map.reset_zeroes", "map 0x%08x 0x%08x trap 0x%08x", mem32(m, 0x1000),
	      mem32(m, 0x2004), bar_rd32(d, 1, 0x1000));
	v = mem32(m, FLAT_CAP + 0x10);
	check(v == 0 && mm_key(d->uuid, "bar1_map_faults") > f0, "bar1map.refault_after_reset",
	      "read 0x%08x faults %lld -> %lld", v, f0, mm_key(d->uuid, "bar1_map_faults"));
	munmap((void *)m, size);
	/* every pin ends with the last zap: nothing pinned stays backed */
	r = ioctl(d->fd, VFIO_DEVICE_RESET) ? -errno : 0;
	check(!r, "bar1map.reset_after_unmap", "r=%d", r);
	t_bar1_translated(d);
}

/* ---- translated BAR1: the GSP booted by the replay client ---- */

struct tp {
	struct vdev *d;
	void *dma;
	int irqfd;
};

static uint32_t tp_rd32(void *ctx, uint32_t off)
{
	return bar_rd32(((struct tp *)ctx)->d, 0, off);
}

static void tp_wr32(void *ctx, uint32_t off, uint32_t val)
{
	bar_wr32(((struct tp *)ctx)->d, 0, off, val);
}

static int tp_mem_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	struct tp *t = ctx;

	if (size > DMA_SIZE)
		return -ENOMEM;
	memset(t->dma, 0, size);
	*va = t->dma;
	*iova = DMA_IOVA;
	return 0;
}

static int tp_wait_irq(void *ctx, unsigned int ms)
{
	struct pollfd p = { .fd = ((struct tp *)ctx)->irqfd, .events = POLLIN };
	uint64_t cnt;

	if (poll(&p, 1, (int)ms) != 1)
		return -ETIMEDOUT;
	return read(p.fd, &cnt, sizeof(cnt)) == sizeof(cnt) ? 0 : -EIO;
}

static uint64_t tp_now(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int tp_reset(void *ctx)
{
	return ioctl(((struct tp *)ctx)->d->fd, VFIO_DEVICE_RESET) ? -errno : 0;
}

static int tp_bus_master(void *ctx)
{
	return cfg_w16(((struct tp *)ctx)->d, 4, 0x0006);
}

static void parse_uuid(const char *s, uint8_t out[16])
{
	unsigned int i = 0, x;

	memset(out, 0, 16);
	for (; *s && i < 32; s++) {
		if (*s == '-' || sscanf(s, "%1x", &x) != 1)
			continue;
		out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] | x : x << 4);
		i++;
	}
}

static int gsp_boot(struct tp *tp)
{
	struct rp_transport t = {
		.ctx = tp, .rd32 = tp_rd32, .wr32 = tp_wr32, .mem_alloc = tp_mem_alloc,
		.wait_irq = tp_wait_irq, .now_ns = tp_now, .reset = tp_reset,
		.bus_master = tp_bus_master,
	};
	struct vfio_iommu_type1_dma_map m = {
		.argsz = sizeof(m), .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.iova = DMA_IOVA, .size = DMA_SIZE,
	};
	int32_t fd;
	struct rp_client *c;
	int r;

	tp->dma = mmap(NULL, DMA_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tp->irqfd = eventfd(0, EFD_NONBLOCK);
	if (tp->dma == MAP_FAILED || tp->irqfd < 0)
		return -ENOMEM;
	m.vaddr = (uintptr_t)tp->dma;
	if (ioctl(tp->d->container, VFIO_IOMMU_MAP_DMA, &m))
		return -errno;
	fd = tp->irqfd;
	set_irqs(tp->d, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
		 VFIO_PCI_MSIX_IRQ_INDEX, 0, 1, &fd, sizeof(fd));
	parse_uuid(tp->d->uuid, t.uuid);
	c = rp_new(&t);
	if (!c)
		return -ENOMEM;
	r = rp_boot(c);
	rp_free(c);
	return r;
}

/* FB through the PRAMIN window (trapped BAR0), 8 bytes at a time. */
static void fb_wr64(struct vdev *d, uint64_t pa, uint64_t v)
{
	bar_wr32(d, 0, PRAMIN_WINDOW, (uint32_t)(pa >> 16));
	bar_wr32(d, 0, PRAMIN + (uint32_t)(pa & 0xffff), (uint32_t)v);
	bar_wr32(d, 0, PRAMIN + (uint32_t)(pa & 0xffff) + 4, (uint32_t)(v >> 32));
}

static uint32_t fb_rd32(struct vdev *d, uint64_t pa)
{
	bar_wr32(d, 0, PRAMIN_WINDOW, (uint32_t)(pa >> 16));
	return bar_rd32(d, 0, PRAMIN + (uint32_t)(pa & 0xffff));
}

/* The mm view's "bar1 translated root 0x..." line; 0 while flat. */
static uint64_t bar1_root(const char *uuid)
{
	char path[128], line[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgsp/%s/mm", uuid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "bar1 translated root %llx", &v) == 1)
			break;
	fclose(f);
	return v;
}

static void invalidate(struct vdev *d)
{
	bar_wr32(d, 0, INVALIDATE, 1U << 31);
}

/* Waits up to 5 s for mm key @key to reach @want. */
static long long wait_key(const char *uuid, const char *key, long long want)
{
	long long v = mm_key(uuid, key);

	for (int i = 0; i < 500 && v < want; i++) {
		usleep(10000);
		v = mm_key(uuid, key);
	}
	return v;
}

void t_bar1_translated(struct vdev *d)
{
	struct tp tp = { .d = d, .irqfd = -1 };
	uint64_t size = d->reg[1].size, root, pt;
	volatile uint8_t *m;
	long long z0, db0, db1, ra0, v2;
	int r;

	r = gsp_boot(&tp);
	if (!check(!r, "bar1map.gsp_boot", "rp_boot %d", r))
		goto out;
	/* GSP-RM's BAR1 root (static info); PD3..PD0 and a 4 KiB table below */
	root = bar1_root(d->uuid);
	if (!check(root != 0, "bar1map.translated", "mm view has no translated BAR1 root"))
		goto out;
	pt = root + 0x5000;
	for (unsigned int i = 0; i < 4; i++)
		fb_wr64(d, root + 0x1000 * i, (root + 0x1000 * (i + 1)) | 2);
	fb_wr64(d, root + 0x4000 + 8, pt | 2);
	fb_wr64(d, pt + 8 * 1, FB_A | 1);
	fb_wr64(d, pt + 8 * 2, 0x30000 | PTE_SYS | PTE_MSG | 1);	/* usermode */
	z0 = mm_key(d->uuid, "bar1_map_zaps");
	invalidate(d);
	check(mm_key(d->uuid, "bar1_map_zaps") > z0, "bar1map.invalidate_zaps", "zaps %lld -> %lld",
	      z0, mm_key(d->uuid, "bar1_map_zaps"));
	m = map(d, d->reg[1].offset, size, MAP_SHARED);
	if (!check(m != MAP_FAILED, "bar1map.map_translated", "errno %d", errno))
		goto out;
	*(volatile uint32_t *)(m + 0x1010) = 0xfb00a001;
	check(fb_rd32(d, FB_A + 0x10) == 0xfb00a001 && bar_rd32(d, 1, 0x1010) == 0xfb00a001,
	      "bar1map.map_is_fb", "fb 0x%08x trap 0x%08x", fb_rd32(d, FB_A + 0x10),
	      bar_rd32(d, 1, 0x1010));
	fb_wr64(d, FB_A + 0x20, 0x12345678);
	check(mem32(m, 0x1020) == 0x12345678, "bar1map.fb_is_map", "map 0x%08x", mem32(m, 0x1020));
	/* the PTE moves to another FB page: after the invalidate the old bytes are gone */
	fb_wr64(d, pt + 8 * 1, FB_B | 1);
	invalidate(d);
	check(mem32(m, 0x1010) == 0 && fb_rd32(d, FB_A + 0x10) == 0xfb00a001,
	      "bar1map.pte_change_moves", "map 0x%08x old fb 0x%08x", mem32(m, 0x1010),
	      fb_rd32(d, FB_A + 0x10));
	*(volatile uint32_t *)(m + 0x1014) = 0xfb00b002;
	check(fb_rd32(d, FB_B + 0x14) == 0xfb00b002, "bar1map.new_page_is_fb", "fb 0x%08x",
	      fb_rd32(d, FB_B + 0x14));
	/* the doorbell page: a write is a doorbell (any channel), then re-armed */
	db0 = mm_key(d->uuid, "bar1_map_doorbells");
	ra0 = mm_key(d->uuid, "bar1_map_rearms");
	(void)mem32(m, 0x2000);		/* mapped for reads first */
	*(volatile uint32_t *)(m + 0x2090) = 0x10003;
	/* (a re-arm can land before the faulting store retires: >= 1) */
	check(wait_key(d->uuid, "bar1_map_doorbells", db0 + 1) >= db0 + 1 &&
	      wait_key(d->uuid, "bar1_map_rearms", ra0 + 1) >= ra0 + 1, "bar1map.doorbell_seen",
	      "doorbells %lld -> %lld rearms %lld -> %lld", db0,
	      mm_key(d->uuid, "bar1_map_doorbells"), ra0, mm_key(d->uuid, "bar1_map_rearms"));
	usleep(100000);
	db1 = mm_key(d->uuid, "bar1_map_doorbells");
	*(volatile uint32_t *)(m + 0x2090) = 0x10003;
	v2 = wait_key(d->uuid, "bar1_map_doorbells", db1 + 1);
	check(v2 >= db1 + 1, "bar1map.doorbell_rearmed", "doorbells %lld -> %lld", db1, v2);
	munmap((void *)m, size);
out:
	if (tp.irqfd >= 0)
		close(tp.irqfd);
	ioctl(d->fd, VFIO_DEVICE_RESET);
}
