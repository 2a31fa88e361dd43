/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A randomized hostile VFIO client (issue 12 §2, the vgsp.ko device fd):
 * region reads and writes at any offset and size on every region index
 * (config space included, indexes past the last region, huge offsets),
 * every device ioctl with hostile arguments (argsz, flags, index, start,
 * count out of range; eventfds that are -1, closed, not eventfds, huge),
 * unknown ioctl numbers, and type1 MAP/UNMAP_DMA with overlapping, huge,
 * unaligned and wrapping ranges, from several threads at once, with the
 * device fd closed and reopened between rounds. The PRNG is seeded from
 * the command line and the seed printed, so a run can be repeated.
 *
 * The kernel must answer every call (a call slower than 5 s fails the run)
 * and never crash; afterwards the device must still be the device (identity,
 * BAR0 BOOT_0, BAR1 data, region sizes) and the bad-input counters must
 * show that the reject paths were reached. The case script checks the rest
 * (a golden GSP replay on the same instance, dmesg, slab after removal).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
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

#define FZ_IOVA		0x80000000ULL
#define FZ_DMA_SIZE	(4 * MIB)
#define FZ_RESV_SIZE	(64 * MIB)	/* PROT_NONE: DMA into it faults */
#define FZ_BUF		16384
#define FZ_SLOW_NS	5000000000LL
#define FZ_THREADS	2

enum { OP_RD, OP_WR, OP_IOCTL, OP_DMA, OP_GSP, OP_NCLASS };
static const char *const op_name[OP_NCLASS] = { "read", "write", "ioctl", "dma", "gsp" };
#define FZ_ARENA	(1 * MIB)	/* the replay client's boot arena and queues */

struct fz_shared {
	struct vdev *d;
	uint8_t *dma;		/* FZ_DMA_SIZE of guest memory, mapped at FZ_IOVA */
	uint8_t *resv;		/* PROT_NONE reservation */
	int efd[3];		/* live eventfds */
	int nullfd;		/* an fd that is not an eventfd */
	int closedfd;		/* a number that names no fd */
	uint64_t deadline;
	bool booted;		/* this round started with a GSP boot */
	int irqfd;		/* MSI-X vector 0, for the replay client's boot */
};

