/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vgsp-vfiotest <command> ...
 *   full <uuid>              every VFIO check on an existing instance
 *   smoke <uuid>             open, print identity/BARs/IRQs, exercise, close
 *   hold <uuid> <s> <ready> [min]
 *                            open, arm REQ, touch <ready>, wait up to <s> s
 *                            for the REQ eventfd (sent when removal is
 *                            asked), keep the device at least [min] s, close
 *   cycle <type> <n>         n x (create, open, close, remove) of <type>
 *   stress <uuid> <t> <n>    t threads x n iterations of BAR1/config/BAR0
 *                            accesses; data and exact counter deltas
 *   fuzz <uuid> <seed> <s>   randomized hostile VFIO client for <s> seconds
 *                            (t_fuzz.c); the seed is printed
 *   mmap <uuid>              BAR3 mapped by the user (bar3_mmap=1, t_mmap.c)
 *   bar1 <uuid>              BAR1 mapped by the user (bar1_mmap=1, t_bar1.c)
 *   dmahold <uuid> <iova> <kib> <dir>
 *                            a VMM's part for hostd's guest-RAM view: open,
 *                            Bus Master on, <kib> KiB mapped for DMA at
 *                            <iova>, touch <dir>/ready; then <dir>/unmap
 *                            (made by the caller) unmaps it and touches
 *                            <dir>/unmapped, <dir>/stop closes
 * Exit status 0 when no check failed.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "rig.h"

static int cmd_full(const char *uuid)
{
	struct vdev d;

	if (vdev_open(&d, uuid, false)) {
		vdev_close(&d);
		return 1;
	}
	t_device(&d);
	t_config(&d);
	t_bars(&d);
	t_oob(&d);
	t_irq(&d);
	t_reset(&d);
	t_dma(&d);
	t_counters(&d);
	vdev_close(&d);
	t_openclose_counters(uuid);
	printf("# vfiotest full: %d passed, %d failed\n", n_pass, n_fail);
	return n_fail != 0;
}

static int cmd_smoke(const char *uuid)
{
	static const char *const rname[] = { "BAR0", "BAR1", "BAR2", "BAR3", "BAR4",
					     "BAR5", "ROM", "CONFIG", "VGA" };
	static const char *const iname[] = { "INTx", "MSI", "MSI-X", "ERR", "REQ" };
	char type[64] = "";
	struct vdev d;
	uint32_t v;
	int r;

	if (vdev_open(&d, uuid, true))
		return 1;
	mdev_type_of(uuid, type, sizeof(type));
	printf("instance %s type %s\n", uuid, type);
	printf("  identity: %04x:%04x subsystem %04x:%04x class %06x rev %02x\n",
	       cfg16(&d, 0), cfg16(&d, 2), cfg16(&d, 0x2c), cfg16(&d, 0x2e),
	       cfg32(&d, 8) >> 8, cfg8(&d, 8));
	printf("  device flags 0x%x (%s%s), %u regions, %u irq indexes\n", d.info.flags,
	       d.info.flags & VFIO_DEVICE_FLAGS_PCI ? "PCI" : "",
	       d.info.flags & VFIO_DEVICE_FLAGS_RESET ? "|RESET" : "",
	       d.info.num_regions, d.info.num_irqs);
	for (unsigned int i = 0; i < VFIO_PCI_NUM_REGIONS; i++) {
		if (!d.reg[i].size)
			continue;
		v = 0;
		if (i < VFIO_PCI_ROM_REGION_INDEX) {
			cfg_w32(&d, 0x10 + 4 * i, 0xffffffffu);
			v = cfg32(&d, 0x10 + 4 * i);
			cfg_w32(&d, 0x10 + 4 * i, 0);
		}
		printf("  %-6s size 0x%09llx (%6llu KiB) flags 0x%x%s%s", rname[i],
		       (unsigned long long)d.reg[i].size,
		       (unsigned long long)(d.reg[i].size >> 10), d.reg[i].flags,
		       d.reg[i].flags & VFIO_REGION_INFO_FLAG_MMAP ? " MMAP" : "",
		       i < VFIO_PCI_ROM_REGION_INDEX ? "" : "\n");
		if (i < VFIO_PCI_ROM_REGION_INDEX)
			printf(" sizing 0x%08x (%s, %s)\n", v, v & 4 ? "64-bit" : "32-bit",
			       v & 8 ? "prefetchable" : "non-prefetchable");
	}
	for (unsigned int i = 0; i < VFIO_PCI_NUM_IRQS; i++) {
		struct vfio_irq_info ii = { .argsz = sizeof(ii), .index = i };

		if (!ioctl(d.fd, VFIO_DEVICE_GET_IRQ_INFO, &ii))
			printf("  irq %-5s count %u flags 0x%x\n", iname[i], ii.count, ii.flags);
	}
	printf("  BAR0 PMC_BOOT_0 0x%08x PMC_BOOT_42 0x%08x\n", bar_rd32(&d, 0, 0),
	       bar_rd32(&d, 0, 0xa00));
	r = bar_wr32(&d, 1, 0x1000, 0x5eed0001);
	v = bar_rd32(&d, 1, 0x1000);
	printf("  BAR1 write/read 0x%08x (%s)\n", v, !r && v == 0x5eed0001 ? "ok" : "MISMATCH");
	r |= ioctl(d.fd, VFIO_DEVICE_RESET) ? -errno : 0;
	printf("  reset %s\n", r ? "FAILED" : "ok");
	vdev_close(&d);
	return r ? 1 : 0;
}

