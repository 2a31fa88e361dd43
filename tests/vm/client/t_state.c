/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* VFIO_DEVICE_RESET and the type1 DMA map/unmap path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "rig.h"

void t_reset(struct vdev *d)
{
	uint32_t id = cfg32(d, 0), boot0 = bar_rd32(d, 0, BAR0_BOOT0);
	int r;

	cfg_w16(d, 0x04, 0x0006);
	cfg_w32(d, 0x10, 0xfd000000u);
	cfg_w16(d, CAP_MSI + 2, (uint16_t)(cfg16(d, CAP_MSI + 2) | 1));
	r = ioctl(d->fd, VFIO_DEVICE_RESET) ? -errno : 0;
	check(!r, "reset.ioctl", "r=%d", r);
	check(cfg16(d, 0x04) == 0 && cfg32(d, 0x10) == 0 && !(cfg16(d, CAP_MSI + 2) & 1),
	      "reset.config_power_on", "command 0x%04x bar0 0x%08x msi ctl 0x%04x",
	      cfg16(d, 0x04), cfg32(d, 0x10), cfg16(d, CAP_MSI + 2));
	check(cfg32(d, 0) == id && bar_rd32(d, 0, BAR0_BOOT0) == boot0, "reset.identity_kept",
	      "id 0x%08x boot0 0x%08x", cfg32(d, 0), bar_rd32(d, 0, BAR0_BOOT0));
}

void t_dma(struct vdev *d)
{
	struct vfio_iommu_type1_info ii = { .argsz = sizeof(ii) };
	const uint64_t len = 1 * MIB, iova = 0x100000;
	struct vfio_iommu_type1_dma_map m = {
		.argsz = sizeof(m), .iova = iova, .size = len,
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
	};
	struct vfio_iommu_type1_dma_unmap u = { .argsz = sizeof(u), .iova = iova, .size = len };
	void *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int r;

	r = ioctl(d->container, VFIO_IOMMU_GET_INFO, &ii);
	check(!r && (ii.iova_pgsizes & 0x1000), "dma.iommu_info", "r=%d pgsizes 0x%llx", r,
	      (unsigned long long)ii.iova_pgsizes);
	if (buf == MAP_FAILED) {
		fail("dma.buffer", "mmap: %s", strerror(errno));
		return;
	}
	memset(buf, 0xa5, len);
	m.vaddr = (uintptr_t)buf;
	r = ioctl(d->container, VFIO_IOMMU_MAP_DMA, &m) ? -errno : 0;
	check(!r, "dma.map", "r=%d", r);
	r = ioctl(d->container, VFIO_IOMMU_MAP_DMA, &m) ? -errno : 0;
	check(r == -EEXIST, "dma.map_overlap_rejected", "r=%d, want -EEXIST", r);
	r = ioctl(d->container, VFIO_IOMMU_UNMAP_DMA, &u) ? -errno : 0;
	check(!r && u.size == len, "dma.unmap", "r=%d size 0x%llx", r, (unsigned long long)u.size);
	u.size = len;
	r = ioctl(d->container, VFIO_IOMMU_UNMAP_DMA, &u) ? -errno : 0;
	check(!r && u.size == 0, "dma.unmap_again_empty", "r=%d size 0x%llx", r,
	      (unsigned long long)u.size);
	munmap(buf, len);
}
