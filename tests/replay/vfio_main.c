// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * vgsp-gsp-replay: the replay client through VFIO, for the VM tests.
 * Guest memory is anonymous memory mapped with VFIO_IOMMU_MAP_DMA, the
 * interrupt an eventfd on MSI-X vector 0, BAR0 pread/pwrite on the region.
 *
 *   vgsp-gsp-replay UUID init        OpenRM init sequence vs golden init
 *   vgsp-gsp-replay UUID bad         bad-input suite + reset + fresh init
 *   vgsp-gsp-replay UUID bench [N]   RPC round trip vs BAR0 read (p50/p99)
 *   vgsp-gsp-replay UUID copy [N [MIB]]
 *                                    golden init up to its allocations, then
 *                                    a copy channel and N copies of MIB MiB
 *                                    (default 3 of 64; N 0: until killed)
 *
 * Prints "PASS name" / "FAIL name: reason" lines; the transcript goes to
 * /tmp/gsp-replay-<mode>.txt.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/vfio.h>
#include "replay.h"
#include "golden.h"

#define DMA_IOVA	0x80000000ULL
#define COPY_IOVA	0x100000000ULL	/* 2 MiB aligned, apart from the arena */

struct vfio {
	int container, group, fd, efd;
	uint64_t bar0_off, cfg_off;
	void *mem;
	size_t size;
};

static uint32_t v_rd32(void *ctx, uint32_t off)
{
	struct vfio *v = ctx;
	uint32_t val = 0xffffffff;

	if (pread(v->fd, &val, 4, (off_t)(v->bar0_off + off)) != 4)
		return 0xffffffff;
	return val;
}

static void v_wr32(void *ctx, uint32_t off, uint32_t val)
{
	struct vfio *v = ctx;

	if (pwrite(v->fd, &val, 4, (off_t)(v->bar0_off + off)) != 4)
		fprintf(stderr, "bar0 write 0x%x failed: %s\n", off,
			strerror(errno));
}

static int v_mem_alloc(void *ctx, size_t size, void **va, uint64_t *iova)
{
	struct vfio *v = ctx;
	struct vfio_iommu_type1_dma_map map = { .argsz = sizeof(map) };
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
	map.vaddr = (uint64_t)(uintptr_t)p;
	map.iova = DMA_IOVA;
	map.size = size;
	if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map))
		return -errno;
	v->mem = p;
	v->size = size;
	*va = p;
	*iova = DMA_IOVA;
	return 0;
}

static int v_unmap(void *ctx)
{
	struct vfio *v = ctx;
	struct vfio_iommu_type1_dma_unmap um = { .argsz = sizeof(um) };

	um.iova = DMA_IOVA;
	um.size = v->size;
	return ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &um) ? -errno : 0;
}

static int v_remap(void *ctx)
{
	struct vfio *v = ctx;
	struct vfio_iommu_type1_dma_map map = { .argsz = sizeof(map) };

	map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
	map.vaddr = (uint64_t)(uintptr_t)v->mem;
	map.iova = DMA_IOVA;
	map.size = v->size;
	return ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map) ? -errno : 0;
}

static int v_wait_irq(void *ctx, unsigned int ms)
{
	struct vfio *v = ctx;
	struct pollfd pfd = { .fd = v->efd, .events = POLLIN };
	uint64_t cnt;

	if (poll(&pfd, 1, (int)ms) != 1)
		return -ETIMEDOUT;
	if (read(v->efd, &cnt, sizeof(cnt)) != sizeof(cnt))
		return -EIO;
	return 0;
}

static uint64_t v_now(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* pci_set_master(): memory decode + Bus Master Enable. */
static int v_bus_master(void *ctx)
{
	struct vfio *v = ctx;
	uint16_t cmd;

	if (pread(v->fd, &cmd, 2, (off_t)(v->cfg_off + 4)) != 2)
		return -EIO;
	cmd |= 0x06;
	return pwrite(v->fd, &cmd, 2, (off_t)(v->cfg_off + 4)) == 2 ? 0 : -EIO;
}

static int v_reset(void *ctx)
{
	struct vfio *v = ctx;

	return ioctl(v->fd, VFIO_DEVICE_RESET) ? -errno : 0;
}

/* The copy mode's memory: a second DMA window at COPY_IOVA. */
static int map_copy_mem(struct vfio *v, size_t size, uint8_t **va)
{
	struct vfio_iommu_type1_dma_map map = { .argsz = sizeof(map) };
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
	map.vaddr = (uint64_t)(uintptr_t)p;
	map.iova = COPY_IOVA;
	map.size = size;
	if (ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map))
		return -errno;
	*va = p;
	return 0;
}

