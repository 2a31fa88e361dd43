/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel <-> hostd transport's wire format: one header for vgsp.ko
 * (kernel/mdev/vgsp_hostd.c, kernel/core/backend/ring.c) and hostd
 * (userspace/hostd/ring_serve.c). docs/forwarding.md §5 describes it.
 *
 * /dev/vgsp-hostd: hostd opens it and attaches (one attacher; a second is
 * refused with -EBUSY). Each backend=hostd instance gets an id (0..63) and
 * one shared area of VGSP_HR_MAP_BYTES that hostd mmaps at offset
 * id * VGSP_HR_MAP_BYTES:
 *
 *   [ctl page][submission ring][completion ring][data area]
 *
 * The kernel produces submissions (it owns sub_head) and consumes
 * completions (it owns comp_tail); hostd owns sub_tail and comp_head.
 * Indices are free-running u32s (slot = index % entries); a side publishes
 * its index with a release store after writing the entries and reads the
 * peer's with an acquire load. hostd is trusted less than the kernel: the
 * kernel never reads back what it wrote into the area (sizes, offsets,
 * submissions) and range-checks every index and completion hostd writes.
 *
 * Guest memory travels as IOVA lists: each copy or fill names its source
 * and destination extents ({target, address, length}: FB physical or
 * guest-system IOVA). By default the kernel stages an extent's bytes in
 * the data area (source half, destination half). A hostd that attaches
 * with VGSP_HR_FEAT_GUEST_VIEW maps each instance's guest RAM itself
 * (mmap at VGSP_HR_VIEW_OFF(id): IOVA -> page, pinned by the kernel on
 * fault, zapped when the VMM unmaps it); its guest-RAM extents then come
 * as VGSP_HR_TARGET_VIEW and are not staged.
 */
#ifndef VGSP_HOSTD_RING_H
#define VGSP_HOSTD_RING_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif
#include <linux/ioctl.h>

#define VGSP_HR_MAGIC		0x52484756u	/* "VGHR" */
/* ctl.magic once the instance is gone (its id may be given again) */
#define VGSP_HR_MAGIC_CLOSED	0u
/* 2: ctl.features, VGSP_HR_TARGET_VIEW, the guest-RAM view, attach features */
#define VGSP_HR_VERSION		2u
#define VGSP_HR_MAX_INSTANCES	64u

#define VGSP_HR_SUB_ENTRIES	16u		/* powers of two */
#define VGSP_HR_COMP_ENTRIES	16u
#define VGSP_HR_SUB_BYTES	1024u		/* one submission */
#define VGSP_HR_MAX_EXT		16u		/* extents per side */
#define VGSP_HR_QMD_BYTES	256u
#define VGSP_HR_DATA_BYTES	(256u << 10)
#define VGSP_HR_ITEM_BYTES	(VGSP_HR_DATA_BYTES / 2)	/* per item */

#define VGSP_HR_CTL_OFF		0u
#define VGSP_HR_SUB_OFF		4096u
#define VGSP_HR_COMP_OFF	(VGSP_HR_SUB_OFF + \
				 VGSP_HR_SUB_ENTRIES * VGSP_HR_SUB_BYTES)
#define VGSP_HR_DATA_OFF	(VGSP_HR_COMP_OFF + 4096u)
#define VGSP_HR_MAP_BYTES	(VGSP_HR_DATA_OFF + VGSP_HR_DATA_BYTES)

/* What hostd does itself (vgsp_hostd_attach.features, echoed in ctl). */
#define VGSP_HR_FEAT_GUEST_VIEW	0x1u	/* maps guest RAM: no staging */
#define VGSP_HR_FEATURES	VGSP_HR_FEAT_GUEST_VIEW

/*
 * The guest-RAM view of instance id: its IOVAs [0, VGSP_HR_VIEW_BYTES)
 * at file offset VGSP_HR_VIEW_OFF(id), above every ring area. Pages are
 * faulted in one by one; an IOVA the VMM has not mapped raises SIGBUS.
 */
#define VGSP_HR_VIEW_BYTES	(1ULL << 40)
#define VGSP_HR_VIEW_OFF(id)	(VGSP_HR_VIEW_BYTES * (1 + (uint64_t)(id)))

enum vgsp_hr_op {
	VGSP_HR_OP_CE_COPY = 1,		/* data[src] -> data[dst], nbytes */
	VGSP_HR_OP_CE_FILL = 2,		/* elem repeated into data[dst] */
	VGSP_HR_OP_GR_LAUNCH = 3,	/* the QMD, read by the kernel */
};

enum vgsp_hr_target {
	VGSP_HR_TARGET_VID = 0,		/* FB physical address */
	VGSP_HR_TARGET_SYS = 1,		/* guest system memory IOVA */
	VGSP_HR_TARGET_VIEW = 2,	/* guest IOVA through hostd's view */
};

struct vgsp_hr_ext {
	uint64_t addr;
	uint32_t len;
	uint32_t target;		/* enum vgsp_hr_target */
};

/* ext[0, nsrc) is the source list, ext[VGSP_HR_MAX_EXT, +ndst) the dest. */
struct vgsp_hr_ce {
	uint32_t nbytes;		/* 1..VGSP_HR_ITEM_BYTES */
	uint32_t src_off, dst_off;	/* staged bytes, from the data area */
	uint16_t nsrc, ndst;
	uint32_t elem_size;		/* fill: 1..16 */
	uint32_t phase;			/* fill: element byte of byte 0 */
	uint8_t elem[16];
	struct vgsp_hr_ext ext[2 * VGSP_HR_MAX_EXT];
};

