/* SPDX-License-Identifier: MIT */
/*
 * ce_interp.h - copy-class pushbuffer scanner/interpreter shared by the
 * sim backend (executes on the CPU) and the hostd backend (validates, then
 * forwards the original dwords to the physical channel).
 *
 * What it enforces (the command scanner of docs/forwarding.md):
 *  - subchannels may only be bound to the copy class (HOPPER_DMA_COPY_A);
 *  - only whitelisted methods: host semaphore + WFI, and the copy-class
 *    methods for 1-D/pitch copies and semaphores;
 *  - LAUNCH_DMA must use virtual addressing, pitch layouts, no remap and no
 *    semaphore reduction;
 *  - every byte touched (copy source/destination lines, semaphore words)
 *    lies inside one memory region registered for the instance.
 */
#ifndef VGSP_CE_INTERP_H
#define VGSP_CE_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "vgsp_backend.h"

/* Bytes one LAUNCH_DMA may move when the CPU executes it (execute mode). */
#define CE_INTERP_MAX_EXEC (1ull << 30)
/* and at most this many lines (each line is one memmove) */
#define CE_INTERP_MAX_LINES (1ull << 20)

#define VGSP_MAX_REGIONS 32u

struct vgsp_regions {
	struct vgsp_be_mem r[VGSP_MAX_REGIONS];
	unsigned n;
};

int vgsp_regions_add(struct vgsp_regions *t, const struct vgsp_be_mem *m);
/* region fully containing [va, va+len), or NULL (also on overflow/len 0) */
const struct vgsp_be_mem *vgsp_regions_find(const struct vgsp_regions *t,
					    uint64_t va, uint64_t len, int write);
/* host pointer for [va, va+len) or NULL */
void *vgsp_regions_host(const struct vgsp_regions *t, uint64_t va, uint64_t len, int write);

struct ce_interp {
	const struct vgsp_regions *regions;
	int execute;            /* 1: perform copies/semaphores on host memory */
	uint64_t timestamp_ns;  /* value written by four-word releases */
	/* method state */
	uint32_t bound[8];      /* class per subchannel, 0 = unbound */
	uint32_t in_hi, in_lo, out_hi, out_lo, pitch_in, pitch_out, line_len, line_cnt;
	uint32_t sem_a, sem_b, sem_payload, sem_payload_hi;
	uint32_t host_sem[4];   /* addr lo, addr hi, payload lo, payload hi */
	/* statistics */
	uint64_t copies, bytes, sem_releases;
	int error;              /* first error (VGSP_BE_*) */
	uint32_t error_mthd;    /* method that caused it */
};

void ce_interp_init(struct ce_interp *ci, const struct vgsp_regions *regions, int execute);
/* Run (or only validate) one segment. 0 or a VGSP_BE_* error. */
int ce_interp_run(struct ce_interp *ci, const uint32_t *seg, size_t ndwords);

#endif
