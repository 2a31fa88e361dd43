/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * BAR regions: BAR0 registers (reads, read-only writes), BAR1/BAR3 lazy
 * memory, and every out-of-bounds or malformed access rejected with EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include "rig.h"

void t_bars(struct vdev *d)
{
	uint32_t boot0 = bar_rd32(d, 0, BAR0_BOOT0), v;
	uint64_t q = 0, b1 = d->reg[1].size;
	uint16_t w = 0;
	uint8_t b = 0;
	int r;

	info("PMC_BOOT_0 0x%08x PMC_BOOT_42 0x%08x", boot0, bar_rd32(d, 0, 0xa00));
	check(boot0 && boot0 != 0xffffffffu, "bar0.boot0", "0x%08x", boot0);
	r = reg_rd(d, 0, BAR0_BOOT0, &w, 2) | reg_rd(d, 0, BAR0_BOOT0, &b, 1);
	check(!r && w == (uint16_t)boot0 && b == (uint8_t)boot0, "bar0.read_sizes_1_2",
	      "r=%d word 0x%04x byte 0x%02x", r, w, b);
	r = reg_rd(d, 0, BAR0_BOOT0, &q, 8);
	check(!r && (uint32_t)q == boot0, "bar0.read_size_8", "r=%d q=0x%016llx", r,
	      (unsigned long long)q);
	r = bar_wr32(d, 0, BAR0_BOOT0, ~boot0);
	v = bar_rd32(d, 0, BAR0_BOOT0);
	check(!r && v == boot0, "bar0.boot0_readonly", "r=%d now 0x%08x was 0x%08x", r, v, boot0);
	/* Unmodelled offsets are accepted (and tracked), not rejected. */
	r = reg_rd(d, 0, BAR0_UNMODELLED, &v, 4);
	check(!r, "bar0.unmodelled_read", "r=%d", r);
	r = bar_wr32(d, 0, BAR0_UNMODELLED, 0x5a5a5a5a);
	check(!r, "bar0.unmodelled_write", "r=%d", r);
	r = reg_rd(d, 0, BAR0_SIZE - 4, &v, 4);
	check(!r, "bar0.last_dword", "r=%d", r);

	/* BAR1/BAR3: never-written chunks read 0; writes stick (lazy 64 KiB). */
	check(bar_rd32(d, 1, 0x230000) == 0 && bar_rd32(d, 3, 0x40000) == 0,
	      "bar.lazy_zero", "bar1 0x%08x bar3 0x%08x", bar_rd32(d, 1, 0x230000),
	      bar_rd32(d, 3, 0x40000));
	bar_wr32(d, 1, 0x230004, 0xdeadbeef);
	bar_wr32(d, 1, b1 - 4, 0xcafef00d);
	bar_wr32(d, 3, BAR3_SIZE - 8, 0x600dd00d);
	check(bar_rd32(d, 1, 0x230004) == 0xdeadbeef && bar_rd32(d, 1, b1 - 4) == 0xcafef00d &&
	      bar_rd32(d, 3, BAR3_SIZE - 8) == 0x600dd00d && bar_rd32(d, 1, 0x230000) == 0,
	      "bar.memory_rw", "bar1 0x%08x 0x%08x bar3 0x%08x",
	      bar_rd32(d, 1, 0x230004), bar_rd32(d, 1, b1 - 4), bar_rd32(d, 3, BAR3_SIZE - 8));
	q = 0x0123456789abcdefull;
	r = reg_wr(d, 1, 0x8, &q, 8);
	q = 0;
	r |= reg_rd(d, 1, 0x8, &q, 8);
	check(!r && q == 0x0123456789abcdefull && bar_rd32(d, 1, 0xc) == 0x01234567,
	      "bar.memory_8byte", "r=%d q=0x%016llx", r, (unsigned long long)q);
}

/* Expect -EINVAL from a read (write if @wr) of @len at @off of region @idx. */
static void reject(struct vdev *d, const char *name, unsigned int idx, uint64_t off,
		   size_t len, bool wr)
{
	uint8_t buf[16] = { 0 };
	int r = wr ? reg_wr(d, idx, off, buf, len) : reg_rd(d, idx, off, buf, len);

	check(r == -EINVAL, name, "region %u off 0x%llx len %zu %s: r=%d, want -EINVAL",
	      idx, (unsigned long long)off, len, wr ? "write" : "read", r);
}

void t_oob(struct vdev *d)
{
	uint64_t b1 = d->reg[1].size;
	struct vfio_region_info ri = { .argsz = 8, .index = 0 };

	reject(d, "oob.bar0_end", 0, BAR0_SIZE, 4, false);
	reject(d, "oob.bar0_cross_end", 0, BAR0_SIZE - 2, 4, false);
	reject(d, "oob.bar0_far", 0, 1ull << 36, 4, true);
	reject(d, "oob.bar0_len3", 0, 0, 3, false);
	reject(d, "oob.bar0_len16", 0, 0, 16, false);
	reject(d, "oob.bar0_misaligned", 0, 2, 4, false);
	reject(d, "oob.bar0_misaligned_write", 0, 1, 2, true);
	reject(d, "oob.bar1_end", 1, b1, 4, false);
	reject(d, "oob.bar1_end_write", 1, b1 - 4, 8, true);
	reject(d, "oob.bar3_end", 3, BAR3_SIZE, 4, false);
	reject(d, "oob.cfg_end", VFIO_PCI_CONFIG_REGION_INDEX, CFG_SIZE, 4, false);
	reject(d, "oob.cfg_cross_end", VFIO_PCI_CONFIG_REGION_INDEX, CFG_SIZE - 2, 4, true);
	reject(d, "oob.region2_empty", 2, 0, 4, false);
	reject(d, "oob.region4_empty", 4, 0, 4, false);
	reject(d, "oob.rom_empty", VFIO_PCI_ROM_REGION_INDEX, 0, 4, false);
	reject(d, "oob.vga_empty", VFIO_PCI_VGA_REGION_INDEX, 0, 1, false);
	reject(d, "oob.region_index_9", VFIO_PCI_NUM_REGIONS, 0, 4, false);
	reject(d, "oob.region_index_200", 200, 0, 4, true);
	errno = 0;
	check(ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &ri) < 0 && errno == EINVAL,
	      "oob.region_info_short_argsz", "errno %d", errno);
	errno = 0;
	check(ioctl(d->fd, _IO(VFIO_TYPE, VFIO_BASE + 60)) < 0 &&
	      (errno == ENOTTY || errno == EINVAL), "oob.unknown_ioctl", "errno %d", errno);
	/* After all that the device still answers. */
	check(cfg32(d, 0) == (VGSP_DEVICE << 16 | VGSP_VENDOR), "oob.device_still_sane",
	      "id 0x%08x", cfg32(d, 0));
}