struct fz {
	struct fz_shared *sh;
	pthread_t tid;
	uint64_t s;
	unsigned long ops[OP_NCLASS], okc[OP_NCLASS];
	long long slow_ns;
	char slow_op[96];
	uint8_t buf[FZ_BUF];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* splitmix64 */
static uint64_t rnd(struct fz *f)
{
	uint64_t z = (f->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(struct fz *f, uint64_t n)
{
	return n ? rnd(f) % n : 0;
}

static bool chance(struct fz *f, unsigned int pct)
{
	return below(f, 100) < pct;
}

/* BAR0 registers that start something: GSP/FSP boot and queues, doorbells, interrupts, MSI-X. */
static const uint32_t hot_bar0[] = {
	0x000000, 0x000200, 0x000a00, 0x0200bc, 0x110000, 0x110040, 0x110044,
	0x110080, 0x110100, 0x110c00, 0x110c04, 0x110c80, 0x110c84, 0x111388,
	0x8f2ac0, 0x8f2ac4, 0x8f2c00, 0x8f2c04, 0x8f2c80, 0x8f2c84, 0xb81000,
	0xb81200, 0xb81608, 0xb81640, 0xbb0090, 0xb90000, 0xb9000c, 0xba0000,
	0x100cb8, 0x100cbc, 0x1700, 0x88000,
};

static uint32_t rnd_size(struct fz *f)
{
	static const uint32_t sz[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 64,
				       256, 4095, 4096, 4097, 8192, FZ_BUF };

	if (chance(f, 70))
		return chance(f, 80) ? 1u << below(f, 4) : sz[below(f, sizeof(sz) / sizeof(sz[0]))];
	return (uint32_t)below(f, FZ_BUF + 1);
}

static uint64_t rnd_off(struct fz *f, unsigned int idx, uint64_t size)
{
	switch (below(f, 8)) {
	case 0: case 1:
		return size ? below(f, size) : below(f, 4096);
	case 2:
		return size - below(f, 17);		/* at and around the end */
	case 3:
		if (idx == 0)
			return hot_bar0[below(f, sizeof(hot_bar0) / 4)] + 4 * below(f, 4);
		return below(f, 256);
	case 4:
		return below(f, 17);
	case 5:
		return below(f, 1ull << 40);		/* anywhere in the region window */
	case 6:
		return (size ? below(f, size) : 0) & ~3ull;
	default:
		return size + below(f, 1 << 20);		/* past the end */
	}
}

static unsigned int rnd_region(struct fz *f)
{
	static const unsigned int live[] = { 0, 0, 0, 1, 3, 7, 7 };

	if (chance(f, 60))
		return live[below(f, sizeof(live) / sizeof(live[0]))];
	if (chance(f, 60))
		return (unsigned int)below(f, VFIO_PCI_NUM_REGIONS);
	if (chance(f, 70))
		return VFIO_PCI_NUM_REGIONS + (unsigned int)below(f, 8);
	return (unsigned int)below(f, 1u << 22);	/* off_t stays positive */
}

/* A value a BAR0 register write might carry: DMA addresses, small numbers, masks. */
static void fill_value(struct fz *f, uint8_t *p, uint32_t len)
{
	uint64_t v;

	switch (below(f, 6)) {
	case 0:
		v = FZ_IOVA + (below(f, FZ_DMA_SIZE) & ~0xfffull);
		break;
	case 1:
		v = below(f, 64);
		break;
	case 2:
		v = ~0ull;
		break;
	case 3:
		v = 0;
		break;
	default:
		for (uint32_t i = 0; i < len; i++)
			p[i] = (uint8_t)rnd(f);
		return;
	}
	for (uint32_t i = 0; i < len; i++)
		p[i] = (uint8_t)(v >> (8 * (i % 8)));
}

static void op_region(struct fz *f, bool write)
{
	struct vdev *d = f->sh->d;
	unsigned int idx = rnd_region(f);
	uint64_t size = idx < VFIO_PCI_NUM_REGIONS ? d->reg[idx].size : 0;
	uint64_t off = rnd_off(f, idx, size) & ((1ull << 40) - 1);
	uint32_t len = rnd_size(f);
	off_t pos = (off_t)((uint64_t)idx << 40 | off);
	ssize_t n;

	if (write) {
		fill_value(f, f->buf, len);
		/* keep the device decoding and mastering most of the time */
		if (idx == VFIO_PCI_CONFIG_REGION_INDEX && off <= 4 && off + len > 4 && chance(f, 80))
			f->buf[4 - off] |= 0x06;
		n = pwrite(d->fd, f->buf, len, pos);
	} else {
		n = pread(d->fd, f->buf, len, pos);
	}
	snprintf(f->slow_op + 48, 48, "%s r%u+0x%llx/%u", write ? "wr" : "rd", idx,
		 (unsigned long long)off, len);
	f->okc[write ? OP_WR : OP_RD] += n >= 0;
}

/* An eventfd-list entry: valid, -1, a closed number, not an eventfd, huge, random. */
static int32_t rnd_fd(struct fz *f)
{
	switch (below(f, 8)) {
	case 0: case 1: case 2:
		return f->sh->efd[below(f, 3)];
	case 3:
		return -1;
	case 4:
		return f->sh->closedfd;
	case 5:
		return f->sh->nullfd;
	case 6:
		return 1 << 20;
	default:
		return (int32_t)rnd(f);
	}
}

static uint32_t rnd_u32(struct fz *f, uint32_t sane)
{
	switch (below(f, 6)) {
	case 0: case 1: case 2:
		return (uint32_t)below(f, sane + 2);
	case 3:
		return 0;
	case 4:
		return 0xffffffffu - (uint32_t)below(f, 4);
	default:
		return (uint32_t)rnd(f);
	}
}

static void *rnd_ptr(struct fz *f, void *good)
{
	switch (below(f, 20)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)1;
	case 2:
		return f->sh->resv;	/* PROT_NONE */
	default:
		return good;
	}
}

static void op_ioctl(struct fz *f)
{
	struct vdev *d = f->sh->d;
	uint8_t *b = f->buf;
	unsigned long cmd;
	int r = -1;

	for (unsigned int i = 0; i < 64; i++)
		b[i] = (uint8_t)rnd(f);
	switch (below(f, 9)) {
	case 0: {
		struct vfio_device_info *p = (void *)b;

		p->argsz = rnd_u32(f, sizeof(*p));
		cmd = VFIO_DEVICE_GET_INFO;
		break;
	}
	case 1: {
		struct vfio_region_info *p = (void *)b;

		p->argsz = rnd_u32(f, sizeof(*p));
		p->index = rnd_u32(f, VFIO_PCI_NUM_REGIONS);
		cmd = VFIO_DEVICE_GET_REGION_INFO;
		break;
	}
	case 2: {
		struct vfio_irq_info *p = (void *)b;

		p->argsz = rnd_u32(f, sizeof(*p));
		p->index = rnd_u32(f, VFIO_PCI_NUM_IRQS);
		cmd = VFIO_DEVICE_GET_IRQ_INFO;
		break;
	}
	case 3: case 4: case 5: {
		static const uint32_t dt[] = { VFIO_IRQ_SET_DATA_NONE, VFIO_IRQ_SET_DATA_BOOL,
					       VFIO_IRQ_SET_DATA_EVENTFD };
		static const uint32_t at[] = { VFIO_IRQ_SET_ACTION_MASK, VFIO_IRQ_SET_ACTION_UNMASK,
					       VFIO_IRQ_SET_ACTION_TRIGGER };
		struct vfio_irq_set *p = (void *)b;
		uint32_t count = rnd_u32(f, 12), room = (FZ_BUF - sizeof(*p)) / 4;

		p->flags = chance(f, 85) ? dt[below(f, 3)] | at[below(f, 3)] : (uint32_t)rnd(f);
		p->index = rnd_u32(f, VFIO_PCI_NUM_IRQS);
		p->start = rnd_u32(f, 10);
		p->count = count;
		for (uint32_t i = 0; i < room && i < 64; i++) {
			int32_t v = (p->flags & VFIO_IRQ_SET_DATA_BOOL) ? (int32_t)below(f, 3) : rnd_fd(f);

			memcpy(p->data + 4 * i, &v, 4);
		}
		p->argsz = chance(f, 70) ? (uint32_t)(sizeof(*p) + 4 * (count < 64 ? count : 64)) :
					   rnd_u32(f, FZ_BUF);
		if (p->argsz > FZ_BUF && chance(f, 70))
			p->argsz = FZ_BUF;
		cmd = VFIO_DEVICE_SET_IRQS;
		break;
	}
	case 6:
		cmd = chance(f, 5) ? VFIO_DEVICE_RESET : VFIO_DEVICE_GET_INFO;
		break;
	case 7: {
		struct vfio_device_feature *p = (void *)b;

		p->argsz = rnd_u32(f, 64);
		p->flags = (uint32_t)rnd(f) & (chance(f, 50) ? 0xffffffffu :
				VFIO_DEVICE_FEATURE_MASK | VFIO_DEVICE_FEATURE_GET |
				VFIO_DEVICE_FEATURE_SET | VFIO_DEVICE_FEATURE_PROBE);
		cmd = VFIO_DEVICE_FEATURE;
		break;
	}
	default:
		/* Unknown and unimplemented VFIO numbers, with any direction and size bits. */
		cmd = _IOC((unsigned int)below(f, 4), VFIO_TYPE, VFIO_BASE + (unsigned int)below(f, 48),
			   (unsigned int)below(f, 256));
		if (cmd == VFIO_DEVICE_RESET)
			cmd = VFIO_DEVICE_GET_INFO;
		break;
	}
	snprintf(f->slow_op + 48, 48, "ioctl 0x%lx argsz %u", cmd, *(uint32_t *)b);
	r = ioctl(d->fd, cmd, rnd_ptr(f, b));
	f->okc[OP_IOCTL] += r >= 0;
}

static uint64_t rnd_iova(struct fz *f)
{
	switch (below(f, 7)) {
	case 0: case 1: case 2:
		return FZ_IOVA - 8 * MIB + (below(f, 24 * MIB) & ~0xfffull);
	case 3:
		return FZ_IOVA + below(f, FZ_DMA_SIZE);		/* unaligned */
	case 4:
		return ~0ull - (below(f, 16) << 12) + 1;		/* wraps */
	case 5:
		return 0;
	default:
		return rnd(f) & ~0xfffull;
	}
}

static uint64_t rnd_len(struct fz *f)
{
	switch (below(f, 7)) {
	case 0: case 1: case 2:
		return (below(f, 4 * MIB) + 1) & ~0xfffull;
	case 3:
		return 1ull << (12 + below(f, 36));	/* up to 128 TiB */
	case 4:
		return below(f, 2 * MIB) | 1;		/* unaligned */
	case 5:
		return 0;
	default:
		return ~0ull - below(f, 4096);
	}
}

static void op_dma(struct fz *f)
{
	struct fz_shared *sh = f->sh;
	int r;

	if (chance(f, 55)) {
		struct vfio_iommu_type1_dma_map m = {
			.argsz = chance(f, 90) ? sizeof(m) : rnd_u32(f, sizeof(m)),
			.flags = chance(f, 85) ? VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE :
						 (uint32_t)rnd(f),
			.iova = rnd_iova(f),
			.size = rnd_len(f),
		};

		switch (below(f, 5)) {
		case 0: case 1:
			m.vaddr = (uintptr_t)sh->dma + (below(f, FZ_DMA_SIZE) & ~0xfffull);
			break;
		case 2:
			m.vaddr = (uintptr_t)sh->resv + (below(f, FZ_RESV_SIZE) & ~0xfffull);
			break;
		case 3:
			m.vaddr = (uintptr_t)sh->dma + below(f, 4096);
			break;
		default:
			m.vaddr = rnd(f) & ~0xfffull;
			break;
		}
		/* never a window bigger than the reservation behind a real buffer */
		snprintf(f->slow_op + 48, 48, "map 0x%llx+0x%llx", (unsigned long long)m.iova,
			 (unsigned long long)m.size);
		r = ioctl(sh->d->container, VFIO_IOMMU_MAP_DMA, rnd_ptr(f, &m));
	} else {
		struct vfio_iommu_type1_dma_unmap u = {
			.argsz = chance(f, 90) ? sizeof(u) : rnd_u32(f, sizeof(u)),
			.flags = chance(f, 85) ? 0 : (uint32_t)rnd(f) & 7,
			.iova = rnd_iova(f),
			.size = rnd_len(f),
		};

		if (u.flags & VFIO_DMA_UNMAP_FLAG_ALL)
			u.iova = u.size = 0;
		snprintf(f->slow_op + 48, 48, "unmap 0x%llx+0x%llx", (unsigned long long)u.iova,
			 (unsigned long long)u.size);
		r = ioctl(sh->d->container, VFIO_IOMMU_UNMAP_DMA, rnd_ptr(f, &u));
	}
	f->okc[OP_DMA] += r >= 0;
}

/*
 * With the GSP booted (the replay client's boot at the round's start), the
 * queues live in the first pages of the DMA buffer: scribble on them (queue
 * headers, message headers, payloads, the page table) and ring the GSP
 * doorbell, so the kernel worker decodes hostile queue contents.
 */
static void op_gsp(struct fz *f)
{
	struct fz_shared *sh = f->sh;
	uint32_t n = 1 + (uint32_t)below(f, 64), off = (uint32_t)below(f, FZ_ARENA - 64);
	uint32_t db = chance(f, 80) ? 0x110c00 : 0xbb0090;

	if (chance(f, 50))
		off &= ~0xfffu;		/* page and header starts */
	for (uint32_t i = 0; i < n; i++)
		sh->dma[off + i] = chance(f, 30) ? 0 : chance(f, 30) ? 0xff : (uint8_t)rnd(f);
	snprintf(f->slow_op + 48, 48, "gsp 0x%x+%u bell 0x%x", off, n, db);
	f->okc[OP_GSP] += bar_wr32(sh->d, 0, db, (uint32_t)below(f, 4)) == 0;
}

static void *fz_run(void *p)
{
	struct fz *f = p;

	while (now_ns() < f->sh->deadline) {
		uint64_t t0 = now_ns(), w = below(f, 100);
		int cls = w < 30 ? OP_RD : w < 55 ? OP_WR : w < 78 ? OP_IOCTL : w < 88 ? OP_DMA :
			  f->sh->booted ? OP_GSP : OP_WR;
		long long dt;

		f->ops[cls]++;
		if (cls == OP_RD || cls == OP_WR)
			op_region(f, cls == OP_WR);
		else if (cls == OP_IOCTL)
			op_ioctl(f);
		else if (cls == OP_DMA)
			op_dma(f);
		else
			op_gsp(f);
		dt = (long long)(now_ns() - t0);
		if (dt > f->slow_ns) {
			f->slow_ns = dt;
			memcpy(f->slow_op, f->slow_op + 48, 48);
		}
	}
	return NULL;
}

/*
 * The base DMA window, so device DMA has somewhere real to go: every fourth round drops
 * every mapping the earlier rounds left (UNMAP_FLAG_ALL), the others only what lies over
 * the window's range (if a mapping straddles its ends, type1v2 refuses and the round runs
 * with the hostile mapping).
 */
static void map_base(struct fz_shared *sh, bool all)
{
	struct vfio_iommu_type1_dma_unmap u = { .argsz = sizeof(u), .iova = FZ_IOVA,
						.size = FZ_DMA_SIZE };
	struct vfio_iommu_type1_dma_map m = {
		.argsz = sizeof(m), .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uintptr_t)sh->dma, .iova = FZ_IOVA, .size = FZ_DMA_SIZE,
	};

	if (all) {
		u.flags = VFIO_DMA_UNMAP_FLAG_ALL;
		u.iova = u.size = 0;
	}
	ioctl(sh->d->container, VFIO_IOMMU_UNMAP_DMA, &u);
	ioctl(sh->d->container, VFIO_IOMMU_MAP_DMA, &m);
}

/* The replay client's transport over the fuzz client's own device and DMA buffer. */
static struct fz_shared *tp_sh;

static uint32_t tp_rd32(void *ctx, uint32_t off)
{
	return bar_rd32(ctx, 0, off);
}

static void tp_wr32(void *ctx, uint32_t off, uint32_t val)
{
	bar_wr32(ctx, 0, off, val);
}

static int tp_mem_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	(void)ctx;
	if (size > FZ_ARENA)
		return -ENOMEM;
	memset(tp_sh->dma, 0, size);
	*va = tp_sh->dma;
	*iova = FZ_IOVA;
	return 0;
}