static int cmd_hold(const char *uuid, int secs, const char *ready, int min)
{
	time_t t0 = time(NULL);
	int32_t efd = eventfd(0, 0);
	struct pollfd p = { .fd = efd, .events = POLLIN };
	struct vdev d;
	int r, fd;

	if (vdev_open(&d, uuid, true))
		return 2;
	r = set_irqs(&d, VFIO_IRQ_SET_ACTION_TRIGGER | VFIO_IRQ_SET_DATA_EVENTFD,
		     VFIO_PCI_REQ_IRQ_INDEX, 0, 1, &efd, sizeof(efd));
	fd = open(ready, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
	r = r ? 3 : poll(&p, 1, secs * 1000) == 1 ? 0 : 4;
	printf("hold: %s after %ld s\n", r == 0 ? "REQ received" :
	       r == 3 ? "cannot arm REQ" : "no REQ before timeout", (long)(time(NULL) - t0));
	/* Keep it open a while longer, so the caller can see remove block. */
	while (time(NULL) - t0 < min)
		sleep(1);
	/*
	 * <ready>.closing, made just before the close: anything that finishes
	 * while it is absent finished while the device was certainly open.
	 */
	{
		char closing[PATH_MAX];

		snprintf(closing, sizeof(closing), "%s.closing", ready);
		fd = open(closing, O_WRONLY | O_CREAT, 0644);
		if (fd >= 0)
			close(fd);
	}
	vdev_close(&d);
	return r;
}

static int cmd_cycle(const char *type, int n)
{
	char create[PATH_MAX], path[PATH_MAX], uuid[40];
	struct vdev d;
	int r;

	snprintf(create, sizeof(create), "/sys/class/mdev_bus/vgsp/mdev_supported_types/%s/create", type);
	for (int i = 0; i < n; i++) {
		new_uuid(uuid);
		if ((r = write_file(create, uuid))) {
			fail("lifecycle.cycle", "iteration %d: create: %s", i, strerror(-r));
			return 1;
		}
		if (vdev_open(&d, uuid, true) || cfg16(&d, 0) != VGSP_VENDOR) {
			fail("lifecycle.cycle", "iteration %d: open/config read failed", i);
			vdev_close(&d);
			return 1;
		}
		vdev_close(&d);
		snprintf(path, sizeof(path), "/sys/bus/mdev/devices/%s/remove", uuid);
		if ((r = write_file(path, "1"))) {
			fail("lifecycle.cycle", "iteration %d: remove: %s", i, strerror(-r));
			return 1;
		}
		snprintf(path, sizeof(path), "/sys/bus/mdev/devices/%s", uuid);
		if (!access(path, F_OK)) {
			fail("lifecycle.cycle", "iteration %d: %s still exists", i, path);
			return 1;
		}
	}
	printf("PASS lifecycle.cycle_x%d\n", n);
	return 0;
}

static int cmd_stress(const char *uuid, int threads, int iters)
{
	struct vdev d;

	if (vdev_open(&d, uuid, true))
		return 1;
	t_stress(&d, (unsigned int)threads, (unsigned int)iters);
	vdev_close(&d);
	return n_fail != 0;
}

static int cmd_mmap(const char *uuid)
{
	struct vdev d;

	if (vdev_open(&d, uuid, true))
		return 1;
	t_mmap(&d);
	vdev_close(&d);
	return n_fail != 0;
}

static void touch(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static int cmd_dmahold(const char *uuid, uint64_t iova, uint64_t kib, const char *dir)
{
	struct vfio_iommu_type1_dma_map m = {
		.argsz = sizeof(m), .flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.iova = iova, .size = kib << 10,
	};
	struct vfio_iommu_type1_dma_unmap u = {
		.argsz = sizeof(u), .iova = iova, .size = kib << 10,
	};
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct vdev d;
	void *mem;

	if (vdev_open(&d, uuid, true))
		return 1;
	mem = mmap(NULL, m.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	m.vaddr = (uintptr_t)mem;
	if (cfg_w16(&d, 4, cfg16(&d, 4) | 0x6) || ioctl(d.container, VFIO_IOMMU_MAP_DMA, &m)) {
		printf("dmahold: map: %s\n", strerror(errno));
		return 1;
	}
	touch(dir, "ready");
	while (!exists(dir, "stop")) {
		if (exists(dir, "unmap") && !exists(dir, "unmapped")) {
			if (ioctl(d.container, VFIO_IOMMU_UNMAP_DMA, &u))
				printf("dmahold: unmap: %s\n", strerror(errno));
			touch(dir, "unmapped");
		}
		nanosleep(&ts, NULL);
	}
	vdev_close(&d);
	return 0;
}

static int cmd_bar1(const char *uuid)
{
	struct vdev d;

	if (vdev_open(&d, uuid, true))
		return 1;
	t_bar1(&d);
	vdev_close(&d);
	return n_fail != 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "full"))
		return cmd_full(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "smoke"))
		return cmd_smoke(argv[2]);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "hold"))
		return cmd_hold(argv[2], atoi(argv[3]), argv[4], argc == 6 ? atoi(argv[5]) : 0);
	if (argc == 5 && !strcmp(argv[1], "stress"))
		return cmd_stress(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argv[2], strtoull(argv[3], NULL, 0), (unsigned int)atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "cycle"))
		return cmd_cycle(argv[2], atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "mmap"))
		return cmd_mmap(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "bar1"))
		return cmd_bar1(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "dmahold"))
		return cmd_dmahold(argv[2], strtoull(argv[3], NULL, 0), strtoull(argv[4], NULL, 0),
				   argv[5]);
	fprintf(stderr, "usage: vgsp-vfiotest full|smoke|mmap|bar1 <uuid> | hold <uuid> <s> <ready> [min] | cycle <type> <n> | stress <uuid> <t> <n> | fuzz <uuid> <seed> <s> | dmahold <uuid> <iova> <kib> <dir>\n");
	return 2;
}
