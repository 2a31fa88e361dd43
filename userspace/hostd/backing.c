/* SPDX-License-Identifier: MIT */
/*
 * backing.c - host memory the GPU may reach: a page-aligned range of this
 * process registered with RM as NV01_MEMORY_SYSTEM_OS_DESCRIPTOR (RM pins
 * the pages; forwarding-map.md §2, §8.3).
 */
#include <string.h>

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

void hd_backing_unregister(struct hd_dev *d, struct hd_backing *b)
{
	if (b->h)
		rm_free(d, d->device, b->h); /* unpins the pages */
	memset(b, 0, sizeof(*b));
}
