/* SPDX-License-Identifier: MIT */
/*
 * backing.c - memory the GPU may reach on an instance's behalf: a
 * page-aligned range of this process registered with RM as
 * NV01_MEMORY_SYSTEM_OS_DESCRIPTOR (RM pins the pages; forwarding-map.md
 * §2, §8.3), or a partition of the GPU's own memory mapped for the CPU
 * through BAR1 (forwarding-map.md §4).
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hostd_fwd.h"
#include "nvrm_abi.h"

int hd_backing_register(struct hd_dev *d, void *cpu, uint64_t size, struct hd_backing *b)
{
	memset(b, 0, sizeof(*b));
	if (!cpu || ((uintptr_t)cpu & 0xfffu) || !size || (size & 0xfffu)) {
		d->last_status = NV_ERR_INVALID_ARGUMENT;
		return -1;
	}
	uint32_t flags = NVOS02_FLAGS_PHYSICALITY_NONCONTIGUOUS | NVOS02_FLAGS_LOCATION_PCI |
			 NVOS02_FLAGS_COHERENCY_CACHED | NVOS02_FLAGS_MAPPING_NO_MAP;
	uint32_t h = hd_new_handle(d);
	if (rm_alloc_os_desc(d, &h, cpu, size, flags, "alloc OS descriptor (backing)"))
		return -1;
	b->h = h;
	b->cpu = cpu;
	b->size = size;
	return 0;
}

int hd_backing_vidmem(struct hd_dev *d, uint64_t size, struct hd_backing *b)
{
	struct hd_mem m;

	memset(b, 0, sizeof(*b));
	if (!size || (size & ((2u << 20) - 1))) {
		d->last_status = NV_ERR_INVALID_ARGUMENT;
		return -1;
	}
	/* hd_alloc_at maps it into a GPU VA of hostd's own too: not wanted
	 * here (the mirrors map it), so allocate and CPU-map by hand */
	if (hd_alloc_vid_cpu(d, &m, size))
		return -1;
	b->h = m.h;
	b->cpu = m.cpu;
	b->size = m.size;
	b->map_fd = m.map_fd;
	b->vid = true;
	return 0;
}

void hd_backing_unregister(struct hd_dev *d, struct hd_backing *b)
{
	if (b->vid && b->cpu)
		munmap(b->cpu, b->size);
	if (b->vid && b->map_fd > 0)
		close(b->map_fd);
	if (b->h)
		rm_free(d, d->device, b->h); /* unpins / frees the pages */
	memset(b, 0, sizeof(*b));
}
