/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* DEVICE_GET_INFO, GET_REGION_INFO and GET_IRQ_INFO against the contract. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include "rig.h"

static void t_regions(struct vdev *d)
{
	char type[64] = "";
	uint64_t want[VFIO_PCI_NUM_REGIONS] = {
		[VFIO_PCI_BAR0_REGION_INDEX] = BAR0_SIZE,
		[VFIO_PCI_BAR3_REGION_INDEX] = BAR3_SIZE,
		[VFIO_PCI_CONFIG_REGION_INDEX] = CFG_SIZE,
	};
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = VFIO_PCI_NUM_REGIONS };
	char name[48];

	mdev_type_of(d->uuid, type, sizeof(type));
	want[VFIO_PCI_BAR1_REGION_INDEX] = profile_bar1_size(type);
	if (!want[1])
		fail("vfio.region.bar1_profile", "unknown mdev type '%s'", type);
	for (unsigned int i = 0; i < VFIO_PCI_NUM_REGIONS; i++) {
		const struct vfio_region_info *r = &d->reg[i];
		uint32_t wflags = want[i] ? (VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE) : 0;

		snprintf(name, sizeof(name), "vfio.region.%u", i);
		/* Zero-size regions may report any flags; sized ones exactly R|W. */
		/* BAR1 is mappable with bar1_mmap (vgsp.ko's default) */
		if (i == VFIO_PCI_BAR1_REGION_INDEX)
			wflags |= r->flags & VFIO_REGION_INFO_FLAG_MMAP;
		check(r->size == want[i] && (!want[i] || r->flags == wflags), name,
		      "size 0x%llx flags 0x%x, want size 0x%llx flags 0x%x",
		      (unsigned long long)r->size, r->flags,
		      (unsigned long long)want[i], wflags);
	}
	errno = 0;
	check(ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &ri) < 0 && errno == EINVAL,
	      "vfio.region.index9_rejected", "ioctl errno %d", errno);
	info("type %s: BAR0 0x%llx BAR1 0x%llx BAR3 0x%llx config 0x%llx", type,
	     (unsigned long long)d->reg[0].size, (unsigned long long)d->reg[1].size,
	     (unsigned long long)d->reg[3].size, (unsigned long long)d->reg[7].size);
}

static void t_irq_info(struct vdev *d)
{
	long nmsix = read_long("/sys/module/vgsp/parameters/msix_vectors");
	const uint32_t ev = VFIO_IRQ_INFO_EVENTFD;
	const struct { uint32_t count, flags; } want[VFIO_PCI_NUM_IRQS] = {
		[VFIO_PCI_INTX_IRQ_INDEX] = { 1, ev | VFIO_IRQ_INFO_MASKABLE | VFIO_IRQ_INFO_AUTOMASKED },
		[VFIO_PCI_MSI_IRQ_INDEX] = { 1, ev | VFIO_IRQ_INFO_NORESIZE },
		[VFIO_PCI_MSIX_IRQ_INDEX] = { (uint32_t)nmsix, ev | VFIO_IRQ_INFO_NORESIZE },
		[VFIO_PCI_ERR_IRQ_INDEX] = { 0, 0 },
		[VFIO_PCI_REQ_IRQ_INDEX] = { 1, ev },
	};
	char name[48];

	for (unsigned int i = 0; i < VFIO_PCI_NUM_IRQS; i++) {
		struct vfio_irq_info ii = { .argsz = sizeof(ii), .index = i };
		int r = ioctl(d->fd, VFIO_DEVICE_GET_IRQ_INFO, &ii);

		snprintf(name, sizeof(name), "vfio.irq_info.%u", i);
		/* ERR has no vectors: its flags carry no meaning. */
		check(!r && ii.count == want[i].count && (!want[i].count || ii.flags == want[i].flags),
		      name, "r=%d count %u flags 0x%x, want count %u flags 0x%x", r,
		      ii.count, ii.flags, want[i].count, want[i].flags);
	}
	{
		struct vfio_irq_info ii = { .argsz = sizeof(ii), .index = VFIO_PCI_NUM_IRQS };

		errno = 0;
		check(ioctl(d->fd, VFIO_DEVICE_GET_IRQ_INFO, &ii) < 0 && errno == EINVAL,
		      "vfio.irq_info.index5_rejected", "errno %d", errno);
	}
}

void t_device(struct vdev *d)
{
	check(d->info.flags == (VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET),
	      "vfio.device_flags", "flags 0x%x, want PCI|RESET 0x%x", d->info.flags,
	      VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET);
	check(d->info.num_regions == VFIO_PCI_NUM_REGIONS, "vfio.num_regions",
	      "%u, want %u", d->info.num_regions, VFIO_PCI_NUM_REGIONS);
	check(d->info.num_irqs == VFIO_PCI_NUM_IRQS, "vfio.num_irqs", "%u, want %u",
	      d->info.num_irqs, VFIO_PCI_NUM_IRQS);
	t_regions(d);
	t_irq_info(d);
}
