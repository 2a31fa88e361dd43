/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * debugfs: the counters move by exactly what this client did (counting
 * rules in docs/interfaces.md), and the info/bar0_unknown views agree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "rig.h"

/* Value of key @key in a "key value" debugfs file, as text. */
static bool kv(const char *file, const char *key, char *out, size_t len)
{
	char line[256];
	FILE *f = fopen(file, "r");
	size_t kl = strlen(key);
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, kl) && line[kl] == ' ') {
			snprintf(out, len, "%s", line + kl + 1);
			out[strcspn(out, "\n")] = 0;
			ok = true;
		}
	}
	fclose(f);
	return ok;
}

static void t_info(struct vdev *d, bool open)
{
	char path[PATH_MAX], v[128] = "", id[64] = "", chip[64] = "", b0[64] = "";

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgsp/%s/info", d->uuid);
	kv(path, "open", v, sizeof(v));
	check(atoi(v) == open, open ? "debugfs.info_open_1" : "debugfs.info_open_0",
	      "open '%s'", v);
	if (!open)
		return;
	kv(path, "id", id, sizeof(id));
	kv(path, "chip", chip, sizeof(chip));
	kv(path, "bar0_size", b0, sizeof(b0));
	check(strstr(id, "10de") && strstr(id, "2330") && !strcmp(chip, "GH100") &&
	      strtoull(b0, NULL, 0) == BAR0_SIZE, "debugfs.info_identity",
	      "id '%s' chip '%s' bar0_size '%s'", id, chip, b0);
	kv(path, "uuid", v, sizeof(v));
	check(!strcmp(v, d->uuid), "debugfs.info_uuid", "'%s'", v);
}

void t_counters(struct vdev *d)
{
	struct ctrs b, a;
	struct vfio_region_info ri = { .argsz = 8 };
	uint8_t buf[8];
	uint64_t b1 = d->reg[1].size;
	char path[PATH_MAX], hist[4096] = "";

	t_info(d, true);
	if (ctrs_read(d->uuid, &b)) {
		fail("debugfs.counters", "cannot read /sys/kernel/debug/vgsp/%s/counters", d->uuid);
		return;
	}
	/* config: 3 reads, 1 write, 2 rejected */
	cfg32(d, 0);
	cfg16(d, 2);
	cfg8(d, 0x3d);
	cfg_w8(d, 0x3c, 5);
	reg_rd(d, VFIO_PCI_CONFIG_REGION_INDEX, CFG_SIZE, buf, 4);
	reg_rd(d, VFIO_PCI_CONFIG_REGION_INDEX, CFG_SIZE - 2, buf, 4);
	/* BAR0: 4 modelled reads of sizes 4,4,2,1 and one (read-only) write */
	reg_rd(d, 0, BAR0_BOOT0, buf, 4);
	reg_rd(d, 0, BAR0_BOOT0, buf, 4);
	reg_rd(d, 0, BAR0_BOOT0, buf, 2);
	reg_rd(d, 0, BAR0_BOOT0, buf, 1);
	bar_wr32(d, 0, BAR0_BOOT0, 0);
	/* BAR0 unmodelled: counts in both the total and the unknown counter */
	reg_rd(d, 0, BAR0_UNMODELLED, buf, 4);
	bar_wr32(d, 0, BAR0_UNMODELLED, 1);
	/* BAR0 rejected: past the end, length 3, misaligned */
	reg_rd(d, 0, BAR0_SIZE, buf, 4);
	reg_rd(d, 0, 0, buf, 3);
	reg_rd(d, 0, 2, buf, 4);
	/* BAR1 1 write 2 reads, BAR3 1 write 1 read, 2 rejected */
	bar_wr32(d, 1, 0x10000, 7);
	bar_rd32(d, 1, 0x10000);
	bar_rd32(d, 1, 0x20000);
	bar_wr32(d, 3, 0x10000, 7);
	bar_rd32(d, 3, 0x10000);
	reg_rd(d, 1, b1, buf, 4);
	reg_rd(d, 3, BAR3_SIZE, buf, 4);
	/* a region that does not exist */
	reg_rd(d, VFIO_PCI_NUM_REGIONS, 0, buf, 4);
	/* malformed and unknown requests */
	ioctl(d->fd, VFIO_DEVICE_GET_REGION_INFO, &ri);
	ioctl(d->fd, _IO(VFIO_TYPE, VFIO_BASE + 60));
	ioctl(d->fd, VFIO_DEVICE_RESET);
	if (ctrs_read(d->uuid, &a)) {
		fail("debugfs.counters", "second read failed");
		return;
	}
	ctrs_check("debugfs.counters_exact", &b, &a,
		   "cfg_reads=3,cfg_writes=1,cfg_bad=2,bar0_reads=5,bar0_writes=2,"
		   "bar0_unknown_reads=1,bar0_unknown_writes=1,bar0_bad=3,bar1_reads=2,"
		   "bar1_writes=1,bar3_reads=1,bar3_writes=1,bar_bad=2,region_bad=1,"
		   "ioctl_bad=2,resets=1", NULL);

	snprintf(path, sizeof(path), "/sys/kernel/debug/vgsp/%s/bar0_unknown", d->uuid);
	read_file(path, hist, sizeof(hist));
	check(strstr(hist, "0xfffff0 reads") != NULL, "debugfs.bar0_unknown_lists_offset",
	      "no '0xfffff0 reads' line in bar0_unknown: '%.200s'", hist);
}

void t_openclose_counters(const char *uuid)
{
	struct ctrs b, a;
	struct vdev d;

	if (ctrs_read(uuid, &b)) {
		fail("debugfs.counters_openclose", "cannot read counters of %s", uuid);
		return;
	}
	if (vdev_open(&d, uuid, true))
		return;
	t_info(&d, true);
	vdev_close(&d);
	memcpy(d.uuid, uuid, strlen(uuid) + 1);
	t_info(&d, false);
	ctrs_read(uuid, &a);
	/* Open/close may reset the device and tear down IRQs/DMA internally. */
	ctrs_check("debugfs.counters_openclose", &b, &a, "opens=1,closes=1",
		   "resets,irqs_signalled,irqs_suppressed,dma_unmaps");
}
