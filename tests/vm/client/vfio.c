/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The legacy VFIO group/container path (Debian kernels have no iommufd):
 * container -> group -> type1v2 IOMMU -> device fd; region access by
 * pread/pwrite at the offsets GET_REGION_INFO reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "rig.h"

static bool step(bool ok, bool quiet, const char *name, const char *what)
{
	if (!ok)
		fail(name, "%s: %s", what, strerror(errno));
	else if (!quiet)
		pass(name);
	return ok;
}

int vdev_open(struct vdev *d, const char *uuid, bool quiet)
{
	char path[PATH_MAX], link[PATH_MAX];
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	ssize_t n;
	int r;

	memset(d, 0, sizeof(*d));
	d->container = d->group = d->fd = -1;
	snprintf(d->uuid, sizeof(d->uuid), "%s", uuid);

	snprintf(path, sizeof(path), "/sys/bus/mdev/devices/%s/iommu_group", uuid);
	n = readlink(path, link, sizeof(link) - 1);
	if (!step(n > 0, quiet, "vfio.iommu_group", path))
		return -1;
	link[n] = 0;

	d->container = open("/dev/vfio/vfio", O_RDWR);
	if (!step(d->container >= 0, quiet, "vfio.container_open", "/dev/vfio/vfio"))
		return -1;
	r = ioctl(d->container, VFIO_GET_API_VERSION);
	if (r != VFIO_API_VERSION) {
		fail("vfio.api_version", "got %d want %d", r, VFIO_API_VERSION);
		return -1;
	} else if (!quiet)
		pass("vfio.api_version");
	r = ioctl(d->container, VFIO_CHECK_EXTENSION, VFIO_TYPE1v2_IOMMU);
	if (r != 1) {
		fail("vfio.type1v2", "CHECK_EXTENSION=%d", r);
		return -1;
	} else if (!quiet)
		pass("vfio.type1v2");

	snprintf(path, sizeof(path), "/dev/vfio/%s", basename(link));
	d->group = open(path, O_RDWR);
	if (!step(d->group >= 0, quiet, "vfio.group_open", path))
		return -1;
	if (!step(ioctl(d->group, VFIO_GROUP_GET_STATUS, &gs) == 0, quiet,
		  "vfio.group_status", "GROUP_GET_STATUS"))
		return -1;
	if (!(gs.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		fail("vfio.group_viable", "flags 0x%x", gs.flags);
		return -1;
	}
	if (!step(ioctl(d->group, VFIO_GROUP_SET_CONTAINER, &d->container) == 0,
		  quiet, "vfio.set_container", "GROUP_SET_CONTAINER"))
		return -1;
	if (!step(ioctl(d->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU) == 0,
		  quiet, "vfio.set_iommu", "SET_IOMMU(TYPE1v2)"))
		return -1;
	d->fd = ioctl(d->group, VFIO_GROUP_GET_DEVICE_FD, uuid);
	if (!step(d->fd >= 0, quiet, "vfio.device_fd", "GROUP_GET_DEVICE_FD"))
		return -1;

	d->info.argsz = sizeof(d->info);
	if (!step(ioctl(d->fd, VFIO_DEVICE_GET_INFO, &d->info) == 0, quiet,
		  "vfio.device_info", "DEVICE_GET_INFO"))
		return -1;
	for (unsigned int i = 0; i < VFIO_PCI_NUM_REGIONS; i++) {
		d->reg[i].argsz = sizeof(d->reg[i]);
		d->reg[i].index = i;
		if (ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &d->reg[i])) {
			fail("vfio.region_info", "index %u: %s", i, strerror(errno));
			return -1;
		}
	}
	return 0;
}

void vdev_close(struct vdev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	if (d->group >= 0) {
		ioctl(d->group, VFIO_GROUP_UNSET_CONTAINER);
		close(d->group);
	}
	if (d->container >= 0)
		close(d->container);
	d->fd = d->group = d->container = -1;
}

int reg_rd(struct vdev *d, unsigned int idx, uint64_t off, void *buf, size_t len)
{
	/* Index 9+ has no cached info: use the vfio-pci offset encoding. */
	uint64_t base = idx < VFIO_PCI_NUM_REGIONS ? d->reg[idx].offset : (uint64_t)idx << 40;
	ssize_t n = pread(d->fd, buf, len, (off_t)(base + off));

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int reg_wr(struct vdev *d, unsigned int idx, uint64_t off, const void *buf, size_t len)
{
	uint64_t base = idx < VFIO_PCI_NUM_REGIONS ? d->reg[idx].offset : (uint64_t)idx << 40;
	ssize_t n = pwrite(d->fd, buf, len, (off_t)(base + off));

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

uint32_t cfg32(struct vdev *d, uint32_t off)
{
	uint32_t v;

	return reg_rd(d, VFIO_PCI_CONFIG_REGION_INDEX, off, &v, 4) ? 0xffffffffu : v;
}

uint16_t cfg16(struct vdev *d, uint32_t off)
{
	uint16_t v;

	return reg_rd(d, VFIO_PCI_CONFIG_REGION_INDEX, off, &v, 2) ? 0xffff : v;
}

uint8_t cfg8(struct vdev *d, uint32_t off)
{
	uint8_t v;

	return reg_rd(d, VFIO_PCI_CONFIG_REGION_INDEX, off, &v, 1) ? 0xff : v;
}

int cfg_w32(struct vdev *d, uint32_t off, uint32_t v)
{
	return reg_wr(d, VFIO_PCI_CONFIG_REGION_INDEX, off, &v, 4);
}

int cfg_w16(struct vdev *d, uint32_t off, uint16_t v)
{
	return reg_wr(d, VFIO_PCI_CONFIG_REGION_INDEX, off, &v, 2);
}

int cfg_w8(struct vdev *d, uint32_t off, uint8_t v)
{
	return reg_wr(d, VFIO_PCI_CONFIG_REGION_INDEX, off, &v, 1);
}

uint32_t bar_rd32(struct vdev *d, unsigned int bar, uint64_t off)
{
	uint32_t v;

	return reg_rd(d, bar, off, &v, 4) ? 0xffffffffu : v;
}

int bar_wr32(struct vdev *d, unsigned int bar, uint64_t off, uint32_t v)
{
	return reg_wr(d, bar, off, &v, 4);
}

int set_irqs(struct vdev *d, uint32_t flags, uint32_t index, uint32_t start,
	     uint32_t count, const void *data, size_t datalen)
{
	union {
		struct vfio_irq_set s;
		uint8_t raw[sizeof(struct vfio_irq_set) + 64 * sizeof(int32_t)];
	} u;

	if (datalen > 64 * sizeof(int32_t))
		return -E2BIG;
	memset(&u, 0, sizeof(u));
	u.s.argsz = (uint32_t)(sizeof(u.s) + datalen);
	u.s.flags = flags;
	u.s.index = index;
	u.s.start = start;
	u.s.count = count;
	if (datalen)
		memcpy(u.s.data, data, datalen);
	return ioctl(d->fd, VFIO_DEVICE_SET_IRQS, &u.s) ? -errno : 0;
}
