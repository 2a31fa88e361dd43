/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * vgsp-vfiotest: the static guest-side VFIO client of the VM tests.
 * Shared declarations: result reporting, the VFIO device handle, region
 * access, sysfs/debugfs helpers. Every check prints one line, "PASS name"
 * or "FAIL name: reason" (or "SKIP name: reason"), which /init counts.
 */
#ifndef RIG_H
#define RIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/vfio.h>

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

/* Contract values from docs/interfaces.md. */
#define VGSP_VENDOR	0x10de
#define VGSP_DEVICE	0x2330
#define VGSP_SUBSYS	0x16c110deu
#define VGSP_CLASSREV	0x030200a1u
#define BAR0_SIZE	(16 * MIB)
#define BAR3_SIZE	(32 * MIB)
#define CFG_SIZE	4096
#define CAP_PM		0x40
#define CAP_MSI		0x48
#define CAP_PCIE	0x60
#define CAP_MSIX	0xb0
#define MSIX_TABLE_OFF	0xb90000
#define MSIX_PBA_OFF	0xba0000
#define BAR0_BOOT0	0x0
#define BAR0_UNMODELLED	0xfffff0	/* far from every modelled block */

/* report.c */
extern int n_pass, n_fail, n_skip;
void pass(const char *name);
void fail(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* PASS if @ok, else FAIL with the formatted reason; returns @ok. */
bool check(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* vfio.c */
struct vdev {
	int container, group, fd;
	char uuid[40];
	struct vfio_device_info info;
	struct vfio_region_info reg[VFIO_PCI_NUM_REGIONS];
};

/* Full group/container/device open. @quiet: no PASS lines, FAIL only. */
int vdev_open(struct vdev *d, const char *uuid, bool quiet);
void vdev_close(struct vdev *d);
/* pread/pwrite at region @idx; 0 or -errno (short transfer: -EIO). */
int reg_rd(struct vdev *d, unsigned int idx, uint64_t off, void *buf, size_t len);
int reg_wr(struct vdev *d, unsigned int idx, uint64_t off, const void *buf, size_t len);
uint32_t cfg32(struct vdev *d, uint32_t off);	/* 0xffffffff on error */
uint16_t cfg16(struct vdev *d, uint32_t off);
uint8_t cfg8(struct vdev *d, uint32_t off);
int cfg_w32(struct vdev *d, uint32_t off, uint32_t v);
int cfg_w16(struct vdev *d, uint32_t off, uint16_t v);
int cfg_w8(struct vdev *d, uint32_t off, uint8_t v);
uint32_t bar_rd32(struct vdev *d, unsigned int bar, uint64_t off);
int bar_wr32(struct vdev *d, unsigned int bar, uint64_t off, uint32_t v);
/* SET_IRQS with @count int32 eventfds (or DATA_NONE/BOOL payload). */
int set_irqs(struct vdev *d, uint32_t flags, uint32_t index, uint32_t start,
	     uint32_t count, const void *data, size_t datalen);

/* sysfs.c */
int read_file(const char *path, char *buf, size_t len);	/* trims newline */
int write_file(const char *path, const char *s);		/* 0 or -errno */
long read_long(const char *path);				/* -1 on error */
int mdev_type_of(const char *uuid, char *type, size_t len);	/* "vgsp-h100-10g" */
uint64_t profile_bar1_size(const char *type);			/* 0 if unknown */
void new_uuid(char *out);					/* 37 bytes */

/* counters.c: the debugfs <uuid>/counters file. */
#define MAX_CTRS 64
struct ctrs {
	unsigned int n;
	char name[MAX_CTRS][32];
	unsigned long long val[MAX_CTRS];
};
int ctrs_read(const char *uuid, struct ctrs *c);
/*
 * Compare after-before deltas against @expect ("name=N,name=N"); counters
 * not named must not move, except those in @ignore ("a,b"). Reports one line.
 */
bool ctrs_check(const char *name, const struct ctrs *before,
		const struct ctrs *after, const char *expect, const char *ignore);

/* test groups, each reporting its own lines */
void t_device(struct vdev *d);
void t_config(struct vdev *d);
void t_bars(struct vdev *d);
void t_oob(struct vdev *d);
void t_irq(struct vdev *d);
void t_reset(struct vdev *d);
void t_dma(struct vdev *d);
void t_counters(struct vdev *d);
void t_openclose_counters(const char *uuid);
void t_stress(struct vdev *d, unsigned int nthreads, unsigned int iters);
void t_mmap(struct vdev *d);
void t_bar1(struct vdev *d);
int cmd_fuzz(const char *uuid, uint64_t seed, unsigned int secs);

#endif
