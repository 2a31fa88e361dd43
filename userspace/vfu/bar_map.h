/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BAR3 as memory the client maps: a sealed memfd of BAR3's size, mapped
 * here MAP_SHARED and handed to the core as its bar3_shared block
 * (kernel/core/mm/bar_share.h). REGION_INFO for BAR3 then carries the MMAP
 * flag, a sparse-mmap capability with the part the core lets the client
 * map (all but the trapped top) and the fd; the client's loads and stores
 * there no longer reach the socket. The seals (no shrink, no grow) keep a
 * client from truncating the file under the server, which would make the
 * core's accesses fault.
 */
#ifndef VFU_BAR_MAP_H
#define VFU_BAR_MAP_H

#include <stddef.h>
#include <stdint.h>

struct vfu_bar_map {
	int fd;			/* -1: BAR3 is not mapped (every access traps) */
	uint8_t *mem;
	size_t size;
};

/* 0, or -errno (the map stays off: fd -1). */
int vfu_bar_map_open(struct vfu_bar_map *m, size_t size);
void vfu_bar_map_close(struct vfu_bar_map *m);

/* The REGION_INFO sparse-mmap capability (VFIO's layout): one area. */
#define VFU_CAP_SPARSE_MMAP	1
struct vfu_cap_sparse_mmap {
	uint16_t id;
	uint16_t version;
	uint32_t next;
	uint32_t nr_areas;
	uint32_t reserved;
	uint64_t area_offset;
	uint64_t area_size;
};
_Static_assert(sizeof(struct vfu_cap_sparse_mmap) == 32, "sparse mmap cap");

#endif /* VFU_BAR_MAP_H */