static int run_copy(struct vfio *v, struct rp_client *c,
		    const struct rp_transport *t, int argc, char **argv)
{
	struct rp_copy cp = { .iova = COPY_IOVA, .t = t, .n = 3 };
	unsigned long mib = 64;
	int ret;

	if (argc > 3)
		cp.n = (unsigned int)strtoul(argv[3], NULL, 0);
	if (argc > 4)
		mib = strtoul(argv[4], NULL, 0);
	if (!mib || mib > 256) {
		printf("FAIL gsp_replay.copy.args: MIB must be 1..256\n");
		return 2;
	}
	cp.bytes = (uint64_t)mib << 20;
	cp.size = rp_copy_mem_size(cp.bytes);
	ret = map_copy_mem(v, cp.size, &cp.mem);
	if (ret) {
		printf("FAIL gsp_replay.copy.memory: %zu bytes: %s\n", cp.size,
		       strerror(-ret));
		return 1;
	}
	printf("copy: %zu MiB mapped at iova 0x%llx\n", cp.size >> 20,
	       (unsigned long long)cp.iova);
	if (rp_open(c)) {
		printf("FAIL gsp_replay.copy.init: %s\n", rp_transcript(c)->buf);
		return 1;
	}
	/* the golden init's transcript up to its allocations */
	if (strncmp(rp_transcript(c)->buf, golden_init,
		    strlen(rp_transcript(c)->buf))) {
		printf("FAIL gsp_replay.copy.init: the transcript is not the golden init's beginning\n");
		return 1;
	}
	printf("PASS gsp_replay.copy.init\n");
	return rp_run_copy(c, &cp) ? 1 : 0;
}

static int parse_uuid(const char *s, uint8_t out[16])
{
	unsigned int i = 0;

	while (*s && i < 32) {
		unsigned int x;

		if (*s == '-') {
			s++;
			continue;
		}
		if (sscanf(s, "%1x", &x) != 1)
			return -1;
		out[i / 2] = (uint8_t)(i % 2 ? out[i / 2] | x : x << 4);
		i++;
		s++;
	}
	return i == 32 ? 0 : -1;
}

static int open_vfio(struct vfio *v, const char *uuid)
{
	char path[PATH_MAX], link[PATH_MAX];
	struct vfio_region_info ri = { .argsz = sizeof(ri) };
	struct {
		struct vfio_irq_set s;
		int32_t fd;
	} irq;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/mdev/devices/%s/iommu_group",
		 uuid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -errno;
	link[n] = 0;
	v->container = open("/dev/vfio/vfio", O_RDWR);
	snprintf(path, sizeof(path), "/dev/vfio/%s", basename(link));
	v->group = open(path, O_RDWR);
	if (v->container < 0 || v->group < 0 ||
	    ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) ||
	    ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU))
		return -errno;
	v->fd = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, uuid);
	if (v->fd < 0)
		return -errno;
	ri.index = VFIO_PCI_BAR0_REGION_INDEX;
	if (ioctl(v->fd, VFIO_DEVICE_GET_REGION_INFO, &ri))
		return -errno;
	v->bar0_off = ri.offset;
	ri.index = VFIO_PCI_CONFIG_REGION_INDEX;
	if (ioctl(v->fd, VFIO_DEVICE_GET_REGION_INFO, &ri))
		return -errno;
	v->cfg_off = ri.offset;

	v->efd = eventfd(0, EFD_CLOEXEC);
	if (v->efd < 0)
		return -errno;
	memset(&irq, 0, sizeof(irq));
	irq.s.argsz = sizeof(irq);
	irq.s.flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
	irq.s.index = VFIO_PCI_MSIX_IRQ_INDEX;
	irq.s.start = 0;
	irq.s.count = 1;
	irq.fd = v->efd;
	if (ioctl(v->fd, VFIO_DEVICE_SET_IRQS, &irq))
		return -errno;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t pct(uint64_t *s, unsigned int n, unsigned int p)
{
	unsigned int i = (unsigned int)(((uint64_t)n * p + 99) / 100);

	return s[i ? i - 1 : 0];
}

static int check_transcript(const struct rp_client *c, const char *mode,
			    const char *want)
{
	const struct rp_transcript *tr = rp_transcript(c);
	char path[64], why[512];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/gsp-replay-%s.txt", mode);
	f = fopen(path, "w");
	if (f) {
		fputs(tr->buf, f);
		fclose(f);
	}
	if (rp_transcript_diff(tr->buf, want, why, sizeof(why)) >= 0) {
		printf("FAIL gsp_replay.%s.transcript: %s (full: %s)\n", mode,
		       why, path);
		return 1;
	}
	printf("PASS gsp_replay.%s.transcript\n", mode);
	return 0;
}

