/* SPDX-License-Identifier: MIT */
/*
 * vgsp_backend.h - the seam between the vgsp core (OS-free C) and the
 * backends that execute guest GPU work.
 *
 * Proposed contract (ABI version 1):
 *  - A backend instance belongs to exactly one vGPU instance.  All
 *    addresses in work items are instance GPU virtual addresses; the core
 *    registers the instance's memory with map_mem() first and the backend
 *    refuses (VGSP_BE_EFAULT) any access that is not entirely inside one
 *    registered region.  Backends never trust the core's validation alone.
 *  - submit_ce() takes either a copy descriptor (already decoded by the
 *    core) or a raw pushbuffer segment for the copy class (HOPPER_DMA_COPY_A
 *    plus the host semaphore/WFI methods); the backend scans a segment
 *    against its method whitelist before executing or forwarding it.
 *  - submit_gr() takes a launch descriptor (program, grid, block, constant
 *    bank 0, completion semaphore).  A backend that cannot run GR work
 *    returns VGSP_BE_ENOTSUP and produces no completion: work is never
 *    silently "completed".
 *  - submit_*() return 0 once the work is accepted; completion is reported
 *    later, exactly once per accepted item, through cfg.complete() from
 *    inside poll() (no hidden threads: the caller decides where completions
 *    run).  The completion's status is 0 or a negative VGSP_BE_* code.
 *  - Thread safety: one caller at a time per instance.
 *
 * Transport: in-process (function calls, used by the vfio-user frontend and
 * the tests) or, for the kernel module, a char-device ring that carries the
 * same structs (docs/forwarding.md).
 */
#ifndef VGSP_BACKEND_H
#define VGSP_BACKEND_H

#include <stdint.h>

#define VGSP_BACKEND_ABI 1u

/* status codes (negative errno values, so kernel and userspace agree) */
#define VGSP_BE_OK 0
#define VGSP_BE_EPERM (-1)      /* method/class not on the whitelist */
#define VGSP_BE_EIO (-5)        /* device reported an error */
#define VGSP_BE_EAGAIN (-11)    /* ring full / acquire not satisfied */
#define VGSP_BE_ENOMEM (-12)
#define VGSP_BE_EFAULT (-14)    /* address outside the instance's memory */
#define VGSP_BE_EBUSY (-16)
#define VGSP_BE_EINVAL (-22)    /* malformed descriptor or pushbuffer */
#define VGSP_BE_ENOTSUP (-95)   /* operation not implemented by this backend */
#define VGSP_BE_ETIMEDOUT (-110)

#define VGSP_BE_CAP_CE (1u << 0)
#define VGSP_BE_CAP_GR (1u << 1)

struct vgsp_backend; /* opaque per-instance state */

struct vgsp_be_mem {
	uint64_t gpu_va;   /* instance GPU VA of the region */
	uint64_t size;
	void *host;        /* CPU view (sim: required; hostd: optional) */
	uint32_t flags;    /* VGSP_BE_MEM_* */
};
#define VGSP_BE_MEM_READONLY (1u << 0)

struct vgsp_ce_copy {
	uint64_t src_va, dst_va;
	uint64_t len;        /* bytes, > 0 */
	uint64_t sem_va;     /* 0: no semaphore; else one-word release */
	uint32_t sem_payload;
	uint32_t flags;      /* reserved, 0 */
};

struct vgsp_pb_seg {
	uint64_t va;         /* instance VA of the segment */
	uint32_t ndwords;
	uint32_t flags;      /* reserved, 0 */
};

enum vgsp_ce_kind { VGSP_CE_COPY = 1, VGSP_CE_PUSHBUF = 2 };

struct vgsp_ce_work {
	enum vgsp_ce_kind kind;
	union {
		struct vgsp_ce_copy copy;
		struct vgsp_pb_seg seg;
	} u;
};

struct vgsp_gr_launch {
	uint64_t program_va;   /* first instruction */
	uint32_t program_bytes;
	uint32_t regs;
	uint32_t grid[3];
	uint16_t block[3];
	uint16_t pad0;
	uint32_t shared_bytes;
	uint64_t cb0_va;       /* constant bank 0 (driver area + parameters) */
	uint32_t cb0_bytes;
	uint32_t sem_payload;
	uint64_t sem_va;       /* completion semaphore (one word) */
};

struct vgsp_be_completion {
	uint64_t cookie;
	int32_t status;
	uint32_t engine;       /* VGSP_BE_CAP_CE or VGSP_BE_CAP_GR */
};

typedef void (*vgsp_be_complete_fn)(void *ctx, const struct vgsp_be_completion *c);

struct vgsp_be_config {
	uint32_t abi;                 /* VGSP_BACKEND_ABI */
	vgsp_be_complete_fn complete;
	void *ctx;
	const char *device;           /* hostd: "/dev/nvidia0"; sim: unused */
	uint64_t fb_bytes;            /* hostd: size of the instance FB partition */
};

struct vgsp_backend_ops {
	const char *name;
	uint32_t caps;
	int (*open)(const struct vgsp_be_config *cfg, struct vgsp_backend **out);
	void (*close)(struct vgsp_backend *b);
	int (*map_mem)(struct vgsp_backend *b, const struct vgsp_be_mem *m);
	int (*submit_ce)(struct vgsp_backend *b, const struct vgsp_ce_work *w, uint64_t cookie);
	int (*submit_gr)(struct vgsp_backend *b, const struct vgsp_gr_launch *l, uint64_t cookie);
	/* deliver up to max completions; waits up to timeout_ns for the first
	 * one (0: do not wait).  Returns the number delivered or < 0. */
	int (*poll)(struct vgsp_backend *b, unsigned max, uint64_t timeout_ns);
};

extern const struct vgsp_backend_ops vgsp_sim_backend_ops;
extern const struct vgsp_backend_ops vgsp_hostd_backend_ops; /* GPU build only */

const char *vgsp_be_strerror(int status);

#endif