struct vgsp_hr_gr {
	uint64_t qmd_va;
	uint32_t chid;
	uint32_t pad;
	uint8_t qmd[VGSP_HR_QMD_BYTES];
};

struct vgsp_hr_sub {
	uint32_t op;			/* enum vgsp_hr_op */
	uint32_t len;			/* bytes of u used */
	uint64_t cookie;		/* echoed in the completion */
	union {
		struct vgsp_hr_ce ce;
		struct vgsp_hr_gr gr;
		uint8_t raw[VGSP_HR_SUB_BYTES - 16];
	} u;
};

struct vgsp_hr_comp {
	uint64_t cookie;
	int32_t status;			/* 0 or -errno (-4095..-1) */
	uint32_t op;
};

/* Page 0. Indices sit on their own cache lines: one writer each. */
struct vgsp_hr_ctl {
	uint32_t magic, version, id, map_bytes;
	uint32_t sub_entries, sub_off, comp_entries, comp_off;
	uint32_t data_off, data_bytes;
	uint32_t features;		/* VGSP_HR_FEAT_*, as attached */
	uint32_t pad0[5];
	uint32_t sub_head;		/* kernel */
	uint32_t pad1[15];
	uint32_t sub_tail;		/* hostd */
	uint32_t pad2[15];
	uint32_t comp_head;		/* hostd */
	uint32_t pad3[15];
	uint32_t comp_tail;		/* kernel */
	uint32_t pad4[15];
};

static inline uint32_t vgsp_hr_load(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void vgsp_hr_store(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/*
 * Entries a consumer at @tail may take when the producer says @head, or
 * -1 when @head is impossible (behind @tail or more than @n ahead).
 */
static inline int vgsp_hr_avail(uint32_t head, uint32_t tail, uint32_t n)
{
	uint32_t d = head - tail;

	return d <= n ? (int)d : -1;
}

/*
 * Free slots for a producer at @head whose consumer says @tail, or -1 when
 * @tail is impossible: ahead of @head, more than @n behind it, or behind
 * @last_tail (the consumer's previous index; it only moves forward).
 */
static inline int vgsp_hr_space(uint32_t head, uint32_t tail,
				uint32_t last_tail, uint32_t n)
{
	uint32_t d = head - tail;

	if (d > n || tail - last_tail > head - last_tail)
		return -1;
	return (int)(n - d);
}

/*
 * A compute launch with no CTA to run (a zero grid dimension, QMD V04_00,
 * no dependent QMD): what an executor without SMs completes, as the
 * in-kernel sim does (CUDA issues such launches while it sets a context
 * up); its release semaphores are then the only effect. QMD fields as in
 * kernel/core/backend/sim.c (clcbc0qmd.h): MAJOR_VERSION 583:580,
 * GRID_WIDTH/HEIGHT/DEPTH at dwords 32..34, DEPENDENT_QMD enables in
 * dword 11 bits 16 and 21.
 */
static inline uint32_t vgsp_hr_qmd_word(const uint8_t *q, unsigned int i)
{
	return (uint32_t)q[4 * i] | (uint32_t)q[4 * i + 1] << 8 |
	       (uint32_t)q[4 * i + 2] << 16 | (uint32_t)q[4 * i + 3] << 24;
}

/* GRID_WIDTH, GRID_HEIGHT, GRID_DEPTH: the only place they are read. */
static inline uint32_t vgsp_hr_qmd_grid(const uint8_t *q, unsigned int dim)
{
	uint32_t w = vgsp_hr_qmd_word(q, 32 + (dim < 3 ? dim : 0));

	return dim ? (w & 0xffff) : w;
}

static inline int vgsp_hr_qmd_empty(const uint8_t *q)
{
	return ((vgsp_hr_qmd_word(q, 18) >> 4) & 0xf) == 4 &&
	       (!vgsp_hr_qmd_grid(q, 0) || !vgsp_hr_qmd_grid(q, 1) ||
		!vgsp_hr_qmd_grid(q, 2)) &&
	       !(vgsp_hr_qmd_word(q, 11) & (1u << 16 | 1u << 21));
}

/* The /dev/vgsp-hostd ioctls. */
struct vgsp_hostd_attach {
	uint32_t version;		/* VGSP_HR_VERSION */
	int32_t event_fd;		/* eventfd: instances or work changed */
	uint32_t features;		/* VGSP_HR_FEAT_* hostd takes on */
	uint32_t pad;			/* 0 */
};

/* Version 1's attach (no features): answered -EPROTO. */
struct vgsp_hostd_attach_v1 {
	uint32_t version;
	int32_t event_fd;
};

struct vgsp_hostd_list {
	uint64_t serving;		/* bit id: an instance to serve */
	uint64_t failed;		/* bit id: failed (a previous hostd died) */
	uint32_t map_bytes;		/* VGSP_HR_MAP_BYTES */
	uint32_t pad;
};

#define VGSP_HOSTD_IOC		0xB7
#define VGSP_HOSTD_ATTACH	_IOW(VGSP_HOSTD_IOC, 0, struct vgsp_hostd_attach)
#define VGSP_HOSTD_ATTACH_V1	_IOW(VGSP_HOSTD_IOC, 0, struct vgsp_hostd_attach_v1)
#define VGSP_HOSTD_LIST		_IOR(VGSP_HOSTD_IOC, 1, struct vgsp_hostd_list)
/* completions were produced on instance @id (a __u32): wake its worker */
#define VGSP_HOSTD_KICK		_IOW(VGSP_HOSTD_IOC, 2, uint32_t)

#endif /* VGSP_HOSTD_RING_H */
