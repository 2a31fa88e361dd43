/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BAR3 mapped by the user (vgsp.ko bar3_mmap=1; kernel/core/mm/bar_share.h):
 * REGION_INFO's MMAP flag and sparse-mmap area (BAR3 less its trapped
 * top), what mmap refuses, and that bytes written through the mapping are
 * the ones trapped region accesses see at the same offset, both ways, in
 * the mapped part and across the trapped top, until a reset zeroes both.
 * (Through BAR2's page tables, the same core code is tested in
 * userspace/vfu/tests/test_vfu_bar_map.c.)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "rig.h"

#define TRAP_TOP	(128 * 1024)
#define MAP_LEN		(BAR3_SIZE - TRAP_TOP)

struct region_info_mmap {
	struct vfio_region_info info;
	struct vfio_region_info_cap_sparse_mmap cap;
	struct vfio_region_sparse_mmap_area area;
};

static void *try_map(struct vdev *d, unsigned int idx, uint64_t off, size_t len, int flags)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, flags, d->fd,
		    (off_t)(d->reg[idx].offset + off));
}

static uint32_t mem32(const uint8_t *m, uint64_t off)
{
	uint32_t v;

	memcpy(&v, m + off, 4);
	return v;
}

static void region_info(struct vdev *d)
{
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = 3 };
	struct region_info_mmap r = { .info = { .argsz = sizeof(r), .index = 3 } };
	int e;

	e = ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &ri) ? errno : 0;
	check(!e && (ri.flags & VFIO_REGION_INFO_FLAG_MMAP) &&
	      (ri.flags & VFIO_REGION_INFO_FLAG_CAPS) && ri.argsz == sizeof(r) &&
	      !ri.cap_offset, "mmap.info_short",
	      "e=%d flags 0x%x argsz %u cap_offset %u", e, ri.flags, ri.argsz, ri.cap_offset);
	e = ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &r) ? errno : 0;
	check(!e && r.info.cap_offset == offsetof(struct region_info_mmap, cap) &&
	      r.cap.header.id == VFIO_REGION_INFO_CAP_SPARSE_MMAP &&
	      r.cap.header.version == 1 && r.cap.nr_areas == 1 && r.area.offset == 0 &&
	      r.area.size == MAP_LEN && r.info.size == BAR3_SIZE,
	      "mmap.info_sparse", "e=%d cap_offset %u id %u v%u areas %u [0x%llx+0x%llx]",
	      e, r.info.cap_offset, r.cap.header.id, r.cap.header.version, r.cap.nr_areas,
	      (unsigned long long)r.area.offset, (unsigned long long)r.area.size);
	for (unsigned int i = 0; i < 2; i++) {
		struct vfio_region_info o = { .argsz = sizeof(o), .index = i };

		e = ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &o) ? errno : 0;
		check(!e && !(o.flags & VFIO_REGION_INFO_FLAG_MMAP),
		      i ? "mmap.bar1_not_mappable" : "mmap.bar0_not_mappable",
		      "e=%d flags 0x%x", e, o.flags);
	}
}

static void refusals(struct vdev *d)
{
	static const struct {
		const char *name;
		unsigned int idx;
		uint64_t off;
		size_t len;
		int flags;
	} bad[] = {
		{ "mmap.refuse_trapped_top", 3, MAP_LEN, 4096, MAP_SHARED },
		{ "mmap.refuse_past_area", 3, MAP_LEN - 4096, 8192, MAP_SHARED },
		{ "mmap.refuse_private", 3, 0, 4096, MAP_PRIVATE },
		{ "mmap.refuse_bar1", 1, 0, 4096, MAP_SHARED },
		{ "mmap.refuse_bar0", 0, 0, 4096, MAP_SHARED },
	};

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *p = try_map(d, bad[i].idx, bad[i].off, bad[i].len, bad[i].flags);
		int e = p == MAP_FAILED ? errno : 0;

		check(p == MAP_FAILED && e == EINVAL, bad[i].name, "mmap %s (errno %d)",
		      p == MAP_FAILED ? "failed" : "succeeded", e);
		if (p != MAP_FAILED)
			munmap(p, bad[i].len);
	}
}

void t_mmap(struct vdev *d)
{
	uint8_t *m;
	uint32_t v;
	int r;

	region_info(d);
	refusals(d);
	m = try_map(d, 3, 0, MAP_LEN, MAP_SHARED);
	if (!check(m != MAP_FAILED, "mmap.map", "errno %d", errno))
		return;
	/* flat BAR3 (no BAR2 yet): the mapping is what the trapped path sees */
	memcpy(m + 0x1000, &(uint32_t){ 0x5eedf00d }, 4);
	memcpy(m + MAP_LEN - 4, &(uint32_t){ 0x0ddba11 }, 4);
	check(bar_rd32(d, 3, 0x1000) == 0x5eedf00d && bar_rd32(d, 3, MAP_LEN - 4) == 0x0ddba11,
	      "mmap.write_map_read_trap", "0x%08x 0x%08x", bar_rd32(d, 3, 0x1000),
	      bar_rd32(d, 3, MAP_LEN - 4));
	r = bar_wr32(d, 3, 0x2004, 0xa5a55a5a);
	check(!r && mem32(m, 0x2004) == 0xa5a55a5a, "mmap.write_trap_read_map",
	      "r=%d map 0x%08x", r, mem32(m, 0x2004));
	/* the trapped top still takes accesses (BAR2's own tables live there) */
	r = bar_wr32(d, 3, BAR3_SIZE - 8, 0x70b70b70);
	v = bar_rd32(d, 3, BAR3_SIZE - 8);
	check(!r && v == 0x70b70b70, "mmap.trapped_top_rw", "r=%d 0x%08x", r, v);
	/* a reset clears what the next user maps */
	r = ioctl(d->fd, VFIO_DEVICE_RESET) ? -errno : 0;
	check(!r && mem32(m, 0x1000) == 0 && mem32(m, 0x2004) == 0 &&
	      bar_rd32(d, 3, 0x1000) == 0, "mmap.reset_zeroes", "r=%d map 0x%08x trap 0x%08x",
	      r, mem32(m, 0x1000), bar_rd32(d, 3, 0x1000));
	munmap(m, MAP_LEN);
}
