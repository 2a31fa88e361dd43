/* SPDX-License-Identifier: MIT */
/*
 * ring_serve.h - hostd's end of the kernel <-> hostd ring (the wire format
 * is kernel/core/hostd_ring.h): take the submissions vgsp.ko published for
 * one instance, run them on the CPU executor (sim_backend.c, ce_interp.c)
 * over the bytes staged in the data area, publish the completions.
 *
 * The kernel is trusted more than hostd, but a ring is still checked: a
 * bad index stops serving that instance (-EPROTO), a malformed item gets a
 * VGSP_BE_EINVAL completion. No OS calls here: the attach loop
 * (hostd_attach.c) owns the device file, the eventfd and the kick.
 */
#ifndef VGSP_RING_SERVE_H
#define VGSP_RING_SERVE_H

#include <stddef.h>
#include <stdint.h>

struct vgsp_backend;

struct hr_server_stats {
	uint64_t items;      /* submissions taken */
	uint64_t completed;  /* completions published */
	uint64_t errors;     /* completions with status != 0 */
	uint64_t bad_item;   /* malformed submissions (VGSP_BE_EINVAL) */
	uint64_t bad_index;  /* the kernel's index was impossible */
};

struct hr_server {
	uint8_t *area;
	uint32_t sub_tail, comp_head, comp_tail_seen; /* own copies */
	struct vgsp_backend *be;                       /* the CPU executor */
	int status;                                    /* of the last item */
	int done;
	struct hr_server_stats st;
};

/* @area: the instance's mapping, @bytes its size. 0 or VGSP_BE_EINVAL
 * (wrong magic, version or layout), VGSP_BE_ENOMEM. */
int hr_server_init(struct hr_server *s, void *area, size_t bytes);
void hr_server_fini(struct hr_server *s);
/* Serve up to @max items: the number completed (0: nothing to do, or the
 * completion ring is full), or -71 (EPROTO) when the ring is broken. */
int hr_server_run(struct hr_server *s, unsigned max);
/* The kernel closed this area (its instance went; the id may be reused). */
int hr_server_closed(struct hr_server *s);

#endif