int main(int argc, char **argv)
{
	struct vfio v = { -1, -1, -1, -1, 0, 0, NULL, 0 };
	struct rp_transport t = {
		.ctx = &v, .rd32 = v_rd32, .wr32 = v_wr32,
		.mem_alloc = v_mem_alloc, .wait_irq = v_wait_irq,
		.now_ns = v_now, .reset = v_reset,
		.mem_unmap = v_unmap, .mem_remap = v_remap,
		.bus_master = v_bus_master,
	};
	const char *mode = argc > 2 ? argv[2] : "init";
	struct rp_client *c;
	int ret;

	/* the VM cases read this output from a file while it runs */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc < 2 || parse_uuid(argv[1], t.uuid)) {
		fprintf(stderr, "usage: %s UUID [init|bad|bench [N]|copy [N [MIB]]]\n",
			argv[0]);
		return 2;
	}
	ret = open_vfio(&v, argv[1]);
	if (!ret && !strcmp(mode, "copy"))
		printf("copy: device open\n");
	if (ret) {
		printf("FAIL gsp_replay.%s.open: %s\n", mode, strerror(-ret));
		return 1;
	}
	c = rp_new(&t);
	if (!c) {
		printf("FAIL gsp_replay.%s.memory: MAP_DMA failed\n", mode);
		return 1;
	}
	if (!strcmp(mode, "init")) {
		ret = rp_run_init(c);
		ret = check_transcript(c, mode, golden_init) || ret;
	} else if (!strcmp(mode, "bad")) {
		ret = rp_run_bad(c);
		ret = check_transcript(c, mode, golden_bad) || ret;
	} else if (!strcmp(mode, "bench")) {
		struct rp_bench b;

		b.n = argc > 3 ? (unsigned int)atoi(argv[3]) : 1000;
		if (!b.n)
			b.n = 1000;
		b.rpc_ns = calloc(b.n, sizeof(uint64_t));
		b.full_ns = calloc(b.n, sizeof(uint64_t));
		b.bar0_ns = calloc(b.n, sizeof(uint64_t));
		ret = b.rpc_ns && b.full_ns && b.bar0_ns ?
		      rp_run_bench(c, &b) : -ENOMEM;
		if (!ret) {
			uint64_t r50, r99, f50, f99, b50, b99;

			qsort(b.rpc_ns, b.n, sizeof(uint64_t), cmp_u64);
			qsort(b.full_ns, b.n, sizeof(uint64_t), cmp_u64);
			qsort(b.bar0_ns, b.n, sizeof(uint64_t), cmp_u64);
			r50 = pct(b.rpc_ns, b.n, 50);
			r99 = pct(b.rpc_ns, b.n, 99);
			f50 = pct(b.full_ns, b.n, 50);
			f99 = pct(b.full_ns, b.n, 99);
			b50 = pct(b.bar0_ns, b.n, 50);
			b99 = pct(b.bar0_ns, b.n, 99);
			/*
			 * rpc: doorbell -> reply visible (vgsp's part);
			 * full: the client's compose and read-back too
			 */
			printf("BENCH n=%u rpc_p50_ns=%llu rpc_p99_ns=%llu bar0_read_p50_ns=%llu bar0_read_p99_ns=%llu ratio_p50=%.2f ratio_p99=%.2f full_p50_ns=%llu full_p99_ns=%llu full_ratio_p50=%.2f\n",
			       b.n, (unsigned long long)r50,
			       (unsigned long long)r99,
			       (unsigned long long)b50,
			       (unsigned long long)b99,
			       b50 ? (double)r50 / (double)b50 : 0.0,
			       b99 ? (double)r99 / (double)b99 : 0.0,
			       (unsigned long long)f50,
			       (unsigned long long)f99,
			       b50 ? (double)f50 / (double)b50 : 0.0);
			printf("PASS gsp_replay.bench\n");
		} else {
			printf("FAIL gsp_replay.bench: %s\n",
			       rp_transcript(c)->buf);
		}
		free(b.rpc_ns);
		free(b.full_ns);
		free(b.bar0_ns);
	} else if (!strcmp(mode, "copy")) {
		ret = run_copy(&v, c, &t, argc, argv);
	} else {
		fprintf(stderr, "unknown mode %s\n", mode);
		ret = 2;
	}
	rp_free(c);
	return ret ? 1 : 0;
}