static int tp_wait_irq(void *ctx, unsigned int ms)
{
	struct pollfd p = { .fd = tp_sh->irqfd, .events = POLLIN };
	uint64_t cnt;

	(void)ctx;
	if (poll(&p, 1, (int)ms) != 1)
		return -ETIMEDOUT;
	return read(tp_sh->irqfd, &cnt, sizeof(cnt)) == sizeof(cnt) ? 0 : -EIO;
}

static uint64_t tp_now(void *ctx)
{
	(void)ctx;
	return now_ns();
}

static int tp_reset(void *ctx)
{
	return ioctl(((struct vdev *)ctx)->fd, VFIO_DEVICE_RESET) ? -errno : 0;
}

static int tp_bus_master(void *ctx)
{
	return cfg_w16(ctx, 4, 0x0006);
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

/* FSP/GSP boot, version handshake, static info, then RPCs; 0 when the GSP answers. */
static int gsp_boot(struct fz_shared *sh, unsigned long *pings)
{
	struct rp_transport t = {
		.ctx = sh->d, .rd32 = tp_rd32, .wr32 = tp_wr32, .mem_alloc = tp_mem_alloc,
		.wait_irq = tp_wait_irq, .now_ns = tp_now, .reset = tp_reset,
		.bus_master = tp_bus_master,
	};
	int32_t fd = sh->irqfd;
	struct rp_client *c;
	int r;

	parse_uuid(sh->d->uuid, t.uuid);
	tp_sh = sh;
	set_irqs(sh->d, VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
		 VFIO_PCI_MSIX_IRQ_INDEX, 0, 1, &fd, sizeof(fd));
	c = rp_new(&t);
	if (!c)
		return -ENOMEM;
	r = rp_boot(c);
	for (int i = 0; !r && i < 5; i++)
		if (!rp_ping(c, NULL, NULL))
			(*pings)++;
	rp_free(c);
	return r;
}

static int reopen(struct vdev *d)
{
	close(d->fd);
	d->fd = ioctl(d->group, VFIO_GROUP_GET_DEVICE_FD, d->uuid);
	return d->fd < 0 ? -errno : 0;
}

int cmd_fuzz(const char *uuid, uint64_t seed, unsigned int secs)
{
	static struct fz fz[FZ_THREADS];
	struct fz_shared sh = { 0 };
	struct vdev d;
	struct ctrs c0, c1;
	unsigned long tot[OP_NCLASS] = { 0 }, okt[OP_NCLASS] = { 0 }, rounds = 0, reopens = 0;
	unsigned long tries = 0, boots = 0, pings = 0;
	long long slow = 0;
	char slow_op[48] = "";
	uint64_t sizes[VFIO_PCI_NUM_REGIONS], end;
	uint32_t boot0, v;
	unsigned long long bad;
	int r;

	printf("# vfio-fuzz seed %llu, %u s, %d threads\n", (unsigned long long)seed, secs,
	       FZ_THREADS);
	if (vdev_open(&d, uuid, true))
		return 1;
	sh.d = &d;
	sh.dma = mmap(NULL, FZ_DMA_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	sh.resv = mmap(NULL, FZ_RESV_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (sh.dma == MAP_FAILED || sh.resv == MAP_FAILED) {
		fail("fuzz.setup", "mmap: %s", strerror(errno));
		return 1;
	}
	for (int i = 0; i < 3; i++)
		sh.efd[i] = eventfd(0, EFD_NONBLOCK);
	sh.nullfd = open("/dev/null", O_RDWR);
	sh.irqfd = eventfd(0, EFD_NONBLOCK);
	sh.closedfd = dup(sh.nullfd);
	close(sh.closedfd);
	for (unsigned int i = 0; i < VFIO_PCI_NUM_REGIONS; i++)
		sizes[i] = d.reg[i].size;
	boot0 = bar_rd32(&d, 0, BAR0_BOOT0);
	ctrs_read(uuid, &c0);
	{
		/* random bytes with plausible pointers: boot args and queues point into it */
		struct fz s0 = { .s = seed ^ 0xd1ce };

		for (size_t i = 0; i < FZ_DMA_SIZE; i += 8) {
			uint64_t x = chance(&s0, 10) ? FZ_IOVA + (below(&s0, FZ_DMA_SIZE) & ~0xfffull) :
				     chance(&s0, 50) ? below(&s0, 0x10000) : rnd(&s0);

			memcpy(sh.dma + i, &x, 8);
		}
	}

	end = now_ns() + (uint64_t)secs * 1000000000ull;
	while (now_ns() < end) {
		map_base(&sh, rounds % 4 == 0);
		cfg_w16(&d, 4, 0x0006);		/* memory decode + bus master */
		sh.booted = false;
		if (rounds % 2 == 0) {
			tries++;
			if (!gsp_boot(&sh, &pings)) {
				boots++;
				sh.booted = true;
			}
		}
		sh.deadline = now_ns() + 2000000000ull;
		if (sh.deadline > end)
			sh.deadline = end;
		for (int i = 0; i < FZ_THREADS; i++) {
			fz[i].sh = &sh;
			fz[i].s = seed * 0x100000001b3ull + (uint64_t)i + rounds * 7919;
			pthread_create(&fz[i].tid, NULL, fz_run, &fz[i]);
		}
		for (int i = 0; i < FZ_THREADS; i++)
			pthread_join(fz[i].tid, NULL);
		rounds++;
		/* close and reopen the device fd with whatever state the round left */
		if ((r = reopen(&d))) {
			fail("fuzz.reopen", "round %lu: %s", rounds, strerror(-r));
			return 1;
		}
		reopens++;
	}
	for (int i = 0; i < FZ_THREADS; i++) {
		for (int k = 0; k < OP_NCLASS; k++) {
			tot[k] += fz[i].ops[k];
			okt[k] += fz[i].okc[k];
		}
		if (fz[i].slow_ns > slow) {
			slow = fz[i].slow_ns;
			memcpy(slow_op, fz[i].slow_op, sizeof(slow_op));
			slow_op[47] = 0;
		}
	}
	printf("# vfio-fuzz %lu rounds, %lu reopens, GSP booted in %lu of %lu (%lu RPCs answered);",
	       rounds, reopens, boots, tries, pings);
	for (int k = 0; k < OP_NCLASS; k++)
		printf(" %s %lu (%lu ok)", op_name[k], tot[k], okt[k]);
	printf("; slowest call %.1f ms (%s)\n", slow / 1e6, slow_op);
	check(tot[OP_RD] + tot[OP_WR] + tot[OP_IOCTL] + tot[OP_DMA] >= 1000 &&
	      tot[OP_DMA] && tot[OP_IOCTL], "fuzz.ran", "only %lu/%lu/%lu/%lu calls",
	      tot[OP_RD], tot[OP_WR], tot[OP_IOCTL], tot[OP_DMA]);
	check(boots > 0 && tot[OP_GSP] > 0, "fuzz.gsp_booted", "GSP booted in %lu of %lu rounds",
	      boots, tries);
	check(slow < FZ_SLOW_NS, "fuzz.every_call_returned", "slowest call %.1f ms (%s)",
	      slow / 1e6, slow_op);

	/* The device is still the device. */
	ioctl(d.fd, VFIO_DEVICE_RESET);
	d.info.argsz = sizeof(d.info);
	r = ioctl(d.fd, VFIO_DEVICE_GET_INFO, &d.info);
	check(!r && d.info.num_regions == VFIO_PCI_NUM_REGIONS && d.info.num_irqs == VFIO_PCI_NUM_IRQS,
	      "fuzz.after.device_info", "r=%d regions %u irqs %u", r, d.info.num_regions,
	      d.info.num_irqs);
	r = 0;
	for (unsigned int i = 0; i < VFIO_PCI_NUM_REGIONS; i++) {
		struct vfio_region_info ri = { .argsz = sizeof(ri), .index = i };

		if (ioctl(d.fd, VFIO_DEVICE_GET_REGION_INFO, &ri) || ri.size != sizes[i])
			r++;
	}
	check(!r, "fuzz.after.region_sizes", "%d regions changed", r);
	check(cfg32(&d, 0) == (VGSP_DEVICE << 16 | VGSP_VENDOR) && cfg32(&d, 8) == VGSP_CLASSREV,
	      "fuzz.after.identity", "id 0x%08x class 0x%08x", cfg32(&d, 0), cfg32(&d, 8));
	v = bar_rd32(&d, 0, BAR0_BOOT0);
	check(v == boot0 && boot0 != 0xffffffffu, "fuzz.after.boot0", "0x%08x, was 0x%08x", v,
	      boot0);
	r = bar_wr32(&d, 1, 0x2000, 0xf022c0de);
	v = bar_rd32(&d, 1, 0x2000);
	check(!r && v == 0xf022c0de, "fuzz.after.bar1", "r=%d read 0x%08x", r, v);

	ctrs_read(uuid, &c1);
	bad = 0;
	for (unsigned int i = 0; i < c1.n && i < c0.n; i++)
		if (!strcmp(c1.name[i], "region_bad") || !strcmp(c1.name[i], "ioctl_bad") ||
		    !strcmp(c1.name[i], "cfg_bad") || !strcmp(c1.name[i], "bar0_bad") ||
		    !strcmp(c1.name[i], "bar_bad"))
			bad += c1.val[i] - c0.val[i];
	printf("# vfio-fuzz counters moved:");
	for (unsigned int i = 0; i < c1.n && i < c0.n; i++)
		if (c1.val[i] != c0.val[i])
			printf(" %s +%llu", c1.name[i], c1.val[i] - c0.val[i]);
	printf("\n");
	check(bad > 0, "fuzz.rejects_counted", "no bad-input counter moved");
	vdev_close(&d);
	for (int i = 0; i < 3; i++)
		close(sh.efd[i]);
	close(sh.nullfd);
	close(sh.irqfd);
	munmap(sh.dma, FZ_DMA_SIZE);
	munmap(sh.resv, FZ_RESV_SIZE);
	return n_fail != 0;
}
